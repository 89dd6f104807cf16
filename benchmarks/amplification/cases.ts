/**
 * The amplification cases: small inputs, each within every default limit but the allocation budget,
 * that would make a decoder build a heap many times their size (16 million empty objects or arrays,
 * about 1 GB, from 6 bytes to 64 MiB of input). Each is the worst the format's wire allows for one
 * value per byte: MessagePack and CBOR spend one byte an empty map, JSON three an empty array,
 * Protocol Buffers two an empty message, and Avro and Arrow none at all (an empty record has no
 * bytes, so an array of them is its block count alone; a Null column has no buffers, so a batch of
 * rows of it is its length alone). Through compression, a few dozen bytes of brotli stand
 * for the 64 MiB of JSON.
 *
 * A case is its input, made once by the runner and written to a file, and how its child process
 * decodes that file: through a codec, `decodeAny`, or the built `wirekit decode` command.
 */
import { brotliCompressSync, constants as zlib } from 'node:zlib';
import { makeData, makeVector, Null, Table, tableToIPC } from 'apache-arrow';
import { createCodec } from 'wirekit-ts/codecs';
import { getCompressor } from 'wirekit-ts/compression';
import { decodeAny, writeEnvelope } from 'wirekit-ts/envelope';
import { type Schema, t } from 'wirekit-ts/schema';

const MiB = 1024 * 1024;
/** The most items one value may hold by default (maxElements), and so the most a case declares. */
const items = 16 * MiB - 5;

const Empty = t.object('Empty', { note: t.optional(t.string()) });
const EmptyList = t.object('EmptyList', { items: t.array(Empty) });

export interface AmplificationCase {
  readonly name: string;
  /** What the input is, for the report. */
  readonly what: string;
  readonly input: () => Uint8Array;
  /** How the child decodes it: in the library (the value is dropped) or by the built CLI's arguments. */
  readonly decode:
    | { readonly library: (bytes: Uint8Array) => unknown }
    | { readonly cli: (file: string) => string[] };
}

/** A MessagePack or CBOR array of `count` items of one byte each: array32 head, then the item. */
function oneByteItems(head: number, item: number, count: number): Uint8Array {
  const bytes = new Uint8Array(5 + count).fill(item);
  bytes[0] = head;
  new DataView(bytes.buffer).setUint32(1, count);
  return bytes;
}

/** `[[], [], …]`: JSON's cheapest value per byte (with the space, 4 bytes an item, 64 MiB in all). */
function emptyJsonArrays(count: number): Uint8Array {
  return new TextEncoder().encode(`[${'[], '.repeat(count - 1)}[]]`);
}

/** 64 MiB of empty JSON arrays in an envelope, brotli at its best: 59 bytes of payload. */
function envelopedBomb(): Uint8Array {
  const json = emptyJsonArrays(16 * MiB - 1);
  const payload = brotliCompressSync(json, {
    params: {
      [zlib.BROTLI_PARAM_QUALITY]: 11,
      [zlib.BROTLI_PARAM_LGWIN]: 24,
      [zlib.BROTLI_PARAM_SIZE_HINT]: json.length,
    },
  });
  return writeEnvelope(
    { format: 'json', compressionId: getCompressor('brotli').id, fingerprint: undefined },
    payload,
  );
}

/** Protocol Buffers: field 1, length 0, once per empty message. */
function emptyMessages(count: number): Uint8Array {
  const bytes = new Uint8Array(2 * count);
  for (let i = 0; i < bytes.length; i += 2) bytes[i] = 0x0a;
  return bytes;
}

/** Avro: one block of `count` empty records (no bytes each), then the end of the array. */
function emptyRecords(count: number): Uint8Array {
  const out: number[] = [];
  let zigzag = count * 2;
  while (zigzag >= 0x80) {
    out.push((zigzag & 0x7f) | 0x80);
    zigzag = Math.floor(zigzag / 0x80);
  }
  out.push(zigzag, 0);
  return Uint8Array.from(out);
}

/** Arrow: one record batch of `count` rows whose only column is of type Null, which has no buffers. */
function nullRows(count: number): Uint8Array {
  const column = makeVector(makeData({ type: new Null(), length: count, nullCount: count }));
  return tableToIPC(new Table({ v: column }), 'stream');
}

function cliDecode(file: string): string[] {
  return ['decode', '--format', 'auto', '--in', file, '--out', '/dev/null'];
}

function codec(format: 'msgpack' | 'cbor' | 'json' | 'protobuf' | 'avro', schema?: Schema) {
  const made = createCodec(format as 'msgpack', { schema });
  return { library: (bytes: Uint8Array) => made.decode(bytes) };
}

export const amplificationCases: readonly AmplificationCase[] = [
  {
    name: 'msgpack-empty-maps',
    what: '16 MiB of MessagePack [{},{},…], no schema',
    input: () => oneByteItems(0xdd, 0x80, items),
    decode: codec('msgpack'),
  },
  {
    name: 'msgpack-empty-maps-schema',
    what: 'the same with a schema (an array of objects of optional fields)',
    input: () => oneByteItems(0xdd, 0x80, items),
    decode: codec('msgpack', t.array(Empty)),
  },
  {
    name: 'cbor-empty-maps',
    what: '16 MiB of CBOR [{},{},…], no schema',
    input: () => oneByteItems(0x9a, 0xa0, items),
    decode: codec('cbor'),
  },
  {
    name: 'json-empty-arrays',
    what: '64 MiB of JSON [[], [], …], no schema',
    input: () => emptyJsonArrays(items),
    decode: codec('json'),
  },
  {
    name: 'protobuf-empty-messages',
    what: '32 MiB of Protocol Buffers: a repeated field of empty messages',
    input: () => emptyMessages(items),
    decode: codec('protobuf', EmptyList),
  },
  {
    name: 'avro-empty-records',
    what: '6 bytes of Avro: one block of 16 M empty records',
    input: () => emptyRecords(items),
    decode: codec('avro', t.array(t.object('Nothing', {}))),
  },
  {
    name: 'arrow-null-rows',
    what: '232 bytes of Arrow: a batch of 16 M rows of one Null column, no schema',
    input: () => nullRows(items),
    decode: { library: (bytes) => createCodec('arrow').decode(bytes) },
  },
  {
    name: 'envelope-brotli-decodeAny',
    what: '64 MiB of JSON [[], …] as brotli in an envelope, decodeAny',
    input: envelopedBomb,
    decode: { library: (bytes) => decodeAny(bytes) },
  },
  {
    name: 'envelope-brotli-decodeAny-no-ratio',
    what: 'the same, decodeAny with the ratio cap off (maxDecompressionRatio: Infinity)',
    input: envelopedBomb,
    decode: { library: (bytes) => decodeAny(bytes, { maxDecompressionRatio: Number.POSITIVE_INFINITY }) },
  },
  {
    name: 'envelope-brotli-cli',
    what: 'the same file through wirekit decode --format auto',
    input: envelopedBomb,
    decode: { cli: cliDecode },
  },
  {
    name: 'envelope-brotli-cli-no-ratio',
    what: 'the same through the CLI with --max-decompression-ratio none',
    input: envelopedBomb,
    decode: { cli: (file) => [...cliDecode(file), '--max-decompression-ratio', 'none'] },
  },
];

export function amplificationCase(name: string): AmplificationCase {
  const found = amplificationCases.find((candidate) => candidate.name === name);
  if (found === undefined) {
    throw new Error(`unknown case ${name}; known: ${amplificationCases.map((c) => c.name).join(', ')}`);
  }
  return found;
}
