/**
 * The compiled JSON reader against the interpreter (`fromJsonValue` in place): for every input, the
 * same value (`toStrictEqual`) or the same error (code, message, path). Both paths decode the same
 * text through the JSON codec, so the wiring is under test too; `codec.compiled` proves the
 * compiled path ran. Inputs: every kind, edge values, the bench datasets, recursion and depth,
 * hostile keys, and random mutations of the parsed tree.
 */
import { inspect, isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Codec } from '../../../src/codecs/core/codec.js';
import { readCanonicalTime } from '../../../src/codecs/core/read-time.js';
import { createCodec } from '../../../src/codecs/index.js';
import { compileJsonReader } from '../../../src/codecs/json/decode/compiled.js';
import type { JsonCodecOptions } from '../../../src/codecs/json/index.js';
import { Record8, records } from '../../../src/lab/datasets/records.js';
import { User, users } from '../../../src/lab/datasets/users.js';
import { type Schema, t } from '../../../src/schema/index.js';
import { fromJsonValue, readContext } from '../../../src/schema/json-value.js';
import { parseIsoTime } from '../../../src/util/iso-time.js';
import { Category, EveryKind, everyKindValue, Shape } from '../../fixtures/every-kind.js';
import { type Outcome, outcome } from '../../support/outcome.js';

const text = new TextEncoder();

type Options = Omit<JsonCodecOptions, 'schema'>;
const codecs = new Map<Schema, Map<Options, [Codec<unknown>, Codec<unknown>]>>();

/** The compiled codec and the interpreter for `schema` and `options` (made once per pair). */
function pair(schema: Schema, options: Options): [Codec<unknown>, Codec<unknown>] {
  let bySchema = codecs.get(schema);
  if (bySchema === undefined) {
    bySchema = new Map();
    codecs.set(schema, bySchema);
  }
  let found = bySchema.get(options);
  if (found === undefined) {
    found = [
      createCodec('json', { ...options, schema }),
      createCodec('json', { ...options, schema, compile: false }),
    ];
    expect(found[0].compiled).toBe(true);
    expect(found[1].compiled).toBe(false);
    bySchema.set(options, found);
  }
  return found;
}

/** Both paths' outcomes for one JSON text (each parses its own copy: both convert in place). */
function outcomes(schema: Schema, json: string, options: Options) {
  const [compiled, interpreted] = pair(schema, options);
  const bytes = text.encode(json);
  return [outcome(() => compiled.decode(bytes)), outcome(() => interpreted.decode(bytes))] as const;
}

/** Asserts both paths agree on `json`, and returns the outcome. */
function same(schema: Schema, json: string, options: Options = noOptions): Outcome {
  const [a, b] = outcomes(schema, json, options);
  // Node's comparison goes by prototypes; vitest's by `.constructor`, which a json value may hold
  // as a key of its own (two equal `{ constructor: {} }` would differ there).
  if (!isDeepStrictEqual(a, b))
    expect.fail(`${json}\n${inspect(a, { depth: 8 })}\n${inspect(b, { depth: 8 })}`);
  return a;
}

const noOptions: Options = {};
const optionSets: Options[] = [
  noOptions,
  { unknownKeys: 'reject' },
  // Limits at Edges' own nesting: its nested object and arrays meet the first.
  { limits: { maxDepth: 1 } },
  { limits: { maxDepth: 2 } },
];

const Edges = t.object('Edges', {
  i8: t.int8(),
  i16: t.int16(),
  i32: t.int32(),
  u8: t.uint8(),
  u16: t.uint16(),
  u32: t.uint32(),
  f32: t.float32(),
  f64: t.float64(),
  big: t.int64(),
  bigN: t.int64({ as: 'number' }),
  ubig: t.uint64(),
  when: t.timestamp(),
  maybe: t.optional(t.string()),
  maybeNull: t.optional(t.nullable(t.uint8())),
  hue: t.optional(t.enum('Hue', ['red', 'green'])),
  orNull: t.nullable(t.timestamp()),
  ints: t.array(t.int64({ as: 'number' })),
  dates: t.array(t.nullable(t.timestamp())),
  nested: t.optional(t.object('Nested', { n: t.uint16(), s: t.optional(t.string()) })),
  fallback: t.field(t.uint8(), { default: 9 }),
  fixed: t.literal('x'),
});

