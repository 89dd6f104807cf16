import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { formatNames } from '../../src/codecs/core/codec.js';
import { createCodec } from '../../src/codecs/registry.js';
import {
  type ErrorCode,
  fromJsonValue,
  type Schema,
  schemaFromJson,
  schemaToJson,
  t,
  toJsonValue,
  validate,
  type WirekitError,
} from '../../src/index.js';
import { toAvro, toFlatBuffers, toJsonSchema, toProto } from '../../src/schema/export/index.js';
import { maxSchemaJsonDepth } from '../../src/schema/json-form.js';
import { EveryKind, everyKindValue } from '../fixtures/every-kind.js';
import { codeOf } from '../support/code-of.js';

describe('JSON form of values', () => {
  test('the every-kind value survives JSON text', () => {
    const json = toJsonValue(EveryKind, everyKindValue());
    const back = fromJsonValue(EveryKind, JSON.parse(JSON.stringify(json)));
    expect(back).toEqual(everyKindValue());
    expect(validate(EveryKind, back)).toEqual([]);
  });

  test('spells wire-only kinds as documented', () => {
    const json = toJsonValue(EveryKind, everyKindValue()) as Record<string, unknown>;
    expect(json.i64).toBe('-9223372036854775808');
    expect(json.i64n).toBe(Number.MAX_SAFE_INTEGER);
    expect(json.blob).toBe('AAEC/v8=');
    expect(json.createdAt).toBe('2024-02-29T12:34:56.789Z');
    expect(json.byId).toEqual({ '7': { street: 'Elm', zip: '9' }, '-1': { street: '', zip: '' } });
    expect(json).not.toHaveProperty('nickname');
    expect(toJsonValue(t.array(t.float64()), [Number.NaN, Number.NEGATIVE_INFINITY, 1])).toEqual([
      'NaN',
      '-Infinity',
      1,
    ]);
  });

  test('accepts the lenient spellings on input', () => {
    expect(fromJsonValue(t.int64(), 42)).toBe(42n);
    expect(fromJsonValue(t.uint64({ as: 'number' }), '42')).toBe(42);
    expect(fromJsonValue(t.decimal(), 12.5)).toBe('12.5');
    expect(fromJsonValue(t.bytes(), '_-8')).toEqual(new Uint8Array([0xff, 0xef]));
    expect(fromJsonValue(t.timestamp(), '2024-01-01T01:00:00+01:00')).toEqual(
      new Date('2024-01-01T00:00:00Z'),
    );
  });

  test('refuses unsafe map keys, bounds depth, and reports the path of a problem', () => {
    const byName = t.map(t.string(), t.bool());
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      expect(codeOf(() => fromJsonValue(byName, JSON.parse(`{"${key}": true}`)))).toBe(
        'WK_DECODE_UNSAFE_KEY',
      );
    }
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    let nested: Schema = t.int32();
    for (let i = 0; i < 200; i++) nested = t.array(nested);
    expect(codeOf(() => fromJsonValue(nested, deep))).toBe('WK_LIMIT_DEPTH');
    const Order = t.object('Order', { lines: t.array(t.object('Line', { qty: t.int32() })) });
    try {
      fromJsonValue(Order, { lines: [{ qty: 1 }, { qty: 'x' }] });
      expect.unreachable();
    } catch (error) {
      expect((error as WirekitError).path).toEqual(['lines', 1, 'qty']);
      expect((error as WirekitError).message).toBe('lines[1].qty: expected an integer, got "x".');
    }
    expect(fromJsonValue(Order, { lines: [], extra: 1 }, { unknownKeys: 'ignore' })).toEqual({ lines: [] });
    // The earlier name still works.
    expect(fromJsonValue(Order, { lines: [], extra: 1 }, { unknownFields: 'ignore' })).toEqual({ lines: [] });
  });

  test('reads null as absent for an optional field that cannot hold null', () => {
    const X = t.object('X', { a: t.optional(t.string()), b: t.optional(t.nullable(t.string())) });
    expect(fromJsonValue(X, { a: null, b: null })).toEqual({ b: null });
    expect(fromJsonValue(X, { a: null }, { inPlace: true })).toStrictEqual({});
  });

  test('fills defaults and literals for missing fields', () => {
    const X = t.object('X', {
      v: t.literal('v1'),
      name: t.field(t.string(), { default: 'anon' }),
      n: t.optional(t.int32()),
    });
    expect(fromJsonValue(X, {})).toEqual({ v: 'v1', name: 'anon' });
  });

  test.each<[string, Schema, unknown]>([
    ['an unsafe number for int64', t.int64(), 2 ** 60],
    ['a fraction for int64', t.int64(), '1.5'],
    ['a local time', t.timestamp(), '2024-01-01T00:00:00'],
    ['a date without a time', t.timestamp(), '2024-01-01'],
    ['invalid base64', t.bytes(), 'a$b='],
    ['an exponent in a decimal', t.decimal(), '1e5'],
    ['a float for an int32', t.int32(), 1.5],
    ['an unknown field', t.object('X', { a: t.int32() }), { a: 1, b: 2 }],
    ['a missing field', t.object('X', { a: t.int32() }), {}],
    ['a non-integer map key', t.map(t.int32(), t.bool()), { x: true }],
    ['an unknown union tag', t.union('U', 'k', [t.object('A', { k: t.literal('a') })]), { k: 'b' }],
  ])('refuses %s with WK_JSON_VALUE_INVALID', (_name, schema, json) => {
    expect(codeOf(() => fromJsonValue(schema, json))).toBe('WK_JSON_VALUE_INVALID');
  });
});

