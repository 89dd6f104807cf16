/**
 * The service the client's tests call, with the values that need care on every wire: a 64-bit id
 * above 2^53, a Date, bytes, an enum, a decimal string, an optional left out, and a field with a
 * default the client fills in.
 */
import { t } from '../../../../src/index.js';

const Status = t.enum('Status', ['PENDING', 'SHIPPED', 'DELIVERED']);

const Order = t.object('Order', {
  id: t.int64(),
  placedAt: t.timestamp(),
  payload: t.bytes(),
  status: Status,
  total: t.decimal(),
  note: t.optional(t.string()),
  quantity: t.field(t.uint32(), { default: 1 }),
});

const GetOrder = t.object('GetOrder', {
  id: t.int64(),
  failures: t.field(t.uint32(), { default: 0 }),
});
const Watch = t.object('Watch', { count: t.uint32() });
const Summary = t.object('Summary', { count: t.uint32(), totalIds: t.int64() });

export const OrderService = t.service('orders.v1.OrderService', {
  GetOrder: t.unary(GetOrder, Order, { idempotency: 'NO_SIDE_EFFECTS' }),
  PlaceOrder: t.unary(Order, Order),
  WatchOrders: t.serverStream(Watch, Order, { idempotency: 'NO_SIDE_EFFECTS' }),
  Upload: t.clientStream(Order, Summary),
  Chat: t.bidiStream(Order, Order),
});

/** 2^53 + 1: a number would lose the last bit. */
export const bigId = 9_007_199_254_740_993n;

export const anOrder = {
  id: bigId,
  placedAt: new Date('2026-12-07T08:30:00.123Z'),
  payload: new Uint8Array([0, 1, 2, 254, 255]),
  status: 'SHIPPED' as const,
  total: '12345678901234567890.25',
  quantity: 3,
};