const edgeJson = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  i8: -128,
  i16: 32_767,
  i32: -2_147_483_648,
  u8: 255,
  u16: 0,
  u32: 4_294_967_295,
  f32: 0.5,
  f64: -0.1,
  big: '-9223372036854775808',
  bigN: 9_007_199_254_740_991,
  ubig: '18446744073709551615',
  when: '2024-02-29T12:34:56.789Z',
  orNull: null,
  ints: [0, -1, 2 ** 53 - 1],
  dates: [null, '1969-12-31T23:59:59.999Z'],
  fixed: 'x',
  ...over,
});

/** JSON values that are wrong somewhere (or right in a rare spelling), for any field. */
const oddValues: unknown[] = [
  null,
  true,
  0,
  -0,
  1.5,
  -1,
  256,
  65_536,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 32,
  2 ** 53,
  1e300,
  '',
  'x',
  'NaN',
  'Infinity',
  '-Infinity',
  '12',
  '-0',
  '123456789012345678901',
  '1234567890123456789012',
  // Just past the 64-bit ranges, and past the safe integers as digits.
  '9223372036854775808',
  '-9223372036854775809',
  '18446744073709551616',
  '9007199254740993',
  -9_007_199_254_740_991,
  // Near members and literals of the fixtures (Color, Hue, 'v1', 'x', Shape's tags).
  'red',
  'blue',
  'RED',
  'v1',
  'v2',
  'circle',
  '-12.50',
  '1e5',
  'AAEC/w==',
  'AAEC_w',
  '2024-01-31T12:00:00Z',
  '2024-01-31T12:00:00.000+01:00',
  '2024-02-30T00:00:00.000Z',
  '2024-13-01T00:00:00.000Z',
  '0050-01-01T00:00:00.000Z',
  '2024-01-01T24:00:00.000Z',
  '2024-01-01t00:00:00.000z',
  [],
  [1, 'a', null],
  {},
  { kind: 'circle', radius: 1 },
  { kind: 'rect' },
  { street: 's', zip: 'z' },
  { 1: 'a', '-2': 'b' },
  { name: 'n', children: [] },
];

