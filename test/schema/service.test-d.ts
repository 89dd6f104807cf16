import { describe, expectTypeOf, test } from 'vitest';
import {
  type CallContext,
  type ClientMethod,
  type Infer,
  type InferReply,
  type InferRequest,
  type MethodHandler,
  type ServiceClient,
  type ServiceHandlers,
  t,
} from '../../src/index.js';
import type { OrderService } from '../fixtures/order-service.js';

type Methods = (typeof OrderService)['methods'];
type OrderValue = { id: string; total: string; placedAt: Date; note: string };
/** The reply a handler may give: the field with a default may be left out. */
type OrderInput = { id: string; total: string; placedAt: Date; note?: string };
type Line = { sku: string; quantity: number };
type Message = { text: string };

describe('services: types end to end', () => {
  test('Infer on each method’s request and reply', () => {
    expectTypeOf<InferRequest<Methods['GetOrder']>>().toEqualTypeOf<{ id: string }>();
    expectTypeOf<InferReply<Methods['GetOrder']>>().toEqualTypeOf<OrderValue>();
    expectTypeOf<Infer<Methods['Upload']['output']>>().toEqualTypeOf<{ lines: bigint }>();
    expectTypeOf<Methods['WatchOrders']['methodKind']>().toEqualTypeOf<'server_streaming'>();
    expectTypeOf<Methods['Chat']['methodKind']>().toEqualTypeOf<'bidi_streaming'>();
  });

  test('a handler per method kind', () => {
    expectTypeOf<MethodHandler<Methods['GetOrder']>>().toEqualTypeOf<
      (request: { id: string }, context: CallContext) => Promise<OrderInput>
    >();
    expectTypeOf<MethodHandler<Methods['Upload']>>().toEqualTypeOf<
      (requests: AsyncIterable<Line>, context: CallContext) => Promise<{ lines: bigint }>
    >();
    expectTypeOf<MethodHandler<Methods['Chat']>>().toEqualTypeOf<
      (requests: AsyncIterable<Message>, context: CallContext) => AsyncIterable<Message>
    >();
  });

  test('a whole service of handlers type-checks, and a wrong one does not', () => {
    const handlers: ServiceHandlers<typeof OrderService> = {
      async GetOrder(request, context) {
        expectTypeOf(request).toEqualTypeOf<{ id: string }>();
        expectTypeOf(context.signal).toEqualTypeOf<AbortSignal>();
        return { id: request.id, total: '1.50', placedAt: new Date(0) };
      },
      async *WatchOrders(request) {
        expectTypeOf(request.since).toEqualTypeOf<Date | undefined>();
        yield { order: { id: 'a', total: '1', placedAt: new Date(0) }, kind: 'paid' };
      },
      async Upload(requests) {
        let lines = 0n;
        for await (const line of requests) lines += BigInt(line.quantity);
        return { lines };
      },
      async *Chat(messages) {
        for await (const message of messages) yield { text: message.text.toUpperCase() };
      },
    };
    expectTypeOf(handlers).toHaveProperty('Chat');

    const wrong: ServiceHandlers<typeof OrderService> = {
      // @ts-expect-error a unary handler returns a promise of the reply, not the reply
      GetOrder: (request) => ({ id: request.id, total: '1', placedAt: new Date(0) }),
      // @ts-expect-error a server stream yields replies: a number is not an OrderEvent
      async *WatchOrders() {
        yield 1;
      },
      // @ts-expect-error a client stream takes an iterable of requests, not one request
      Upload: async (line: Line) => ({ lines: BigInt(line.quantity) }),
      // @ts-expect-error a reply of the wrong shape
      async *Chat() {
        yield { txt: 'hi' };
      },
    };
    expectTypeOf(wrong).not.toBeAny();

    // @ts-expect-error a method is missing
    const missing: ServiceHandlers<typeof OrderService> = { GetOrder: handlers.GetOrder };
    expectTypeOf(missing).not.toBeAny();
  });

  test('client methods: unary is a promise, streams are async iterables', () => {
    type Client = ServiceClient<typeof OrderService>;
    expectTypeOf<Client['GetOrder']>().toEqualTypeOf<
      (
        request: { id: string },
        options?: { readonly signal?: AbortSignal; readonly timeoutMs?: number },
      ) => Promise<OrderValue>
    >();
    expectTypeOf<ReturnType<Client['WatchOrders']>>().toEqualTypeOf<
      AsyncIterable<{ order: OrderValue; kind: 'placed' | 'paid' }>
    >();
    expectTypeOf<Parameters<Client['Upload']>[0]>().toEqualTypeOf<AsyncIterable<Line>>();
    expectTypeOf<ReturnType<Client['Upload']>>().toEqualTypeOf<Promise<{ lines: bigint }>>();
    expectTypeOf<ReturnType<Client['Chat']>>().toEqualTypeOf<AsyncIterable<Message>>();
  });

  test('a client sends requests with defaults left out, and options of its own', () => {
    const Req = t.object('Req', { q: t.string(), limit: t.field(t.int32(), { default: 10 }) });
    const Search = t.unary(Req, Req);
    type Call = ClientMethod<typeof Search, { deadline: Date }>;
    expectTypeOf<Parameters<Call>[0]>().toEqualTypeOf<{ q: string; limit?: number }>();
    expectTypeOf<Parameters<Call>[1]>().toEqualTypeOf<{ deadline: Date } | undefined>();
    expectTypeOf<Awaited<ReturnType<Call>>>().toEqualTypeOf<{ q: string; limit: number }>();
  });

  test('the builders take only object schemas', () => {
    const Msg = t.object('Msg', { a: t.string() });
    // @ts-expect-error a string is not a message
    t.unary(t.string(), Msg);
    // @ts-expect-error an array is not a message
    t.serverStream(Msg, t.array(Msg));
    // @ts-expect-error a method must come from a method builder
    t.service('S', { Say: Msg });
  });
});
