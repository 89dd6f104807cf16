/**
 * The deepest nesting wirekit reads or writes, whatever `maxDepth` says. Most of its readers and
 * writers (every schema-driven codec, compiled or interpreted, `validate`, the libraries under the
 * schemaless MessagePack and CBOR codecs) recurse once or twice per level, so without a ceiling a
 * maxDepth of two million would be bounded by the call stack instead: a RangeError (or, when the
 * stack runs out inside `instanceof`, a TypeError) thrown from wherever the stack happened to end,
 * which depends on the caller's own stack. With it, a nest is refused at the same level every time.
 *
 * The hungriest of those paths (the interpreted JSON and FlatBuffers codecs, `validate`) overflowed
 * Node 20's default stack (984 KiB) at 1,500 to 1,700 levels of a recursive schema, measured from a
 * cold start; 1,000 leaves a third of the stack to the caller. A limit above the ceiling counts as
 * the ceiling (docs/errors.md, WK_LIMIT_DEPTH).
 */
export const depthCeiling = 1000;

/** `maxDepth` as the readers and writers apply it: at most the ceiling. */
export function effectiveDepth(maxDepth: number): number {
  return Math.min(maxDepth, depthCeiling);
}