describe('JSON form of schemas', () => {
  test('round-trips the every-kind schema losslessly', () => {
    const doc = schemaToJson(EveryKind);
    const text = JSON.stringify(doc);
    const back = schemaFromJson(JSON.parse(text));
    expect(schemaToJson(back)).toEqual(doc);
    // The rebuilt schema behaves the same: same field numbers, same verdicts on values.
    expect(validate(back, everyKindValue())).toEqual([]);
    expect(validate(back, { ...everyKindValue(), u8: 256 }).map((i) => i.path)).toEqual([['u8']]);
  });

  test('writes a repeated named type once and refers to it after', () => {
    const doc = schemaToJson(EveryKind) as unknown as {
      root: { fields: { name: string; schema: unknown }[] };
    };
    const field = (name: string) => doc.root.fields.find((f) => f.name === name)?.schema;
    expect(field('home')).toMatchObject({ kind: 'object', name: 'Address' });
    expect(field('work')).toEqual({ kind: 'optional', inner: { kind: 'ref', name: 'Address' } });
    expect(JSON.stringify(field('category'))).toContain('{"kind":"ref","name":"Category"}');
  });

  test('rebuilds recursion: a ref to an enclosing type resolves to it', () => {
    const back = schemaFromJson(JSON.parse(JSON.stringify(schemaToJson(EveryKind))));
    if (back.kind !== 'object') throw new Error('expected an object');
    const category = back.fields.find((f) => f.name === 'category')?.schema;
    if (category?.kind !== 'object') throw new Error('expected Category');
    const children = category.fields[1]?.schema;
    expect(children?.kind === 'array' && children.items.kind === 'ref' && children.items.resolve()).toBe(
      category,
    );
  });

  test('keeps field metadata and explicit numbers', () => {
    const doc = JSON.stringify(schemaToJson(EveryKind));
    expect(doc).toContain(
      '"name":"name","id":14,"doc":"Display name","aliases":["title"],"schema":{"kind":"string"},"default":"anonymous"',
    );
    expect(doc).toContain('"name":"legacy","id":100,"doc":"Use name instead","deprecated":true');
    expect(doc).toContain('"reserved":[50]');
  });

  test.each<[string, unknown, ErrorCode]>([
    ['a wrong format tag', { format: 'other', version: 1, root: { kind: 'bool' } }, 'WK_SCHEMA_JSON_INVALID'],
    [
      'a future version',
      { format: 'wirekit-schema', version: 2, root: { kind: 'bool' } },
      'WK_SCHEMA_JSON_INVALID',
    ],
    [
      'an unknown kind',
      { format: 'wirekit-schema', version: 1, root: { kind: 'float128' } },
      'WK_SCHEMA_JSON_INVALID',
    ],
    [
      'a dangling ref',
      { format: 'wirekit-schema', version: 1, root: { kind: 'ref', name: 'Nope' } },
      'WK_SCHEMA_UNRESOLVED_REF',
    ],
    [
      'clashing field numbers',
      {
        format: 'wirekit-schema',
        version: 1,
        root: {
          kind: 'object',
          name: 'X',
          fields: [
            { name: 'a', id: 1, schema: { kind: 'bool' } },
            { name: 'b', id: 1, schema: { kind: 'bool' } },
          ],
        },
      },
      'WK_SCHEMA_FIELD_ID',
    ],
    [
      'a default of the wrong form',
      {
        format: 'wirekit-schema',
        version: 1,
        root: {
          kind: 'object',
          name: 'X',
          fields: [{ name: 'a', schema: { kind: 'int64', as: 'bigint' }, default: 'x' }],
        },
      },
      'WK_SCHEMA_JSON_INVALID',
    ],
  ])('refuses %s', (_name, doc, code) => {
    expect(codeOf(() => schemaFromJson(doc))).toBe(code);
  });

  test('refuses two different types with one name', () => {
    const a = t.object('Same', { x: t.int32() });
    const b = t.object('Same', { y: t.int32() });
    expect(codeOf(() => schemaToJson(t.object('Root', { a, b })))).toBe('WK_SCHEMA_NAME_CONFLICT');
  });
});

