/**
 * The example's order service on wirekit's own RPC server: gRPC, gRPC-Web and Connect on one port,
 * each call in the format its content type names (Protocol Buffers, ProtoJSON, MessagePack, CBOR,
 * Avro), with server reflection and health checking, so grpcurl and Postman need no `.proto` file.
 * The public gateway (examples/gateway) calls it over gRPC.
 */

import { createHealth, RpcError, serverReflection } from 'wirekit-ts/rpc';
import { createRpcServer, type RpcCallContext, rpcService } from 'wirekit-ts/rpc/server';
import type { Infer, ServiceHandlers } from 'wirekit-ts/schema';
import { type Order, OrderService } from '../gateway/schema.js';

type OrderValue = Infer<typeof Order>;

function sampleOrders(): Map<bigint, OrderValue> {
  return new Map<bigint, OrderValue>([
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
        // Past 2^53: a JSON number would round it; every format here carries it exactly.
        total_cents: 9007199254740993n,
        items: ['compiler', 'moth'],
        placed_at: new Date('2026-12-02T10:30:00Z'),
        paid: false,
      },
    ],
  ]);
}

/** The service's handlers over an in-memory store; a missing order is NOT_FOUND, as any gRPC peer reads it. */
function orderHandlers(): ServiceHandlers<typeof OrderService, RpcCallContext> {
  const orders = sampleOrders();
  const find = (id: bigint) => {
    const order = orders.get(id);
    if (order === undefined) throw new RpcError('NOT_FOUND', `order ${id} not found`);
    return order;
  };
  return {
    GetOrder: async ({ id }) => find(id),
    ListOrders: async ({ customer, paid, limit }) => ({
      orders: [...orders.values()]
        .filter(
          (order) =>
            (customer === undefined || order.customer === customer) &&
            (paid === undefined || order.paid === paid),
        )
        .slice(0, limit ?? 100),
    }),
    CreateOrder: async ({ customer, total_cents, items }) => {
      const id = BigInt(orders.size + 1);
      const order = { id, customer, total_cents, items, placed_at: new Date(), paid: false };
      orders.set(id, order);
      return order;
    },
    PayOrder: async ({ id }) => {
      const order = find(id);
      if (order.paid) throw new RpcError('FAILED_PRECONDITION', `order ${id} is paid already`);
      order.paid = true;
      return order;
    },
  };
}

/** Serves the order service with reflection (v1 and v1alpha) and health on `port` (0: a free one). */
export async function startOrderService(port: number, host = '127.0.0.1') {
  const health = createHealth();
  const reflection = serverReflection([OrderService, health.service]);
  const server = await createRpcServer({
    port,
    host,
    services: [
      rpcService(OrderService, orderHandlers()),
      rpcService(health.service, health.handlers),
      ...reflection.map((served) => rpcService(served.service, served.handlers)),
    ],
  });
  health.setStatus('shop.v1.OrderService', 'SERVING');
  return {
    port: server.port,
    url: server.url,
    stop: async () => {
      health.shutdown();
      await server.close();
    },
  };
}
