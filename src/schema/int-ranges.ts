/**
 * The integer kinds and their ranges: one table every validator, encoder, decoder, planner and
 * exporter reads, so that `int16` means -32768..32767 everywhere. `isSmallInt` is the one guard for
 * the six kinds whose values are JavaScript numbers (int8 … uint32): a switch over kinds asks it
 * first instead of listing the six cases again, and in the codecs it is asked while planning or
 * generating code, never per value.
 */
import type { IntSchema, LargeIntKind, SmallIntKind } from './types.js';

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

/**
 * Whether a schema node is of an integer kind whose values are JavaScript numbers; narrows the node
 * (and, where it is false, a switch below it, which then needs no case for these kinds).
 */
export function isSmallInt<S extends { readonly kind: string }>(
  schema: S,
): schema is Extract<S, { readonly kind: SmallIntKind }> {
  return Object.hasOwn(smallIntRange, schema.kind);
}

/**
 * The values a small integer schema allows: its kind's range, narrowed by its `min` and `max`. Every
 * validator, encoder and decoder reads an integer's range here, once per schema node (when a codec is
 * planned or compiled), so a bound costs no more per value than the kind's own limits do.
 */
export function intRange(schema: IntSchema): readonly [number, number] {
  const [min, max] = smallIntRange[schema.kind];
  if (schema.min === undefined && schema.max === undefined) return smallIntRange[schema.kind];
  return [schema.min ?? min, schema.max ?? max];
}

/**
 * `{ range }` for a schema whose bounds narrow its kind's range, `{}` for one without: for plans
 * that carry a range only where it differs from the kind's (a uint32 written as an Avro long).
 */
export function boundedRange(schema: IntSchema): { range?: readonly [number, number] } {
  return schema.min === undefined && schema.max === undefined ? {} : { range: intRange(schema) };
}
