/**
 * ProtoJSON values one per line (NDJSON), as the JSON codec frames its sequences: a frame ends at
 * a newline, the last one may lack it, and a line of only whitespace holds no value.
 */
import type { Codec } from '../core/codec.js';
import type { DecodeLimits } from '../core/limits.js';
import { decodeFramesOf } from '../core/sequence.js';
import { decodeFrames, type FrameMeasure } from '../core/stream.js';

const newline = 0x0a;

const newlineFrame: FrameMeasure = (buffer) => {
  const at = buffer.indexOf(newline);
  return at === -1 ? undefined : at + 1;
};

function isWhitespace(line: Uint8Array): boolean {
  return line.every((byte) => byte === 0x20 || byte === 0x09 || byte === 0x0d || byte === newline);
}

/** What a blank line decodes to: nothing, dropped from the values. */
const blank = Symbol('blank line');

export async function* decodeLineStream<T>(
  chunks: Parameters<Codec<T>['decodeStream']>[0],
  decodeLine: (line: Uint8Array) => T,
  limits: DecodeLimits,
): AsyncGenerator<T> {
  const orBlank = (line: Uint8Array) => (isWhitespace(line) ? blank : decodeLine(line));
  for await (const value of decodeFrames<T | typeof blank>(chunks, newlineFrame, orBlank, limits, {
    decodeTail: orBlank,
  })) {
    if (value !== blank) yield value;
  }
}

export function decodeLineSequence<T>(
  bytes: Uint8Array,
  decodeLine: (line: Uint8Array) => T,
  limits: DecodeLimits,
): T[] {
  return decodeFramesOf(bytes, newlineFrame, decodeLine, limits, {
    decodeTail: decodeLine,
    isEmpty: isWhitespace,
  });
}
