import type { LargeIntKind, SmallIntKind } from './types.js';

/** Inclusive value ranges of the integer kinds. */
export const smallIntRange: Readonly<Record<SmallIntKind, readonly [number, number]>> = {
  int8: [-128, 127],
  int16: [-32_768, 32_767],
  int32: [-2_147_483_648, 2_147_483_647],
  uint8: [0, 255],
  uint16: [0, 65_535],
  uint32: [0, 4_294_967_295],
};

export const largeIntRange: Readonly<Record<LargeIntKind, readonly [bigint, bigint]>> = {
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
};
