import { describe, expectTypeOf, test } from 'vitest';
import type { RpcCodecName } from '../../../../src/boundaries/rpc/index.js';
import { type RpcCallContext, rpcService } from '../../../../src/boundaries/rpc/server/index.js';
import { type Order, OrderService, sampleOrder } from './order-service.js';

describe('rpcService: handlers typed from the service, end to end', () => {
  test('requests, replies, streams and the call context have their types', () => {
    rpcService(OrderService, {
      async GetOrder(request, context) {
        expectTypeOf(request).toEqualTypeOf<{ id: bigint; failWith?: string }>();
        expectTypeOf(context).toEqualTypeOf<RpcCallContext>();
        expectTypeOf(context.codec).toEqualTypeOf<RpcCodecName>();
        expectTypeOf(context.requestHeader).toEqualTypeOf<Headers>();
        return sampleOrder(request.id);
      },
      async *WatchOrders(request) {
        yield sampleOrder(request.id);
      },
      async Upload(requests) {
        expectTypeOf(requests).toEqualTypeOf<AsyncIterable<Order>>();
        return { count: 0, ids: [] };
      },
      async *Chat(requests) {
        for await (const order of requests) yield order;
      },
    });
  });

  test('a wrong reply, a missing method or a unary handler on a stream does not compile', () => {
    rpcService(OrderService, {
      // @ts-expect-error the reply lacks Order's fields
      async GetOrder() {
        return { id: 1n };
      },
      async *WatchOrders(request) {
        yield sampleOrder(request.id);
      },
      async Upload() {
        return { count: 0, ids: [] };
      },
      async *Chat(requests) {
        for await (const order of requests) yield order;
      },
    });
    // @ts-expect-error Chat is missing
    rpcService(OrderService, {
      GetOrder: async (request) => sampleOrder(request.id),
      async *WatchOrders(request) {
        yield sampleOrder(request.id);
      },
      Upload: async () => ({ count: 0, ids: [] }),
    });
    rpcService(OrderService, {
      GetOrder: async (request) => sampleOrder(request.id),
      // @ts-expect-error a server stream's handler returns an async iterable, not a promise
      WatchOrders: async (request: { id: bigint }) => sampleOrder(request.id),
      Upload: async () => ({ count: 0, ids: [] }),
      async *Chat(requests) {
        for await (const order of requests) yield order;
      },
    });
    rpcService(OrderService, {
      GetOrder: async (request) => sampleOrder(request.id),
      async *WatchOrders(request) {
        yield sampleOrder(request.id);
      },
      // @ts-expect-error a client stream's requests are an async iterable, not one request
      Upload: async (request: Order) => ({ count: 1, ids: [request.id] }),
      async *Chat(requests) {
        for await (const order of requests) yield order;
      },
    });
  });
});
