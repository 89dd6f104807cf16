/**
 * The `json` kind travels as a proto `string` holding JSON text. JSON.stringify alone would change
 * data unannounced (NaN becomes null, undefined and functions vanish), and JSON.parse alone would
 * let untrusted text through unbounded, so both directions check the value as they go.
 */
import { WirekitError } from '../../errors/index.js';
import { isUnsafeKey, mismatch, tooDeep, unsafeKey } from '../errors.js';
import type { Reader } from './reader.js';

/**
 * The JSON text of a JSON value found `depth` levels deep; throws WK_VALIDATION_FAILED for anything
 * JSON cannot hold as is, and WK_LIMIT_DEPTH where its nesting takes it beyond `maxDepth` (the
 * decoder's count, so a cyclic value stops there).
 */
export function jsonText(value: unknown, depth: number, maxDepth: number): string {
  checkJson(value, depth, maxDepth);
  return JSON.stringify(value);
}

function checkJson(value: unknown, depth: number, maxDepth: number): void {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw notJson(`${value} is not a JSON number`);
    return;
  }
  const proto = typeof value === 'object' ? Object.getPrototypeOf(value) : undefined;
  if (proto !== Object.prototype && proto !== null && !Array.isArray(value)) {
    throw notJson(
      `${typeof value === 'object' ? 'a class instance' : `a ${typeof value}`} is not a JSON value`,
    );
  }
  if (depth + 1 > maxDepth) {
    throw new WirekitError(
      'WK_LIMIT_DEPTH',
      `a json value nests deeper than maxDepth (${maxDepth}) (is it cyclic?).`,
      {
        path: [],
      },
    );
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) checkJson(value[i], depth + 1, maxDepth);
    return;
  }
  for (const key in value as object) checkJson((value as Record<string, unknown>)[key], depth + 1, maxDepth);
}

function notJson(message: string): WirekitError {
  return new WirekitError('WK_VALIDATION_FAILED', `expected a JSON value: ${message}.`, { path: [] });
}

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
