/**
 * Input nested far past maxDepth, or strings of megabytes, end in a typed error whose message stays
 * short, in every position a message can name it: at the root, in a scalar field, in an unknown
 * field, in a json value, decoded by every format, compiled and interpreted, and in every encoder
 * and `validate`. A message that described such a value by walking it overflowed the stack
 * (RangeError: the HTTP plugin answered 500) or copied megabytes into the error.
 */
import { describe, expect, test } from 'vitest';
import { schemaFromAvro } from '../../src/codecs/avro/schema-from-avro.js';
import { createCodec, type FormatName } from '../../src/codecs/index.js';
import { isWirekitError } from '../../src/errors/index.js';
import { t, validate } from '../../src/schema/index.js';

/** A message this long names a value; one much longer copied it. */
const shortMessage = 400;

const Row = t.object('Row', { id: t.int32(), data: t.optional(t.json()) });
const formats: readonly FormatName[] = [
  'json',
  'msgpack',
  'cbor',
  'protobuf',
  'avro',
  'flatbuffers',
  'arrow',
];

/** `levels` arrays one inside the next, as JSON text. */
const deepText = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

/** An array nested `levels` deep as a value, built without recursion. */
function deepValue(levels: number): unknown[] {
  let value: unknown[] = [];
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

/** The error `run` throws: a WirekitError with a short message (anything else fails the test). */
function refusal(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (error) {
    if (!isWirekitError(error)) throw error;
    expect(error.message.length).toBeLessThan(shortMessage);
    return { code: error.code, message: error.message };
  }
  throw new Error('expected the call to throw');
}

const utf8 = (text: string) => new TextEncoder().encode(text);

/** JSON text of a Row with `deep` at `where`: the root, the scalar `id`, an unknown key, the json field. */
function jsonRow(where: string, deep: string): Uint8Array {
  if (where === 'root') return utf8(deep);
  if (where === 'scalar field') return utf8(`{"id":${deep}}`);
  if (where === 'unknown field') return utf8(`{"id":1,"extra":${deep}}`);
  return utf8(`{"id":1,"data":${deep}}`);
}

/** The same in MessagePack (`cbor` false) or CBOR: arrays of one item `levels` deep, by hand. */
function keyedRow(where: string, levels: number, cbor: boolean): Uint8Array {
  const deep = new Uint8Array(levels).fill(cbor ? 0x81 : 0x91);
  deep[levels - 1] = cbor ? 0x80 : 0x90;
  const text = (value: string) => [(cbor ? 0x60 : 0xa0) | value.length, ...utf8(value)];
  const map = (entries: number) => (cbor ? 0xa0 : 0x80) | entries;
  const head =
    where === 'root'
      ? []
      : where === 'scalar field'
        ? [map(1), ...text('id')]
        : [map(2), ...text('id'), 1, ...text(where === 'unknown field' ? 'extra' : 'data')];
  const bytes = new Uint8Array(head.length + levels);
  bytes.set(head);
  bytes.set(deep, head.length);
  return bytes;
}

const positions = ['root', 'scalar field', 'unknown field', 'json field'] as const;
/** 20 KB and 1 MB of opening brackets. */
const sizes = [20_000, 1_000_000] as const;

/**
 * What each position ends in with a schema: the shape is wrong first, or the nesting is too deep.
 * An unknown field is refused by its key with `unknownKeys: 'reject'`, before its value is read.
 */
const expected: Record<(typeof positions)[number], string> = {
  root: 'WK_DECODE_SCHEMA_MISMATCH',
  'scalar field': 'WK_DECODE_SCHEMA_MISMATCH',
  'unknown field': 'WK_DECODE_SCHEMA_MISMATCH',
  'json field': 'WK_LIMIT_DEPTH',
};

describe.each(sizes)('%i levels of arrays', (levels) => {
  for (const compile of [true, false]) {
    const label = compile ? 'compiled' : 'interpreted';
    test.each(positions)(`JSON (${label}), in the %s`, (where) => {
      const codec = createCodec('json', { schema: Row, compile, unknownKeys: 'reject' });
      const { code, message } = refusal(() => codec.decode(jsonRow(where, deepText(levels))));
      expect(code).toBe(expected[where]);
      if (where === 'root' || where === 'scalar field') expect(message).toMatch(/got an array\./);
    });

    test.each(positions)(`MessagePack and CBOR (${label}), in the %s`, (where) => {
      for (const format of ['msgpack', 'cbor'] as const) {
        const codec = createCodec(format, { schema: Row, compile, unknownKeys: 'reject' });
        expect(refusal(() => codec.decode(keyedRow(where, levels, format === 'cbor'))).code).toBe(
          expected[where],
        );
      }
    });

    test(`an ignored unknown field (${label}): skipped as docs/values.md says, or too deep where walked`, () => {
      // JSON's parser built it already, within the limits on size: the reader drops it unread.
      const json = createCodec('json', { schema: Row, compile });
      expect(json.decode(jsonRow('unknown field', deepText(levels)))).toEqual({ id: 1 });
      // MessagePack and CBOR walk a skipped value to find its end, and check its nesting as they go.
      for (const format of ['msgpack', 'cbor'] as const) {
        const codec = createCodec(format, { schema: Row, compile });
        expect(refusal(() => codec.decode(keyedRow('unknown field', levels, format === 'cbor'))).code).toBe(
          'WK_LIMIT_DEPTH',
        );
      }
    });

    test.each(['protobuf', 'avro', 'flatbuffers', 'arrow'] as const)(
      `%s (${label}): a json field's deep text`,
      (format) => {
        const writer = createCodec(format, {
          schema: t.object('Row', { id: t.int32(), data: t.optional(t.string()) }),
        });
        const codec = createCodec(format, { schema: Row, compile });
        const row = { id: 1, data: deepText(levels) };
        // An Arrow codec encodes a list of rows.
        const bytes = writer.encode((format === 'arrow' ? [row] : row) as never);
        expect(refusal(() => codec.decode(bytes)).code).toBe('WK_LIMIT_DEPTH');
      },
    );
  }

  test.each(['json', 'msgpack', 'cbor'] as const)('%s without a schema: WK_LIMIT_DEPTH', (format) => {
    const codec = createCodec(format);
    const bytes = format === 'json' ? utf8(deepText(levels)) : keyedRow('root', levels, format === 'cbor');
    expect(refusal(() => codec.decode(bytes)).code).toBe('WK_LIMIT_DEPTH');
  });
});

describe('encoders and validate name a hostile value without walking it', () => {
  const A = t.object('A', { kind: t.literal('a'), x: t.int32() });
  const B = t.object('B', { kind: t.literal('b') });
  const Wide = t.object('Wide', {
    n: t.int32(),
    tag: t.literal('k'),
    plan: t.enum('Plan', ['free', 'pro']),
    shape: t.union('Shape', 'kind', [A, B]),
    price: t.decimal({ scale: 2 }),
  });
  const good = { n: 1, tag: 'k', plan: 'free', shape: { kind: 'b' }, price: '1.00' };
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  const deep = deepValue(1_000_000);
  const cases: Record<string, Record<string, unknown>> = {
    'a deep array for an integer': { ...good, n: deep },
    'a cyclic object for an integer': { ...good, n: cyclic },
    'a deep array for a literal': { ...good, tag: deep },
    'a deep array as a union tag': { ...good, shape: { kind: deep } },
    'a 20 MB string for an enum': { ...good, plan: 'p'.repeat(20_000_000) },
    'a decimal with a million decimals': { ...good, price: `1.${'5'.repeat(1_000_000)}` },
  };

  test.each(Object.keys(cases))('%s: validate reports it in a short message', (name) => {
    const issues = validate(Wide, cases[name]);
    expect(issues.length).toBeGreaterThan(0);
    for (const issue of issues) expect(issue.message.length).toBeLessThan(shortMessage);
  });

  for (const format of formats)
    for (const compile of [true, false])
      test.each(Object.keys(cases))(`${format}${compile ? '' : ' (interpreted)'}: %s`, (name) => {
        const codec = createCodec(format, { schema: Wide, compile });
        const value = cases[name];
        expect(refusal(() => codec.encode((format === 'arrow' ? [value] : value) as never)).code).toBe(
          'WK_VALIDATION_FAILED',
        );
      });
});

describe('keys and schema documents from the input', () => {
  test.each(['msgpack', 'cbor'] as const)('%s: a key of 1 MB that appears twice', (format) => {
    const key = 'k'.repeat(1_000_000);
    const bytes =
      format === 'cbor'
        ? new Uint8Array([
            0xa2,
            0x7a,
            0,
            0x0f,
            0x42,
            0x40,
            ...utf8(key),
            1,
            0x7a,
            0,
            0x0f,
            0x42,
            0x40,
            ...utf8(key),
            2,
          ])
        : new Uint8Array([
            0x82,
            0xdb,
            0,
            0x0f,
            0x42,
            0x40,
            ...utf8(key),
            1,
            0xdb,
            0,
            0x0f,
            0x42,
            0x40,
            ...utf8(key),
            2,
          ]);
    for (const compile of [true, false]) {
      const codec = createCodec(format, { schema: t.map(t.string(), t.int32()), compile });
      expect(refusal(() => codec.decode(bytes)).code).toBe('WK_DECODE_MALFORMED');
      const free = createCodec(format, { schema: t.object('R', { data: t.json() }), compile });
      const wrapped = new Uint8Array([
        format === 'cbor' ? 0xa1 : 0x81,
        ...(format === 'cbor' ? [0x64] : [0xa4]),
        ...utf8('data'),
        ...bytes,
      ]);
      expect(refusal(() => free.decode(wrapped)).code).toBe('WK_DECODE_MALFORMED');
    }
  });

  test('an Avro schema nested a million deep in an object without a type', () => {
    expect(refusal(() => schemaFromAvro({ items: deepValue(1_000_000) } as never)).code).toBe(
      'WK_SCHEMA_IMPORT',
    );
  });
});
