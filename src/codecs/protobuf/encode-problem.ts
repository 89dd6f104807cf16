/**
 * What goes wrong while encoding, and where. The path of a problem is collected while the stack
 * unwinds (innermost segment first), so the happy path builds no path arrays.
 */
import { formatPath, WirekitError } from '../../errors/index.js';
import { type Rule, refusalBy } from '../../schema/value-rules.js';
import type { Writer } from './writer.js';

type ProblemCode = 'WK_VALIDATION_FAILED' | 'WK_ENCODE_UNSUPPORTED' | 'WK_LIMIT_DEPTH';

export class EncodeProblem extends WirekitError {
  readonly segments: (string | number)[] = [];
  constructor(
    code: ProblemCode,
    readonly detail: string,
  ) {
    super(code, detail);
  }
}

/** `error` with one more (outer) path segment, when it is a problem with the value. */
export function within(error: unknown, segment: string | number): unknown {
  if (error instanceof RangeError) return error;
  if (error instanceof EncodeProblem) {
    error.segments.push(segment);
    return error;
  }
  if (
    error instanceof WirekitError &&
    (error.code === 'WK_ENCODE_UNSUPPORTED' ||
      error.code === 'WK_VALIDATION_FAILED' ||
      error.code === 'WK_LIMIT_DEPTH')
  ) {
    const problem = new EncodeProblem(error.code, error.message);
    problem.segments.push(segment);
    return problem;
  }
  return error;
}

/** A problem at `segment` of the value being written. */
export function at(problem: EncodeProblem, segment: string | number): EncodeProblem {
  problem.segments.push(segment);
  return problem;
}

/** The error an encode throws: problems get their path, a stack overflow a code. */
export function encodeFailure(error: unknown): unknown {
  if (error instanceof EncodeProblem) {
    const path = error.segments.reverse();
    const where = path.length === 0 ? '' : `${formatPath(path)}: `;
    return new WirekitError(error.code, `${where}${error.detail}`, { path });
  }
  if (error instanceof RangeError) {
    return new WirekitError('WK_ENCODE_UNSUPPORTED', 'the value nests too deeply to encode, or is cyclic.', {
      cause: error,
    });
  }
  return error;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Uint8Array) return 'a Uint8Array';
  if (value instanceof Date) return 'a Date';
  if (value instanceof Map) return 'a Map';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'bigint') return `bigint ${value}n`;
  return `${typeof value} ${String(value).slice(0, 40)}`;
}

/** Refuses `value` where `rule` does (value-rules.ts), with the rule's message; the compiled encoder calls it too. */
export function keep(rule: Rule<never> | undefined, value: unknown): void {
  const refusal = refusalBy(rule, value);
  if (refusal !== undefined) throw new EncodeProblem('WK_VALIDATION_FAILED', refusal.message);
}

export function wrong(expected: string, value: unknown): EncodeProblem {
  return new EncodeProblem('WK_VALIDATION_FAILED', `expected ${expected}, got ${describe(value)}.`);
}

/**
 * Counts a nested body `levels` deeper that reaches `need` levels (a slot's, see Slot.levels)
 * against maxDepth, as the decoder does, so that the codec never writes what it would refuse to
 * read, and a cyclic value stops here instead of overflowing the stack. The caller takes `levels`
 * off `w.depth` when the body is done.
 */
export function enter(w: Writer, levels: number, need: number): void {
  if (w.depth + need > w.maxDepth) {
    throw new EncodeProblem(
      'WK_LIMIT_DEPTH',
      `the value nests deeper than maxDepth (${w.maxDepth}) levels (is it cyclic?).`,
    );
  }
  w.depth += levels;
}
