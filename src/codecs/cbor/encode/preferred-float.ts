/**
 * The shortest float that holds a number exactly, as RFC 8949's preferred serialization writes
 * floats (§4.1, §4.2.1): half precision (`f9`, 2 bytes) when it holds the value, else single (`fa`,
 * 4 bytes), else double (`fb`, 8 bytes). NaN is the half `7e00`, the infinities `7c00` and `fc00`,
 * and `-0` the half `8000` (a sign is a value). A number is exact in a narrower float when rounding
 * it there gives it back: `Math.fround` for single; for half, a single's bits are checked directly
 * (Node 20 has no `Math.f16round`).
 */

/** A single's bits, read through two views of one word (in the platform's order, as bits are). */
const single = new Float32Array(1);
const singleBits = new Uint32Array(single.buffer);

/**
 * The binary16 bits of `value` when a half holds it exactly, else -1. `value` is a single already
 * (`Math.fround(value) === value`), NaN or an infinity.
 */
export function halfBits(value: number): number {
  if (Number.isNaN(value)) return 0x7e00;
  single[0] = value;
  const bits = singleBits[0] as number;
  const sign = (bits >>> 16) & 0x8000;
  const exponent = ((bits >>> 23) & 0xff) - 127;
  const fraction = bits & 0x7fffff;
  // Zero (a single's exponent field 0 holds zero or a subnormal, far below any half).
  if (exponent === -127) return fraction === 0 ? sign : -1;
  // The infinities (a single's exponent field 255 with no fraction; NaN was handled above).
  if (exponent === 128) return sign | 0x7c00;
  // A normal half: exponent -14..15, and no more than 10 fraction bits.
  if (exponent >= -14 && exponent <= 15) {
    if ((fraction & 0x1fff) !== 0) return -1;
    return sign | ((exponent + 15) << 10) | (fraction >>> 13);
  }
  // A subnormal half: m × 2^-24 for m below 1024, so the significand's low bits must be zero.
  if (exponent >= -24 && exponent < -14) {
    const significand = 0x800000 | fraction;
    const shift = -1 - exponent;
    if ((significand & ((1 << shift) - 1)) !== 0) return -1;
    return sign | (significand >>> shift);
  }
  return -1;
}
