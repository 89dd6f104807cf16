/**
 * Strict UTF-8 decoding and the TextReader that readers share: short ASCII strings cut from 4 KiB
 * windows of the input must be exactly what a decoder gives, wherever they sit (across window
 * edges, at the end of the input, after the reader moves to a new input).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { decodeUtf8, TextReader } from '../../../src/codecs/core/utf8.js';

const utf8 = new TextEncoder();
const strict = new TextDecoder('utf-8', { fatal: true });

/** The strings laid end to end, and where each sits. */
function layout(strings: readonly string[]): { bytes: Uint8Array; spans: [number, number][] } {
  const parts = strings.map((text) => utf8.encode(text));
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  const spans: [number, number][] = [];
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    spans.push([at, at + part.length]);
    at += part.length;
  }
  return { bytes, spans };
}

describe('TextReader', () => {
  test('reads every string as TextDecoder does, across window edges and to the end', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ maxLength: 14 }), fc.string({ unit: 'grapheme', maxLength: 6 })), {
          maxLength: 1200,
        }),
        (strings) => {
          const { bytes, spans } = layout(strings);
          const reader = new TextReader(bytes);
          spans.forEach(([start, end], i) => {
            expect(reader.read(start, end)).toBe(strings[i]);
          });
        },
      ),
      { numRuns: 60 },
    );
  });

  test('reads out of order, and backwards, as well as forwards', () => {
    const strings = Array.from({ length: 2000 }, (_, i) => `w${i % 997}`);
    const { bytes, spans } = layout(strings);
    const reader = new TextReader(bytes);
    for (let i = spans.length - 1; i >= 0; i -= 7) {
      const [start, end] = spans[i] as [number, number];
      expect(reader.read(start, end)).toBe(strings[i]);
    }
  });

  test('a reused reader reads its new input, not the old window', () => {
    const reader = new TextReader();
    reader.use(utf8.encode('abcdefgh'));
    expect(reader.read(0, 4)).toBe('abcd');
    reader.use(utf8.encode('ABCDEFGH'));
    expect(reader.read(0, 4)).toBe('ABCD');
    expect(reader.read(4, 8)).toBe('EFGH');
  });

  test('invalid UTF-8 is refused, short or long', () => {
    for (const bytes of [Uint8Array.of(0x61, 0xff), Uint8Array.of(...utf8.encode('x'.repeat(20)), 0xc3)]) {
      expect(() => new TextReader(bytes).read(0, bytes.length)).toThrow(
        expect.objectContaining({ code: 'WK_DECODE_MALFORMED' }),
      );
      expect(() => decodeUtf8(bytes, 0, bytes.length)).toThrow(
        expect.objectContaining({ code: 'WK_DECODE_MALFORMED' }),
      );
    }
  });

  test('decodeUtf8 agrees with a strict TextDecoder on any bytes: the same text, or a refusal', () => {
    // Node's lenient utf8Slice answers first; only its U+FFFD sends bytes to the strict decoder.
    const outcomeOf = (decode: () => string) => {
      try {
        return { text: decode() };
      } catch {
        return { refused: true };
      }
    };
    // Bytes near UTF-8's edges: continuations, overlong leads, surrogates, past U+10FFFF, U+FFFD itself.
    const edgy = fc.constantFrom(
      0x00,
      0x41,
      0x7f,
      0x80,
      0xbf,
      0xc0,
      0xc1,
      0xc2,
      0xdf,
      0xe0,
      0xed,
      0xef,
      0xf0,
      0xf4,
      0xf5,
      0xff,
      0xa0,
      0x9f,
      0x90,
      0x8f,
      0xbd,
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(edgy, fc.integer({ min: 0, max: 255 })), { maxLength: 40 }), (list) => {
        const bytes = Uint8Array.from(list);
        expect(outcomeOf(() => decodeUtf8(bytes, 0, bytes.length))).toEqual(
          outcomeOf(() => strict.decode(bytes)),
        );
      }),
      { numRuns: 5000 },
    );
    for (const text of ['\uFFFD', 'a\uFFFDb Théâtre', '\uFEFFbom and é', `${'x'.repeat(300)}\uFFFD`]) {
      const bytes = utf8.encode(text);
      expect(decodeUtf8(bytes, 0, bytes.length)).toBe(text);
    }
  });

  test('decodeUtf8 agrees with a strict TextDecoder on valid text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        if (!text.isWellFormed()) return;
        const bytes = utf8.encode(text);
        expect(decodeUtf8(bytes, 0, bytes.length)).toBe(strict.decode(bytes));
      }),
    );
  });
});
