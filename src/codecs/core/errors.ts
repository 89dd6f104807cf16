/** The errors decoders throw, built in one place so that codes and wording stay uniform. */
import { type ErrorCode, type WireFormat, WirekitError } from '../../errors/index.js';
import type { DecodeLimits } from './limits.js';

/** An error about the input at byte `offset`, from the format that read it when it says so. */
function atByte(code: ErrorCode, message: string, offset: number, format?: WireFormat): WirekitError {
  return new WirekitError(code, message, { offset, format });
}

export function truncated(offset: number, what = 'a value', format?: WireFormat): WirekitError {
  return atByte('WK_DECODE_TRUNCATED', `the input ends inside ${what} (at byte ${offset}).`, offset, format);
}

export function malformed(offset: number, message: string, format?: WireFormat): WirekitError {
  return atByte('WK_DECODE_MALFORMED', `${message} (at byte ${offset}).`, offset, format);
}

export function trailing(offset: number, total: number): WirekitError {
  return atByte(
    'WK_DECODE_TRAILING',
    `${total - offset} bytes follow the value that ends at byte ${offset}.`,
    offset,
  );
}

export function mismatch(offset: number, message: string, format?: WireFormat): WirekitError {
  return atByte('WK_DECODE_SCHEMA_MISMATCH', `${message} (at byte ${offset}).`, offset, format);
}

export function tooDeep(offset: number, limits: DecodeLimits): WirekitError {
  return atByte(
    'WK_LIMIT_DEPTH',
    `values nest deeper than maxDepth (${limits.maxDepth}) at byte ${offset}.`,
    offset,
  );
}

export function tooManyElements(offset: number, limits: DecodeLimits): WirekitError {
  return atByte(
    'WK_LIMIT_ELEMENTS',
    `more than maxElements (${limits.maxElements}) array items and map entries, at byte ${offset}.`,
    offset,
  );
}

export function tooLong(
  offset: number,
  length: number,
  limit: number,
  what: 'string' | 'byte string',
): WirekitError {
  const name = what === 'string' ? 'maxStringBytes' : 'maxBytesLength';
  return atByte(
    'WK_LIMIT_LENGTH',
    `a ${what} of ${length} bytes exceeds ${name} (${limit}), at byte ${offset}.`,
    offset,
  );
}

export function unsafeKey(offset: number, key: string): WirekitError {
  return atByte(
    'WK_DECODE_UNSAFE_KEY',
    `the key ${JSON.stringify(key)} is refused (at byte ${offset}).`,
    offset,
  );
}

export { isUnsafeKey } from '../../util/unsafe-keys.js';
