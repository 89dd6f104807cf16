/**
 * Reading JSON bytes: strict UTF-8, JSON.parse's errors as wirekit's with byte offsets, and the
 * schemaless walk after the parse (the limits on size are text-checks.ts's, before it). The
 * schemaless writer's check of what JSON.stringify would change is encode/jsonable.ts.
 */
import type { WirekitError } from '../../../errors/index.js';
import { findJsonFault, holdsInfinity } from '../../../util/json-syntax.js';
import { utf8Length } from '../../../util/utf8-length.js';
import {
  isUnsafeKey,
  malformed,
  mismatch,
  tooDeep,
  trailing,
  truncated,
  unsafeKey,
} from '../../core/errors.js';
import type { DecodeLimits } from '../../core/limits.js';

/** A byte order mark stays in the text (`ignoreBOM`), so that byte offsets count it; `parseJson` skips it. */
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Bytes to text, refusing invalid UTF-8 (a lenient decoder would put U+FFFD in its place). */
export function jsonText(bytes: Uint8Array): string {
  try {
    return decoder.decode(bytes);
  } catch {
    throw malformed(firstInvalidUtf8(bytes), 'the input is not valid UTF-8');
  }
}

/**
 * JSON.parse, with a leading byte order mark skipped (RFC 8259 §8.1 lets a reader ignore one; the
 * text keeps it, so byte offsets count it). When JSON.parse refuses the text, wirekit's own scan
 * (util/json-syntax.ts) says why and where, since V8's message names no position for most faults:
 * text that ends inside a value is truncated at its end, a value followed by more is trailing at
 * the first byte after it, and anything else is malformed at its first byte no JSON text could
 * have there.
 */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    // Only a SyntaxError is about the text: anything else (out of memory) is no input's fault.
    if (!(error instanceof SyntaxError)) throw error;
    throw syntaxError(text, error);
  }
}

function syntaxError(text: string, error: SyntaxError): WirekitError {
  const fault = findJsonFault(text);
  const end = byteOffset(text, text.length);
  switch (fault?.kind) {
    case 'truncated':
      return truncated(end, 'JSON text');
    case 'trailing':
      return trailing(byteOffset(text, fault.position), end);
    case 'malformed':
      return malformed(
        byteOffset(text, fault.position),
        `invalid JSON: expected ${fault.expected}, found ${characterAt(text, fault.position)}`,
      );
    default:
      // The scan follows the grammar JSON.parse follows; should they ever disagree, V8's word stands.
      return malformed(0, `invalid JSON: ${error.message}`);
  }
}

/** The character at `position` for a message: itself when printable ASCII, else its code point. */
function characterAt(text: string, position: number): string {
  const code = text.codePointAt(position) as number;
  if (code > 0x20 && code < 0x7f) return JSON.stringify(String.fromCharCode(code));
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Walks a schemaless parsed value once, without recursion: refuses unsafe keys, nesting deeper
 * than maxDepth and numbers past float64 (`refuseInfinity`). For texts the scan (scan.ts) did not
 * read, which are too short to break the limits on size; a scanned text has had the first two
 * checks already, and gets `checkFinite`.
 */
export function checkParsed(value: unknown, limits: DecodeLimits, text: string): void {
  if (typeof value !== 'object' || value === null) {
    if (typeof value === 'number' && value - value !== 0) refuseInfinity(text);
    return;
  }
  const stack: unknown[] = [value];
  const depths: number[] = [1];
  // Infinity or NaN minus itself is NaN: one subtraction tells a number past float64 (JSON.parse
  // makes no NaN), in the branch the walk takes for every leaf anyway.
  let infinite = false;
  while (stack.length > 0) {
    const node = stack.pop() as object;
    const depth = depths.pop() as number;
    if (depth > limits.maxDepth) throw tooDeep(0, limits);
    if (Array.isArray(node)) {
      for (const item of node) {
        if (typeof item === 'object') {
          if (item === null) continue;
          stack.push(item);
          depths.push(depth + 1);
        } else if (typeof item === 'number' && item - item !== 0) infinite = true;
      }
      continue;
    }
    for (const key in node) {
      if (isUnsafeKey(key)) throw unsafeKey(0, key);
      const item = (node as Record<string, unknown>)[key];
      if (typeof item === 'object') {
        if (item === null) continue;
        stack.push(item);
        depths.push(depth + 1);
      } else if (typeof item === 'number' && item - item !== 0) infinite = true;
    }
  }
  // After the walk: a fault the walk throws at once (depth, a key) comes first wherever it is.
  if (infinite) refuseInfinity(text);
}

/** Refuses a number past float64 in a parsed value (see checkParsed), for a text the scan has read. */
export function checkFinite(value: unknown, text: string): void {
  if (holdsInfinity(value)) refuseInfinity(text);
}

/**
 * Refuses the first number of `text` that JSON.parse read as an infinity (`1e400`): JSON text holds
 * finite numbers only, and no schemaless reader of another format gives an infinity for one.
 * Without a schema the text is read as a json value (`t.json()`), whose rule this is, with its
 * code; the byte offset comes from wirekit's own scan of the text, run only here.
 */
function refuseInfinity(text: string): never {
  const fault = findJsonFault(text, true);
  const position = fault?.kind === 'overflow' ? fault.position : 0;
  throw mismatch(byteOffset(text, position), 'a number is beyond the range of a float64');
}

function byteOffset(text: string, position: number): number {
  return utf8Length(text, 0, position);
}

/** Where the first invalid UTF-8 sequence starts (only called once decoding has failed). */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] as number;
    const size =
      lead < 0x80
        ? 1
        : lead >= 0xc2 && lead <= 0xdf
          ? 2
          : lead >= 0xe0 && lead <= 0xef
            ? 3
            : lead >= 0xf0 && lead <= 0xf4
              ? 4
              : 0;
    if (size === 0 || i + size > bytes.length) return i;
    for (let k = 1; k < size; k++) if (((bytes[i + k] as number) & 0xc0) !== 0x80) return i;
    // Overlong three-byte forms, surrogates, and code points past U+10FFFF are invalid too.
    const second = bytes[i + 1] as number;
    if ((lead === 0xe0 && second < 0xa0) || (lead === 0xed && second > 0x9f)) return i;
    if ((lead === 0xf0 && second < 0x90) || (lead === 0xf4 && second > 0x8f)) return i;
    i += size;
  }
  return bytes.length;
}
