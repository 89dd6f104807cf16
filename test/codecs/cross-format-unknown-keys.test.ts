/**
 * One rule for a key the reader's schema does not name, in all seven formats, compiled and
 * interpreted (docs/values.md, "Unknown keys on the wire"). A newer writer's schema adds a field
 * (appended, so no field number moves), writes a value, and a reader with the older schema reads
 * it: with `unknownKeys: 'ignore'` (the default) every reader gives the value without the key, with
 * `'reject'` every reader refuses it with WK_DECODE_SCHEMA_MISMATCH, at the key's path where the
 * format tracks paths. Generated over the positions a key can sit at × every kind of value under it;
 * then the values the rule must survive: a `__proto__` key (hand-built bytes, since no wirekit
 * writer makes one), nesting past maxDepth, huge values (refused without being read), and the
 * null and absent values whose keys some wires do not carry at all.
 */
import {
  Schema as ArrowSchema,
  Field,
  Int32,
  makeData,
  RecordBatch,
  Struct,
  Table,
  tableToIPC,
  Utf8,
} from 'apache-arrow';
import { describe, expect, test } from 'vitest';
import { type Codec, type FormatName, formatNames, type UnknownKeys } from '../../src/codecs/core/codec.js';
import { createCodec } from '../../src/codecs/registry.js';
import { isWirekitError, type Path, type Schema, t } from '../../src/index.js';
import { toAvro } from '../../src/schema/export/index.js';

const paths = formatNames.flatMap((format) => [true, false].map((compile) => ({ format, compile })));
const options: readonly UnknownKeys[] = ['ignore', 'reject'];
/** Formats whose errors carry a path (the others give a byte offset). */
const withPaths = new Set<FormatName>(['json', 'msgpack', 'cbor']);

type Outcome =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly code: string; readonly path: Path | undefined };

function outcomeOf(body: () => unknown): Outcome {
  try {
    return { ok: true, value: body() };
  } catch (error) {
    // Anything but a WirekitError (a RangeError, a TypeError) is a crash: fail with it.
    if (!isWirekitError(error)) throw error;
    return { ok: false, code: error.code, path: error.path };
  }
}

/** The reader of `reader`'s values written with `writer` (Avro reads through resolution). */
function readerCodec(
  format: FormatName,
  compile: boolean,
  reader: Schema,
  writer: Schema,
  unknownKeys: UnknownKeys,
): Codec<unknown> {
  const avro = format === 'avro' ? { writerSchema: toAvro(writer) } : {};
  return createCodec(format, { schema: reader, compile, unknownKeys, ...avro } as never) as Codec<unknown>;
}

/** Writes `value` with `writer` and reads it with `reader`; Arrow carries it as a table of one row. */
function roundTrip(
  format: FormatName,
  compile: boolean,
  writer: Schema,
  reader: Schema,
  value: unknown,
  unknownKeys: UnknownKeys,
): Outcome {
  const write = createCodec(format, {
    schema: writer,
    compile,
    limits: { maxDepth: 1000 },
  }) as Codec<unknown>;
  const bytes = write.encode(format === 'arrow' ? [value] : value);
  const read = readerCodec(format, compile, reader, writer, unknownKeys);
  return outcomeOf(() => {
    const decoded = read.decode(bytes);
    return format === 'arrow' ? (decoded as unknown[])[0] : decoded;
  });
}

/** One place an unknown key can sit: the reader's and writer's schemas around the extra field. */
interface Position {
  readonly label: string;
  readonly reader: Schema;
  readonly writer: (extra: Schema) => Schema;
  /** The value the writer writes, with `extra` under the unknown key, and what the reader reads. */
  readonly value: (extra: unknown) => unknown;
  readonly read: unknown;
  /** The path of the unknown key. */
  readonly at: Path;
}

const Item = (extra?: Schema) =>
  t.object('Item', extra === undefined ? { x: t.int32() } : { x: t.int32(), extra });
const Shape = (extra?: Schema) =>
  t.union('Shape', 'kind', [
    t.object(
      'Circle',
      extra === undefined
        ? { kind: t.literal('circle'), r: t.float64() }
        : { kind: t.literal('circle'), r: t.float64(), extra },
    ),
    t.object('Square', { kind: t.literal('square'), side: t.float64() }),
  ]);

