/** `wirekit inspect`: what a payload is, how it was written, and what it holds. */

import type { FormatName } from '../../codecs/codec.js';
import { createCodec, findFormat, formatNeedsSchema } from '../../codecs/registry.js';
import { type CompressionName, compressionNames } from '../../compression/index.js';
import { schemaFingerprint } from '../../envelope/index.js';
import { isWirekitError, WirekitError } from '../../errors/index.js';
import { type JsonValue, type Schema, t, toJsonValue } from '../../schema/index.js';
import { describeArrow, describeAvroContainer } from '../containers.js';
import { hexDump, hexOf } from '../hexdump.js';
import { guessBrotli, type Located, locate } from '../inspect-locate.js';
import { type Inspection, renderJson, renderText } from '../inspect-report.js';
import {
  allocationLimitOf,
  type CliIo,
  decodeLimitOptions,
  decompressionRatioOf,
  inputLimitOf,
  inputLimitOption,
  readInput,
} from '../io.js';
import { toReadableJson } from '../readable-json.js';
import { type AnyCodec, readPayload } from '../sequences.js';
import { parseCommand, usageError } from '../usage.js';
import { readSchema } from './codec.js';

const defaultMaxBytes = 512;

export const inspectHelp = `Usage:
  wirekit inspect FILE|- [--format F] [--compress C] [--schema S.json] [--sequence] [--hex [--max-bytes N]]
                  [--json] [--max-input-bytes N]
      Shows what a payload is: format, compression, envelope version, schema fingerprint, sizes
      (total, header, payload, decompressed) and the decoded value as JSON. Enveloped input
      (encode --envelope) describes itself; so do Avro container files, Arrow IPC, JSON text,
      self-described CBOR, and gzip, zstd or lz4 around them; brotli is tried when nothing else
      matches (and said to be a guess). Other input needs --format. A sequence in the format's
      framing (NDJSON, MessagePack values back to back, a CBOR sequence, varint-delimited
      Protobuf, size-prefixed FlatBuffers, an Avro container, Arrow batches) is found when the
      bytes are not one value, or read as one with --sequence: the framing, the item count and
      the items are shown.
  --format F      read a raw payload of format F
  --compress C    undo compression C first (with or without --format; brotli, having no
                  signature, is otherwise only guessed)
  --schema S.json decode by this schema (protobuf, avro and flatbuffers need one; for a
                  sequence, the schema of one item) and check it against the envelope's
                  fingerprint: a mismatch is reported and exits 1
  --sequence      read the payload as a sequence of items in the format's framing
  --hex           add a hex dump of the payload, decompressed (the first ${defaultMaxBytes} bytes)
  --max-bytes N   how many bytes --hex shows
  --json          print one JSON object (source, detected, sniffed, format, compression,
                  envelopeVersion, fingerprint, schemaFingerprint, fingerprintMatches, sizes,
                  sequence, decoded, value, note, hex, error) instead of the labelled layout
  --max-input-bytes N  read (and decompress to) at most N bytes (default 64 MiB; K, M, G suffixes)
  --max-allocated-bytes N, --max-decompression-ratio R  as for decode (wirekit decode --help)`;

export async function inspectCommand(args: readonly string[], io: CliIo): Promise<void> {
  const { values, positionals } = parseCommand(args, {
    format: { type: 'string' },
    compress: { type: 'string' },
    schema: { type: 'string' },
    hex: { type: 'boolean' },
    'max-bytes': { type: 'string' },
    json: { type: 'boolean' },
    sequence: { type: 'boolean' },
    ...inputLimitOption,
    ...decodeLimitOptions,
  });
  const [source] = positionals;
  if (source === undefined || positionals.length > 1)
    throw usageError('inspect takes one input: a file, or - for standard input.');
  const flags = checkFlags(values);
  const schema = await readSchema(io, values.schema);
  const bytes = await readInput(io, source, flags.maxInputBytes);
  const name = source === '-' ? 'standard input' : source;
  if (bytes.length === 0)
    throw new WirekitError('WK_CLI_INPUT', `${name} is empty: there is nothing to inspect.`);
  const locateFlags = { ...flags, maxBytes: flags.maxInputBytes };
  const caps = {
    maxDecompressedBytes: flags.maxInputBytes,
    maxDecompressionRatio: flags.maxDecompressionRatio,
  };
  let located = await locate(bytes, locateFlags);
  let report = describe(name, bytes, located, schema);
  const write = () => {
    if (flags.maxBytes !== undefined) {
      const shown = Math.min(flags.maxBytes, located.plain.length);
      report.hex = { shown, of: located.plain.length, lines: hexDump(located.plain, shown) };
    }
    io.stdout.write(values.json ? renderJson(report) : renderText(report, values.schema));
  };
  const options = {
    schema,
    schemaName: values.schema ?? '--schema',
    sequence: values.sequence === true,
    flags,
  };
  try {
    try {
      await decodeInto(report, located, options);
    } catch (error) {
      // Text that only looked like JSON may be brotli (whose first byte can be '['): the last guess.
      const guessed = looksLikeJsonOnly(located, error) ? await guessBrotli(bytes, caps) : {};
      if (guessed.located === undefined) throw error;
      located = guessed.located;
      report = describe(name, bytes, located, schema);
      await decodeInto(report, located, options);
    }
  } catch (error) {
    if (!isWirekitError(error)) throw error;
    // What was learned before the failure is still worth showing; the error then sets the exit code.
    report.error = { code: error.code, message: error.message };
    if (located.sniffed.at(-1) === 'json' && report.note === undefined)
      report.note = 'the first bytes looked like JSON text; if the input is another format, pass --format F';
    write();
    throw error;
  }
  write();
}

