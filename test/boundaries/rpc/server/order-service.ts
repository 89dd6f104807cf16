/**
 * The service the RPC server's tests serve: all four method kinds, with values that need care on
 * the wire (an int64 above 2^53, a timestamp, bytes, a decimal string, an optional left out), and
 * handlers that record what they saw so a test can tell whether one ran.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Code, ConnectError } from '@connectrpc/connect';
import { type RpcCallContext, rpcService } from '../../../../src/boundaries/rpc/server/index.js';
import { WirekitError } from '../../../../src/errors/index.js';
import { assert, type Infer, t } from '../../../../src/index.js';

export const Order = t.object('Order', {
  id: t.int64(),
  placedAt: t.timestamp(),
  payload: t.bytes(),
  total: t.decimal(),
  note: t.optional(t.string()),
  quantity: t.int32({ min: 1 }),
});
export type Order = Infer<typeof Order>;
export const GetOrder = t.object('GetOrder', { id: t.int64(), failWith: t.optional(t.string()) });
const Summary = t.object('Summary', { count: t.int32(), ids: t.array(t.int64()) });

export const OrderService = t.service('orders.v1.OrderService', {
  GetOrder: t.unary(GetOrder, Order, { idempotency: 'NO_SIDE_EFFECTS' }),
  WatchOrders: t.serverStream(GetOrder, Order),
  Upload: t.clientStream(Order, Summary),
  Chat: t.bidiStream(Order, Order),
});

/** An id above 2^53, which a float64 would round. */
export const bigId = 2n ** 53n + 1n;

export function sampleOrder(id: bigint): Order {
  return {
    id,
    placedAt: new Date('2026-12-07T08:00:00.123Z'),
    payload: new Uint8Array([0, 1, 2, 250, 255]),
    total: '12345678901234567890.25',
    quantity: 3,
  };
}

/** What the handlers saw, for tests that check whether (and how) a handler ran. */
export interface Seen {
  calls: string[];
  contexts: RpcCallContext[];
  aborted: string[];
  /** The milliseconds each slow call had left when its handler started. */
  timeouts: (number | undefined)[];
}

export function orderService(seen: Seen = { calls: [], contexts: [], aborted: [], timeouts: [] }) {
  const fail = (how: string | undefined) => {
    if (how === 'plain') throw new Error('secret: the database at db.internal:5432 refused');
    if (how === 'wirekit') throw new WirekitError('WK_REGISTRY_NOT_FOUND', 'no order: 42');
    // A handler's own check of a value, failing at two paths.
    if (how === 'invalid') assert(Summary, { count: 1.5, ids: [1n, 'two'] });
  };
  return rpcService(OrderService, {
    async GetOrder(request, context) {
      seen.calls.push('GetOrder');
      seen.contexts.push(context);
      fail(request.failWith);
      if (request.failWith === 'slow') {
        seen.timeouts.push(context.timeoutMs());
        context.signal.addEventListener('abort', () => seen.aborted.push('GetOrder'));
        await sleep(30_000, undefined, { signal: context.signal }).catch(() => undefined);
      }
      context.responseHeader.set('x-served-by', 'wirekit');
      if (request.failWith === 'trailers') context.responseTrailer.set('x-checksum', 'c0ffee');
      // Headers HTTP/2 forbids (RFC 9113 §8.2.2), which node:http2 refuses to send.
      if (request.failWith === 'bad-header') context.responseHeader.set('connection', 'close');
      if (request.failWith === 'bad-trailer') context.responseTrailer.set('connection', 'close');
      if (request.failWith === 'bad-metadata') {
        throw new ConnectError('refused', Code.PermissionDenied, {
          connection: 'close',
          'x-reason': 'quota',
        });
      }
      // A reply its own schema refuses (quantity has a minimum of 1): the server's bug, INTERNAL.
      if (request.failWith === 'bad-reply') return { ...sampleOrder(request.id), quantity: 0 };
      return sampleOrder(request.id);
    },
    async *WatchOrders(request, context) {
      seen.calls.push('WatchOrders');
      seen.contexts.push(context);
      const count = Number(request.id);
      for (let i = 0; i < count; i++) {
        if (request.failWith === 'midway' && i === 2) throw new WirekitError('WK_REGISTRY_NOT_FOUND', 'gone');
        yield sampleOrder(BigInt(i) + bigId);
      }
    },
    async Upload(requests, context) {
      seen.calls.push('Upload');
      seen.contexts.push(context);
      const ids: bigint[] = [];
      for await (const order of requests) ids.push(order.id);
      return { count: ids.length, ids };
    },
    async *Chat(requests, context) {
      seen.calls.push('Chat');
      seen.contexts.push(context);
      for await (const order of requests) yield { ...order, note: `echo ${order.note ?? '(none)'}` };
    },
  });
}
