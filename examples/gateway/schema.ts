/**
 * The one schema both sides are made from: the internal service's messages and methods (served
 * over gRPC in Protocol Buffers) and, on each method, how the public JSON API reaches it.
 */
import { t } from 'wirekit-ts/schema';

const ns = { namespace: 'shop.v1' };

export const Order = t.object(
  'Order',
  {
    id: t.int64(),
    customer: t.string({ minLength: 1, maxLength: 80 }),
    total_cents: t.int64(),
    items: t.array(t.string()),
    placed_at: t.timestamp(),
    paid: t.bool(),
  },
  ns,
);

const GetOrderRequest = t.object('GetOrderRequest', { id: t.int64() }, ns);
const ListOrdersRequest = t.object(
  'ListOrdersRequest',
  {
    customer: t.optional(t.string()),
    paid: t.optional(t.bool()),
    limit: t.optional(t.int32({ min: 1, max: 100 })),
  },
  ns,
);
const ListOrdersReply = t.object('ListOrdersReply', { orders: t.array(Order) }, ns);
const CreateOrderRequest = t.object(
  'CreateOrderRequest',
  { customer: t.string({ minLength: 1, maxLength: 80 }), total_cents: t.int64(), items: t.array(t.string()) },
  ns,
);
const PayOrderRequest = t.object('PayOrderRequest', { id: t.int64() }, ns);

export const OrderService = t.service('shop.v1.OrderService', {
  GetOrder: t.unary(GetOrderRequest, Order, {
    http: { get: '/v1/orders/{id}' },
    idempotency: 'NO_SIDE_EFFECTS',
  }),
  ListOrders: t.unary(ListOrdersRequest, ListOrdersReply, {
    http: { get: '/v1/orders', responseBody: 'orders' },
  }),
  CreateOrder: t.unary(CreateOrderRequest, Order, { http: { post: '/v1/orders', body: '*' } }),
  PayOrder: t.unary(PayOrderRequest, Order, { http: { post: '/v1/orders/{id}:pay' } }),
});