const positions: readonly Position[] = [
  {
    label: 'at the root',
    reader: t.object('Row', { a: t.int32() }),
    writer: (extra) => t.object('Row', { a: t.int32(), extra }),
    value: (extra) => ({ a: 1, extra }),
    read: { a: 1 },
    at: ['extra'],
  },
  {
    label: 'in a nested object',
    reader: t.object('Row', { a: t.int32(), item: Item() }),
    writer: (extra) => t.object('Row', { a: t.int32(), item: Item(extra) }),
    value: (extra) => ({ a: 1, item: { x: 2, extra } }),
    read: { a: 1, item: { x: 2 } },
    at: ['item', 'extra'],
  },
  {
    label: 'in a list item',
    reader: t.object('Row', { a: t.int32(), items: t.array(Item()) }),
    writer: (extra) => t.object('Row', { a: t.int32(), items: t.array(Item(extra)) }),
    value: (extra) => ({
      a: 1,
      items: [
        { x: 2, extra },
        { x: 3, extra },
      ],
    }),
    read: { a: 1, items: [{ x: 2 }, { x: 3 }] },
    at: ['items', 0, 'extra'],
  },
  {
    label: 'in a map value',
    reader: t.object('Row', { a: t.int32(), byId: t.map(t.string(), Item()) }),
    writer: (extra) => t.object('Row', { a: t.int32(), byId: t.map(t.string(), Item(extra)) }),
    value: (extra) => ({ a: 1, byId: { k: { x: 2, extra } } }),
    read: { a: 1, byId: { k: { x: 2 } } },
    at: ['byId', 'k', 'extra'],
  },
  {
    label: 'in a union variant',
    reader: t.object('Row', { a: t.int32(), shape: Shape() }),
    writer: (extra) => t.object('Row', { a: t.int32(), shape: Shape(extra) }),
    value: (extra) => ({ a: 1, shape: { kind: 'circle', r: 1.5, extra } }),
    read: { a: 1, shape: { kind: 'circle', r: 1.5 } },
    at: ['shape', 'extra'],
  },
];

function nestedJson(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i++) value = i % 2 === 0 ? [value] : { deeper: value };
  return value;
}

/** proto3 writes no field that holds its kind's default: the wire has no key to refuse. */
const protoDefault = { protobuf: 'proto3 writes no field holding its default (an empty string or list)' };

/**
 * Every kind of value the unknown key may hold (none null or absent: see the last describe);
 * `unwritten` names the formats whose wire leaves such a value out, key and all, and why.
 */
const kinds: readonly {
  readonly label: string;
  readonly schema: Schema;
  readonly value: unknown;
  readonly unwritten?: Partial<Record<FormatName, string>>;
}[] = [
  { label: 'an int32', schema: t.int32(), value: -7 },
  { label: 'a float64', schema: t.float64(), value: 1.5 },
  { label: 'a bool', schema: t.bool(), value: true },
  { label: 'a string', schema: t.string(), value: 'newer' },
  { label: 'an empty string', schema: t.string(), value: '', unwritten: protoDefault },
  { label: 'bytes', schema: t.bytes(), value: Uint8Array.of(1, 2, 3) },
  { label: 'an int64', schema: t.int64(), value: 2n ** 40n },
  { label: 'a decimal', schema: t.decimal({ precision: 6, scale: 2 }), value: '1234.50' },
  { label: 'a timestamp', schema: t.timestamp(), value: new Date(1_700_000_000_000) },
  { label: 'an enum', schema: t.enum('Tier', ['basic', 'gold']), value: 'gold' },
  {
    label: 'an object of objects',
    schema: t.object('Extra', { p: t.int32(), q: t.object('ExtraInner', { r: t.string() }) }),
    value: { p: 1, q: { r: 'deep' } },
  },
  {
    label: 'a list of objects',
    schema: t.array(t.object('ExtraItem', { p: t.int32() })),
    value: [{ p: 1 }, { p: 2 }],
  },
  { label: 'an empty list', schema: t.array(t.int32()), value: [], unwritten: protoDefault },
  { label: 'a map', schema: t.map(t.string(), t.int32()), value: { k: 1, j: 2 } },
  { label: 'an integer-keyed map', schema: t.map(t.int32(), t.string()), value: new Map([[1, 'one']]) },
  {
    label: 'a union',
    schema: t.union('Extras', 'type', [
      t.object('ExtraA', { type: t.literal('a'), n: t.int32() }),
      t.object('ExtraB', { type: t.literal('b') }),
    ]),
    value: { type: 'a', n: 4 },
  },
  { label: 'a json value', schema: t.json(), value: { list: [1, 'two', { three: null }] } },
  { label: 'a json value nested 40 deep (within maxDepth)', schema: t.json(), value: nestedJson(40) },
];

