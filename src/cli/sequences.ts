/**
 * How `wirekit decode` and `inspect` read a payload that may be one value or a sequence of them in
 * its format's framing (what `encodeStream`, `encode --sequence` and the HTTP server's list
 * replies write). `--sequence` says so. Without it, `decode` reads exactly one value: bytes after
 * it are refused (WK_DECODE_TRAILING, at their offset), and the error says when the bytes would
 * read as a sequence, since several values back to back can happen to parse. `inspect` guesses:
 * it reads the payload as one value first, and as a sequence only when that fails in the way a
 * sequence makes one value fail (bytes left over after a MessagePack or CBOR value; a Protobuf or
 * FlatBuffers payload that is no one message but whole length-prefixed ones; NDJSON), and says so.
 * An Avro container is known by its magic bytes, and an Arrow stream holds rows either way: both
 * say they hold several values, so neither needs the flag.
 */
import type { ArrowCodec } from '../codecs/arrow/index.js';
import { type Codec, type FormatName, factsOf } from '../codecs/index.js';
import { isWirekitError, WirekitError } from '../errors/index.js';

export type Framing =
  | 'ndjson'
  | 'json-array'
  | 'msgpack-values'
  | 'cbor-sequence'
  | 'protobuf-delimited'
  | 'avro-container'
  | 'flatbuffers-size-prefixed'
  | 'arrow-ipc';

export const framingLabels: Readonly<Record<Framing, string>> = Object.freeze({
  ndjson: 'NDJSON, one value per line',
  'json-array': 'a JSON array of values',
  'msgpack-values': 'MessagePack values back to back',
  'cbor-sequence': 'a CBOR sequence (RFC 8742)',
  'protobuf-delimited': 'varint-delimited Protobuf messages',
  'avro-container': 'an Avro Object Container File',
  'flatbuffers-size-prefixed': 'size-prefixed FlatBuffers',
  'arrow-ipc': 'Arrow IPC record batches',
});

/** The framing each format's sequences have (what its codec's encodeStream writes). */
export const sequenceFraming: Readonly<Record<FormatName, Framing>> = Object.freeze({
  json: 'ndjson',
  msgpack: 'msgpack-values',
  cbor: 'cbor-sequence',
  protobuf: 'protobuf-delimited',
  avro: 'avro-container',
  flatbuffers: 'flatbuffers-size-prefixed',
  arrow: 'arrow-ipc',
});

export type AnyCodec = Codec<unknown> | ArrowCodec<unknown>;

export interface SequenceInfo {
  readonly framing: Framing;
  /** --sequence, the format's own marks (an Avro container's magic; Arrow), or a sniff of the bytes. */
  readonly detected: 'flag' | 'format' | 'sniff';
  readonly items: number;
}

export interface ReadPayload {
  /** One value, or (with `sequence`) the array of the items. */
  readonly value: unknown;
  readonly sequence: SequenceInfo | undefined;
  /** What else the bytes could be, when that is worth saying. */
  readonly note: string | undefined;
}

const avroMagic = [0x4f, 0x62, 0x6a, 0x01];

export function isAvroContainer(bytes: Uint8Array): boolean {
  return avroMagic.every((byte, i) => bytes[i] === byte);
}

/**
 * Reads `bytes` with `codec` (an item codec), as one value or as a sequence (see the module
 * comment): with `guess`, a payload that is not one value may be read as a sequence, and the result
 * says it was sniffed; without, it is refused with what it reads as. `arrayCodec` reads a JSON
 * array of items, for JSON with a schema of one item.
 */
export function readPayload(
  codec: AnyCodec,
  bytes: Uint8Array,
  options: { readonly sequence: boolean; readonly guess: boolean; readonly arrayCodec?: Codec<unknown> },
): ReadPayload {
  const format = codec.format;
  if (factsOf(format).carries === 'rows') {
    const rows = codec.decode(bytes) as unknown[];
    return { value: rows, sequence: sequenceOf('arrow-ipc', 'format', rows), note: undefined };
  }
  if (options.sequence || (factsOf(format).sequences === 'container' && isAvroContainer(bytes))) {
    const items = codec.decodeSequence(bytes);
    return {
      value: items,
      sequence: sequenceOf(sequenceFraming[format], options.sequence ? 'flag' : 'format', items),
      note: undefined,
    };
  }
  let single: unknown;
  try {
    single = codec.decode(bytes);
  } catch (error) {
    if (!mayBeSequence(format, error) || bytes.length === 0) throw error;
    if (!options.guess) throw withSequenceHint(codec, bytes, options.arrayCodec, error as WirekitError);
    return sniffSequence(codec, bytes, options.arrayCodec, error as WirekitError);
  }
  return { value: single, sequence: undefined, note: alsoSequence(codec, bytes) };
}

