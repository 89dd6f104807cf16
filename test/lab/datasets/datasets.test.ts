/**
 * The built-in datasets: deterministic from their seed, near the published sizes, valid against
 * their schemas, carried exactly by every format, and made of flat strings.
 */
import { setFlagsFromString } from 'node:v8';
import { describe, expect, test } from 'vitest';
import { formatNames } from '../../../src/codecs/core/codec.js';
import { createCodec } from '../../../src/codecs/registry.js';
import { t, validate } from '../../../src/index.js';
import {
  type Dataset,
  datasets,
  records,
  timeseries,
  timeseriesColumns,
} from '../../../src/lab/datasets/index.js';

const names = [
  'users',
  'records',
  'products',
  'orders',
  'documents',
  'messages',
  'accounts',
  'timeseries',
  'statuses',
  'statuses-each',
  'catalog',
  'catalog-each',
] as const;
const all = names.map((name) => [name, datasets[name] as Dataset] as const);

/** A catalog is ~1 MB of JSON: the tests that draw dozens of items draw a tenth as many of those. */
const scaled = (dataset: Dataset, count: number): number =>
  dataset.name.startsWith('catalog') ? Math.ceil(count / 10) : count;

describe('datasets: the registry', () => {
  test('lists the twelve built-in datasets, each under its own name', () => {
    expect(Object.keys(datasets).sort()).toEqual([...names].sort());
    for (const [name, dataset] of all) {
      expect(dataset.name).toBe(name);
      expect(dataset.description).not.toMatch(/\n/);
      expect(dataset.schema.kind).toBe('object');
    }
    expect(names.filter((name) => datasets[name]?.unit === 'item')).toEqual([
      'products',
      'orders',
      'documents',
      'messages',
      'statuses-each',
      'catalog-each',
    ]);
  });

  test.each(all)('%s: count and seed are parameters, with the default count', (_, dataset) => {
    expect(dataset.generate(7, 3)).toHaveLength(7);
    expect(dataset.generate(0)).toEqual([]);
    const counts = {
      users: 10_000,
      records: 5_000,
      products: 200,
      orders: 200,
      documents: 2_000,
      messages: 5_000,
      accounts: 1_000,
      timeseries: 100_000,
      statuses: 1_000,
      'statuses-each': 1_000,
      catalog: 4,
      'catalog-each': 4,
    };
    expect(dataset.defaultCount).toBe(counts[dataset.name as keyof typeof counts]);
  });
});

describe('datasets: determinism', () => {
  test.each(all)('%s: the same seed gives the same items, another seed others', (_, dataset) => {
    const a = dataset.generate(scaled(dataset, 50), 42);
    expect(dataset.generate(scaled(dataset, 50), 42)).toEqual(a);
    expect(dataset.generate(scaled(dataset, 50), 43)).not.toEqual(a);
    // A shorter run is a prefix of a longer one, so counts can be scaled without changing items.
    const shorter = scaled(dataset, 20);
    expect(dataset.generate(shorter, 42)).toEqual(a.slice(0, shorter));
  });

  test('records: the registry gives exactly what records.ts generates', () => {
    expect(datasets.records?.generate(100, 5)).toEqual(records(100, 5));
  });
});

describe('datasets: sizes near the published figures', () => {
  const jsonBytes = (dataset: Dataset, items: unknown[]): number =>
    createCodec('json', { schema: t.array(dataset.schema) }).encode(items).length;

  // Published sizes (in decimal MB/KB). records.ts predates this suite and is kept as it is: it
  // writes 0.87 MB, not the published 1.8 MB, and is pinned at its own size.
  test.each([
    ['users', 2_300_000],
    ['records', 874_496],
  ] as const)('%s: the default batch is within 15 percent of %i JSON bytes', (name, target) => {
    const dataset = datasets[name] as Dataset;
    const bytes = jsonBytes(dataset, dataset.generate());
    expect(Math.abs(bytes / target - 1)).toBeLessThan(0.15);
  });

  test('products: ~6.3 KB of JSON per item on average', () => {
    const dataset = datasets.products as Dataset;
    const codec = createCodec('json', { schema: dataset.schema });
    const items = dataset.generate();
    const average = items.reduce<number>((sum, item) => sum + codec.encode(item).length, 0) / items.length;
    expect(Math.abs(average / 6_300 - 1)).toBeLessThan(0.15);
  });

  test('orders and timeseries: sizes stay where they were designed (a guard against drift)', () => {
    const orders = datasets.orders as Dataset;
    const perOrder = jsonBytes(orders, orders.generate()) / orders.defaultCount;
    expect(perOrder).toBeGreaterThan(2_000);
    expect(perOrder).toBeLessThan(8_000);
    const rows = datasets.timeseries as Dataset;
    const perRow = jsonBytes(rows, rows.generate(10_000)) / 10_000;
    expect(perRow).toBeGreaterThan(80);
    expect(perRow).toBeLessThan(120);
  });

  test('documents, messages and accounts: the sizes they were designed at', () => {
    const perItem = (name: string, count: number) => {
      const dataset = datasets[name] as Dataset;
      const codec = createCodec('json', { schema: dataset.schema });
      const items = dataset.generate(count);
      return items.reduce<number>((sum, item) => sum + codec.encode(item).length, 0) / items.length;
    };
    // An order document is a 2-6 KB payload per call; a message a few dozen bytes.
    expect(perItem('documents', 500)).toBeGreaterThan(1_500);
    expect(perItem('documents', 500)).toBeLessThan(6_000);
    expect(perItem('messages', 5_000)).toBeLessThan(60);
    const accounts = datasets.accounts as Dataset;
    expect(jsonBytes(accounts, accounts.generate()) / accounts.defaultCount).toBeGreaterThan(500);
    const lines = (datasets.documents as Dataset).generate(200) as {
      items: unknown[];
      signature: Uint8Array;
    }[];
    expect(Math.min(...lines.map((d) => d.items.length))).toBe(5);
    expect(Math.max(...lines.map((d) => d.items.length))).toBe(15);
    expect(Math.min(...lines.map((d) => d.signature.length))).toBeGreaterThanOrEqual(64);
    expect(Math.max(...lines.map((d) => d.signature.length))).toBeLessThanOrEqual(512);
  });
});

