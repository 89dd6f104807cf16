/**
 * The number kinds of schema inference: which integer or float kind holds every number seen at one
 * place, with room to grow ('wide') or the narrowest that fits. The rules are in docs/inference.md.
 */
import * as t from './builders.js';
import type { Schema } from './types.js';

export interface NumberStats {
  min: number;
  max: number;
  integers: boolean;
  /** Every value survives Math.fround unchanged. */
  float32: boolean;
  /**
   * The range of the bigint samples, when there were any: integers a reader kept exact beyond
   * 2^53 (the bench's --data reader does), which `min`/`max` as doubles would round.
   */
  big?: { min: bigint; max: bigint };
}

const signed = [
  [-128, 127, t.int8],
  [-32_768, 32_767, t.int16],
  [-2_147_483_648, 2_147_483_647, t.int32],
] as const;
const unsigned = [
  [0, 255, t.uint8],
  [0, 65_535, t.uint16],
  [0, 4_294_967_295, t.uint32],
] as const;

export function numberSchema(stats: NumberStats, wide: boolean): Schema {
  const { min, max } = stats;
  if (stats.big !== undefined && stats.integers) {
    // Integers kept exact beyond 2^53 stay exact: int64 as bigint (JSON-form strings of digits or
    // safe numbers on input), uint64 for those past int64 that no sample made negative.
    // Every bigint lies beyond 2^53 and every number within it, so the extremes are exact.
    const low = stats.big.min < 0n ? stats.big.min : BigInt(stats.min);
    const high = stats.big.max > 0n ? stats.big.max : BigInt(stats.max);
    if (low >= -(2n ** 63n) && high < 2n ** 63n) return t.int64();
    if (low >= 0n && high < 2n ** 64n) return t.uint64();
  }
  if (!stats.integers) return stats.float32 && !wide ? t.float32() : t.float64();
  // Beyond 2^53 JSON.parse has already rounded the value; float64 holds exactly what is left.
  if (min < Number.MIN_SAFE_INTEGER || max > Number.MAX_SAFE_INTEGER) return t.float64();
  const candidates = wide ? signed.slice(2) : min >= 0 ? unsigned : signed;
  for (const [low, high, make] of candidates) if (min >= low && max <= high) return make();
  // Safe integers came from JSON numbers, so they are numbers already: as bigints, the samples
  // themselves would fail validation, and their JSON form would turn them into strings.
  return t.int64({ as: 'number' });
}

/** The range that spans both (Math.min and Math.max take no bigints). */
export function bigRange(a: { min: bigint; max: bigint }, b: { min: bigint; max: bigint }) {
  const range = { ...a };
  if (b.min < range.min) range.min = b.min;
  if (b.max > range.max) range.max = b.max;
  return range;
}
