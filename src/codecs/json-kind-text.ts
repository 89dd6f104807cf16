/**
 * The JSON text an encoder writes for a `json` value, where a format carries the kind as a string
 * (Protocol Buffers, Avro). JSON.stringify alone would change data unannounced (NaN becomes null,
 * undefined and functions vanish, a Date turns into a string) and write what the decoders refuse,
 * so the value is checked first, as the decoder checks what it parses: WK_VALIDATION_FAILED for
 * what is no JSON value, WK_LIMIT_DEPTH where its nesting takes it beyond maxDepth (so a cyclic
 * value stops there), and WK_ENCODE_UNSUPPORTED for a `__proto__`, `constructor` or `prototype`
 * key, which every wirekit decoder refuses. The errors carry an empty path for the caller to fill.
 */
import { WirekitError } from '../errors/index.js';
import { unreadableKey } from '../schema/value-rules.js';

/** The JSON text of a json value whose own arrays and objects start `depth` levels deep. */
export function jsonKindText(value: unknown, depth: number, maxDepth: number): string {
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
  for (const key in value as object) {
    const unreadable = unreadableKey(key);
    if (unreadable !== undefined) throw unreadable;
    checkJson((value as Record<string, unknown>)[key], depth + 1, maxDepth);
  }
}

function notJson(message: string): WirekitError {
  return new WirekitError('WK_VALIDATION_FAILED', `expected a JSON value: ${message}.`, { path: [] });
}
