/**
 * The implementations the overhead benchmark times: each wirekit codec, and the library beneath it
 * (or the best-known JavaScript library of its format) used directly, on the same records.
 * Every case goes bytes-to-bytes: JSON includes its UTF-8 step, and decoders' output is touched
 * field by field, so lazy decoders pay their real cost.
 */
import { createRequire } from 'node:module';
import * as arrow from 'apache-arrow';
import type { Codec, FormatName } from 'wirekit-ts/codecs';
import { createCodec } from 'wirekit-ts/codecs';
import { furyFor } from 'wirekit-ts/lab';
import { createProtoJsonCodec } from 'wirekit-ts/protobuf';
import { deref, type ObjectSchema, type Schema, t } from 'wirekit-ts/schema';
import { toArrowSchema, toAvro, toProto } from 'wirekit-ts/schema/export';
import type { Unit } from './datasets.js';

export interface BenchCase {
  readonly name: string;
  /**
   * Converts the shared rows into what this implementation takes, as the units it is called on:
   * one unit holding every row for a batch, one unit per row otherwise (not timed).
   */
  readonly prepare: (rows: Row[]) => unknown[];
  readonly encode: (value: unknown) => Uint8Array;
  readonly decode: (bytes: Uint8Array) => unknown;
}

type Row = Record<string, unknown>;

const require = createRequire(import.meta.url);
/** Decode limits for data the benchmark made itself: a million rows pass the untrusted-input defaults. */
export const limits = { maxInputBytes: 2 ** 32, maxElements: 2 ** 32, maxAllocatedBytes: 2 ** 40 };
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * A value as apache-arrow's row builder takes it, at any depth: timestamps as milliseconds, 64-bit
 * integers as bigints (its Int64 vectors refuse numbers) and string-keyed maps as Maps.
 */
function arrowInput(schema: Schema, value: unknown): unknown {
  const node = deref(schema);
  if (value === undefined || value === null) return value;
  switch (node.kind) {
    case 'timestamp':
      return (value as Date).getTime();
    case 'int64':
    case 'uint64':
      return BigInt(value as number | bigint);
    case 'optional':
    case 'nullable':
      return arrowInput(node.inner, value);
    case 'array':
      return (value as unknown[]).map((item) => arrowInput(node.items, item));
    case 'map':
      return new Map(
        [...(value instanceof Map ? value : Object.entries(value as Row))].map(([key, item]) => [
          key,
          arrowInput(node.values, item),
        ]),
      );
    case 'object': {
      const out: Row = {};
      for (const field of node.fields) out[field.name] = arrowInput(field.schema, (value as Row)[field.name]);
      return out;
    }
    default:
      return value;
  }
}

/**
 * A value as avsc takes it without logical types, at any depth: timestamps as milliseconds,
 * decimals as the big-endian two's-complement bytes of their unscaled integer, bytes as Buffers.
 */
function avscInput(schema: Schema, value: unknown): unknown {
  const node = deref(schema);
  if (value === undefined || value === null) return value;
  switch (node.kind) {
    case 'timestamp':
      return (value as Date).getTime();
    case 'decimal':
      return unscaledBytes(value as string, node.scale ?? 0);
    case 'bytes':
      return Buffer.from(value as Uint8Array);
    case 'optional':
    case 'nullable':
      return avscInput(node.inner, value);
    case 'array':
      return (value as unknown[]).map((item) => avscInput(node.items, item));
    case 'map': {
      const out: Row = {};
      for (const [key, item] of value instanceof Map ? value : Object.entries(value as Row))
        out[String(key)] = avscInput(node.values, item);
      return out;
    }
    case 'object': {
      const out: Row = {};
      for (const field of node.fields) out[field.name] = avscInput(field.schema, (value as Row)[field.name]);
      return out;
    }
    default:
      return value;
  }
}

