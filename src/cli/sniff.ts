/**
 * Recognises a payload from its first bytes, for `wirekit inspect` on input that carries no
 * envelope: the signatures a format actually writes, then JSON text, taken only when the bytes are
 * valid UTF-8 and parse (as one text, or as one per line), since a binary payload's first byte can
 * be '{', '"' or a digit as easily as any other. MessagePack, Protobuf, plain CBOR and FlatBuffers
 * have no signature: sniff-binary.ts guesses them from whether the bytes parse, and says so. Single
 * Avro datums cannot be guessed at all. Brotli has no signature either: inspect guesses it only when
 * nothing else matched (see inspect-locate.ts).
 */
import { hasEnvelope } from '../envelope/index.js';

export type Sniffed =
  | 'envelope'
  | 'avro-container'
  | 'arrow-file'
  | 'arrow-stream'
  | 'cbor'
  | 'json'
  | 'protobuf'
  | 'msgpack'
  | 'cbor-value'
  | 'flatbuffers'
  | 'gzip'
  | 'zstd'
  | 'lz4'
  | 'brotli';

/** What each kind is called in output and messages. */
export const sniffedLabels: Readonly<Record<Sniffed, string>> = Object.freeze({
  envelope: 'wirekit envelope',
  'avro-container': 'Avro Object Container File',
  'arrow-file': 'Arrow IPC file',
  'arrow-stream': 'Arrow IPC stream',
  cbor: 'CBOR (self-describe tag)',
  json: 'JSON text',
  protobuf: 'Protocol Buffers (guessed: the bytes parse completely as a field tree)',
  msgpack: 'MessagePack (guessed: the bytes are one complete value)',
  'cbor-value': 'CBOR (guessed: the bytes are one complete value)',
  flatbuffers: 'FlatBuffers (guessed: a root table and vtable that fit the bytes)',
  gzip: 'gzip',
  zstd: 'zstd',
  lz4: 'lz4 frame',
  brotli: 'brotli (guessed: nothing else matched, and brotli has no signature)',
});

const signatures: readonly (readonly [Sniffed, readonly number[]])[] = [
  ['avro-container', [0x4f, 0x62, 0x6a, 0x01]], // 'Obj' 1
  ['arrow-file', [0x41, 0x52, 0x52, 0x4f, 0x57, 0x31]], // 'ARROW1'
  ['arrow-stream', [0xff, 0xff, 0xff, 0xff]], // the continuation marker before the schema message
  ['cbor', [0xd9, 0xd9, 0xf7]], // tag 55799, "self-described CBOR" (RFC 8949 §3.4.6)
  ['gzip', [0x1f, 0x8b]],
  ['zstd', [0x28, 0xb5, 0x2f, 0xfd]],
  ['lz4', [0x04, 0x22, 0x4d, 0x18]],
];

/** The bytes JSON text can start with (after whitespace): an object, array, string, number or literal. */
const jsonStarts = new Set(Array.from('{["-0123456789tfn', (char) => char.charCodeAt(0)));
const jsonWhitespace = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** The input's kind from its signature, or as JSON text that parses; undefined when neither. */
export function sniff(bytes: Uint8Array): Sniffed | undefined {
  if (hasEnvelope(bytes)) return 'envelope';
  for (const [kind, magic] of signatures) {
    if (bytes.length >= magic.length && magic.every((byte, i) => bytes[i] === byte)) return kind;
  }
  return isJsonText(bytes) ? 'json' : undefined;
}

/**
 * Whether the bytes start as JSON text would (after whitespace, an object, array, string, number or
 * literal) and are valid UTF-8: the last guess, when nothing parses, so that text which is almost
 * JSON gets the JSON decoder's own error at its offset.
 */
export function looksLikeJson(bytes: Uint8Array): boolean {
  let at = 0;
  while (at < bytes.length && jsonWhitespace.has(bytes[at] as number)) at++;
  return at < bytes.length && jsonStarts.has(bytes[at] as number) && utf8Text(bytes) !== undefined;
}

/** JSON text: valid UTF-8 that parses whole, or line by line (NDJSON). */
function isJsonText(bytes: Uint8Array): boolean {
  if (!looksLikeJson(bytes)) return false;
  const text = utf8Text(bytes) as string;
  if (parses(text)) return true;
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  return lines.length > 1 && lines.every(parses);
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function utf8Text(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

export function isCompression(kind: Sniffed): kind is 'gzip' | 'zstd' | 'lz4' {
  return kind === 'gzip' || kind === 'zstd' || kind === 'lz4';
}

/** The first bytes in hex, for messages about input that was not recognised. */
export function leadingHex(bytes: Uint8Array, count = 8): string {
  const head = Array.from(bytes.subarray(0, count), (byte) => byte.toString(16).padStart(2, '0')).join(' ');
  return bytes.length > count ? `${head} …` : head;
}
