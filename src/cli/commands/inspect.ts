/** `wirekit inspect`: what a payload is, how it was written, and what it holds. */

import { type LegacyFormat, legacyFormats, legacyReaders } from '../../boundaries/cache/inspect.js';
import { isSocketFormat, socketFormats } from '../../boundaries/ws/inspect.js';
import { describeArrow } from '../../codecs/arrow/inspect.js';
import { describeAvroContainer } from '../../codecs/avro/inspect.js';
import { createCodec, type FormatName, findFormat, formatNeedsSchema } from '../../codecs/index.js';
import { type CompressionName, compressionNames, getCompressor } from '../../compression/index.js';
import { hasEnvelope, schemaFingerprint } from '../../envelope/index.js';
import { errorLine, isWirekitError, WirekitError } from '../../errors/index.js';
import { formatOfSubprotocol, subprotocolPrefix } from '../../negotiate/subprotocol.js';
import { type JsonValue, type Schema, t, toJsonValue } from '../../schema/index.js';
import { hexDump, hexOf } from '../hexdump.js';
import { guessBrotli, type Located, locate } from '../inspect-locate.js';
import { type Inspection, renderText } from '../inspect-report.js';
import {
  allocationLimitOf,
  type CliIo,
  decodeLimitOptions,
  decompressionRatioOf,
  inputLimitOf,
  inputLimitOption,
  readInput,
} from '../io.js';
import { decodeRawProtobuf, rawProtobufLines } from '../protobuf-raw.js';
import { toReadableJson } from '../readable-json.js';
import { type RecordInfo, recordInfoOf } from '../record-info.js';
import { renderReportJson } from '../report-json.js';
import { type AnyCodec, readPayload, sequenceText } from '../sequences.js';
import { parseCommand, usageError } from '../usage.js';
import { readWsFrames, type WsControl } from '../ws-frame.js';
import { readSchema } from './codec.js';
import { inspectRegistry, registryTimeoutMs } from './inspect-registry.js';
import { isKafkaUrl, kafkaTimeoutMs, parseKafkaUrl, readKafkaRecord } from './kafka-record.js';
import { isRedisUrl, parseRedisUrl, readRedisKey, redisTimeoutMs } from './redis-key.js';

const defaultMaxBytes = 512;
const redisTimeoutSeconds = redisTimeoutMs / 1000;
const kafkaTimeoutSeconds = kafkaTimeoutMs / 1000;
const registryTimeoutSeconds = registryTimeoutMs / 1000;

