/**
 * The `json` kind travels as JSON text in a string slot. Writing checks that the value is JSON (so
 * that JSON.stringify cannot turn NaN into null or drop a function unannounced) with no key a
 * decoder refuses (`__proto__`, `constructor`, `prototype`: WK_ENCODE_UNSUPPORTED; the encoder's
 * jsonValueText); reading, here, puts the parsed value under the same limits as the rest of the
 * decoded value.
 */
import { checkParsedJson } from '../../../schema/json-kind.js';
import { malformed } from '../../core/errors.js';
import type { DecodeLimits } from '../../core/limits.js';

/** Counts array items and map entries across one decoded value, throwing past the limit. */
export interface Tally {
  countElements(n: number, at: number): void;
}

/**
 * Parses the text of a `json` slot at byte `offset`; its nesting continues from `depth`, its arrays
 * and objects count toward maxElements, and keys that could reach a prototype are refused.
 */
export function parseJsonText(
  text: string,
  offset: number,
  depth: number,
  limits: DecodeLimits,
  tally: Tally,
): unknown {
  let value: unknown;
  try {
    // V8's JSON.parse does not recurse on the stack, so a deep text cannot overflow it here.
    value = JSON.parse(text);
  } catch {
    throw malformed(offset, 'a json field does not hold JSON text');
  }
  const count = (items: number): void => tally.countElements(items, offset);
  checkParsedJson(value, { depth, maxDepth: limits.maxDepth, count }, offset);
  return value;
}