/** "-12.05" at scale 2 as Avro's decimal bytes: -1205, big-endian two's complement, shortest. */
function unscaledBytes(text: string, scale: number): Buffer {
  const [whole = '', fraction = ''] = text.replace('-', '').split('.');
  let unscaled = BigInt(whole + fraction.padEnd(scale, '0').slice(0, scale));
  if (text.startsWith('-')) unscaled = -unscaled;
  const bytes: number[] = [];
  do {
    bytes.unshift(Number(unscaled & 0xffn));
    unscaled >>= 8n;
  } while (
    !(unscaled === 0n && (bytes[0] as number) < 0x80) &&
    !(unscaled === -1n && (bytes[0] as number) >= 0x80)
  );
  return Buffer.from(bytes);
}

/**
 * A value as protobufjs's fromObject takes it for wirekit's .proto export: enum members as their
 * numbers (the .proto prefixes them, COUNTRY_US, so a bare 'US' would be dropped without a word)
 * and timestamps as google.protobuf.Timestamp objects, at any depth.
 */
function protobufjsInput(schema: Schema, value: unknown): unknown {
  const node = deref(schema);
  if (value === undefined || value === null) return value;
  switch (node.kind) {
    case 'enum':
      return node.members.indexOf(value as string);
    case 'timestamp': {
      const millis = (value as Date).getTime();
      return { seconds: Math.floor(millis / 1000), nanos: (((millis % 1000) + 1000) % 1000) * 1e6 };
    }
    case 'optional':
    case 'nullable':
      return protobufjsInput(node.inner, value);
    case 'array':
      return (value as unknown[]).map((item) => protobufjsInput(node.items, item));
    case 'map': {
      const out: Row = {};
      for (const [key, item] of value instanceof Map ? value : Object.entries(value as Row))
        out[String(key)] = protobufjsInput(node.values, item);
      return out;
    }
    case 'object': {
      const out: Row = {};
      for (const field of node.fields)
        out[field.name] = protobufjsInput(field.schema, (value as Row)[field.name]);
      return out;
    }
    default:
      return value;
  }
}

/**
 * The cases for rows of `item`, called once per batch of every row or once per row (`unit`). Each
 * library is given the unit as it takes it: an array type for a batch, the item's own type per row
 * (Protocol Buffers wraps a batch in a message, since a root is always a message there).
 */