/** A document whose root nests `depth` nodes: arrays, optional items, maps and objects in turn. */
function nestedDocument(depth: number): unknown {
  let node: unknown = { kind: 'int32' };
  for (let level = 2; level <= depth; level++) {
    const kinds = [
      { kind: 'array', items: node },
      { kind: 'optional', inner: node },
      { kind: 'map', keys: { kind: 'string' }, values: node },
      { kind: 'object', name: `Level${level}`, fields: [{ name: 'next', schema: node }] },
    ];
    node = kinds[level % kinds.length];
  }
  return { format: 'wirekit-schema', version: 1, root: node };
}

describe('JSON form of schemas: depth', () => {
  test('a document nested thousands deep is refused with its path, not a stack overflow', () => {
    const error = (() => {
      try {
        schemaFromJson(nestedDocument(5000));
      } catch (thrown) {
        return thrown as WirekitError;
      }
    })();
    expect(error?.code).toBe('WK_SCHEMA_JSON_INVALID');
    expect(error?.message).toMatch(/^\$\.root\.(items|inner|values|fields\[0\]\.schema)\..*…/);
    expect(error?.message).toContain(`nests deeper than ${maxSchemaJsonDepth} schema nodes`);
    // The path is cut: 5,000 levels of it would be tens of kilobytes in one message.
    expect(error?.message.length).toBeLessThan(200);
  });

  test('one node past the limit is refused; at the limit, every exporter and codec takes it', () => {
    expect(codeOf(() => schemaFromJson(nestedDocument(maxSchemaJsonDepth + 1)))).toBe(
      'WK_SCHEMA_JSON_INVALID',
    );
    const deepest = schemaFromJson(nestedDocument(maxSchemaJsonDepth));
    expect(schemaFromJson(schemaToJson(deepest))).toEqual(deepest);
    for (const exporter of [toProto, toFlatBuffers, toAvro, toJsonSchema]) {
      expect(() => exporter(deepest)).not.toThrow();
    }
    for (const format of formatNames) {
      for (const compile of [true, false]) {
        // Arrow refuses the schema (a map of optional items has no Arrow type here); the others take
        // it, and a value that deep meets maxDepth, as any value would.
        const made = (() => {
          try {
            return createCodec(format, { schema: deepest, compile });
          } catch (error) {
            return error as WirekitError;
          }
        })();
        if (made instanceof Error) {
          expect(made.code, format).toMatch(/^WK_/);
          continue;
        }
        expect(
          codeOf(() => made.decode(made.encode(7 as never))),
          format,
        ).toMatch(/^WK_/);
      }
    }
  });

  test('a field named __proto__ is refused as t.object refuses it, not dropped', () => {
    const doc = JSON.parse(
      '{"format":"wirekit-schema","version":1,"root":{"kind":"object","name":"R","fields":[' +
        '{"name":"__proto__","schema":{"kind":"int32"}},{"name":"b","schema":{"kind":"int32"}}]}}',
    );
    expect(() => schemaFromJson(doc)).toThrow(expect.objectContaining({ code: 'WK_SCHEMA_INVALID' }));
    expect(() => schemaFromJson(doc)).toThrow(/__proto__/);
  });
});

describe('docs/schema-json.md', () => {
  test('its example is a valid schema that round-trips', () => {
    const text = readFileSync(new URL('../../docs/schema-json.md', import.meta.url), 'utf8');
    const example = /```json\n([\s\S]*?)```/.exec(text)?.[1];
    const doc = JSON.parse(example ?? 'null');
    const schema = schemaFromJson(doc);
    expect(schemaToJson(schema)).toEqual(doc);
    expect(validate(schema, { id: 1n, email: 'a@b.c', plan: 'pro', manager: null })).toEqual([]);
  });
});
