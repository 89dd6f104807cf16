/**
 * The `json` kind travels as a proto `string` holding JSON text. JSON.parse alone would let
 * untrusted text through unbounded, so the parsed value is checked as it is walked. The text
 * written is checked first by the json kind's one rule (jsonValueText), since JSON.stringify alone
 * would change data unannounced.
 */
import { isUnsafeKey, mismatch, tooDeep, unsafeKey } from '../errors.js';
import type { Reader } from './reader.js';

/**
 * Parses JSON text found at byte `offset`, `depth` levels deep. The parsed value counts against the
 * reader's limits like any decoded value: its nesting against maxDepth, its items and members
 * against maxElements; object keys that could reach a prototype are refused.
 */
export function parseJsonText(reader: Reader, text: string, offset: number, depth: number): unknown {
  let value: unknown;
  try {
    value = text === '' ? null : JSON.parse(text);
  } catch {
    throw mismatch(offset, 'a json field does not hold JSON text');
  }
  walk(reader, value, depth, offset);
  return value;
}

function walk(reader: Reader, value: unknown, depth: number, offset: number): void {
  // JSON.parse reads a number past float64 (`1e400`) as Infinity, which no JSON value holds.
  if (typeof value === 'number' && !Number.isFinite(value))
    throw mismatch(offset, 'a number in a json value is beyond float64');
  if (typeof value !== 'object' || value === null) return;
  if (depth + 1 > reader.limits.maxDepth) throw tooDeep(offset, reader.limits);
  if (Array.isArray(value)) {
    for (const item of value) {
      reader.countElement();
      walk(reader, item, depth + 1, offset);
    }
    return;
  }
  for (const key of Object.keys(value)) {
    if (isUnsafeKey(key)) throw unsafeKey(offset, key);
    reader.countElement();
    walk(reader, (value as Record<string, unknown>)[key], depth + 1, offset);
  }
}
