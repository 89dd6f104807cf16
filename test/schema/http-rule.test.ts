/**
 * HTTP rules on t.unary (`google.api.http`): path templates parsed by HttpRule's grammar, and every
 * rule checked against the method's request and reply when the method is built, so that a wrong
 * rule is WK_SCHEMA_INVALID with its reason there rather than a route that never matches.
 */
import { describe, expect, test } from 'vitest';
import { type HttpRule, t } from '../../src/index.js';
import { parsePathTemplate } from '../../src/schema/http-rule.js';
import {
  CreateOrderRequest,
  GetOrderRequest,
  Order,
  OrderApi,
  ShelfRequest,
} from '../fixtures/gateway-service.js';
import { codeOf } from '../support/code-of.js';

function refusal(rule: HttpRule, request = GetOrderRequest): string {
  const build = () => t.unary(request, Order, { http: rule });
  expect(codeOf(build)).toBe('WK_SCHEMA_INVALID');
  try {
    build();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the rule was accepted');
}

describe('path templates', () => {
  test('literals, variables, nested field paths, wildcards and a verb', () => {
    expect(parsePathTemplate('/v1/orders/{id}')).toEqual({
      text: '/v1/orders/{id}',
      segments: [{ kind: 'literal', value: 'v1' }, { kind: 'literal', value: 'orders' }, { kind: 'one' }],
      variables: [{ field: ['id'], start: 2, end: 3 }],
      verb: undefined,
    });
    const shelf = parsePathTemplate('/v1/{name=shelves/*/books/**}:list');
    expect(shelf.segments).toEqual([
      { kind: 'literal', value: 'v1' },
      { kind: 'literal', value: 'shelves' },
      { kind: 'one' },
      { kind: 'literal', value: 'books' },
      { kind: 'rest' },
    ]);
    expect(shelf.variables).toEqual([{ field: ['name'], start: 1, end: 5 }]);
    expect(shelf.verb).toBe('list');
    expect(parsePathTemplate('/v1/{order.id}/*').variables).toEqual([
      { field: ['order', 'id'], start: 1, end: 2 },
    ]);
  });

  test.each([
    ['v1/orders', 'must start with "/"'],
    ['/v1/{id', 'is not closed'],
    ['/v1//orders', 'empty segment'],
    ['/v1/**/x', '"**" may only be the last segment'],
    ['/v1/{a={b}}', 'cannot hold another variable'],
    ['/v1/{1id}', 'must name a field path'],
    ['/v1/{id}/{id}', 'bound twice'],
    ['/v1/or ders', 'is not a literal'],
  ])('%s is refused: %s', (text, reason) => {
    expect(() => parsePathTemplate(text)).toThrow(reason);
  });
});

describe('http on t.unary', () => {
  test('the rule is kept on the method, frozen, with its additional bindings', () => {
    const { GetOrder, UpdateOrder, Internal } = OrderApi.methods;
    expect(GetOrder.http).toEqual({
      get: '/v1/orders/{id}',
      additionalBindings: [{ get: '/v1/orders/{id}:fetch' }],
    });
    expect(UpdateOrder.http).toEqual({ patch: '/v1/orders/{order.id}', body: 'order' });
    expect(Internal.http).toBeUndefined();
    expect(Object.isFrozen(GetOrder.http) && Object.isFrozen(GetOrder.http?.additionalBindings?.[0])).toBe(
      true,
    );
  });

  test('a path variable that names no field, a repeated field or a message is refused', () => {
    expect(refusal({ get: '/v1/orders/{nope}' })).toContain('{nope} names no field of GetOrderRequest');
    expect(refusal({ get: '/v1/orders/{address.street}' })).toContain(
      '{address.street} names no field of Address',
    );
    expect(refusal({ get: '/v1/orders/{tags}' })).toContain('names a repeated field');
    expect(refusal({ get: '/v1/orders/{address}' })).toContain('names a message field');
    expect(refusal({ get: '/v1/orders/{id.x}' })).toContain('id is no message');
  });

  test('a body that names no field, or a field that is no message, is refused', () => {
    expect(refusal({ post: '/v1/orders', body: 'order' })).toContain('the body "order" names no field');
    expect(refusal({ post: '/v1/orders', body: 'tags' })).toContain('the body field tags is no message');
    expect(refusal({ get: '/v1/orders', body: '*' })).toContain('a GET has no body');
    // A path variable inside the body's field is allowed: the path's value wins (UpdateOrder).
    expect(() =>
      t.unary(GetOrderRequest, Order, { http: { post: '/v1/{address.city}', body: 'address' } }),
    ).not.toThrow();
  });

  test('a template that does not parse, no verb or two, and a wrong responseBody are refused', () => {
    expect(refusal({ get: '/v1/{id' })).toContain('is not closed');
    expect(refusal({} as HttpRule)).toContain('got none');
    expect(refusal({ get: '/a', post: '/b' })).toContain('got get and post');
    expect(refusal({ get: '/v1/{id}', responseBody: 'nope' })).toContain(
      'the responseBody "nope" names no field of Order',
    );
    expect(refusal({ get: '/v1/{id}', additionalBindings: [{ put: '/v1/{x}' }] })).toContain(
      'http.additionalBindings[0] PUT /v1/{x}: the path variable {x}',
    );
    expect(refusal({ get: '/v1/{id}', verb: 'x' } as HttpRule)).toContain('unknown key "verb"');
  });

  test('only a unary method can be mapped', () => {
    expect(() => t.serverStream(ShelfRequest, Order, { http: { get: '/v1/{name}' } } as never)).toThrow(
      'only a unary method can be mapped to a REST route',
    );
    expect(() =>
      t.unary(CreateOrderRequest, Order, { http: { post: '/v1/shops/{shop}/orders', body: '*' } }),
    ).not.toThrow();
  });
});
