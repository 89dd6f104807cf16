/**
 * Avro's longs as zigzag varints, read by the reader's fast paths (up to eight bytes in doubles)
 * and its BigInt path, against a BigInt reference: every length, the edges of ±2^53 where a double
 * stops being exact, and random 64-bit values, as safe numbers and as bigints.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createAvroCodec } from '../../../src/codecs/avro/index.js';
import { t } from '../../../src/schema/index.js';
import { outcome } from '../../support/outcome.js';

/** The zigzag varint of a 64-bit long, as Avro writes it. */
function varintOf(value: bigint): Uint8Array {
  let z = BigInt.asUintN(64, (value << 1n) ^ (value >> 63n));
  const out: number[] = [];
  do {
    const low = Number(z & 0x7fn);
    z >>= 7n;
    out.push(z === 0n ? low : low | 0x80);
  } while (z !== 0n);
  return new Uint8Array(out);
}

const big = createAvroCodec({ schema: t.int64() });
const safe = createAvroCodec({ schema: t.int64({ as: 'number' }) });
const maxSafe = BigInt(Number.MAX_SAFE_INTEGER);

function expectRead(value: bigint): void {
  const input = varintOf(value);
  expect(big.decode(input)).toBe(value);
  const asNumber = outcome(() => safe.decode(input));
  if (value >= -maxSafe && value <= maxSafe) expect(asNumber).toEqual({ ok: true, value: Number(value) });
  else expect(asNumber).toMatchObject({ ok: false, code: 'WK_DECODE_SCHEMA_MISMATCH' });
}

describe('Avro longs, read in doubles where exact and as BigInt beyond', () => {
  test('the edges of every varint length and of ±2^53', () => {
    const edges: bigint[] = [0n, -1n, 1n, 2n ** 63n - 1n, -(2n ** 63n)];
    for (let bits = 6n; bits <= 62n; bits++) {
      for (const base of [2n ** bits, -(2n ** bits)]) edges.push(base - 1n, base, base + 1n);
    }
    for (const delta of [-3n, -2n, -1n, 0n, 1n, 2n, 3n]) edges.push(maxSafe + delta, -maxSafe + delta);
    for (const value of edges) expectRead(value);
  });

  test('sixteen-digit ids, and random 64-bit longs', () => {
    for (const id of [1_000_000_000_000_000n, 9_007_199_254_740_991n, 9_999_999_999_999_999n]) {
      expectRead(id);
      expectRead(-id);
    }
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (value) => expectRead(value)),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 56n), max: 2n ** 56n }), (value) => expectRead(value)),
      { numRuns: 2000 },
    );
  });

  test('an overlong eighth byte and a truncated one', () => {
    // 1 written in eight bytes (seven continuation bytes, then 0): read as the BigInt path reads it.
    expect(big.decode(new Uint8Array([0x82, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00]))).toBe(1n);
    expect(
      outcome(() => big.decode(new Uint8Array([0x82, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80]))),
    ).toMatchObject({ ok: false });
  });
});
