/**
 * t.service and its method builders: what a service holds (names, kinds, idempotency, deprecation)
 * and what is refused at build time with WK_SCHEMA_INVALID: a request or reply that is not an
 * object, names that are not identifiers, a method not built with a method builder.
 */
import { describe, expect, test } from 'vitest';
import { isService, type Schema, serviceName, t } from '../../src/index.js';
import { GetOrderRequest, Line, Message, Order, OrderService } from '../fixtures/order-service.js';
import { codeOf } from '../support/code-of.js';

describe('t.service', () => {
  test('splits the full name into package and name, and keeps the methods in order', () => {
    expect(OrderService.kind).toBe('service');
    expect(OrderService.name).toBe('OrderService');
    expect(OrderService.namespace).toBe('orders.v1');
    expect(serviceName(OrderService)).toBe('orders.v1.OrderService');
    expect(Object.keys(OrderService.methods)).toEqual(['GetOrder', 'WatchOrders', 'Upload', 'Chat']);
    expect(Object.isFrozen(OrderService) && Object.isFrozen(OrderService.methods)).toBe(true);
    expect(isService(OrderService)).toBe(true);
    expect(isService(Order)).toBe(false);
  });

  test('each method builder gives its kind, messages and options', () => {
    const { GetOrder, WatchOrders, Upload, Chat } = OrderService.methods;
    expect(GetOrder).toEqual({
      kind: 'method',
      methodKind: 'unary',
      input: GetOrderRequest,
      output: Order,
      idempotency: 'NO_SIDE_EFFECTS',
    });
    expect(WatchOrders.methodKind).toBe('server_streaming');
    expect(Upload).toMatchObject({ methodKind: 'client_streaming', input: Line, idempotency: 'IDEMPOTENT' });
    expect(Chat).toMatchObject({
      methodKind: 'bidi_streaming',
      input: Message,
      output: Message,
      deprecated: true,
    });
    expect('idempotency' in WatchOrders || 'deprecated' in WatchOrders).toBe(false);
  });

  test('a service of no package has no namespace', () => {
    const s = t.service(
      'Echo',
      { Say: t.unary(Message, Message) },
      { doc: 'Says it back.', deprecated: true },
    );
    expect(s).toMatchObject({ name: 'Echo', doc: 'Says it back.', deprecated: true });
    expect('namespace' in s).toBe(false);
  });

  test('a request or reply that is not an object is refused, naming what it is', () => {
    const notObjects: unknown[] = [
      t.string(),
      t.array(Message),
      t.union('U', 'type', [t.object('A', { type: t.literal('a') })]),
      t.lazy(() => Message),
      t.optional(Message),
      undefined,
      {},
    ];
    for (const value of notObjects) {
      expect(codeOf(() => t.unary(value as never, Message))).toBe('WK_SCHEMA_INVALID');
      expect(codeOf(() => t.bidiStream(Message, value as never))).toBe('WK_SCHEMA_INVALID');
    }
    expect(() => t.unary(t.string() as never, Message)).toThrow(/request must be a t\.object.*got a string/);
    expect(() => t.serverStream(Message, t.int32() as never)).toThrow(
      /reply must be a t\.object.*got a int32/,
    );
  });

  test('names must be identifiers: each part of the full name and each method name', () => {
    const methods = { Say: t.unary(Message, Message) };
    for (const name of [
      '',
      'orders..Svc',
      'orders.v1.',
      '1Svc',
      'orders-v1.Svc',
      'orders.v1.Order Service',
    ]) {
      expect(
        codeOf(() => t.service(name, methods)),
        name,
      ).toBe('WK_SCHEMA_INVALID');
    }
    for (const name of ['get-order', '1st', 'Get Order', '']) {
      expect(
        codeOf(() => t.service('S', { [name]: t.unary(Message, Message) })),
        name,
      ).toBe('WK_SCHEMA_INVALID');
    }
    // An own `__proto__` key (as an importer's Object.fromEntries makes) would turn into a prototype
    // in a module's object literal.
    const proto = Object.fromEntries([['__proto__', t.unary(Message, Message)]]);
    expect(codeOf(() => t.service('S', proto))).toBe('WK_SCHEMA_INVALID');
    expect(
      t.service('a.b_c.S_1', { _under: t.unary(Message, Message), toString: t.unary(Message, Message) }).name,
    ).toBe('S_1');
  });

  test('methods must be built by the method builders (none at all is a service being sketched)', () => {
    expect(Object.keys(t.service('S', {}).methods)).toEqual([]);
    expect(codeOf(() => t.service('S', { Say: Message as never }))).toBe('WK_SCHEMA_INVALID');
    expect(codeOf(() => t.service('S', null as never))).toBe('WK_SCHEMA_INVALID');
    expect(codeOf(() => t.service('S', [t.unary(Message, Message)] as never))).toBe('WK_SCHEMA_INVALID');
  });

  test('options are checked', () => {
    expect(codeOf(() => t.unary(Message, Message, { idempotency: 'SAFE' as never }))).toBe(
      'WK_SCHEMA_INVALID',
    );
    expect(codeOf(() => t.unary(Message, Message, { deprecated: 'yes' as never }))).toBe('WK_SCHEMA_INVALID');
    expect(codeOf(() => t.service('S', { Say: t.unary(Message, Message) }, { deprecated: 1 as never }))).toBe(
      'WK_SCHEMA_INVALID',
    );
    // deprecated: false says nothing, so it is not stored.
    expect('deprecated' in t.unary(Message, Message, { deprecated: false })).toBe(false);
  });

  test('a service is not a value schema', () => {
    // Nothing encodes a service: the type system keeps it out of every place a schema goes.
    const asSchema: Schema[] = [Order];
    // @ts-expect-error a service is not a Schema
    asSchema.push(OrderService);
    expect(asSchema).toHaveLength(2);
  });
});
