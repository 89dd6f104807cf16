/**
 * The raw field reader of codecs/protobuf/inspect.ts (what `wirekit inspect` shows a message by
 * when it has no wirekit schema) reads the wire by the decoder's own rules: any bytes are fields
 * to it exactly when the codec, decoding them as a message whose fields are all unknown, skips them
 * all, and both refuse with the same code; only how deep groups may nest is each one's own limit.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createProtobufCodec } from '../../src/codecs/protobuf/index.js';
import { readPackedVarints, readWireFields } from '../../src/codecs/protobuf/inspect.js';
import { t } from '../../src/index.js';

const maxDepth = 8;
// A message with no fields: every field of the input is unknown to the codec, and skipped.
const codec = createProtobufCodec({ schema: t.object('Empty', {}), limits: { maxDepth } });

function outcome(read: () => unknown): string {
  try {
    read();
    return 'read';
  } catch (error) {
    return (error as { code: string }).code;
  }
}

const varint = (value: bigint): number[] => {
  const out: number[] = [];
  for (; value >= 0x80n; value >>= 7n) out.push(Number(value & 0x7fn) | 0x80);
  return [...out, Number(value)];
};
const key = (number: number, wireType: number) => varint((BigInt(number) << 3n) | BigInt(wireType));
const field = fc.oneof(
  fc
    .tuple(fc.integer({ min: 1, max: 40 }), fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }))
    .map(([n, v]) => [...key(n, 0), ...varint(v)]),
  fc
    .tuple(fc.integer({ min: 1, max: 40 }), fc.uint8Array({ maxLength: 10 }))
    .map(([n, bytes]) => [...key(n, 2), ...varint(BigInt(bytes.length)), ...bytes]),
  fc
    .tuple(fc.integer({ min: 1, max: 40 }), fc.constantFrom(1, 5))
    .map(([n, w]) => [...key(n, w), ...Array<number>(w === 1 ? 8 : 4).fill(7)]),
  fc.tuple(fc.integer({ min: 1, max: 40 }), fc.constantFrom(3, 4)).map(([n, w]) => key(n, w)),
  fc.uint8Array({ maxLength: 3 }).map((bytes) => [...bytes]),
  // Varints as hostile input writes them: up to 11 bytes, padded, or wider than 64 bits.
  fc
    .tuple(
      fc.integer({ min: 1, max: 40 }),
      fc.array(fc.integer({ min: 0x80, max: 0xff }), { maxLength: 10 }),
      fc.integer({ min: 0, max: 0x7f }),
    )
    .map(([n, more, last]) => [...key(n, 0), ...more, last]),
  fc.tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 6 })).map(([n, padding]) => {
    const [first = 0, ...rest] = key(n, 0);
    return padding === 0 ? [first, ...rest, 1] : [first | 0x80, ...Array<number>(padding).fill(0x80), 0, 1];
  }),
);
const input = fc.oneof(
  fc.uint8Array({ maxLength: 48 }),
  fc.array(field, { maxLength: 8 }).map((parts) => Uint8Array.from(parts.flat())),
);

describe('the raw field reader and the decoder read the wire alike', () => {
  test('fuzz: fields to one exactly when the other skips them all, refused with the same code', () => {
    fc.assert(
      fc.property(input, (bytes) => {
        const shown = outcome(() => readWireFields(bytes, 0, bytes.length, 0, maxDepth));
        const decoded = outcome(() => codec.decode(bytes));
        // Nested groups are a level of the decoded value to the codec, of what is shown to the reader.
        if (decoded === 'WK_LIMIT_DEPTH') return;
        expect(shown).toBe(decoded);
      }),
      { numRuns: 20_000 },
    );
  });

  test('a varint of ten bytes keeps its low 64 bits, as the decoder and protoc read it', () => {
    const bytes = Uint8Array.from([0x08, ...Array<number>(9).fill(0xff), 0x7f]);
    expect(readWireFields(bytes, 0, bytes.length, 0, maxDepth)).toEqual([
      { number: 1, wireType: 0, value: (1n << 64n) - 1n },
    ]);
  });

  test('a packed run of varints, and one cut short', () => {
    const bytes = Uint8Array.from([0x96, 0x01, 0x05, 0x80]);
    expect(readPackedVarints(bytes, 0, 3)).toEqual([150n, 5n]);
    expect(() => readPackedVarints(bytes, 0, 4)).toThrow(
      expect.objectContaining({ code: 'WK_DECODE_TRUNCATED', format: 'protobuf', offset: 4 }),
    );
  });
});
