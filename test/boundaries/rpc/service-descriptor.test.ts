import { describe, expect, test } from 'vitest';
import {
  describeServices,
  fileNameOf,
  serviceFiles,
} from '../../../src/boundaries/rpc/service-descriptor.js';
import { t } from '../../../src/index.js';

const Order = t.object('Order', { id: t.int64(), placedAt: t.timestamp() });
const GetOrder = t.object('GetOrder', { id: t.int64() });
const OrderService = t.service('orders.v1.OrderService', {
  GetOrder: t.unary(GetOrder, Order, { idempotency: 'NO_SIDE_EFFECTS' }),
  WatchOrders: t.serverStream(GetOrder, Order),
  Upload: t.clientStream(Order, GetOrder),
  Chat: t.bidiStream(Order, Order),
});
const Ping = t.object('Ping', { at: t.timestamp() });
const PingService = t.service('PingService', { Ping: t.unary(Ping, Ping) });

describe('services as Connect descriptors', () => {
  test('each method keeps its name, kind, idempotency and message types', () => {
    const [described] = describeServices([OrderService]);
    expect(described?.typeName).toBe('orders.v1.OrderService');
    const methods = Object.fromEntries(
      (described?.methods ?? []).map((m) => [
        m.name,
        [m.methodKind, m.idempotency, m.input.typeName, m.output.typeName],
      ]),
    );
    expect(methods).toEqual({
      GetOrder: ['unary', 1, 'orders.v1.GetOrder', 'orders.v1.Order'],
      WatchOrders: ['server_streaming', 0, 'orders.v1.GetOrder', 'orders.v1.Order'],
      Upload: ['client_streaming', 0, 'orders.v1.Order', 'orders.v1.GetOrder'],
      Chat: ['bidi_streaming', 0, 'orders.v1.Order', 'orders.v1.Order'],
    });
  });

  test('several services, with and without a package, each in its own file with the well-known imports', () => {
    expect(fileNameOf(OrderService)).toBe('orders/v1/OrderService.proto');
    expect(fileNameOf(PingService)).toBe('PingService.proto');
    const files = serviceFiles([OrderService, PingService]);
    expect([...files.files.keys()].sort()).toEqual(
      ['PingService.proto', 'google/protobuf/timestamp.proto', 'orders/v1/OrderService.proto'].sort(),
    );
    expect(describeServices([OrderService, PingService]).map((s) => s.typeName)).toEqual([
      'orders.v1.OrderService',
      'PingService',
    ]);
  });

  test('REST mappings stay out of the descriptors: they would import googleapis, which a server lacks', () => {
    const Rest = t.service('orders.v1.RestService', {
      GetOrder: t.unary(GetOrder, Order, { http: { get: '/v1/orders/{id}' } }),
    });
    const files = serviceFiles([Rest]);
    expect([...files.files.keys()].sort()).toEqual([
      'google/protobuf/timestamp.proto',
      'orders/v1/RestService.proto',
    ]);
    expect(describeServices([Rest], files)[0]?.methods.map((m) => m.name)).toEqual(['GetOrder']);
  });
});