/** Whether a failure to read one value is how a sequence of them fails. */
function mayBeSequence(format: FormatName, error: unknown): boolean {
  if (!isWirekitError(error)) return false;
  if (format === 'msgpack' || format === 'cbor') return error.code === 'WK_DECODE_TRAILING';
  if (format === 'json') return error.code !== 'WK_LIMIT_INPUT';
  // An Avro container is known by its magic bytes, already looked for: a datum is no sequence.
  if (format === 'avro') return false;
  return error.code.startsWith('WK_DECODE_');
}

/**
 * The bytes read as a sequence of at least one item, or `single` (the error of reading them as one
 * value) thrown with what reading them as a sequence said too: either may be the one that matters.
 */
function sniffSequence(
  codec: Codec<unknown>,
  bytes: Uint8Array,
  arrayCodec: Codec<unknown> | undefined,
  single: WirekitError,
): ReadPayload {
  const framing = sequenceFraming[codec.format];
  let items: unknown[];
  try {
    items = codec.decodeSequence(bytes);
  } catch (error) {
    if (!isWirekitError(error)) throw error;
    if (arrayCodec !== undefined) {
      const array = attempt(() => arrayCodec.decode(bytes) as unknown[]);
      if (array !== undefined && array.length > 0) return sniffed('json-array', array);
    }
    // The same complaint twice (one JSON value is one NDJSON line) says nothing new.
    if (error.message === single.message) throw single;
    const message = `${withoutStop(single.message)}; read as ${framingLabels[framing]}: ${error.message}`;
    throw new WirekitError(single.code, message, { path: single.path, offset: single.offset, cause: single });
  }
  if (items.length === 0) throw single;
  return sniffed(framing, items);
}

/**
 * `single` (the error of reading the bytes as one value), saying what else they read as when they
 * read as a sequence of several items: the way to read them so is --sequence, never a guess.
 */
function withSequenceHint(
  codec: Codec<unknown>,
  bytes: Uint8Array,
  arrayCodec: Codec<unknown> | undefined,
  single: WirekitError,
): WirekitError {
  const items = attempt(() => codec.decodeSequence(bytes));
  const array =
    items === undefined && arrayCodec !== undefined
      ? attempt(() => arrayCodec.decode(bytes) as unknown[])
      : undefined;
  const [count, framing] =
    items !== undefined && items.length > 1
      ? [items.length, framingLabels[sequenceFraming[codec.format]]]
      : array !== undefined && array.length > 0
        ? [array.length, framingLabels['json-array']]
        : [0, ''];
  if (count === 0) return single;
  const message = `${withoutStop(single.message)}; the bytes read as ${count} ${count === 1 ? 'item' : 'items'}, ${framing}: pass --sequence to read them so.`;
  return new WirekitError(single.code, message, { path: single.path, offset: single.offset, cause: single });
}

function sniffed(framing: Framing, items: unknown[]): ReadPayload {
  return { value: items, sequence: sequenceOf(framing, 'sniff', items), note: undefined };
}

function attempt<T>(body: () => T): T | undefined {
  try {
    return body();
  } catch (error) {
    if (!isWirekitError(error)) throw error;
    return undefined;
  }
}

function withoutStop(message: string): string {
  return message.endsWith('.') ? message.slice(0, -1) : message;
}

/**
 * Protobuf and FlatBuffers do not describe themselves, so a sequence can happen to read as one
 * value (Protobuf skips fields it does not know): say so when the bytes read as several items too.
 */
function alsoSequence(codec: Codec<unknown>, bytes: Uint8Array): string | undefined {
  if (codec.format !== 'protobuf' && codec.format !== 'flatbuffers') return undefined;
  const items = attempt(() => codec.decodeSequence(bytes));
  if (items === undefined || items.length < 2) return undefined;
  return `the bytes also read as ${items.length} ${framingLabels[sequenceFraming[codec.format]]}; if they are a sequence, pass --sequence`;
}

function sequenceOf(
  framing: Framing,
  detected: SequenceInfo['detected'],
  items: readonly unknown[],
): SequenceInfo {
  return { framing, detected, items: items.length };
}

/** "read as 3 items of a CBOR sequence (RFC 8742), sniffed", for notes. */
export function sequenceText(sequence: SequenceInfo): string {
  const how =
    sequence.detected === 'flag'
      ? '--sequence'
      : sequence.detected === 'format'
        ? 'the format says so'
        : 'sniffed: the bytes are not one value';
  return `${sequence.items} ${sequence.items === 1 ? 'item' : 'items'}, ${framingLabels[sequence.framing]} (${how})`;
}

/** The usage error for --sequence where it cannot apply. */
export function sequenceNeedsFormat(): WirekitError {
  return new WirekitError(
    'WK_CLI_USAGE',
    "--sequence reads a raw payload in its format's framing for sequences: pass --format F too (an envelope holds one value).",
  );
}
