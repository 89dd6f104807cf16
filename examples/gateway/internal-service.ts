/**
 * The internal service: plain gRPC on HTTP/2, Protocol Buffers on the wire, an in-memory store.
 * Any gRPC client can call it (grpcurl with `-proto` of `wirekit schema export --to proto`).
 */
import * as grpc from '@grpc/grpc-js';
import type { Infer } from 'wirekit-ts/schema';
import { grpcDefinition } from './grpc-codecs.js';
import { type Order, OrderService } from './schema.js';

type OrderValue = Infer<typeof Order>;

const orders = new Map<bigint, OrderValue>([
  [
    1n,
    {
      id: 1n,
      customer: 'Ada',
      total_cents: 4200n,
      items: ['tea'],
      placed_at: new Date('2026-12-01T09:00:00Z'),
      paid: true,
    },
  ],
  [
    2n,
    {
      id: 2n,
      customer: 'Grace',
      total_cents: 9007199254740993n,
      items: ['compiler', 'moth'],
      placed_at: new Date('2026-12-02T10:30:00Z'),
      paid: false,
    },
  ],
]);

const notFound = (id: bigint) => ({ code: grpc.status.NOT_FOUND, details: `order ${id} not found` });

/** Each method as grpc-js calls it: the request decoded by wirekit, the reply encoded by wirekit. */
function unary<Request>(handle: (request: Request) => unknown): grpc.handleUnaryCall<unknown, unknown> {
  return (call, callback) => {
    try {
      callback(null, handle(call.request as Request));
    } catch (error) {
      callback(error as grpc.ServiceError);
    }
  };
}

export async function startInternalService(
  port: number,
): Promise<{ port: number; stop: () => Promise<void> }> {
  const server = new grpc.Server();
  server.addService(grpcDefinition(OrderService), {
    GetOrder: unary(({ id }: { id: bigint }) => {
      const order = orders.get(id);
      if (order === undefined) throw notFound(id);
      return order;
    }),
    ListOrders: unary(({ customer, paid, limit }: { customer?: string; paid?: boolean; limit?: number }) => ({
      orders: [...orders.values()]
        .filter(
          (order) =>
            (customer === undefined || order.customer === customer) &&
            (paid === undefined || order.paid === paid),
        )
        .slice(0, limit ?? 100),
    })),
    CreateOrder: unary(
      ({ customer, total_cents, items }: { customer: string; total_cents: bigint; items: string[] }) => {
        const id = BigInt(orders.size + 1);
        const order = { id, customer, total_cents, items, placed_at: new Date(), paid: false };
        orders.set(id, order);
        return order;
      },
    ),
    PayOrder: unary(({ id }: { id: bigint }) => {
      const order = orders.get(id);
      if (order === undefined) throw notFound(id);
      if (order.paid) throw { code: grpc.status.FAILED_PRECONDITION, details: `order ${id} is paid already` };
      order.paid = true;
      return order;
    }),
  });
  const bound = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(), (error, at) =>
      error ? reject(error) : resolve(at),
    ),
  );
  return { port: bound, stop: () => new Promise((resolve) => server.tryShutdown(() => resolve())) };
}
