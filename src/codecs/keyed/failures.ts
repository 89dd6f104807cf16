/**
 * The errors the schema-driven encoder and decoder throw. They start with an empty path; each
 * object field, array index and map key on the way out puts itself in front (`withKey`), so a
 * path is built only when something fails and the happy path allocates none.
 */
import { formatPath, type Path, WirekitError } from '../../errors/index.js';
import { unreadableKey } from '../../schema/value-rules.js';

/** A value of the wrong type or range for its schema (encoding). */
export function wrongValue(expected: string, got: unknown): WirekitError {
  return new WirekitError('WK_VALIDATION_FAILED', `expected ${expected}, got ${describe(got)}.`, {
    path: [],
  });
}

/** A value the format cannot carry (encoding). */
export function unsupported(message: string, cause?: unknown): WirekitError {
  return new WirekitError('WK_ENCODE_UNSUPPORTED', message, { path: [], cause });
}

/** A value nested deeper than maxDepth (encoding), as the decoder would refuse it. */
export function tooDeepValue(maxDepth: number): WirekitError {
  return new WirekitError(
    'WK_LIMIT_DEPTH',
    `the value nests deeper than maxDepth (${maxDepth}); is it cyclic?`,
    {
      path: [],
    },
  );
}

/** Keys that wirekit decoders refuse are refused on the way out too, so that every output reads back. */
export function refusedKey(key: string): WirekitError {
  return unreadableKey(key) ?? unsupported(`the key ${JSON.stringify(key)} is refused by wirekit decoders.`);
}

/** Well-formed input that does not fit the schema (decoding). */
export function schemaMismatch(offset: number, message: string): WirekitError {
  return new WirekitError('WK_DECODE_SCHEMA_MISMATCH', `${message} (at byte ${offset}).`, {
    offset,
    path: [],
  });
}

/**
 * `error` with `key` in front of its path (and of its message), when it is a WirekitError that
 * carries a path; anything else is returned as it is.
 */
export function withKey(error: unknown, key: string | number): unknown {
  if (!(error instanceof WirekitError) || error.path === undefined) return error;
  const leaf = error.path.length > 0 ? error.message.slice(formatPath(error.path).length + 2) : error.message;
  const path: Path = [key, ...error.path];
  return new WirekitError(error.code, `${formatPath(path)}: ${leaf}`, {
    path,
    offset: error.offset,
    format: error.format,
    cause: error.cause,
  });
}

export function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'string')
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value);
  if (typeof value !== 'object') return `${typeof value} ${String(value)}`;
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Uint8Array) return 'a Uint8Array';
  if (value instanceof Date) return 'a Date';
  if (value instanceof Map) return 'a Map';
  return 'an object';
}