describe('compiled JSON reader: same values and errors as the interpreter', () => {
  test('the reader is compiled, cached per schema, and kept off schemas with unsafe names', () => {
    expect(compileJsonReader(Record8)).toBeTypeOf('function');
    expect(compileJsonReader(Record8)).toBe(compileJsonReader(Record8));
    const Unsafe = t.object('Unsafe', { constructor: t.string() });
    expect(compileJsonReader(Unsafe)).toBeUndefined();
    expect(createCodec('json', { schema: Unsafe }).compiled).toBe(false);
    expect(createCodec('json', { schema: Unsafe }).decode(text.encode('{"constructor":"x"}'))).toStrictEqual({
      constructor: 'x',
    });
  });

  test('every kind: a full value, and each field missing, null, or replaced by an odd value', () => {
    const codec = createCodec('json', { schema: EveryKind, compile: false });
    const base = JSON.parse(new TextDecoder().decode(codec.encode(everyKindValue()))) as Record<
      string,
      unknown
    >;
    expect(same(EveryKind, JSON.stringify(base)).ok).toBe(true);
    for (const field of EveryKind.fields) {
      const { [field.name]: _, ...without } = base;
      same(EveryKind, JSON.stringify(without));
      for (const value of oddValues) {
        for (const options of optionSets)
          same(EveryKind, JSON.stringify({ ...base, [field.name]: value }), options);
      }
    }
  });

  test('edge values: limits of each integer kind, -0, absent and null optionals, defaults, literals', () => {
    const good = [
      edgeJson(),
      edgeJson({
        i8: 127,
        i16: -32_768,
        i32: 2_147_483_647,
        u8: 0,
        u16: 65_535,
        u32: 0,
        f64: -0,
        f32: 1e-45,
      }),
      edgeJson({ f64: 'NaN', f32: '-Infinity', big: 0, bigN: '-0', ubig: 7, ints: [-0, 0, '-0', '12'] }),
      edgeJson({
        maybe: '',
        maybeNull: null,
        hue: 'green',
        orNull: '2024-01-31T12:00:00+05:30',
        fallback: 0,
      }),
      edgeJson({ maybe: null, nested: { n: 1, s: null } }),
      edgeJson({ nested: { n: 65_535 }, dates: [], when: '1970-01-01T00:00:00Z' }),
      (({ fixed: _, ...rest }) => rest)(edgeJson({ fallback: undefined })),
    ];
    for (const json of good) expect(same(Edges, JSON.stringify(json)).ok, JSON.stringify(json)).toBe(true);
    // The in-place interpreter keeps -0 for an int64 read as a number inside a container; so must we.
    // (JSON.stringify writes -0 as 0, so the text is spelled out.)
    const minusZero = JSON.stringify(edgeJson({ bigN: 424_242, ints: [424_242] })).replace(/424242/g, '-0');
    expect(minusZero).toContain('"ints":[-0]');
    const value = same(Edges, minusZero);
    expect(value.ok && Object.is((value.value as { ints: number[] }).ints[0], -0)).toBe(true);
    // An absent optional spelled null next to an unknown key: the unknown key is refused (or, when
    // ignored, deleted) on both paths, however many nulls and defaults sit beside it.
    for (const over of [
      { maybe: null, fallback: 1, sneaky: 1 },
      { maybe: null, hue: null, sneaky: 1, other: 2 },
      { maybe: null, fallback: undefined, sneaky: 1 },
      { nested: { n: 1, s: null, sneaky: 1 } },
    ]) {
      const json = JSON.stringify(edgeJson(over));
      expect(same(Edges, json, { unknownKeys: 'reject' })).toMatchObject({
        ok: false,
        code: 'WK_DECODE_SCHEMA_MISMATCH',
      });
      const ignored = same(Edges, json);
      expect(ignored.ok).toBe(true);
      expect(keysIn(ignored.ok && ignored.value)).not.toContain('sneaky');
      expect(keysIn(ignored.ok && ignored.value)).not.toContain('other');
    }
    // Values the schema's types cannot hold: enum non-members, other literals, 64-bit integers out
    // of range or, with as: 'number', past the safe integers.
    for (const over of [
      { hue: 'blue' },
      { fixed: 'y' },
      { big: '9223372036854775808' },
      { big: '-9223372036854775809' },
      { ubig: '-1' },
      { ubig: -1 },
      { ubig: '18446744073709551616' },
      { bigN: '9007199254740993' },
      { bigN: '-9007199254740992' },
      { ints: [0, '9223372036854775807'] },
    ]) {
      const json = JSON.stringify(edgeJson(over));
      // (The depth limits of optionSets stop at Edges' arrays first.)
      for (const options of [noOptions, { unknownKeys: 'reject' } as const])
        expect(same(Edges, json, options), json).toMatchObject({
          ok: false,
          code: 'WK_DECODE_SCHEMA_MISMATCH',
        });
      for (const options of optionSets) same(Edges, json, options);
    }
    for (const field of Edges.fields)
      for (const odd of oddValues)
        for (const options of optionSets)
          same(Edges, JSON.stringify(edgeJson({ [field.name]: odd })), options);
  });

  test('roots of every shape: scalars, optionals, arrays, unions, maps', () => {
    const roots: [Schema, string[]][] = [
      [t.int64({ as: 'number' }), ['-0', '0', '"12"', '1.5', 'null']],
      [t.timestamp(), ['"2024-02-29T12:34:56.789Z"', '"2024-02-29T12:34:56Z"', '"x"', '7']],
      [t.optional(t.uint8()), ['1', 'null', '300']],
      [t.nullable(t.array(t.string())), ['null', '[]', '["a", 1]', '{}']],
      [t.array(t.array(t.int8())), ['[[1],[-128,127]]', '[[128]]', '[1]', '[[[]]]']],
      [Shape, ['{"kind":"circle","radius":1}', '{"kind":"oval"}', '[]']],
      [t.map(t.int32(), t.timestamp()), ['{"1":"2024-02-29T12:34:56.789Z"}', '{"a":"x"}', '{"1":5}']],
      [t.map(t.uint8(), t.bool()), ['{"255":true}', '{"256":true}', '{"-1":true}', '{"0":true,"-0":false}']],
      [
        t.map(t.int64({ as: 'number' }), t.bool()),
        ['{"9007199254740991":true}', '{"9007199254740992":true}', '{"-9223372036854775809":true}'],
      ],
      [t.map(t.uint64(), t.bool()), ['{"18446744073709551615":true}', '{"-1":true}']],
      [t.enum('Hue', ['red', 'green']), ['"red"', '"blue"', '""', '1']],
      [t.literal(7), ['7', '7.0', '8', '"7"']],
      [t.uint64({ as: 'number' }), ['0', '-0', '-1', '"-1"', '9007199254740991', '"9007199254740992"']],
    ];
    for (const [schema, inputs] of roots)
      for (const json of inputs) for (const options of optionSets) same(schema, json, options);
  });

  test('the records and users datasets, whole and with each row field broken', () => {
    for (const [schema, rows] of [
      [Record8, records(200, 5)],
      [User, users(200, 5)],
    ] as const) {
      const Rows = t.array(schema);
      const json = new TextDecoder().decode(createCodec('json', { schema: Rows }).encode(rows as never));
      const result = same(Rows, json);
      expect(result).toStrictEqual({ ok: true, value: rows });
      const parsed = JSON.parse(json) as Record<string, unknown>[];
      for (const field of schema.fields) {
        for (const odd of [null, '', -1, 1.5, 'NaN', [], {}, '2024-01-31T12:00:00+01:00']) {
          const broken = parsed.map((row, i) => (i === 137 ? { ...row, [field.name]: odd } : row));
          same(Rows, JSON.stringify(broken));
        }
      }
    }
  });

  test('recursion and depth: deep input stops at maxDepth with the same path', () => {
    const nest = (levels: number) => {
      let json = '{"name":"leaf","children":[]}';
      for (let i = 0; i < levels; i++) json = `{"name":"n${i}","children":[${json}]}`;
      return json;
    };
    expect(same(Category, nest(20)).ok).toBe(true);
    const deep = same(Category, nest(200));
    expect(deep).toMatchObject({ ok: false, code: 'WK_LIMIT_DEPTH' });
    for (const maxDepth of [1, 2, 3, 4, 5]) same(Category, nest(4), { limits: { maxDepth } });
    // 100,000 levels: JSON.parse takes it; both readers stop at the limit instead of the stack's.
    expect(same(Category, nest(100_000))).toMatchObject({ ok: false, code: 'WK_LIMIT_DEPTH' });
    expect(same(t.array(t.array(t.uint8())), `${'['.repeat(5_000)}${']'.repeat(5_000)}`)).toMatchObject({
      ok: false,
    });
  });

  test('hostile keys: __proto__, constructor, unknown keys, weird field names', () => {
    const Odd = t.object('Odd', {
      'a-b': t.string(),
      'quote"d': t.uint32(),
      'new\nline': t.bool(),
      '0': t.uint8(),
      '${x}*/': t.optional(t.string()),
      toString: t.optional(t.string()),
      valueOf: t.field(t.uint8(), { default: 1 }),
      hasOwnProperty: t.nullable(t.uint8()),
      'ünï🚀': t.timestamp(),
    });
    const base = {
      'a-b': 'x',
      'quote"d': 3,
      'new\nline': true,
      '0': 0,
      hasOwnProperty: null,
      'ünï🚀': '2024-02-29T12:34:56.789Z',
    };
    const inputs = [
      JSON.stringify(base),
      JSON.stringify({ ...base, toString: 'x', valueOf: 2, '${x}*/': 'y' }),
      JSON.stringify({ ...base, toString: null, '${x}*/': null }),
      JSON.stringify({ ...base, toString: 5 }),
      JSON.stringify({ ...base, valueOf: 300 }),
      `{"__proto__":{"polluted":true},${JSON.stringify(base).slice(1)}`,
      `${JSON.stringify(base).slice(0, -1)},"__proto__":null}`,
      JSON.stringify({ ...base, constructor: { prototype: { polluted: true } } }),
      JSON.stringify({ ...base, prototype: 1, more: 2 }),
      JSON.stringify({ ...base, 1: 'one' }),
      // Absent optionals spelled null next to unknown keys: refused, or deleted when ignored.
      JSON.stringify({ ...base, toString: null, sneaky: 1 }),
      JSON.stringify({ ...base, toString: null, '${x}*/': null, sneaky: 1, other: 2 }),
    ];
    for (const json of inputs) {
      for (const options of optionSets) {
        const result = same(Odd, json, options);
        if (result.ok) {
          expect(Object.getPrototypeOf(result.value)).toBe(Object.prototype);
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        }
      }
    }
    expect(same(Odd, JSON.stringify(base))).toMatchObject({ ok: true, value: { valueOf: 1 } });
  });

  test('the reader alone, with the interpreter options it honours at each call', () => {
    const reader = compileJsonReader(Edges) as NonNullable<ReturnType<typeof compileJsonReader>>;
    for (const options of [
      { inPlace: true },
      { inPlace: true, unknownKeys: 'ignore', errorCode: 'WK_DECODE_SCHEMA_MISMATCH', maxDepth: 1 },
    ] as const) {
      for (const json of [
        edgeJson(),
        edgeJson({ u8: -1 }),
        edgeJson({ extra: 1 }),
        edgeJson({ nested: { n: 1 } }),
      ]) {
        const copy = () => JSON.parse(JSON.stringify(json));
        expect(outcome(() => reader(copy(), readContext(options)))).toStrictEqual(
          outcome(() => fromJsonValue(Edges, copy(), options)),
        );
      }
    }
  });
});