describe('datasets: values', () => {
  test.each(all)('%s: every item of the default run is valid against the schema', (_, dataset) => {
    const count = Math.min(dataset.defaultCount, 20_000);
    expect(validate(t.array(dataset.schema), dataset.generate(count))).toEqual([]);
  });

  test.each(all)('%s: a sample round-trips through every codec', (_, dataset) => {
    const sample = dataset.generate(scaled(dataset, 20), 9);
    for (const format of formatNames) {
      if (format === 'arrow') {
        // Arrow's value is a batch of rows described by the row schema.
        const arrow = createCodec('arrow', { schema: dataset.schema });
        expect(arrow.decode(arrow.encode(sample)), format).toEqual(sample);
      } else if (dataset.unit === 'batch') {
        const codec = createCodec(format, { schema: t.array(dataset.schema) });
        expect(codec.decode(codec.encode(sample)), format).toEqual(sample);
      } else {
        const codec = createCodec(format, { schema: dataset.schema });
        for (const item of sample) expect(codec.decode(codec.encode(item)), format).toEqual(item);
      }
    }
  });

  test('orders: the same address and product objects appear several times in a graph', () => {
    const graphs = datasets.orders?.generate(50) as {
      addresses: object[];
      orders: { shippingAddress: object; lines: { product: object }[] }[];
    }[];
    const shared = graphs.filter((graph) =>
      graph.orders.some((o) => graph.addresses.includes(o.shippingAddress)),
    );
    expect(shared.length).toBeGreaterThan(25);
    const products = graphs.flatMap((graph) =>
      graph.orders.flatMap((o) => o.lines.map((line) => line.product)),
    );
    expect(new Set(products).size).toBeLessThan(products.length);
  });

  test('timeseries: the columns hold exactly the readings of the rows', () => {
    const rows = timeseries(3_000, 4);
    const columns = timeseriesColumns(3_000, 4);
    expect(columns.count).toBe(3_000);
    rows.forEach((row, i) => {
      expect(row.timestamp.getTime()).toBe(columns.timestamps[i]);
      expect(row.deviceId).toBe(columns.devices[columns.deviceIndex[i] as number]);
      expect(row.temperature).toBe(columns.temperature[i]);
      expect(row.humidity).toBe(columns.humidity[i]);
    });
  });
});

describe('datasets: strings are flat', () => {
  // V8 gives every rope (ConsString) of one kind the same hidden class, so comparing maps with a
  // known rope tells a rope apart. %HaveSameMap needs --allow-natives-syntax, set here at runtime.
  setFlagsFromString('--allow-natives-syntax');
  const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: unknown, b: unknown) => boolean;
  const part = (text: string) => text.repeat(1);
  const ropes = [`${part('abcdefgh')}${part('ijklmnop')}`, `${part('abcdéfgh')}${part('ijklmnop')}`];

  function strings(value: unknown, out: string[]): string[] {
    if (typeof value === 'string') out.push(value);
    else if (value instanceof Map) for (const [key, item] of value) strings(item, strings(key, out));
    else if (Array.isArray(value)) for (const item of value) strings(item, out);
    else if (
      typeof value === 'object' &&
      value !== null &&
      !(value instanceof Date || value instanceof Uint8Array)
    ) {
      for (const item of Object.values(value)) strings(item, out);
    }
    return out;
  }

  test('the reference strings are ropes, so the check can see one', () => {
    expect(sameMap(ropes[0], ropes[0])).toBe(true);
    expect(sameMap(['abcdefgh', 'ijklmnop'].join(''), ropes[0])).toBe(false);
  });

  const isRope = (text: string) => ropes.some((rope) => sameMap(text, rope));

  test("records.ts's own emails are ropes, which the registry flattens", () => {
    expect(strings(records(30, 2), []).filter(isRope).length).toBeGreaterThanOrEqual(30);
    expect(strings(datasets.records?.generate(30, 2), []).filter(isRope)).toEqual([]);
  });

  test.each(all)('%s: no generated string is a rope', (_, dataset) => {
    const found = strings(dataset.generate(scaled(dataset, 30), 2), []);
    expect(found.length).toBeGreaterThanOrEqual(30);
    expect(found.filter(isRope)).toEqual([]);
  });
});
