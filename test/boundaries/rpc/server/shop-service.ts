/**
 * The service the protocol handler tests call: every method kind, and values that need care on
 * every wire (an int64 past 2^53, a timestamp with milliseconds, bytes, an enum, an optional left
 * out). Its handlers count their runs, so a test can tell a call refused before its handler from
 * one that failed inside it.
 */
import type { HandlerContext } from '@connectrpc/connect';
import { assert, type Infer, t } from '../../../../src/index.js';
import type { PlainHandler } from './router.js';

const Status = t.enum('Status', ['PENDING', 'SHIPPED']);
export const Order = t.object('Order', {
  id: t.int64(),
  placedAt: t.timestamp(),
  blob: t.bytes(),
  status: Status,
  note: t.optional(t.string()),
});
export type Order = Infer<typeof Order>;
export const GetOrder = t.object('GetOrder', { id: t.int64() });
export const Summary = t.object('Summary', { count: t.uint32(), idSum: t.int64() });

export const ShopService = t.service('shop.v1.ShopService', {
  GetOrder: t.unary(GetOrder, Order, { idempotency: 'NO_SIDE_EFFECTS' }),
  PlaceOrder: t.unary(Order, Order),
  WatchOrders: t.serverStream(GetOrder, Order),
  Upload: t.clientStream(Order, Summary),
  Chat: t.bidiStream(Order, Order),
});

/** 2^60 + 1: a float64 would round it. */
export const bigId = 2n ** 60n + 1n;
const placedAt = new Date('2026-12-07T08:00:00.123Z');

export function sampleOrder(id: bigint): Order {
  return { id, placedAt, blob: new Uint8Array([0, 1, 2, 255]), status: 'SHIPPED' };
}

/** What a negative id fails: a validation error, so the status carries a BadRequest. */
const PositiveId = t.object('PositiveId', { id: t.uint32() });

export interface ShopHandlers {
  readonly handlers: Readonly<Record<string, PlainHandler>>;
  /** How many times any handler started. */
  runs(): number;
  /** How many handlers saw their signal abort (a passed deadline, a cancelled call). */
  aborts(): number;
}

/** The id that makes WatchOrders send one order and then wait for its signal to abort. */
export const waitForAbortId = 99n;

export function shopHandlers(): ShopHandlers {
  let runs = 0;
  let aborts = 0;
  const check = (id: bigint) => {
    if (id === 13n) throw new Error('db at 10.0.0.7 refused');
    if (id < 0n) assert(PositiveId, { id: Number(id) });
  };
  const handlers: Record<string, PlainHandler> = {
    GetOrder(request: { id: bigint }) {
      runs++;
      check(request.id);
      return sampleOrder(request.id);
    },
    PlaceOrder(request: Order) {
      runs++;
      // A reply its own schema refuses: the server's fault, whatever the caller sent.
      if (request.note === 'bad reply') return { ...request, status: 'LOST' };
      return { ...request, id: request.id + 1n };
    },
    async *WatchOrders(request: { id: bigint }, context: HandlerContext) {
      runs++;
      check(request.id);
      if (request.id === waitForAbortId) {
        yield sampleOrder(request.id);
        await new Promise((resolve) => context.signal.addEventListener('abort', resolve, { once: true }));
        aborts++;
        return;
      }
      for (let i = 0n; i < 3n; i++) {
        if (context.signal.aborted) return;
        yield sampleOrder(request.id + i);
      }
    },
    async Upload(requests: AsyncIterable<Order>) {
      runs++;
      let count = 0;
      let idSum = 0n;
      for await (const order of requests) {
        count++;
        idSum += order.id;
      }
      return { count, idSum };
    },
    async *Chat(requests: AsyncIterable<Order>) {
      runs++;
      for await (const order of requests) yield { ...order, id: order.id + 1n };
    },
  };
  return { handlers, runs: () => runs, aborts: () => aborts };
}