/** Every object key in a decoded value, nested ones included. */
function keysIn(value: unknown): string[] {
  if (typeof value !== 'object' || value === null || value instanceof Date) return [];
  return Object.entries(value).flatMap(([key, item]) => [key, ...keysIn(item)]);
}

/** Every (holder, key) place in a parsed JSON tree, root excluded, in a fixed order. */
function places(root: unknown): [Record<string | number, unknown>, string | number][] {
  const out: [Record<string | number, unknown>, string | number][] = [];
  const visit = (node: unknown) => {
    if (typeof node !== 'object' || node === null) return;
    for (const key of Object.keys(node)) {
      const at = Array.isArray(node) ? Number(key) : key;
      out.push([node as Record<string | number, unknown>, at]);
      visit((node as Record<string, unknown>)[key]);
    }
  };
  visit(root);
  return out;
}

const keyPool = ['__proto__', 'constructor', 'prototype', 'name', 'kind', 'radius', 'zip', '0', 'x', ''];
const valuePool = fc.oneof(
  fc.constantFrom(...oddValues),
  fc.jsonValue({ maxDepth: 2 }),
  fc.integer(),
  fc.double(),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
);
const edit = fc.tuple(fc.nat(), fc.nat({ max: 4 }), fc.constantFrom(...keyPool), valuePool);

