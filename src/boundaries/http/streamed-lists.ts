/**
 * A list written as one value of its format while its rows are still coming: each is built from
 * the row codec's framing for sequences, which every codec already streams, by adding what the
 * whole form has around or between the rows. Nothing here needs the count of rows up front.
 *
 *   json-array         NDJSON → `[`, the rows with commas for newlines, `]`
 *   cbor-array         a CBOR sequence → 0x9f, the items, 0xff: an indefinite-length array
 *                      (RFC 8949 §3.2.2), which a CBOR decoder reads as one array
 *   protobuf-repeated  varint-delimited messages → a 0x0a tag before each: field 1 of
 *                      `message Root { repeated Row value = 1; }`, the root wrapper that
 *                      `toProto(t.array(Row))` declares and the codec of `t.array(Row)` writes
 */
import type { Streamed } from './list-forms.js';

export function streamedList(form: Streamed, rows: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  if (form === 'json-array') return jsonArray(rows);
  if (form === 'cbor-array') return cborArray(rows);
  return protobufRepeated(rows);
}

/**
 * `[`, then each newline turned into a comma (JSON text never holds a raw newline, so every one
 * ends a row), without the last, then `]`. Reusing NDJSON keeps one fast path for both.
 */
async function* jsonArray(ndjson: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  yield new Uint8Array([0x5b]);
  let rowEnded = false;
  for await (const chunk of ndjson) {
    if (chunk.length === 0) continue;
    const out = new Uint8Array(chunk.length + (rowEnded ? 1 : 0));
    let at = 0;
    if (rowEnded) out[at++] = 0x2c;
    out.set(chunk, at);
    for (let i = chunk.indexOf(0x0a); i !== -1; i = chunk.indexOf(0x0a, i + 1)) out[at + i] = 0x2c;
    // The chunk's final newline may be the stream's last: hold it back until more rows come.
    rowEnded = chunk[chunk.length - 1] === 0x0a;
    yield rowEnded ? out.subarray(0, out.length - 1) : out;
  }
  yield new Uint8Array([0x5d]);
}

/** The initial byte of an indefinite-length array (major type 4, additional information 31). */
const cborArrayStart = 0x9f;
/** The "break" stop code that ends an indefinite-length item. */
const cborBreak = 0xff;

async function* cborArray(sequence: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  yield new Uint8Array([cborArrayStart]);
  yield* sequence;
  yield new Uint8Array([cborBreak]);
}

/** Field 1, wire type 2 (length-delimited): (1 << 3) | 2. */
const fieldOneTag = 0x0a;

/**
 * Each varint-delimited message gets the tag in front; the length and message stay as they are,
 * since a length-delimited field is written the same way. Frames may be cut anywhere between
 * chunks, so the position in the current frame is carried from one chunk to the next; each chunk
 * is walked frame by frame (jumping over messages), not byte by byte.
 */
async function* protobufRepeated(delimited: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  let skip = 0; // bytes of the current message not yet passed
  let inPrefix = false; // inside a length prefix that the previous chunk began
  let length = 0;
  let scale = 1;
  const starts: number[] = [];
  for await (const chunk of delimited) {
    if (chunk.length === 0) continue;
    starts.length = 0;
    let at = 0;
    while (at < chunk.length) {
      if (skip > 0) {
        const passed = Math.min(skip, chunk.length - at);
        skip -= passed;
        at += passed;
        continue;
      }
      if (!inPrefix) {
        starts.push(at);
        inPrefix = true;
        length = 0;
        scale = 1;
      }
      const byte = chunk[at++] as number;
      length += (byte & 0x7f) * scale;
      scale *= 128;
      if (byte < 0x80) {
        inPrefix = false;
        skip = length;
      }
    }
    const out = new Uint8Array(chunk.length + starts.length);
    let from = 0;
    let to = 0;
    for (const start of starts) {
      out.set(chunk.subarray(from, start), to);
      to += start - from;
      out[to++] = fieldOneTag;
      from = start;
    }
    out.set(chunk.subarray(from), to);
    yield out;
  }
}