export function casesFor(item: ObjectSchema, unit: Unit = 'batch'): Record<string, () => BenchCase> {
  const batch = unit === 'batch';
  const Rows = t.array(item);
  const RowsMessage = t.object('Rows', { rows: Rows });
  /** Units from rows: `[convert(rows)]` for a batch, each row through `one` otherwise. */
  const units =
    (whole: (rows: Row[]) => unknown, one: (row: Row) => unknown = (row) => whole([row])) =>
    (rows: Row[]): unknown[] =>
      batch ? [whole(rows)] : rows.map(one);
  const same = units(
    (rows) => rows,
    (row) => row,
  );
  const wirekit = (
    format: FormatName,
    schema: boolean,
    compile = true,
    msgpackRecords = false,
  ): BenchCase => {
    const codec: Codec<unknown> = schema
      ? (createCodec(format, {
          schema: batch ? Rows : item,
          compile,
          limits,
          ...(msgpackRecords ? { msgpackRecords } : {}),
        }) as Codec<unknown>)
      : createCodec(format, { schema: undefined, limits });
    return {
      name: `wirekit ${format}${schema ? '' : ' (schemaless)'}${compile ? '' : ' (interpreter)'}${msgpackRecords ? ' (records)' : ''}`,
      prepare: same,
      encode: (v) => codec.encode(v),
      decode: (b) => codec.decode(b),
    };
  };
  /** protobufjs on the schema's .proto; `messages`: its decoded instances, else toObject's plain values. */
  const protobufjs = (messages: boolean): BenchCase => {
    const protobuf = require('protobufjs') as typeof import('protobufjs');
    const root = protobuf.parse(toProto(batch ? RowsMessage : item), { keepCase: true }).root;
    root.addJSON((protobuf.common.get('google/protobuf/timestamp.proto') as { nested: never }).nested);
    const type = root.lookupType(batch ? 'Rows' : item.name);
    return {
      name: messages ? 'protobufjs (messages)' : 'protobufjs',
      // Not timed: enum members and timestamps as protobufjs takes them (protobufjsInput).
      prepare: units(
        (rows) => type.fromObject({ rows: protobufjsInput(Rows, rows) as unknown[] }),
        (row) => type.fromObject(protobufjsInput(item, row) as Row),
      ),
      encode: (v) => type.encode(v as never).finish(),
      decode: messages
        ? (b) => type.decode(b)
        : (b) => type.toObject(type.decode(b), { longs: Number, enums: String }),
    };
  };
  /** Arrow is a table format: a table of one row per call is not how anyone would use it. */
  const tablesOnly = () => {
    if (!batch) throw new Error('a table format, measured on batches only');
  };
  return {
    'json native': () => ({
      name: 'JSON.stringify/parse',
      prepare: same,
      encode: (v) => encoder.encode(JSON.stringify(v)),
      decode: (b) => JSON.parse(decoder.decode(b)),
    }),
    'json wirekit-schemaless': () => wirekit('json', false),
    'json wirekit': () => wirekit('json', true),
    'json wirekit-interpreter': () => wirekit('json', true, false),
    'msgpack msgpackr': () => {
      const { Packr } = require('msgpackr') as typeof import('msgpackr');
      const packr = new Packr({ useRecords: false });
      return {
        name: 'msgpackr (plain)',
        prepare: same,
        encode: (v) => packr.pack(v),
        decode: (b) => packr.unpack(b),
      };
    },
    'msgpack msgpackr-records': () => {
      const { Packr } = require('msgpackr') as typeof import('msgpackr');
      // msgpackr's record extension: each message defines its objects' key lists once and then
      // refers to them. With no shared structures given, every message carries its own, so each
      // decodes alone; only msgpackr reads it.
      const packr = new Packr({ useRecords: true });
      return {
        name: 'msgpackr (records)',
        prepare: same,
        encode: (v) => packr.pack(v),
        decode: (b) => packr.unpack(b),
      };
    },
    'msgpack wirekit': () => wirekit('msgpack', true),
    // msgpackr's record extension written and read by the schema (msgpackRecords), beside msgpackr's own.
    'msgpack wirekit-records': () => wirekit('msgpack', true, true, true),
    'msgpack wirekit-schemaless': () => wirekit('msgpack', false),
    'cbor cbor-x': () => {
      const { Encoder } = require('cbor-x') as typeof import('cbor-x');
      const cbor = new Encoder({ useRecords: false });
      return {
        name: 'cbor-x',
        prepare: same,
        encode: (v) => cbor.encode(v),
        decode: (b) => cbor.decode(b),
      };
    },
    'cbor wirekit': () => wirekit('cbor', true),
    'cbor wirekit-schemaless': () => wirekit('cbor', false),
    'protobuf protobufjs': () => protobufjs(false),
    // protobufjs as its fastest readers use it: the decoded message instances themselves (enums
    // as numbers, timestamps as Timestamp messages, absent fields read from the prototype's
    // defaults), no toObject.
    'protobuf protobufjs-messages': () => protobufjs(true),
    'protobuf wirekit': () => protobufWirekit(true),
    'protobuf wirekit-interpreter': () => protobufWirekit(false),
    // ProtoJSON: what the RPC gateway answers `application/json` with, against the plain JSON hop.
    'protojson wirekit': () => {
      const codec = createProtoJsonCodec({ schema: batch ? RowsMessage : item, limits });
      return {
        name: 'wirekit ProtoJSON',
        prepare: units(
          (rows) => ({ rows }),
          (row) => row,
        ),
        encode: (v) => codec.encode(v),
        decode: (b) => codec.decode(b),
      };
    },
    fury: () => {
      const fury = furyFor(batch ? Rows : item);
      return {
        name: '@furyjs/fury',
        // Not timed: string-keyed maps as the JavaScript Maps Fury's map type takes.
        prepare: units(
          (rows) => furyInput(Rows, rows),
          (row) => furyInput(item, row),
        ),
        encode: fury.encode,
        decode: fury.decode,
      };
    },
    'avro avsc': () => {
      const avsc = require('avsc') as typeof import('avsc');
      const type = avsc.Type.forSchema(
        (batch ? { type: 'array', items: toAvro(item) } : toAvro(item)) as never,
      );
      return {
        name: 'avsc',
        // Not timed: timestamps, decimals and bytes as avsc takes them without logical types.
        prepare: units(
          (rows) => avscInput(Rows, rows),
          (row) => avscInput(item, row),
        ),
        encode: (v) => type.toBuffer(v),
        decode: (b) => type.fromBuffer(Buffer.from(b.buffer, b.byteOffset, b.length)),
      };
    },
    'avro wirekit': () => wirekit('avro', true),
    'flatbuffers wirekit': () => wirekit('flatbuffers', true),
    'flatbuffers wirekit-interpreter': () => wirekit('flatbuffers', true, false),
    'arrow apache-arrow': () => {
      tablesOnly();
      // apache-arrow's own row path: a Struct builder fed row objects, then the IPC writer. (Imported
      // as ESM: its CommonJS build has other classes, which its ESM schema objects do not match.)
      const schema = toArrowSchema(item);
      const type = new arrow.Struct(schema.fields);
      return {
        name: 'apache-arrow (row builder)',
        // Not timed: timestamps, 64-bit integers and maps as apache-arrow takes them (arrowInput).
        prepare: units(
          (rows) => rows.map((row) => arrowInput(item, row)),
          (row) => arrowInput(item, row),
        ),
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
      tablesOnly();
      const codec = createCodec('arrow', { schema: item, limits });
      return {
        name: 'wirekit arrow',
        prepare: same,
        encode: (v) => codec.encode(v as never),
        decode: (b) => codec.decode(b),
      };
    },
    'arrow wirekit schemaless': () => {
      tablesOnly();
      // Rows read by the stream's own Arrow schema, as from a peer that sent no wirekit schema.
      const writer = createCodec('arrow', { schema: item, limits });
      const reader = createCodec('arrow', { limits });
      return {
        name: 'wirekit arrow (no schema to read)',
        prepare: same,
        encode: (v) => writer.encode(v as never),
        decode: (b) => reader.decode(b),
      };
    },
  };

  function protobufWirekit(compile: boolean): BenchCase {
    const codec = createCodec('protobuf', { schema: batch ? RowsMessage : item, compile, limits });
    return {
      name: `wirekit protobuf${compile ? '' : ' (interpreter)'}`,
      prepare: units(
        (rows) => ({ rows }),
        (row) => row,
      ),
      encode: (v) => codec.encode(v as never),
      decode: (b) => codec.decode(b),
    };
  }
}

/** A value as Fury's descriptions take it: string-keyed maps as JavaScript Maps, at any depth. */
function furyInput(schema: Schema, value: unknown): unknown {
  const node = deref(schema);
  if (value === undefined || value === null) return value;
  switch (node.kind) {
    case 'optional':
    case 'nullable':
      return furyInput(node.inner, value);
    case 'array':
      return (value as unknown[]).map((item) => furyInput(node.items, item));
    case 'map':
      return new Map(
        [...(value instanceof Map ? value : Object.entries(value as Row))].map(([key, item]) => [
          key,
          furyInput(node.values, item),
        ]),
      );
    case 'object': {
      const out: Row = {};
      for (const field of node.fields) out[field.name] = furyInput(field.schema, (value as Row)[field.name]);
      return out;
    }
    default:
      return value;
  }
}

/** Reads every field of every decoded record, so lazy decoders pay for what they skipped. */
export function touch(value: unknown): number {
  let sum = 0;
  const visit = (item: unknown): void => {
    if (Array.isArray(item)) for (const x of item) visit(x);
    else if (item instanceof Map) {
      for (const [key, x] of item) {
        visit(key);
        visit(x);
      }
    } else if (
      typeof item === 'object' &&
      item !== null &&
      !(item instanceof Date) &&
      !(item instanceof Uint8Array)
    ) {
      // A class instance's own fields (protobufjs messages: their prototype holds `$type`, a cycle).
      if (Object.getPrototypeOf(item) === Object.prototype)
        for (const key in item) visit((item as Record<string, unknown>)[key]);
      else for (const key of Object.keys(item)) visit((item as Record<string, unknown>)[key]);
    } else if (typeof item === 'string') sum += item.length;
    else sum += 1;
  };
  visit(value);
  return sum;
}