/** Applies random edits to a parsed tree: replace, delete, add a key, wrap, or null a place. */
function mutate(root: unknown, edits: [number, number, string, unknown][]): unknown {
  let tree = JSON.parse(JSON.stringify(root));
  for (const [which, action, key, value] of edits) {
    const all = places(tree);
    if (all.length === 0) {
      tree = value;
      continue;
    }
    const [holder, at] = all[which % all.length] as [Record<string | number, unknown>, string | number];
    if (action === 0) holder[at] = value;
    else if (action === 1 && !Array.isArray(holder)) delete holder[at];
    else if (action === 2 && !Array.isArray(holder))
      Object.defineProperty(holder, key, { value, enumerable: true, writable: true, configurable: true });
    else if (action === 3) holder[at] = [holder[at]];
    else holder[at] = null;
  }
  return tree;
}

describe.each([
  ['EveryKind', EveryKind, [everyKindValue()]],
  ['Edges', Edges, [edgeJson()]],
  [
    'Category (recursive)',
    Category,
    [{ name: 'a', children: [{ name: 'b', children: [{ name: 'c', children: [] }] }] }],
  ],
  ['rows of users', t.array(User), [users(3, 2)]],
  ['rows of records', t.array(Record8), [records(3, 2)]],
] as [string, Schema, unknown[]][])('%s: random mutations of the parsed tree', (_, schema, values) => {
  const interpreter = createCodec('json', { schema, compile: false });
  const samples = values.map((value) =>
    // Edges holds JSON already; the others are values, spelled through the interpreter's writer.
    schema === Edges ? value : JSON.parse(new TextDecoder().decode(interpreter.encode(value as never))),
  );

  test.each(optionSets)('same outcome for every mutation (%o)', (options) => {
    fc.assert(
      fc.property(fc.nat(), fc.array(edit, { minLength: 1, maxLength: 3 }), (which, edits) => {
        const json = JSON.stringify(mutate(samples[which % samples.length], edits));
        same(schema, json, options);
      }),
      { numRuns: 300 },
    );
  });
});