/** Whether the input was taken for JSON by its first byte alone and did not decode as JSON. */
function looksLikeJsonOnly(located: Located, error: unknown): boolean {
  return (
    located.detected === 'sniff' &&
    located.sniffed.length === 1 &&
    located.sniffed[0] === 'json' &&
    isWirekitError(error) &&
    error.code.startsWith('WK_DECODE_')
  );
}

interface Flags {
  readonly format: FormatName | undefined;
  readonly compression: CompressionName | undefined;
  /** Set only with --hex. */
  readonly maxBytes: number | undefined;
  readonly maxInputBytes: number;
  readonly maxAllocatedBytes: number;
  readonly maxDecompressionRatio: number | undefined;
}

function checkFlags(values: {
  format?: string;
  compress?: string;
  hex?: boolean;
  'max-bytes'?: string;
  'max-input-bytes'?: string;
  'max-allocated-bytes'?: string;
  'max-decompression-ratio'?: string;
}): Flags {
  const format =
    values.format === undefined || values.format === 'auto' ? undefined : findFormat(values.format);
  if (values.format !== undefined && values.format !== 'auto' && format === undefined)
    throw usageError('--format is one of json, msgpack, cbor, protobuf, avro, flatbuffers, arrow, auto.');
  const compression = values.compress as CompressionName | undefined;
  if (compression !== undefined && !compressionNames.includes(compression))
    throw usageError(`--compress is one of ${compressionNames.join(', ')}.`);
  const text = values['max-bytes'];
  if (text !== undefined && !values.hex)
    throw usageError('--max-bytes sets how much --hex shows: add --hex.');
  const maxBytes = text === undefined ? defaultMaxBytes : Number(text);
  if (!/^[0-9]+$/.test(text ?? '1') || maxBytes < 1)
    throw usageError(`--max-bytes takes a whole number of bytes, at least 1 (got ${text}).`);
  const maxInputBytes = inputLimitOf(values);
  return {
    format,
    compression,
    maxBytes: values.hex ? maxBytes : undefined,
    maxInputBytes,
    maxAllocatedBytes: allocationLimitOf(values, maxInputBytes),
    maxDecompressionRatio: decompressionRatioOf(values),
  };
}

function describe(
  source: string,
  bytes: Uint8Array,
  located: Located,
  schema: Schema | undefined,
): Inspection {
  const fingerprint = located.fingerprint === undefined ? null : hexOf(located.fingerprint);
  // The envelope carries the first 8 bytes of the fingerprint, so only those are compared.
  const schemaPrint = schema === undefined ? null : hexOf(schemaFingerprint(schema).subarray(0, 8));
  return {
    source,
    detected: located.detected,
    sniffed: located.sniffed,
    format: located.format,
    compression: located.compression,
    envelopeVersion: located.envelopeVersion ?? null,
    fingerprint,
    schemaFingerprint: schemaPrint,
    fingerprintMatches: fingerprint === null || schemaPrint === null ? null : fingerprint === schemaPrint,
    sizes: {
      total: bytes.length,
      header: located.headerBytes,
      payload: located.payload.length,
      decompressed: located.plain.length,
    },
    decoded: false,
  };
}

interface DecodeOptions {
  readonly schema: Schema | undefined;
  readonly schemaName: string;
  readonly sequence: boolean;
  readonly flags: Flags;
}

async function decodeInto(report: Inspection, located: Located, options: DecodeOptions): Promise<void> {
  const { schema, schemaName } = options;
  const { format, plain } = located;
  const limits = {
    maxInputBytes: options.flags.maxInputBytes,
    maxAllocatedBytes: options.flags.maxAllocatedBytes,
  };
  if (report.fingerprintMatches === false) {
    // Decoding by the wrong schema can yield wrong values without an error, so only a format that
    // describes itself is decoded, and without the schema.
    if (!formatNeedsSchema(format, 'decode')) {
      setValue(report, createCodec(format, { schema: undefined, limits }).decode(plain), undefined);
      report.note = `the value was decoded without ${schemaName}, which is not the schema it was written with`;
    } else {
      report.note = `${format} can only be decoded by the schema it was written with`;
    }
    throw new WirekitError(
      'WK_ENVELOPE_SCHEMA',
      `the payload was written with schema ${report.fingerprint}, not ${report.schemaFingerprint} (${schemaName}); pass the schema it was written with, or leave --schema out to see what can be read without one.`,
    );
  }
  if (located.avroContainer) {
    report.avroContainer = describeAvroContainer(plain);
    if (schema === undefined) {
      report.note = `an Avro container's values need a reader's schema: pass --schema S.json (the writer schema it embeds is shown)`;
      return;
    }
  }
  if (format === 'arrow') report.arrow = describeArrow(plain);
  if (schema === undefined && formatNeedsSchema(format, 'decode')) {
    report.note = `${format} carries no field names or types: pass --schema S.json to decode it`;
    return;
  }
  const codec = createCodec(format, { schema, limits }) as AnyCodec;
  const arrayCodec =
    format === 'json' && schema !== undefined
      ? createCodec('json', { schema: t.array(schema), limits })
      : undefined;
  const read = readPayload(codec, plain, { sequence: options.sequence, arrayCodec });
  if (read.sequence !== undefined) report.sequence = read.sequence;
  if (read.note !== undefined) report.note = read.note;
  setValue(
    report,
    read.value,
    schema === undefined ? undefined : read.sequence === undefined ? schema : t.array(schema),
  );
}

/** With a schema, values take the schema's JSON form; without, the readable form of whatever decoded. */
function setValue(report: Inspection, value: unknown, schema: Schema | undefined): void {
  report.value = schema === undefined ? (toReadableJson(value) as JsonValue) : toJsonValue(schema, value);
  report.decoded = true;
}
