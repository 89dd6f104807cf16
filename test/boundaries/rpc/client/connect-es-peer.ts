/**
 * Connect-ES's own server for the client's tests: its router and protocol handlers serving the
 * test service with protobuf-es messages of the descriptors describeServices makes (no wirekit
 * code on the server's side of the wire), on node:http or node:http2. `seen` records what the
 * handlers were given, for the tests to check.
 */
import type http from 'node:http';
import type http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { create } from '@bufbuild/protobuf';
import { timestampDate, timestampFromDate } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError, type HandlerContext } from '@connectrpc/connect';
import { type ConnectNodeAdapterOptions, connectNodeAdapter } from '@connectrpc/connect-node';
import { BadRequest, ErrorInfo } from '../../../../src/boundaries/rpc/error-details.js';
import { describeServices } from '../../../../src/boundaries/rpc/service-descriptor.js';
import { createCodec } from '../../../../src/codecs/index.js';
import { anOrder, OrderService } from './order-service.js';

const [described] = describeServices([OrderService]);
if (described === undefined) throw new Error('no descriptor');
const methodNamed = (name: string) => {
  const method = described.methods.find((candidate) => candidate.name === name);
  if (method === undefined) throw new Error(`no method ${name}`);
  return method;
};
const OrderDesc = methodNamed('GetOrder').output;

interface ProtoOrder {
  id: bigint;
  placedAt?: { seconds: bigint; nanos: number };
  payload: Uint8Array;
  status: number;
  total: string;
  note?: string;
  quantity: number;
}

const protoOrder = (id: bigint) =>
  create(OrderDesc, {
    id,
    placedAt: timestampFromDate(anOrder.placedAt),
    payload: anOrder.payload,
    status: 1,
    total: anOrder.total,
    quantity: anOrder.quantity,
  } as never);

const errorInfo = createCodec('protobuf', { schema: ErrorInfo });
const badRequest = createCodec('protobuf', { schema: BadRequest });

export const seen: { method?: string; timeoutMs?: number; tenant?: string | null; dates: Date[] } = {
  dates: [],
};

function note(context: HandlerContext) {
  seen.method = context.requestMethod;
  seen.timeoutMs = context.timeoutMs();
  seen.tenant = context.requestHeader.get('x-tenant');
  // What a caller reads with onHeader and onTrailer.
  context.responseHeader.set('x-served-by', 'connect-es');
  context.responseTrailer.set('x-cost', '7');
}

const implementation = {
  async getOrder(request: { id: bigint }, context: HandlerContext) {
    note(context);
    if (request.id === 404n) throw new ConnectError('no order 404', Code.NotFound);
    if (request.id === 3n) {
      const error = new ConnectError('lines[1].sku: too short', Code.InvalidArgument);
      error.details.push(
        {
          type: 'google.rpc.ErrorInfo',
          value: errorInfo.encode({
            reason: 'WK_VALIDATION_FAILED',
            domain: 'wirekit',
            metadata: { path: 'lines[1].sku' },
          }),
        },
        {
          type: 'google.rpc.BadRequest',
          value: badRequest.encode({
            fieldViolations: [{ field: 'lines[1].sku', description: 'too short', reason: 'TOO_SHORT' }],
          }),
        },
      );
      throw error;
    }
    return protoOrder(request.id);
  },
  async placeOrder(request: ProtoOrder) {
    if (request.placedAt !== undefined) seen.dates.push(timestampDate(request.placedAt as never));
    return create(OrderDesc, request as never);
  },
  async *watchOrders(request: { count: number }, context: HandlerContext) {
    note(context);
    for (let index = 1; index <= request.count; index++) yield protoOrder(BigInt(index));
    if (request.count === 2) throw new ConnectError('the stream broke', Code.DataLoss);
  },
  async upload(requests: AsyncIterable<{ id: bigint }>) {
    let count = 0;
    let totalIds = 0n;
    for await (const order of requests) {
      count += 1;
      totalIds += order.id;
    }
    return create(methodNamed('Upload').output, { count, totalIds } as never);
  },
  async *chat(requests: AsyncIterable<ProtoOrder>) {
    for await (const order of requests)
      yield create(OrderDesc, { ...order, note: `echo ${order.note ?? ''}` } as never);
  },
};

export const routes = (options: {
  acceptCompression?: [];
  fallback?: ConnectNodeAdapterOptions['fallback'];
}) =>
  connectNodeAdapter({
    ...options,
    routes: (router) => router.service(described, implementation as never),
  }) as http.RequestListener;

export interface Served {
  readonly url: string;
  close(): Promise<void>;
}

export async function listen(server: http.Server | http2.Http2Server): Promise<Served> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