describe('timestamps in the spelling wirekit writes', () => {
  const pad = (n: number, width: number) => String(n).padStart(width, '0');

  test('read as parseIsoTime reads them, for every month and day, and refused past their ranges by both', () => {
    let fast = 0;
    for (const year of [0, 99, 100, 1600, 1969, 1970, 2023, 2024, 2100, 9999])
      for (let month = 0; month <= 13; month++)
        for (let day = 0; day <= 32; day++)
          for (const [h, m, s, ms] of [
            [0, 0, 0, 0],
            [23, 59, 59, 999],
            [24, 0, 0, 0],
            [12, 60, 0, 0],
            [12, 0, 60, 0],
          ] as const) {
            const text = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(h, 2)}:${pad(m, 2)}:${pad(s, 2)}.${pad(ms, 3)}Z`;
            const date = readCanonicalTime(text);
            if (date === undefined) {
              // Years before 100 are parseIsoTime's to read; anything else out of range names no
              // instant (2023-02-29 is not March 1st, nor hour 24 the next day) and is refused by both.
              if (year >= 100) expect(parseIsoTime(text), text).toBeUndefined();
              continue;
            }
            fast++;
            expect(date.getTime(), text).toBe(parseIsoTime(text)?.getTime());
          }
    // Every real day of the eight years from 100 on (1600 and 2024 leap; 100 and 2100 not) at two
    // times of day took the fast path, and only those: (6 × 365 + 2 × 366) × 2.
    expect(fast).toBe((6 * 365 + 2 * 366) * 2);
  });

  test('any Date written by toISOString reads back exactly; other spellings are left to parseIsoTime', () => {
    fc.assert(
      fc.property(fc.date({ noInvalidDate: true }), (date) => {
        const text = date.toISOString();
        const fast = readCanonicalTime(text);
        if (fast !== undefined) expect(fast.getTime()).toBe(date.getTime());
        else expect(text.length !== 24 || date.getUTCFullYear() < 100).toBe(true);
      }),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), fc.nat({ max: 23 }), (noise, at) => {
        const text =
          `2024-02-29T12:34:56.789Z`.slice(0, at) +
          noise.slice(0, 1) +
          `2024-02-29T12:34:56.789Z`.slice(at + 1);
        const fast = readCanonicalTime(text);
        if (fast !== undefined) expect(fast.getTime()).toBe(parseIsoTime(text)?.getTime());
      }),
    );
    for (const text of [
      '2024-02-29T12:34:56.789+00:00',
      '2024-02-29T12:34:56Z',
      '2024-02-29t12:34:56.789z',
      '2024-02-29 12:34:56.789Z',
      '２024-02-29T12:34:56.789Z',
    ])
      expect(readCanonicalTime(text)).toBeUndefined();
  });
});