describe('an unknown key, by position × the kind of value under it', () => {
  for (const position of positions) {
    test.each(kinds.map((kind) => [kind.label, kind] as const))(
      `${position.label}, holding %s`,
      (_, kind) => {
        const writer = position.writer(kind.schema);
        const value = position.value(kind.value);
        for (const { format, compile } of paths) {
          for (const unknownKeys of options) {
            const name = `${format}${compile ? '' : ' (interpreted)'}, ${unknownKeys}`;
            const got = roundTrip(format, compile, writer, position.reader, value, unknownKeys);
            const unwritten = kind.unwritten?.[format];
            if (unknownKeys === 'ignore' || unwritten !== undefined) {
              expect
                .soft(got, `${name} ${unwritten ?? ''}`)
                .toStrictEqual({ ok: true, value: position.read });
              continue;
            }
            expect.soft(got.ok ? got : got.code, name).toBe('WK_DECODE_SCHEMA_MISMATCH');
            if (!got.ok && withPaths.has(format)) expect.soft(got.path, name).toEqual(position.at);
          }
        }
      },
    );
  }
});

describe('a __proto__ key the reader does not name is skipped or refused, never assigned', () => {
  // {"a": 1, "__proto__": {"polluted": true}} in each keyed format, by hand: wirekit's writers
  // refuse such keys, so only a hostile peer sends one.
  const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));
  const payloads: Partial<Record<FormatName, Uint8Array>> = {
    json: new TextEncoder().encode('{"a":1,"__proto__":{"polluted":true}}'),
    msgpack: Uint8Array.from([
      0x82,
      0xa1,
      ...ascii('a'),
      0x01,
      0xa9,
      ...ascii('__proto__'),
      0x81,
      0xa8,
      ...ascii('polluted'),
      0xc3,
    ]),
    cbor: Uint8Array.from([
      0xa2,
      0x61,
      ...ascii('a'),
      0x01,
      0x69,
      ...ascii('__proto__'),
      0xa1,
      0x68,
      ...ascii('polluted'),
      0xf5,
    ]),
  };
  const Row = t.object('Row', { a: t.int32() });

  test.each(Object.entries(payloads))('%s', (format, bytes) => {
    for (const compile of [true, false]) {
      const read = (unknownKeys: UnknownKeys) =>
        outcomeOf(() =>
          createCodec(format as FormatName, { schema: Row, compile, unknownKeys }).decode(bytes),
        );
      const ignored = read('ignore');
      expect(ignored).toStrictEqual({ ok: true, value: { a: 1 } });
      expect(Object.getPrototypeOf(ignored.ok && ignored.value)).toBe(Object.prototype);
      expect(read('reject')).toStrictEqual({
        ok: false,
        code: 'WK_DECODE_SCHEMA_MISMATCH',
        path: ['__proto__'],
      });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
  });

  test('arrow: a column named __proto__, from apache-arrow', () => {
    const schema = new ArrowSchema([
      new Field('a', new Int32(), false),
      new Field('__proto__', new Utf8(), true),
    ]);
    const a = makeData({ type: new Int32(), length: 1, data: Int32Array.of(1) });
    const proto = makeData({
      type: new Utf8(),
      length: 1,
      valueOffsets: Int32Array.of(0, 1),
      data: Uint8Array.of(0x78),
    });
    const rows = makeData({ type: new Struct(schema.fields), length: 1, nullCount: 0, children: [a, proto] });
    const bytes = tableToIPC(new Table([new RecordBatch(schema, rows)]), 'stream');
    for (const compile of [true, false]) {
      const read = (unknownKeys: UnknownKeys) =>
        outcomeOf(() => createCodec('arrow', { schema: Row, compile, unknownKeys }).decode(bytes));
      const ignored = read('ignore');
      expect(ignored).toStrictEqual({ ok: true, value: [{ a: 1 }] });
      expect(Object.getPrototypeOf(ignored.ok && (ignored.value as unknown[])[0])).toBe(Object.prototype);
      expect(read('reject')).toMatchObject({ ok: false, code: 'WK_DECODE_SCHEMA_MISMATCH' });
    }
  });
});

