/**
 * Interop with @uwdata/flechette, an Arrow implementation independent of apache-arrow: each side
 * reads what the other writes, for every field of EveryKindFlat, in the stream and the file format.
 */

import { Decoder as ZstdDecoder, Encoder as ZstdEncoder } from '@toondepauw/node-zstd';
import {
  binary,
  bool,
  CompressionType,
  decimal,
  dictionary,
  field,
  float32,
  float64,
  int8,
  int16,
  int32,
  int64,
  list,
  map,
  setCompressionCodec,
  struct,
  TimeUnit,
  tableFromArrays,
  tableFromIPC,
  tableToIPC,
  timestamp,
  UnionMode,
  uint8,
  uint16,
  uint32,
  uint64,
  union,
  utf8,
} from '@uwdata/flechette';
import { compressFrameSync, decompressFrameSync } from 'lz4-napi';
import { describe, expect, test } from 'vitest';
import { createArrowCodec } from '../../../src/codecs/arrow/index.js';
import type { Infer } from '../../../src/index.js';
import { EveryKindFlat, everyKindValue } from '../../fixtures/every-kind.js';
import { codeOf } from '../../support/code-of.js';

type Flat = Infer<typeof EveryKindFlat>;

function rows(): Flat[] {
  const { category: _, ...first } = everyKindValue();
  return [
    first,
    {
      ...first,
      i64: 42n,
      price: '0.05',
      work: { street: 'Work St', zip: '' },
      nickname: 'Z',
      manager: 'Ann',
      color: 'blue',
      shape: { kind: 'rect', width: 3, height: 4 },
      shapes: [],
      scores: {},
      byId: new Map(),
      tags: [],
      matrix: [],
      extra: [1, 'two'],
    },
  ];
}

/** The values flechette reports for a row: its own spellings of each wirekit kind. */
function asFlechette(row: Flat) {
  const { version: _, ...rest } = row;
  const unscaled = (price: string) => BigInt(price.replace('.', ''));
  const untag = ({ kind: _kind, ...fields }: { kind: string }) => fields;
  return {
    ...rest,
    i64n: BigInt(row.i64n),
    price: unscaled(row.price),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    work: row.work ?? null,
    nickname: row.nickname ?? null,
    matrix: row.matrix.map((items) => Int32Array.from(items)),
    scores: new Map(Object.entries(row.scores)),
    shape: untag(row.shape),
    shapes: row.shapes.map(untag),
    extra: JSON.stringify(row.extra),
  };
}

const read = (bytes: Uint8Array) =>
  tableFromIPC(bytes, { useBigInt: true, useDecimalInt: true, useMap: true, useDate: true }).toArray();

describe('flechette reads what wirekit writes', () => {
  for (const ipcFormat of ['stream', 'file'] as const) {
    test(`every field of EveryKindFlat (${ipcFormat})`, () => {
      const codec = createArrowCodec<Flat>({ schema: EveryKindFlat, ipcFormat, batchSize: 1 });
      const seen = read(codec.encode(rows()));
      expect(seen).toEqual(rows().map(asFlechette));
    });
  }
});

/** Flechette types that match toArrowSchema(EveryKindFlat), field by field. */
function flechetteTypes() {
  const address = struct([field('street', utf8(), false), field('zip', utf8(), false)]);
  const circle = struct([field('radius', float64(), false)]);
  const rect = struct([field('width', float32(), false), field('height', float32(), false)]);
  const shape = () =>
    union(
      UnionMode.Dense,
      [field('circle', circle, false), field('rect', rect, false)],
      [0, 1],
      (value: { kind: string }) => (value.kind === 'circle' ? 0 : 1),
    );
  return {
    flag: bool(),
    i8: int8(),
    i16: int16(),
    i32: int32(),
    u8: uint8(),
    u16: uint16(),
    u32: uint32(),
    i64: int64(),
    u64: uint64(),
    i64n: int64(),
    f32: float32(),
    f64: float64(),
    price: decimal(12, 2, 128),
    name: utf8(),
    blob: binary(),
    createdAt: timestamp(TimeUnit.MILLISECOND, 'UTC'),
    updatedAt: timestamp(TimeUnit.MICROSECOND, 'UTC'),
    color: dictionary(utf8(), int8()),
    home: address,
    work: address,
    tags: list(utf8()),
    matrix: list(list(int32())),
    scores: map(utf8(), float64()),
    byId: map(int32(), address),
    nickname: utf8(),
    manager: utf8(),
    shape: shape(),
    shapes: list(field('item', shape(), false)),
    extra: utf8(),
    legacy: utf8(),
  };
}

