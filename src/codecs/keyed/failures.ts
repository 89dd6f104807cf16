/**
 * The errors the schema-driven encoder and decoder throw. They start with an empty path; each
 * object field, array index and map key on the way out puts itself in front (`withKey`), so a
 * path is built only when something fails and the happy path allocates none.
 */
import { describeValue, WirekitError } from '../../errors/index.js';
import { unreadableKey } from '../../schema/value-rules.js';

/** A value of the wrong type or range for its schema (encoding). */
export function wrongValue(expected: string, got: unknown): WirekitError {
  return new WirekitError('WK_VALIDATION_FAILED', `expected ${expected}, got ${describeValue(got)}.`, {
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
