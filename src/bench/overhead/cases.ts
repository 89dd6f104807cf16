/**
 * The implementations the overhead benchmark times: each wirekit codec, and the library beneath it
 * (or the best-known JavaScript library of its format) used directly, on the same records.
 * Every case goes bytes-to-bytes: JSON includes its UTF-8 step, and decoders' output is touched
 * field by field, so lazy decoders pay their real cost.
 */
import { createRequire } from 'node:module';
import * as arrow from 'apache-arrow';
import { createCodec } from '../../codecs/registry.js';
import { toArrowSchema } from '../../schema/export/arrow.js';
import { toAvro } from '../../schema/export/avro.js';
import { toProto } from '../../schema/export/proto.js';
import { t } from '../../schema/index.js';
import type { Record8 } from '../datasets/records.js';
import { Record8 as Record8Schema } from '../datasets/records.js';

export interface BenchCase {
  readonly name: string;
  /** Converts the shared records into what this implementation takes (not timed). */
  readonly prepare: (rows: Record8[]) => unknown;
  readonly encode: (value: unknown) => Uint8Array;
  readonly decode: (bytes: Uint8Array) => unknown;
}

const require = createRequire(import.meta.url);
const Rows = t.array(Record8Schema);
const RowsMessage = t.object('Rows', { rows: Rows });
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Plain records as protobufjs and avsc take them: no Dates, timestamps as their wire numbers. */
const asMillis = (rows: Record8[]) => rows.map((row) => ({ ...row, createdAt: row.createdAt.getTime() }));

function wirekit(format: string, schema: boolean): BenchCase {
  const codec = createCodec(format, schema ? { schema: Rows } : {});
  return {
    name: `wirekit ${format}${schema ? '' : ' (schemaless)'}`,
    prepare: (rows) => rows,
    encode: (v) => codec.encode(v),
    decode: (b) => codec.decode(b),
  };
}

export const cases: Record<string, () => BenchCase> = {
  'json native': () => ({
    name: 'JSON.stringify/parse',
    prepare: (rows) => rows,
    encode: (v) => encoder.encode(JSON.stringify(v)),
    decode: (b) => JSON.parse(decoder.decode(b)),
  }),
  'json wirekit-schemaless': () => wirekit('json', false),
  'json wirekit': () => wirekit('json', true),
  'msgpack msgpackr': () => {
    const { Packr } = require('msgpackr') as typeof import('msgpackr');
    const packr = new Packr({ useRecords: false });
    return {
      name: 'msgpackr (plain)',
      prepare: (rows) => rows,
      encode: (v) => packr.pack(v),
      decode: (b) => packr.unpack(b),
    };
  },
  'msgpack wirekit': () => wirekit('msgpack', true),
  'msgpack wirekit-schemaless': () => wirekit('msgpack', false),
  'cbor cbor-x': () => {
    const { Encoder } = require('cbor-x') as typeof import('cbor-x');
    const cbor = new Encoder({ useRecords: false });
    return {
      name: 'cbor-x',
      prepare: (rows) => rows,
      encode: (v) => cbor.encode(v),
      decode: (b) => cbor.decode(b),
    };
  },
  'cbor wirekit': () => wirekit('cbor', true),
  'cbor wirekit-schemaless': () => wirekit('cbor', false),
  'protobuf protobufjs': () => {
    const protobuf = require('protobufjs') as typeof import('protobufjs');
    const root = protobuf.parse(toProto(RowsMessage), { keepCase: true }).root;
    root.addJSON((protobuf.common.get('google/protobuf/timestamp.proto') as { nested: never }).nested);
    const type = root.lookupType('Rows');
    return {
      name: 'protobufjs',
      prepare: (rows) => ({
        rows: rows.map((row) => ({
          ...row,
          createdAt: {
            seconds: Math.floor(row.createdAt.getTime() / 1000),
            nanos: (row.createdAt.getTime() % 1000) * 1e6,
          },
        })),
      }),
      encode: (v) => type.encode(v as never).finish(),
      decode: (b) => type.toObject(type.decode(b), { longs: Number }),
    };
  },
  'protobuf wirekit': () => {
    const codec = createCodec('protobuf', { schema: RowsMessage });
    return {
      name: 'wirekit protobuf',
      prepare: (rows) => ({ rows }),
      encode: (v) => codec.encode(v as never),
      decode: (b) => codec.decode(b),
    };
  },
  'avro avsc': () => {
    const avsc = require('avsc') as typeof import('avsc');
    const type = avsc.Type.forSchema({ type: 'array', items: toAvro(Record8Schema) } as never);
    return {
      name: 'avsc',
      prepare: asMillis,
      encode: (v) => type.toBuffer(v),
      decode: (b) => type.fromBuffer(Buffer.from(b.buffer, b.byteOffset, b.length)),
    };
  },
  'avro wirekit': () => wirekit('avro', true),
  'flatbuffers wirekit': () => wirekit('flatbuffers', true),
  'arrow apache-arrow': () => {
    // apache-arrow's own row path: a Struct builder fed row objects, then the IPC writer. (Imported
    // as ESM: its CommonJS build has other classes, which its ESM schema objects do not match.)
    const schema = toArrowSchema(Record8Schema);
    const type = new arrow.Struct(schema.fields);
    return {
      name: 'apache-arrow (row builder)',
      prepare: asMillis,
      encode: (v) => {
        const builder = arrow.makeBuilder({ type, nullValues: [null, undefined] });
        for (const row of v as unknown[]) builder.append(row as never);
        const data = builder.finish().flush();
        return arrow.tableToIPC(new arrow.Table(new arrow.RecordBatch(schema, data)), 'stream');
      },
      decode: (b) =>
        arrow
          .tableFromIPC(b)
          .toArray()
          .map((row) => row.toJSON()),
    };
  },
  'arrow wirekit': () => {
    const codec = createCodec('arrow', { schema: Record8Schema });
    return {
      name: 'wirekit arrow',
      prepare: (rows) => rows,
      encode: (v) => codec.encode(v as never),
      decode: (b) => codec.decode(b),
    };
  },
};

/** Reads every field of every decoded record, so lazy decoders pay for what they skipped. */
export function touch(value: unknown): number {
  let sum = 0;
  const visit = (item: unknown): void => {
    if (Array.isArray(item)) for (const x of item) visit(x);
    else if (
      typeof item === 'object' &&
      item !== null &&
      !(item instanceof Date) &&
      !(item instanceof Uint8Array)
    ) {
      for (const key in item) visit((item as Record<string, unknown>)[key]);
    } else if (typeof item === 'string') sum += item.length;
    else sum += 1;
  };
  visit(value);
  return sum;
}