/** The rows as flechette's builders take them: one array per column. */
function flechetteColumns(values: Flat[]) {
  const column = <K extends keyof Flat>(name: K) => values.map((row) => row[name]);
  const types = flechetteTypes();
  return Object.fromEntries(
    (Object.keys(types) as (keyof Flat)[]).map((name) => {
      switch (name) {
        case 'price':
          return [name, values.map((row) => BigInt(row.price.replace('.', '')))];
        case 'i64n':
          return [name, values.map((row) => BigInt(row.i64n))];
        case 'scores':
          return [name, values.map((row) => new Map(Object.entries(row.scores)))];
        case 'extra':
          return [name, values.map((row) => JSON.stringify(row.extra))];
        case 'work':
        case 'nickname':
          return [name, values.map((row) => row[name] ?? null)];
        default:
          return [name, column(name)];
      }
    }),
  );
}

describe('wirekit reads what flechette writes', () => {
  for (const format of ['stream', 'file'] as const) {
    test(`every field of EveryKindFlat (${format})`, () => {
      const table = tableFromArrays(flechetteColumns(rows()), { types: flechetteTypes() });
      const bytes = tableToIPC(table, { format }) as Uint8Array;
      const codec = createArrowCodec<Flat>({ schema: EveryKindFlat });
      expect(codec.decode(bytes)).toEqual(rows());
      expect(codec.decodeTable(bytes).numRows).toBe(2);
    });
  }

  test('dictionaries in first-seen order (not the enum order) map to the right members', () => {
    const values = [...rows(), { ...(rows()[0] as Flat), color: 'red' as const }];
    const table = tableFromArrays(flechetteColumns(values), { types: flechetteTypes() });
    const decoded = createArrowCodec<Flat>({ schema: EveryKindFlat }).decode(
      tableToIPC(table, {}) as Uint8Array,
    );
    expect(decoded.map((row) => row.color)).toEqual(['green', 'blue', 'red']);
  });

  test('a wider integer column is read where its values fit; a column of another kind is a mismatch', () => {
    const codec = createArrowCodec<Flat>({ schema: EveryKindFlat });
    const wider = tableFromArrays(flechetteColumns(rows()), { types: { ...flechetteTypes(), i16: int32() } });
    expect(codec.decode(tableToIPC(wider, {}) as Uint8Array)).toEqual(rows());
    const text = tableFromArrays(
      { ...flechetteColumns(rows()), i16: rows().map((row) => String(row.i16)) },
      { types: { ...flechetteTypes(), i16: utf8() } },
    );
    expect(codeOf(() => codec.decode(tableToIPC(text, {}) as Uint8Array))).toBe('WK_DECODE_SCHEMA_MISMATCH');
  });

  test('compressed bodies (LZ4_FRAME, ZSTD) from flechette read as the uncompressed ones', () => {
    // flechette takes its codecs from the caller: here the same native libraries wirekit loads.
    setCompressionCodec(CompressionType.LZ4_FRAME, {
      encode: (bytes) => compressFrameSync(Buffer.from(bytes)),
      decode: (bytes) => decompressFrameSync(Buffer.from(bytes)),
    });
    setCompressionCodec(CompressionType.ZSTD, {
      encode: (bytes) => new ZstdEncoder(1).encodeSync(Buffer.from(bytes)),
      decode: (bytes) => new ZstdDecoder().decodeSync(Buffer.from(bytes)),
    });
    const table = tableFromArrays(flechetteColumns(rows()), { types: flechetteTypes() });
    const codec = createArrowCodec<Flat>({ schema: EveryKindFlat });
    for (const compression of [CompressionType.LZ4_FRAME, CompressionType.ZSTD]) {
      for (const format of ['stream', 'file'] as const) {
        const bytes = tableToIPC(table, { codec: compression, format }) as Uint8Array;
        expect(codec.decode(bytes)).toEqual(rows());
        expect(createArrowCodec().decode(bytes)).toEqual(
          createArrowCodec().decode(tableToIPC(table, { format }) as Uint8Array),
        );
      }
    }
  });

  test('buffers stored as they are (length -1) in a compressed body are read', () => {
    // With a "codec" that saves nothing, flechette stores every buffer as it is, marked -1.
    setCompressionCodec(CompressionType.ZSTD, { encode: (bytes) => bytes, decode: (bytes) => bytes });
    const table = tableFromArrays(flechetteColumns(rows()), { types: flechetteTypes() });
    const bytes = tableToIPC(table, { codec: CompressionType.ZSTD }) as Uint8Array;
    expect(createArrowCodec<Flat>({ schema: EveryKindFlat }).decode(bytes)).toEqual(rows());
  });
});
