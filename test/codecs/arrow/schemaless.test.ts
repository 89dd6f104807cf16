/**
 * The Arrow codec without a schema: rows read by the input's own Arrow types. The hostile-input
 * suite runs against it as against the schema's readers, with inputs crafted for what only a
 * schemaless reader meets (any field name, any type, dictionaries of any leaf type).
 */
import {
  Binary,
  DenseUnion,
  Dictionary,
  Field,
  Int32,
  LargeUtf8,
  makeData,
  makeVector,
  Null,
  Struct,
  Table,
  tableToIPC,
  Utf8,
  Utf8View,
  vectorFromArray,
} from 'apache-arrow';
import * as flatbuffers from 'flatbuffers';
import { describe, expect, test } from 'vitest';
import { createArrowCodec } from '../../../src/codecs/arrow/index.js';
import type { Codec } from '../../../src/codecs/core/codec.js';
import { createCodec, formatNeedsSchema } from '../../../src/codecs/registry.js';
import { type Infer, t } from '../../../src/index.js';
import { nestedListStream, oneFieldStream } from '../../fixtures/arrow-messages.js';
import { EveryKindFlat, everyKindValue } from '../../fixtures/every-kind.js';
import { codeOf } from '../../support/code-of.js';
import { outcome } from '../../support/outcome.js';
import { describeHostileInput } from '../../support/suites/hostile-input.js';

type Flat = Infer<typeof EveryKindFlat>;

function flatValue(): Flat {
  const { category: _, ...rest } = everyKindValue();
  return rest;
}

/** Replaces the first occurrence of `from` in `bytes` with `to` (same length). */
function patch(bytes: Uint8Array, from: string, to: string | number[]): Uint8Array {
  const needle = new TextEncoder().encode(from);
  const out = bytes.slice();
  for (let i = 0; i + needle.length <= out.length; i++) {
    if (needle.every((byte, j) => out[i + j] === byte)) {
      out.set(typeof to === 'string' ? new TextEncoder().encode(to) : to, i);
      return out;
    }
  }
  throw new Error(`${from} not found`);
}

/** A framed IPC message from its FlatBuffers Message table. */
function frame(metadata: Uint8Array): Uint8Array {
  const out = new Uint8Array(8 + metadata.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0xffffffff, true);
  view.setInt32(4, metadata.length, true);
  out.set(metadata, 8);
  return out;
}

/** A Message (V5) of header type `headerType` around the header table `build` adds. */
function message(headerType: number, build: (b: flatbuffers.Builder) => number): Uint8Array {
  const b = new flatbuffers.Builder(256);
  const header = build(b);
  b.startObject(5);
  b.addFieldInt16(0, 4, 0);
  b.addFieldInt8(1, headerType, 0);
  b.addFieldOffset(2, header, 0);
  b.finish(b.endObject());
  return frame(b.asUint8Array());
}

/** A schema of one field of type Null, dictionary-encoded with id 0 and Int32 indices. */
function nullDictionarySchema(b: flatbuffers.Builder): number {
  const name = b.createString('d');
  b.startObject(2);
  b.addFieldInt32(0, 32, 0);
  b.addFieldInt8(1, 1, 0);
  const indexType = b.endObject();
  b.startObject(3);
  b.addFieldInt64(0, 0n, -1n);
  b.addFieldOffset(1, indexType, 0);
  const encoding = b.endObject();
  b.startObject(0);
  const nullType = b.endObject();
  b.startObject(7);
  b.addFieldOffset(0, name, 0);
  b.addFieldInt8(1, 1, 0);
  b.addFieldInt8(2, 1, 0);
  b.addFieldOffset(3, nullType, 0);
  b.addFieldOffset(4, encoding, 0);
  const field = b.endObject();
  b.startVector(4, 1, 4);
  b.addOffset(field);
  const fields = b.endVector();
  b.startObject(4);
  b.addFieldOffset(1, fields, 0);
  return b.endObject();
}

/** A record batch header of `length` rows with one field node of that length and no buffers. */
function batchOf(b: flatbuffers.Builder, length: number): number {
  b.startVector(16, 1, 8);
  b.addInt64(0n);
  b.addInt64(BigInt(length));
  const nodes = b.endVector();
  b.startObject(5);
  b.addFieldInt64(0, BigInt(length), 0n);
  b.addFieldOffset(1, nodes, 0);
  return b.endObject();
}