describe('values the rule must survive', () => {
  const Row = t.object('Row', { a: t.int32() });
  const WithExtra = (extra: Schema) => t.object('Row', { a: t.int32(), extra });

  test('nested past maxDepth: refused where the reader walks it to skip it, read past where the wire gives its length', () => {
    // MessagePack and CBOR find the value's end by walking it, under the limits; the others skip a
    // length (json values are text in Protocol Buffers, Avro, FlatBuffers and Arrow) or never look.
    // JSON text is parsed whole; a short one is not scanned for depth before the schema reads it.
    const walks = new Set<FormatName>(['msgpack', 'cbor']);
    const deep = { a: 1, extra: nestedJson(150) };
    for (const { format, compile } of paths) {
      const name = `${format}${compile ? '' : ' (interpreted)'}`;
      const ignored = roundTrip(format, compile, WithExtra(t.json()), Row, deep, 'ignore');
      const expected = walks.has(format) ? 'WK_LIMIT_DEPTH' : { ok: true, value: { a: 1 } };
      expect.soft(ignored.ok ? ignored : ignored.code, name).toStrictEqual(expected);
      // Refused at the key, before the value is walked.
      const rejected = roundTrip(format, compile, WithExtra(t.json()), Row, deep, 'reject');
      expect.soft(rejected.ok ? rejected : rejected.code, name).toBe('WK_DECODE_SCHEMA_MISMATCH');
    }
  });

  test('huge: skipped whole, or refused before a byte of it is read', () => {
    const huge = [
      { schema: t.string(), value: 'x'.repeat(2_000_000) },
      { schema: t.array(t.int32()), value: Array.from({ length: 200_000 }, (_, i) => i) },
    ];
    for (const { schema, value } of huge) {
      for (const { format, compile } of paths) {
        const name = `${format}${compile ? '' : ' (interpreted)'} ${schema.kind}`;
        const writer = createCodec(format, { schema: WithExtra(schema), compile }) as Codec<unknown>;
        const row = { a: 1, extra: value };
        const bytes = writer.encode(format === 'arrow' ? [row] : row).slice();
        const read = (unknownKeys: UnknownKeys, input: Uint8Array) =>
          outcomeOf(() => readerCodec(format, compile, Row, WithExtra(schema), unknownKeys).decode(input));
        const ignored = read('ignore', bytes);
        expect
          .soft(ignored.ok && (format === 'arrow' ? (ignored.value as unknown[])[0] : ignored.value), name)
          .toEqual({ a: 1 });
        expect
          .soft(read('reject', bytes), name)
          .toMatchObject({ ok: false, code: 'WK_DECODE_SCHEMA_MISMATCH' });
        // Cut inside the huge value: a reader that refuses at the key never meets the cut. (JSON is
        // parsed whole first; FlatBuffers' offsets all point into the cut-off end.)
        if (format === 'json' || format === 'flatbuffers') continue;
        const cut = bytes.subarray(0, bytes.length - 1000);
        expect
          .soft(read('reject', cut), `${name}, cut`)
          .toMatchObject({ ok: false, code: 'WK_DECODE_SCHEMA_MISMATCH' });
        expect.soft(read('ignore', cut), `${name}, cut`).toMatchObject({ ok: false });
      }
    }
  });

  test('null and absent: no key where the wire leaves them out, a key where it writes them', () => {
    // JSON, MessagePack and CBOR write a null under its key and leave an absent value out; Protocol
    // Buffers and FlatBuffers write neither (proto3 presence, an empty slot); Avro writes the null
    // branch of ["null", T], which is how it leaves a field out; Arrow's column is there either way.
    const refusedUnder = {
      null: new Set<FormatName>(['json', 'msgpack', 'cbor', 'arrow']),
      absent: new Set<FormatName>(['arrow']),
    };
    const cases = [
      { label: 'null' as const, schema: t.nullable(t.string()), value: { a: 1, extra: null } },
      { label: 'absent' as const, schema: t.optional(t.string()), value: { a: 1 } },
    ];
    for (const c of cases) {
      for (const { format, compile } of paths) {
        const name = `${c.label}, ${format}${compile ? '' : ' (interpreted)'}`;
        const read = { ok: true, value: { a: 1 } };
        expect
          .soft(roundTrip(format, compile, WithExtra(c.schema), Row, c.value, 'ignore'), name)
          .toStrictEqual(read);
        const rejected = roundTrip(format, compile, WithExtra(c.schema), Row, c.value, 'reject');
        if (refusedUnder[c.label].has(format))
          expect.soft(rejected.ok ? rejected : rejected.code, name).toBe('WK_DECODE_SCHEMA_MISMATCH');
        else expect.soft(rejected, name).toStrictEqual(read);
      }
    }
  });

  test('an unknownKeys value other than ignore or reject is refused when the codec is made', () => {
    for (const format of formatNames) {
      const made = outcomeOf(() =>
        createCodec(format, { schema: Row, unknownKeys: 'rejects' as UnknownKeys }),
      );
      expect(made, format).toMatchObject({ ok: false, code: 'WK_OPTIONS_INVALID' });
    }
  });
});
