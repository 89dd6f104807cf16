/**
 * Recognises a payload from its first bytes, for `wirekit inspect` on input that carries no
 * envelope. Only signatures that a format actually writes are trusted: MessagePack, Protobuf,
 * plain CBOR, FlatBuffers and single Avro datums have none, so they need `--format`. Brotli has
 * none either: inspect guesses it only when nothing else matched (see inspect-locate.ts).
 */
import { hasEnvelope } from '../envelope/index.js';

export type Sniffed =
  | 'envelope'
  | 'avro-container'
  | 'arrow-file'
  | 'arrow-stream'
  | 'cbor'
  | 'json'
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

export function sniff(bytes: Uint8Array): Sniffed | undefined {
  if (hasEnvelope(bytes)) return 'envelope';
  for (const [kind, magic] of signatures) {
    if (bytes.length >= magic.length && magic.every((byte, i) => bytes[i] === byte)) return kind;
  }
  let at = 0;
  while (at < bytes.length && jsonWhitespace.has(bytes[at] as number)) at++;
  return at < bytes.length && jsonStarts.has(bytes[at] as number) ? 'json' : undefined;
}

export function isCompression(kind: Sniffed): kind is 'gzip' | 'zstd' | 'lz4' {
  return kind === 'gzip' || kind === 'zstd' || kind === 'lz4';
}

/** The first bytes in hex, for messages about input that was not recognised. */
export function leadingHex(bytes: Uint8Array, count = 8): string {
  const head = Array.from(bytes.subarray(0, count), (byte) => byte.toString(16).padStart(2, '0')).join(' ');
  return bytes.length > count ? `${head} …` : head;
}