const endOfStream = new Uint8Array([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);
const concat = (...parts: Uint8Array[]) => new Uint8Array(parts.flatMap((part) => [...part]));

describe('arrow without a schema: wirekit streams', () => {
  const typed = createArrowCodec<Flat>({ schema: EveryKindFlat });
  const schemaless = createArrowCodec();

  test('a wirekit stream reads back with wirekit’s metadata honoured: JSON parsed, union tags restored', () => {
    const [row] = schemaless.decode(typed.encode([flatValue()]));
    const value = flatValue();
    expect(row).toMatchObject({
      // int64 within safe integers is a number; beyond, a bigint.
      i64: value.i64,
      i64n: value.i64n,
      price: value.price,
      shape: value.shape,
      shapes: value.shapes,
      extra: value.extra,
      byId: value.byId,
      scores: value.scores,
      color: value.color,
      // Arrow keeps one null: an absent optional field reads as null.
      nickname: null,
    });
  });

  test('the file format, decodeStream, decodeTable and decodeBatches work as with a schema', async () => {
    const file = createArrowCodec<Flat>({ schema: EveryKindFlat, ipcFormat: 'file', batchSize: 1 });
    const bytes = file.encode([flatValue(), flatValue()]);
    expect(schemaless.decode(bytes)).toHaveLength(2);
    expect(schemaless.decodeTable(bytes).numRows).toBe(2);
    const rows: unknown[] = [];
    async function* chunks() {
      yield typed.encode([flatValue(), flatValue()]);
    }
    for await (const row of schemaless.decodeStream(chunks())) rows.push(row);
    expect(rows).toEqual(schemaless.decode(bytes));
    const batches: number[] = [];
    async function* whole() {
      yield bytes;
    }
    for await (const batch of schemaless.decodeBatches(whole())) batches.push(batch.numRows);
    expect(batches).toEqual([1, 1]);
  });

  test('the registry: Arrow needs a schema to encode, not to decode', () => {
    expect([formatNeedsSchema('arrow'), formatNeedsSchema('arrow', 'decode')]).toEqual([true, false]);
    expect([formatNeedsSchema('avro'), formatNeedsSchema('avro', 'decode')]).toEqual([true, true]);
    expect([formatNeedsSchema('json'), formatNeedsSchema('json', 'decode')]).toEqual([false, false]);
    expect(
      createCodec('application/vnd.apache.arrow.stream').decode(typed.encode([flatValue()])),
    ).toHaveLength(1);
    expect(codeOf(() => createCodec('protobuf', { schema: undefined }))).toBe('WK_SCHEMA_REQUIRED');
  });

  test('encode and encodeStream refuse with WK_SCHEMA_REQUIRED, naming inferSchema', () => {
    expect(codeOf(() => schemaless.encode([{ a: 1 }]))).toBe('WK_SCHEMA_REQUIRED');
    expect(codeOf(() => schemaless.encodeStream([{ a: 1 }]))).toBe('WK_SCHEMA_REQUIRED');
    expect(outcome(() => schemaless.encode([])).ok).toBe(false);
    expect((outcome(() => schemaless.encode([])) as { message: string }).message).toMatch(/inferSchema/);
    expect([schemaless.schema, schemaless.arrowSchema, schemaless.compiled]).toEqual([
      undefined,
      undefined,
      false,
    ]);
  });
});

describe('arrow without a schema: what only a schemaless reader meets', () => {
  const schemaless = createArrowCodec();
  const ipc = (columns: Record<string, ReturnType<typeof makeVector>>) =>
    tableToIPC(new Table(columns), 'stream') as Uint8Array;

  test('a field that could reach a prototype is refused, and two fields of one name too', () => {
    const text = vectorFromArray(['a']);
    const bytes = ipc({ xxproto__: text, plain: text });
    expect(codeOf(() => schemaless.decode(patch(bytes, 'xxproto__', '__proto__')))).toBe(
      'WK_DECODE_UNSAFE_KEY',
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(codeOf(() => schemaless.decode(patch(bytes, 'xxproto__', 'plainxxxx').slice()))).toBe('no error');
    const twins = ipc({ same1: text, same2: text });
    expect(codeOf(() => schemaless.decode(patch(twins, 'same2', 'same1')))).toBe('WK_DECODE_SCHEMA_MISMATCH');
  });

  test('a nested struct field name is checked as well', () => {
    const inner = makeData({
      type: new Struct([new Field('xxproto__', new Int32())]),
      length: 1,
      children: [makeData({ type: new Int32(), length: 1, data: new Int32Array([1]) })],
    });
    const bytes = ipc({ s: makeVector(inner) });
    expect(codeOf(() => schemaless.decode(patch(bytes, 'xxproto__', '__proto__')))).toBe(
      'WK_DECODE_UNSAFE_KEY',
    );
  });

  test('types wirekit does not read are refused by name, with the field', () => {
    const unread = [
      ['RunEndEncoded', 22, 2],
      ['ListView', 25, 1],
      ['LargeListView', 26, 1],
    ] as const;
    for (const [kind, typeType, children] of unread) {
      const bytes = oneFieldStream('runs', typeType, children);
      for (const codec of [schemaless, createArrowCodec({ schema: t.object('R', { runs: t.int32() }) })])
        expect(outcome(() => codec.decode(bytes))).toMatchObject({
          ok: false,
          code: 'WK_DECODE_SCHEMA_MISMATCH',
          message: expect.stringContaining(`field "runs": ${kind} is not read by wirekit`),
        });
    }
  });

  test('a dictionary of binary values is refused (rows could not share them safely)', () => {
    const dictionary = makeVector(
      makeData({
        type: new Binary(),
        length: 1,
        valueOffsets: new Int32Array([0, 1]),
        data: new Uint8Array([7]),
      }),
    );
    const type = new Dictionary(new Binary(), new Int32(), 0);
    const data = makeData({ type, length: 1, data: new Int32Array([0]), dictionary });
    expect(codeOf(() => schemaless.decode(ipc({ d: makeVector(data) })))).toBe('WK_DECODE_SCHEMA_MISMATCH');
  });

  test('a dense union whose offsets into one child repeat is malformed (each entry is read once)', () => {
    const child = makeData({ type: new Int32(), length: 1, data: new Int32Array([5]) });
    const union = makeData({
      type: new DenseUnion([0], [new Field('n', new Int32())]),
      length: 3,
      typeIds: new Int8Array([0, 0, 0]),
      valueOffsets: new Int32Array([0, 0, 0]),
      children: [child],
    });
    const bytes = ipc({ u: makeVector(union) });
    expect(codeOf(() => schemaless.decode(bytes))).toBe('WK_DECODE_MALFORMED');
    const fine = makeData({
      ...union,
      type: union.type,
      valueOffsets: new Int32Array([0, 1, 2]),
      children: [makeData({ type: new Int32(), length: 3, data: new Int32Array([5, 6, 7]) })],
    } as never);
    expect(schemaless.decode(ipc({ u: makeVector(fine) }))).toEqual([{ u: 5 }, { u: 6 }, { u: 7 }]);
  });

  test('a Null column claiming a billion rows stops at maxElements, allocating nothing', () => {
    const schema = ipc({ n: makeVector(makeData({ type: new Null(), length: 0 })) }).subarray(0, -8);
    const header = schema.subarray(0, schema.length);
    const bomb = concat(
      header,
      message(3, (b) => batchOf(b, 1e9)),
      endOfStream,
    );
    const before = process.memoryUsage().heapUsed;
    expect(codeOf(() => schemaless.decode(bomb))).toBe('WK_LIMIT_ELEMENTS');
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(64 * 1024 * 1024);
    expect(
      schemaless.decode(
        concat(
          header,
          message(3, (b) => batchOf(b, 2)),
          endOfStream,
        ),
      ),
    ).toEqual([{ n: null }, { n: null }]);
  });

  test('a dictionary claiming 2^31 - 1 entries of nothing stops at maxElements', () => {
    const schema = message(1, nullDictionarySchema);
    const dictionary = message(2, (b) => {
      const batch = batchOf(b, 0x7fffffff);
      b.startObject(3);
      b.addFieldInt64(0, 0n, -1n);
      b.addFieldOffset(1, batch, 0);
      return b.endObject();
    });
    const bomb = concat(schema, dictionary, endOfStream);
    expect(codeOf(() => schemaless.decode(bomb))).toBe('WK_LIMIT_ELEMENTS');
    // Dictionaries count as they accumulate, across deltas and batches.
    const small = message(2, (b) => {
      const batch = batchOf(b, 600);
      b.startObject(3);
      b.addFieldInt64(0, 0n, -1n);
      b.addFieldOffset(1, batch, 0);
      b.addFieldInt8(2, 1, 0);
      return b.endObject();
    });
    const limited = createArrowCodec({ limits: { maxElements: 1000 } });
    expect(codeOf(() => limited.decode(concat(schema, small, endOfStream)))).toBe('no error');
    expect(codeOf(() => limited.decode(concat(schema, small, small, endOfStream)))).toBe('WK_LIMIT_ELEMENTS');
  });

  test('limits on strings and bytes hold for the large and fixed-size types', () => {
    const large = makeData({
      type: new LargeUtf8(),
      length: 1,
      valueOffsets: new BigInt64Array([0n, 20n]),
      data: new TextEncoder().encode('x'.repeat(20)),
    });
    const bytes = ipc({ s: makeVector(large) });
    expect(schemaless.decode(bytes)).toEqual([{ s: 'x'.repeat(20) }]);
    expect(codeOf(() => createArrowCodec({ limits: { maxStringBytes: 10 } }).decode(bytes))).toBe(
      'WK_LIMIT_LENGTH',
    );
    const invalid = patch(bytes, 'xxxx', '\u00ff\u00fe');
    expect(codeOf(() => schemaless.decode(invalid.slice(0, invalid.length)))).not.toBe('ok');
  });

  test('string views that share their bytes may not add up to more than maxInputBytes', () => {
    const n = 1000;
    const text = new TextEncoder().encode('y'.repeat(1000));
    const views = new Uint8Array(16 * n);
    const view = new DataView(views.buffer);
    for (let i = 0; i < n; i++) {
      // Every view: 1,000 bytes at offset 0 of data buffer 0, prefix "yyyy".
      view.setInt32(16 * i, 1000, true);
      views.set(text.subarray(0, 4), 16 * i + 4);
    }
    const data = makeData({ type: new Utf8View(), length: n, views, variadicBuffers: [text] } as never);
    const bytes = ipc({ s: makeVector(data) });
    expect(bytes.length).toBeLessThan(20_000);
    expect(schemaless.decode(bytes)[999]).toEqual({ s: 'y'.repeat(1000) });
    expect(codeOf(() => createArrowCodec({ limits: { maxInputBytes: 100_000 } }).decode(bytes))).toBe(
      'WK_LIMIT_INPUT',
    );
    // A view whose prefix is not its value's first bytes is malformed.
    views[4] = 0x7a;
    const wrong = ipc({
      s: makeVector(makeData({ type: new Utf8View(), length: n, views, variadicBuffers: [text] } as never)),
    });
    expect(codeOf(() => schemaless.decode(wrong))).toBe('WK_DECODE_MALFORMED');
  });

  test('text that is not UTF-8 is malformed, in plain and large columns', () => {
    const utf8 = ipc({
      s: makeVector(
        makeData({
          type: new Utf8(),
          length: 1,
          valueOffsets: new Int32Array([0, 4]),
          data: new Uint8Array([0x7a, 0xff, 0xfe, 0x7a]),
        }),
      ),
    });
    expect(codeOf(() => schemaless.decode(utf8))).toBe('WK_DECODE_MALFORMED');
  });
});

// The hostile-input suite: wirekit's own streams (every kind flattened), read without a schema.
for (const ipcFormat of ['stream', 'file'] as const) {
  const typed = createArrowCodec<Flat>({ schema: EveryKindFlat, ipcFormat, batchSize: 2 });
  const withLimits = (limits: Record<string, number>) => {
    const reader = createArrowCodec({ limits });
    return { ...reader, encode: typed.encode } as unknown as Codec<Flat[]>;
  };
  const planted = (row: Flat, from: string, to: string | number[]) => patch(typed.encode([row]), from, to);
  describeHostileInput(`arrow without a schema (${ipcFormat})`, {
    codec: withLimits({}),
    withLimits,
    samples: [
      [],
      [flatValue()],
      [flatValue(), { ...flatValue(), work: { street: 'x', zip: 'y' } }, flatValue()],
    ],
    deep: nestedListStream,
    hugeLength: () => {
      const bytes = new Uint8Array(16);
      new DataView(bytes.buffer).setUint32(0, 0xffffffff, true);
      new DataView(bytes.buffer).setInt32(4, 0x7fffffff, true);
      return bytes;
    },
    invalidUtf8: () => planted({ ...flatValue(), name: 'zqzqzq' }, 'zqzq', [0x7a, 0xff, 0xfe, 0x7a]),
    protoKey: () => planted({ ...flatValue(), scores: { xxproto__: 1 } }, 'xxproto__', '__proto__'),
    detectsTrailing: true,
    mutationRuns: 400,
  });
}
