/**
 * A small deterministic generator (xorshift32), so that a failure of a test of random values names
 * a seed that reproduces it. The Protocol Buffers import tests draw their messages from it.
 */
export function seededRandom(seed: number) {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  /** A `bits`-wide integer, every bit drawn, as a signed or an unsigned bigint. */
  const big = (bits: number, signed: boolean) => {
    let value = 0n;
    for (let i = 0; i < bits; i += 16) value = (value << 16n) | BigInt(int(0, 0xffff));
    value &= (1n << BigInt(bits)) - 1n;
    return signed ? BigInt.asIntN(bits, value) : value;
  };
  const pick = <T>(items: readonly T[]) => items[int(0, items.length - 1)] as T;
  return { next, int, big, pick, chance: (p: number) => next() < p };
}

export type SeededRandom = ReturnType<typeof seededRandom>;
