/**
 * `wirekit bench --data FILE [--path P]`: which values a user's file gives the lab, what the lab
 * says it measured, and the warning for a file that is one object wrapped around the records.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { isWirekitError } from '../../../src/errors/index.js';
import { datasetFromFile, findWrappedArray } from '../../../src/lab/datasets/from-file.js';
import { withTempDir } from '../../support/tools.js';

const orders = Array.from({ length: 40 }, (_, i) => ({ id: i + 1, sku: `A-${i}`, qty: (i % 5) + 1 }));

/** The dataset for `content` written to a file of that name, and the values it generates. */
function fromFile(name: string, content: string, options: { path?: string } = {}) {
  return withTempDir((dir) => {
    const file = join(dir, name);
    writeFileSync(file, content);
    const dataset = datasetFromFile({ dataFile: file, ...options });
    return { dataset, values: dataset.generate(), file };
  });
}

describe('bench --data: the values of a file', () => {
  test('a JSON array: its items, no warning', () => {
    const { dataset, values, file } = fromFile('orders.json', JSON.stringify(orders));
    expect(values).toHaveLength(40);
    expect(dataset.notice).toBeUndefined();
    expect(dataset.measured).toBe(`40 values from ${file} (a JSON array), with an inferred schema`);
  });

  test('NDJSON: one value per line, no warning', () => {
    const { dataset, values } = fromFile('orders.ndjson', orders.map((o) => JSON.stringify(o)).join('\n'));
    expect(values).toEqual(orders);
    expect(dataset.notice).toBeUndefined();
    expect(dataset.measured).toContain('(NDJSON, one value per line)');
  });

  test('one object around a big array: measured as one value, and the warning offers --path', () => {
    const { dataset, values, file } = fromFile('wrapped.json', JSON.stringify({ orders, page: 1, of: 3 }));
    expect(values).toHaveLength(1);
    expect(dataset.measured).toBe(`1 value from ${file} (one JSON value), with an inferred schema`);
    expect(dataset.notice).toMatch(
      /is one JSON object, so the lab measured it as ONE value \([\d,]+ characters/,
    );
    expect(dataset.notice).toContain('not the 40 items of its "orders" array');
    expect(dataset.notice).toContain('run it again with --path orders.');
  });

  test('--path selects the array: its items are the values', () => {
    const wrapped = JSON.stringify({ orders, page: 1 });
    const { dataset, values } = fromFile('wrapped.json', wrapped, { path: 'orders' });
    expect(values).toEqual(orders);
    expect(dataset.notice).toBeUndefined();
    expect(dataset.measured).toContain('40 values from');
    expect(dataset.measured).toContain('(the array at orders)');
    expect(dataset.schema.fields.map((f) => f.name)).toEqual(['id', 'sku', 'qty']);
  });

  test('--path goes through nested objects and array indexes, and through each NDJSON line', () => {
    const deep = JSON.stringify({
      data: { pages: [{ rows: orders.slice(0, 3) }, { rows: orders.slice(3, 5) }] },
    });
    expect(fromFile('deep.json', deep, { path: 'data.pages.1.rows' }).values).toEqual(orders.slice(3, 5));
    const pages = [orders.slice(0, 2), orders.slice(2, 5)].map((rows) => JSON.stringify({ rows })).join('\n');
    const lines = fromFile('pages.ndjson', pages, { path: 'rows' });
    expect(lines.values).toEqual(orders.slice(0, 5));
    expect(lines.dataset.measured).toContain('(the arrays at rows in its 2 lines)');
  });

  test('a --path that leads nowhere, or not to an array, is WK_CLI_INPUT and says what is there', () => {
    const wrapped = JSON.stringify({ orders, page: 1 });
    const message = (path: string) => {
      try {
        fromFile('wrapped.json', wrapped, { path });
        return 'no error';
      } catch (error) {
        expect(isWirekitError(error) && error.code).toBe('WK_CLI_INPUT');
        return (error as Error).message;
      }
    };
    expect(message('order')).toMatch(
      /has nothing at order \(the top level is an object with "orders", "page"\)/,
    );
    expect(message('page')).toMatch(/leads to a number, not to an array of the values to measure/);
    expect(message('orders.99')).toMatch(/has nothing at orders\.99 \(orders is an array of 40\)/);
  });
});

describe('bench --data: finding the array inside a wrapper', () => {
  test('follows the property that holds most of the text, a few levels down', () => {
    expect(findWrappedArray({ orders })).toEqual({ path: ['orders'], items: 40 });
    expect(findWrappedArray({ meta: { page: 1 }, data: { items: orders } })).toEqual({
      path: ['data', 'items'],
      items: 40,
    });
  });

  test('a record of similar fields, a small array or no object at all is not a wrapper', () => {
    expect(findWrappedArray({ id: 1, name: 'Ada', email: 'ada@example.com' })).toBeUndefined();
    expect(findWrappedArray({ tags: ['a'], note: 'x' })).toBeUndefined();
    expect(findWrappedArray({ a: 'x'.repeat(100), b: 'y'.repeat(100), list: [1, 2] })).toBeUndefined();
    expect(findWrappedArray(orders)).toBeUndefined();
    expect(findWrappedArray(7)).toBeUndefined();
  });

  test('a key that a dotted path cannot spell gets other advice', () => {
    const { dataset } = fromFile('dotted.json', JSON.stringify({ 'v1.orders': orders }));
    expect(dataset.notice).toContain('"v1.orders"');
    expect(dataset.notice).toContain('cannot be written as a --path');
  });
});
