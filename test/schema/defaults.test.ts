/**
 * withDefaults: fields left out that have defaults are filled in at every depth (objects, arrays,
 * maps, union variants, optional, nullable and recursive fields), the value given is copied only
 * where something changed, and values the schema does not describe are left for the encoders'
 * validation to report.
 */
import { describe, expect, test } from 'vitest';
import { type ObjectSchema, t, withDefaults } from '../../src/schema/index.js';

const Item = t.object('Item', { sku: t.string(), qty: t.field(t.int32(), { default: 1 }) });
const Pickup = t.object('Pickup', {
  kind: t.literal('pickup'),
  store: t.field(t.string(), { default: 'main' }),
});
const Post = t.object('Post', { kind: t.literal('post'), express: t.field(t.bool(), { default: false }) });
const Order = t.object('Order', {
  id: t.int32(),
  items: t.array(Item),
  byWarehouse: t.map(t.string(), Item),
  byShelf: t.map(t.int32(), Item),
  gift: t.optional(Item),
  extra: t.nullable(Item),
  delivery: t.union('Delivery', 'kind', [Pickup, Post]),
  note: t.field(t.string(), { default: '' }),
});

describe('withDefaults', () => {
  test('fills defaults at every depth', () => {
    const filled = withDefaults(Order, {
      id: 1,
      items: [{ sku: 'a' }, { sku: 'b', qty: 3 }],
      byWarehouse: { north: { sku: 'c' } },
      byShelf: new Map([[4, { sku: 'd' }]]),
      gift: { sku: 'e' },
      extra: null,
      delivery: { kind: 'post' },
    });
    expect(filled).toEqual({
      id: 1,
      items: [
        { sku: 'a', qty: 1 },
        { sku: 'b', qty: 3 },
      ],
      byWarehouse: { north: { sku: 'c', qty: 1 } },
      byShelf: new Map([[4, { sku: 'd', qty: 1 }]]),
      gift: { sku: 'e', qty: 1 },
      extra: null,
      delivery: { kind: 'post', express: false },
      note: '',
    });
  });

  test('leaves the value given as it was, and copies only what changed', () => {
    const items = [{ sku: 'a', qty: 2 }];
    const given = {
      id: 1,
      items,
      byWarehouse: {},
      byShelf: new Map(),
      extra: null,
      delivery: { kind: 'pickup' as const },
    };
    const filled = withDefaults(Order, given);
    expect(given).not.toHaveProperty('note');
    expect(given.delivery).toEqual({ kind: 'pickup' });
    expect(filled.items).toBe(items);
    expect(filled.byShelf).toBe(given.byShelf);
    expect(filled.delivery).toEqual({ kind: 'pickup', store: 'main' });
  });

  test('a schema without defaults gives back the very value', () => {
    const Plain = t.object('Plain', { id: t.int32(), tags: t.array(t.string()) });
    const value = { id: 1, tags: ['x'] };
    expect(withDefaults(Plain, value)).toBe(value);
  });

  test('recursive schemas', () => {
    interface Node {
      label: string;
      children: Node[];
    }
    interface NodeInput {
      label: string;
      children?: NodeInput[];
    }
    const Node: ObjectSchema<Node, NodeInput> = t.object('Node', {
      label: t.string(),
      children: t.field(t.array(t.lazy(() => Node)), { default: [] }),
    });
    expect(withDefaults(Node, { label: 'root', children: [{ label: 'leaf' }] })).toEqual({
      label: 'root',
      children: [{ label: 'leaf', children: [] }],
    });
  });

  test('what the schema does not describe is left for the encoder to refuse', () => {
    const wrong = { id: 1, items: 'not a list', byWarehouse: [], byShelf: 3, delivery: { kind: 'drone' } };
    expect(withDefaults(Order, wrong as never)).toEqual({ ...wrong, note: '' });
    expect(withDefaults(Order, null as never)).toBe(null);
  });

  test('a value nested past the depth limit is left as it is, without overflowing the stack', () => {
    interface Chain {
      next: Chain | null;
      n: number;
    }
    interface ChainInput {
      next: ChainInput | null;
      n?: number;
    }
    const Chain: ObjectSchema<Chain, ChainInput> = t.object('Chain', {
      next: t.nullable(t.lazy(() => Chain)),
      n: t.field(t.int32(), { default: 0 }),
    });
    const cyclic: { next: unknown } = { next: null };
    cyclic.next = cyclic;
    expect(() => withDefaults(Chain, cyclic as never)).not.toThrow();
  });
});

describe('withDefaults in an untagged union', () => {
  test('the branch the value selects has its defaults filled', () => {
    const Retry = t.object('Retry', {
      times: t.uint8(),
      backoff: t.field(t.string(), { default: 'linear' }),
    });
    const Policy = t.object('Policy', { on: t.either([t.string(), Retry]) });
    expect(withDefaults(Policy, { on: { times: 3 } })).toEqual({ on: { times: 3, backoff: 'linear' } });
    expect(withDefaults(Policy, { on: 'never' })).toEqual({ on: 'never' });
  });
});