export const inspectHelp = `Usage:
  wirekit inspect FILE|-|redis://[user:pass@]host:port[/db]/KEY [--format F] [--compress C]
                  [--legacy L,L…] [--schema S.json] [--sequence] [--hex [--max-bytes N]] [--json]
                  [--max-input-bytes N] [--ws-frame]
  wirekit inspect --registry URL FILE|-|kafka://… [--schema S.json] [--format F] [--hex] [--json]
  wirekit inspect kafka://HOST:PORT[,HOST:PORT…]/TOPIC/PARTITION/OFFSET [--registry URL] […]
      Shows what a payload is: format, compression, envelope version, schema fingerprint, sizes
      (total, header, payload, decompressed) and the decoded value as JSON. Enveloped input
      (encode --envelope) describes itself; so do Avro container files, Arrow IPC, JSON text
      that parses, self-described CBOR, and gzip, zstd or lz4 around them; brotli is tried when
      nothing else matches (and said to be a guess). MessagePack, CBOR, Protobuf (shown raw, as
      protoc --decode_raw shows it, without --schema) and FlatBuffers are guessed when the bytes
      parse as one value of them, and the guess names the other formats that fit; --format
      settles it. Single Avro datums need --format. A sequence in the format's
      framing (NDJSON, MessagePack values back to back, a CBOR sequence, varint-delimited
      Protobuf, size-prefixed FlatBuffers, an Avro container, Arrow batches) is found when the
      bytes are not one value, or read as one with --sequence: the framing, the item count and
      the items are shown.
      A redis:// source reads one key of a Redis server (a cache entry) and shows its key and
      the time it has left (ttl) too. The path is the key, or the database number then the key;
      write a slash in the key as %2F (redis://127.0.0.1:6379/2/user%2F42 is the key user/42
      in database 2). An unreachable server, a missing key or one that is not a string is an
      error (exit 1) within ${redisTimeoutSeconds} seconds.
      A kafka:// source reads one record of a Kafka topic (OFFSET a number, earliest or
      latest) and shows its topic, partition, offset, timestamp, key and headers too; it
      needs the kafkajs package (npm install kafkajs). It joins no consumer group for good
      (a group of its own, deleted afterwards). An unknown topic or partition, an offset past
      the end, or a broker that cannot be reached is an error (exit 1) within
      ${kafkaTimeoutSeconds} seconds.
  --registry URL  read a payload in Confluent's wire format (magic byte 0, 4-byte schema id,
                  Protobuf message indexes): the writer schema is fetched from the schema
                  registry at URL (http[s]://[user:pass@]host:port[/path]) by its id and shown
                  (id, type, subjects); Avro is decoded by it (or into --schema by resolution),
                  Protobuf shown field by field as the wire has it (or decoded by --schema), a
                  wirekit schema decoded in the format --format names. Input that is not framed
                  so, an unknown id or a registry that does not answer within
                  ${registryTimeoutSeconds} seconds (retried once) is an error (exit 1). Basic
                  credentials: WIREKIT_REGISTRY_USER_INFO=user:password, which keeps them off
                  the command line (user:pass@ in the URL wins over it).
  --format F      read a raw payload of format F; a WebSocket subprotocol as devtools shows it
                  (wirekit.json, wirekit.msgpack, wirekit.cbor, wirekit.protobuf, wirekit.avro)
                  names its format
  --ws-frame      the input is raw RFC 6455 frames as captured off the wire, either direction
                  (masked or not): fragments are joined and each message is inspected as a
                  payload (a text frame as JSON; a binary one by --format, else sniffed), with
                  its opcode, masking, fragments and sizes; ping, pong and close frames are
                  listed. Compressed frames (permessage-deflate) and malformed ones are refused
                  (WK_CLI_INPUT; a length past --max-input-bytes WK_LIMIT_INPUT). --json prints
                  { source, frames, messages: [{ wsFrame, …report }], controls, error }
  --compress C    undo compression C first (with or without --format; brotli, having no
                  signature, is otherwise only guessed)
  --legacy L,L…   read a payload without an envelope with the cache's legacy readers, in this
                  order: ${legacyFormats.join(', ')} (how values written before wirekit are
                  read); the first that reads it is named. Enveloped input is read as ever.
  --schema S.json decode by this schema (protobuf, avro and flatbuffers need one; for a
                  sequence, the schema of one item) and check it against the envelope's
                  fingerprint: a mismatch is reported and exits 1
  --sequence      read the payload as a sequence of items in the format's framing
  --hex           add a hex dump of the payload, decompressed (the first ${defaultMaxBytes} bytes)
  --max-bytes N   how many bytes --hex shows
  --json          print one JSON object (source, key, ttl, detected, legacy, sniffed, guess, format,
                  compression, envelopeVersion, fingerprint, schemaFingerprint,
                  fingerprintMatches, sizes, sequence, decoded, value, protobufFields, note, hex,
                  error) instead of the labelled layout; ttl is in seconds (null: no expiry), key and ttl only for
                  redis://, record (topic, partition, offset, timestamp, key, headers) only for
                  kafka://, legacy only with --legacy; with --registry: source, record, registry,
                  framing, schemaId, schemaType, subjects, messageIndexes, message, sizes, readBy,
                  decoded, value, note, writerSchema, hex, error
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
    legacy: { type: 'string' },
    registry: { type: 'string' },
    'ws-frame': { type: 'boolean' },
    ...inputLimitOption,
    ...decodeLimitOptions,
  });
  const [source] = positionals;
  if (source === undefined || positionals.length > 1)
    throw usageError('inspect takes one input: a file, - for standard input, a redis:// or a kafka:// URL.');
  const flags = checkFlags(values);
  if (values.registry !== undefined) checkRegistryFlags(values);
  if (values['ws-frame'] === true && (values.registry !== undefined || values.legacy !== undefined))
    throw usageError(
      `${values.registry !== undefined ? '--registry' : '--legacy'} does not apply with --ws-frame: each message of the frames is read as a payload of --format (a text frame as JSON).`,
    );
  const redis = isRedisUrl(source) ? parseRedisUrl(source) : undefined;
  const kafka = isKafkaUrl(source) ? parseKafkaUrl(source) : undefined;
  if (redis !== undefined && values.registry !== undefined)
    throw usageError(
      '--registry reads Confluent-framed events: a file, standard input or a kafka:// record.',
    );
  const schema = await readSchema(io, values.schema);
  const stored = redis === undefined ? undefined : await readRedisKey(redis, flags.maxInputBytes);
  const record = kafka === undefined ? undefined : await readKafkaRecord(kafka, flags.maxInputBytes);
  const name = redis?.display ?? kafka?.display ?? (source === '-' ? 'standard input' : source);
  if (record !== undefined && record.value === null)
    throw new WirekitError(
      'WK_CLI_INPUT',
      `${name} is a tombstone: the record has no value (its key: ${JSON.stringify(recordInfoOf(record).key)}).`,
    );
  const bytes = stored?.bytes ?? record?.value ?? (await readInput(io, source, flags.maxInputBytes));
  // A key's TTL in seconds (what Redis's TTL and the cache's set take), null when it does not expire.
  const origin: Origin = {
    source: name,
    ...(redis === undefined
      ? {}
      : { key: redis.key, ttl: stored?.ttlMs === undefined ? null : stored.ttlMs / 1000 }),
    ...(record === undefined ? {} : { record: recordInfoOf(record) }),
  };
  if (bytes.length === 0)
    throw new WirekitError('WK_CLI_INPUT', `${name} is empty: there is nothing to inspect.`);
  if (values.registry !== undefined) {
    await inspectRegistry(io, {
      registryUrl: values.registry,
      source: name,
      record: origin.record,
      bytes,
      schema,
      schemaName: values.schema,
      format: flags.format,
      limits: { maxInputBytes: flags.maxInputBytes, maxAllocatedBytes: flags.maxAllocatedBytes },
      maxHexBytes: flags.maxBytes,
      json: values.json === true,
    });
    return;
  }
  if (flags.legacy !== undefined && !hasEnvelope(bytes)) {
    inspectLegacy(io, origin, bytes, flags, schema, values);
    return;
  }
  if (values['ws-frame'] === true) {
    await inspectWsFrames(io, origin, bytes, flags, schema, values);
    return;
  }
  const { report, error } = await inspectPayload(origin, bytes, flags, schema, values);
  io.stdout.write(values.json ? renderReportJson(report) : renderText(report, values.schema));
  // inspect reads bytes that are not one value as a sequence, where decode refuses them: a guess.
  if (report.sequence?.detected === 'sniff')
    io.stderr.write(`wirekit: guessed: read ${sequenceText(report.sequence)}; --sequence says so.\n`);
  // What was learned before the failure is still worth showing; the error then sets the exit code.
  if (error !== undefined) throw error;
}

interface PayloadValues {
  readonly json?: boolean;
  readonly schema?: string;
  readonly sequence?: boolean;
}

/**
 * One payload located and decoded into its report. A failure to decode is kept in the report and
 * returned beside it (what was learned is still shown); one to locate the payload at all is thrown.
 */
async function inspectPayload(
  origin: Origin,
  bytes: Uint8Array,
  flags: Flags,
  schema: Schema | undefined,
  values: PayloadValues,
): Promise<{ readonly report: Inspection; readonly error?: WirekitError }> {
  const locateFlags = { ...flags, maxBytes: flags.maxInputBytes };
  const caps = {
    maxDecompressedBytes: flags.maxInputBytes,
    maxDecompressionRatio: flags.maxDecompressionRatio,
  };
  let located = await locate(bytes, locateFlags);
  let report = describe(origin, bytes, located, schema);
  const addHex = () => {
    if (flags.maxBytes !== undefined) {
      const shown = Math.min(flags.maxBytes, located.plain.length);
      report.hex = { shown, of: located.plain.length, lines: hexDump(located.plain, shown) };
    }
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
      report = describe(origin, bytes, located, schema);
      await decodeInto(report, located, options);
    }
  } catch (error) {
    if (!isWirekitError(error)) throw error;
    report.error = { code: error.code, message: error.message };
    if (located.sniffed.at(-1) === 'json' && report.note === undefined)
      report.note = 'the first bytes looked like JSON text; if the input is another format, pass --format F';
    addHex();
    return { report, error };
  }
  addHex();
  return { report };
}

/** What --ws-frame says of each message besides its payload's report. */
interface WsMessageFacts {
  /** Which message this is, from 1, and of how many. */
  readonly message: number;
  readonly of: number;
  /** The frame (from 0) that started it. */
  readonly frame: number;
  readonly opcode: 'text' | 'binary';
  readonly masked: boolean;
  readonly fragments: number;
  readonly payloadBytes: number;
  /** Its frames' bytes on the wire, headers included. */
  readonly frameBytes: number;
}

/**
 * --ws-frame: the input is RFC 6455 frames; each message they carry is inspected as a payload of
 * its own (a text frame is JSON, as the ws boundary sends it; a binary one is read by --format or
 * sniffed, and --compress applies to binary ones only), one report each, in order, up to the first
 * that fails; control frames are listed after them.
 */
async function inspectWsFrames(
  io: CliIo,
  origin: Origin,
  bytes: Uint8Array,
  flags: Flags,
  schema: Schema | undefined,
  values: PayloadValues,
): Promise<void> {
  const capture = readWsFrames(bytes, { maxPayloadBytes: flags.maxInputBytes });
  const reports: (WsMessageFacts & { readonly report: Inspection })[] = [];
  let failure: WirekitError | undefined;
  for (const [i, message] of capture.messages.entries()) {
    const facts: WsMessageFacts = {
      message: i + 1,
      of: capture.messages.length,
      frame: message.frame,
      opcode: message.opcode,
      masked: message.masked,
      fragments: message.fragments,
      payloadBytes: message.payload.length,
      frameBytes: message.wireBytes,
    };
    const messageFlags: Flags =
      message.opcode === 'text' ? { ...flags, format: 'json', compression: undefined } : flags;
    try {
      if (message.payload.length === 0)
        throw new WirekitError(
          'WK_CLI_INPUT',
          `its ${message.opcode} payload is empty: there is nothing to decode.`,
        );
      const { report, error } = await inspectPayload(origin, message.payload, messageFlags, schema, values);
      reports.push({ ...facts, report });
      failure = error;
    } catch (error) {
      if (!isWirekitError(error)) throw error;
      // Not even located: no report to show, so the message says which WebSocket message it was.
      failure = new WirekitError(
        error.code,
        `WebSocket message ${i + 1} (frame ${message.frame}): ${error.message}`,
        {
          ...(error.offset === undefined ? {} : { offset: error.offset }),
          ...(error.format === undefined ? {} : { format: error.format }),
        },
      );
    }
    if (failure !== undefined) break;
  }
  const controls = capture.controls.map(controlFacts);
  if (values.json) {
    io.stdout.write(
      renderReportJson({
        source: origin.source,
        frames: capture.frames,
        messages: reports.map(({ report, ...facts }) => ({ wsFrame: facts, ...report })),
        controls,
        ...(failure === undefined ? {} : { error: { code: failure.code, message: failure.message } }),
      }),
    );
  } else {
    const parts = [
      `${'ws frames:'.padEnd(14)} ${count(capture.frames, 'frame')}: ${count(capture.messages.length, 'message')}, ${count(controls.length, 'control frame')}\n`,
      ...reports.map(
        ({ report, ...facts }) =>
          `${'ws message:'.padEnd(14)} ${facts.message} of ${facts.of}: frame ${facts.frame}, ${facts.opcode}, ${facts.masked ? 'masked' : 'unmasked'}, ${count(facts.fragments, 'fragment')}, ${facts.payloadBytes} payload bytes (${facts.frameBytes} on the wire)\n${renderText(report, values.schema)}`,
      ),
    ];
    const controlLines = controls.map((c) => `${'ws control:'.padEnd(14)} ${controlText(c)}`);
    if (controlLines.length > 0) parts.push(`${controlLines.join('\n')}\n`);
    io.stdout.write(parts.join('\n'));
  }
  if (failure !== undefined) throw failure;
}

interface WsControlFacts {
  readonly frame: number;
  readonly opcode: 'close' | 'ping' | 'pong';
  readonly masked: boolean;
  readonly payloadBytes: number;
  readonly code?: number;
  readonly reason?: string;
  /** A ping's or pong's application data, in hex (at most 125 bytes). */
  readonly data?: string;
}

function controlFacts(frame: WsControl): WsControlFacts {
  return {
    frame: frame.frame,
    opcode: frame.opcode,
    masked: frame.masked,
    payloadBytes: frame.payload.length,
    ...(frame.code === undefined ? {} : { code: frame.code, reason: frame.reason ?? '' }),
    ...(frame.opcode === 'close' || frame.payload.length === 0 ? {} : { data: hexOf(frame.payload) }),
  };
}

function controlText(c: WsControlFacts): string {
  const body =
    c.opcode === 'close'
      ? c.code === undefined
        ? 'no code'
        : `code ${c.code}${c.reason === '' ? '' : `, reason ${JSON.stringify(c.reason)}`}`
      : c.data === undefined
        ? 'no data'
        : `data ${c.data}`;
  return `frame ${c.frame}: ${c.opcode}, ${c.masked ? 'masked' : 'unmasked'}, ${body}`;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
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
  /** The legacy readers of --legacy, in their order. */
  readonly legacy: readonly LegacyFormat[] | undefined;
  readonly format: FormatName | undefined;
  readonly compression: CompressionName | undefined;
  /** Set only with --hex. */
  readonly maxBytes: number | undefined;
  readonly maxInputBytes: number;
  readonly maxAllocatedBytes: number;
  readonly maxDecompressionRatio: number | undefined;
}

function checkFlags(values: {
  legacy?: string;
  format?: string;
  compress?: string;
  hex?: boolean;
  'max-bytes'?: string;
  'max-input-bytes'?: string;
  'max-allocated-bytes'?: string;
  'max-decompression-ratio'?: string;
}): Flags {
  // A subprotocol as devtools shows it (wirekit.msgpack) names its format; only the ws boundary's
  // formats have one, so wirekit.arrow is as unknown as any other name.
  const named = values.format === undefined ? undefined : formatOfSubprotocol(values.format);
  const formatName = named === undefined ? values.format : isSocketFormat(named) ? named : '';
  const format = formatName === undefined || formatName === 'auto' ? undefined : findFormat(formatName);
  if (formatName !== undefined && formatName !== 'auto' && format === undefined)
    throw usageError(
      `--format is one of json, msgpack, cbor, protobuf, avro, flatbuffers, arrow, auto, or a WebSocket subprotocol (${socketFormats.map((f) => subprotocolPrefix + f).join(', ')}).`,
    );
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
  const legacy = values.legacy === undefined ? undefined : legacyList(values.legacy);
  if (legacy !== undefined && (values.format !== undefined || compression !== undefined))
    throw usageError(
      '--legacy names both the format and the compression of each reader: leave out --format and --compress.',
    );
  return {
    legacy,
    format,
    compression,
    maxBytes: values.hex ? maxBytes : undefined,
    maxInputBytes,
    maxAllocatedBytes: allocationLimitOf(values, maxInputBytes),
    maxDecompressionRatio: decompressionRatioOf(values),
  };
}

/** Where the bytes came from: the source as shown, for a Redis key the key and its TTL, for a Kafka record where it sits. */
interface Origin {
  readonly source: string;
  readonly key?: string;
  readonly ttl?: number | null;
  readonly record?: RecordInfo;
}

/** With --registry the frame says how to read the payload: the flags that would say otherwise do not apply. */
function checkRegistryFlags(values: { legacy?: string; compress?: string; sequence?: boolean }): void {
  const clash =
    values.legacy !== undefined
      ? '--legacy'
      : values.compress !== undefined
        ? '--compress'
        : values.sequence
          ? '--sequence'
          : undefined;
  if (clash !== undefined)
    throw usageError(
      `${clash} does not apply with --registry: a Confluent frame holds one uncompressed datum.`,
    );
}

/** The --legacy list: known names, each once. */
function legacyList(text: string): LegacyFormat[] {
  const names = text.split(',').map((name) => name.trim());
  for (const name of names) {
    if (!(legacyFormats as readonly string[]).includes(name))
      throw usageError(
        `--legacy takes a comma-separated list of ${legacyFormats.join(', ')} (got ${JSON.stringify(name)}).`,
      );
  }
  if (new Set(names).size !== names.length) throw usageError('--legacy names a reader twice.');
  return names as LegacyFormat[];
}

/**
 * A payload without an envelope read by the --legacy readers, in their order, as a cache would
 * read it: the first that reads it gives the value and is named. When none does, each one's error
 * is said and the command fails (WK_CLI_INPUT: the input is none of the formats named).
 */
function inspectLegacy(
  io: CliIo,
  origin: Origin,
  bytes: Uint8Array,
  flags: Flags,
  schema: Schema | undefined,
  values: { readonly json?: boolean; readonly schema?: string },
): void {
  const caps = {
    maxDecompressedBytes: flags.maxInputBytes,
    maxDecompressionRatio: flags.maxDecompressionRatio,
  };
  const limits = { maxInputBytes: flags.maxInputBytes, maxAllocatedBytes: flags.maxAllocatedBytes };
  const readers = legacyReaders(flags.legacy ?? [], { schema, limits, ...caps });
  const failures: string[] = [];
  for (const reader of readers) {
    let value: unknown;
    try {
      value = reader.read(bytes);
    } catch (error) {
      if (!isWirekitError(error)) throw error;
      failures.push(`${reader.name}: ${errorLine(error)}`);
      continue;
    }
    const snappy = reader.name.endsWith('+snappy');
    // The reader decompressed the block already, so it decompresses again within the same caps.
    const plain = snappy ? getCompressor('snappy').decompress(bytes, caps) : bytes;
    const located: Located = {
      detected: 'legacy',
      sniffed: [],
      format: reader.name.startsWith('json') ? 'json' : 'msgpack',
      avroContainer: false,
      compression: snappy ? 'snappy' : 'none',
      envelopeVersion: undefined,
      fingerprint: undefined,
      headerBytes: 0,
      payload: bytes,
      plain,
    };
    const report = describe(origin, bytes, located, schema, reader.name);
    setValue(report, value, schema);
    if (flags.maxBytes !== undefined) {
      const shown = Math.min(flags.maxBytes, plain.length);
      report.hex = { shown, of: plain.length, lines: hexDump(plain, shown) };
    }
    io.stdout.write(values.json ? renderReportJson(report) : renderText(report, values.schema));
    return;
  }
  throw new WirekitError(
    'WK_CLI_INPUT',
    `${origin.source} has no wirekit envelope, and no legacy reader of --legacy read it:\n  ${failures.join('\n  ')}`,
  );
}

function describe(
  origin: Origin,
  bytes: Uint8Array,
  located: Located,
  schema: Schema | undefined,
  legacy?: string,
): Inspection {
  const fingerprint = located.fingerprint === undefined ? null : hexOf(located.fingerprint);
  // The envelope carries the first 8 bytes of the fingerprint, so only those are compared.
  const schemaPrint = schema === undefined ? null : hexOf(schemaFingerprint(schema).subarray(0, 8));
  return {
    ...origin,
    detected: located.detected,
    ...(legacy === undefined ? {} : { legacy }),
    sniffed: located.sniffed,
    ...(located.guess === undefined ? {} : { guess: located.guess }),
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
  if (schema === undefined && format === 'protobuf' && !options.sequence) {
    // Field numbers and wire types are on the wire: what protoc --decode_raw shows, shown here too.
    setValue(report, decodeRawProtobuf(plain), undefined);
    report.protobufFields = rawProtobufLines(plain);
    report.note =
      'read without a schema, as protoc --decode_raw reads it: fields by number; a varint as its unsigned value, fixed32/fixed64 in hex, a length-delimited field as text, a nested message when it parses as one, else base64; pass --schema S.json to decode it by names and types';
    return;
  }
  if (schema === undefined && formatNeedsSchema(format, 'decode')) {
    report.note = `${format} carries no field names or types: pass --schema S.json to decode it`;
    return;
  }
  const codec = createCodec(format, { schema, limits }) as AnyCodec;
  const arrayCodec =
    format === 'json' && schema !== undefined
      ? createCodec('json', { schema: t.array(schema), limits })
      : undefined;
  const read = readPayload(codec, plain, { sequence: options.sequence, guess: true, arrayCodec });
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
