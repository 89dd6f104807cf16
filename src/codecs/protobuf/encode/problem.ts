/**
 * What goes wrong while encoding. A problem with the value is a WirekitError with an empty path,
 * which the encoder puts each enclosing field, item or key in front of as the stack unwinds
 * (prependPath, as every format does), so the happy path builds no path arrays.
 */
import { describeValue, WirekitError } from '../../../errors/index.js';
import { type Rule, refusalBy, refused } from '../../../schema/value-rules.js';
import type { ProtobufWriter } from './writer.js';

/** The error an encode throws: problems as they are (with their path), a stack overflow a code. */
export function encodeFailure(error: unknown): unknown {
  if (error instanceof RangeError) {
    return new WirekitError('WK_ENCODE_UNSUPPORTED', 'the value nests too deeply to encode, or is cyclic.', {
      cause: error,
    });
  }
  return error;
}

/** Refuses `value` where `rule` does (value-rules.ts), with the rule's message; the compiled encoder calls it too. */
export function keep(rule: Rule<never> | undefined, value: unknown): void {
  const refusal = refusalBy(rule, value);
  if (refusal !== undefined) throw refused(refusal);
}

export function wrong(expected: string, value: unknown): WirekitError {
  return new WirekitError('WK_VALIDATION_FAILED', `expected ${expected}, got ${describeValue(value)}.`, {
    path: [],
  });
}

/**
 * Counts a nested body `levels` deeper that reaches `need` levels (a slot's, see Slot.levels)
 * against maxDepth, as the decoder does, so that the codec never writes what it would refuse to
 * read, and a cyclic value stops here instead of overflowing the stack. The caller takes `levels`
 * off `w.depth` when the body is done.
 */
export function enter(w: ProtobufWriter, levels: number, need: number): void {
  if (w.depth + need > w.maxDepth) {
    throw new WirekitError(
      'WK_LIMIT_DEPTH',
      `the value nests deeper than maxDepth (${w.maxDepth}) levels (is it cyclic?).`,
      { path: [] },
    );
  }
  w.depth += levels;
}
