/**
 * The `json` kind travels as JSON text in a string slot. Writing checks that the value is JSON (so
 * that JSON.stringify cannot turn NaN into null or drop a function unannounced) with no key a
 * decoder refuses (`__proto__`, `constructor`, `prototype`: WK_ENCODE_UNSUPPORTED); reading puts the
 * parsed value under the same limits as the rest of the decoded value.
 */
import { WirekitError } from '../../errors/index.js';
import { unreadableKey } from '../../schema/value-rules.js';
import { isUnsafeKey, malformed, mismatch, tooDeep, unsafeKey } from '../errors.js';
import type { DecodeLimits } from '../limits.js';
import { atKey, wrong } from './values.js';

export function jsonText(value: unknown, depth: number, maxDepth: number): string {
  checkJson(value, depth, maxDepth);
  return JSON.stringify(value);
}

function checkJson(value: unknown, depth: number, maxDepth: number): void {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw wrong('a JSON value (finite numbers only)', value);
    return;
  }
  if (typeof value !== 'object') throw wrong('a JSON value', value);
  if (depth >= maxDepth) {
    throw new WirekitError(
      'WK_LIMIT_DEPTH',
      `the value nests deeper than maxDepth (${maxDepth}) (is it cyclic?).`,
      {
        path: [],
      },
    );
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) keyed(i, value[i], depth, maxDepth);
    return;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) throw wrong('a JSON value', value);
  for (const key of Object.keys(value)) {
    // Every wirekit decoder refuses such a key, so it is not written either.
    const unreadable = unreadableKey(key);
    if (unreadable !== undefined) throw atKey(unreadable, key);
    keyed(key, (value as Record<string, unknown>)[key], depth, maxDepth);
  }
}

function keyed(key: string | number, value: unknown, depth: number, maxDepth: number): void {
  try {
    checkJson(value, depth + 1, maxDepth);
  } catch (error) {
    throw atKey(error, key);
  }
}

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
  checkParsed(value, offset, depth, limits, tally);
  return value;
}

function checkParsed(
  value: unknown,
  offset: number,
  depth: number,
  limits: DecodeLimits,
  tally: Tally,
): void {
  if (typeof value !== 'object' || value === null) {
    if (typeof value === 'number' && !Number.isFinite(value)) {
      throw mismatch(offset, 'a json field holds a number beyond float64');
    }
    return;
  }
  if (depth >= limits.maxDepth) throw tooDeep(offset, limits);
  if (Array.isArray(value)) {
    tally.countElements(value.length, offset);
    for (const item of value) checkParsed(item, offset, depth + 1, limits, tally);
    return;
  }
  const keys = Object.keys(value);
  tally.countElements(keys.length, offset);
  for (const key of keys) {
    if (isUnsafeKey(key)) throw unsafeKey(offset, key);
    checkParsed((value as Record<string, unknown>)[key], offset, depth + 1, limits, tally);
  }
}
