/**
 * Reading JSON bytes: strict UTF-8, JSON.parse's errors as wirekit's with byte offsets, and the
 * schemaless walk after the parse (the limits on size are text-checks.ts's, before it); and the
 * schemaless writer's check of what JSON.stringify would change.
 */
import { WirekitError } from '../../errors/index.js';
import { utf8Length } from '../../util/utf8-length.js';
import { isUnsafeKey, malformed, tooDeep, trailing, truncated, unsafeKey } from '../core/errors.js';
import type { DecodeLimits } from '../core/limits.js';

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Bytes to text, refusing invalid UTF-8 (a lenient decoder would put U+FFFD in its place). */
export function jsonText(bytes: Uint8Array): string {
  try {
    return decoder.decode(bytes);
  } catch {
    throw malformed(firstInvalidUtf8(bytes), 'the input is not valid UTF-8');
  }
}

/** JSON.parse with its SyntaxError turned into the matching wirekit error. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = Number(/at position (\d+)/.exec(message)?.[1] ?? text.length);
    const offset = byteOffset(text, position);
    if (/Unexpected end|Unterminated/.test(message) || position >= text.length)
      throw truncated(offset, 'JSON text');
    if (/non-whitespace character after JSON/.test(message))
      throw trailing(offset, byteOffset(text, text.length));
    throw malformed(offset, `invalid JSON: ${message}`);
  }
}

/**
 * Walks a schemaless parsed value once, without recursion: refuses unsafe keys and nesting deeper
 * than maxDepth. For texts the scan (scan.ts) did not read, which are too short to break the
 * limits on size; a scanned text has had these checks already.
 */
export function checkParsed(value: unknown, limits: DecodeLimits): void {
  if (typeof value !== 'object' || value === null) return;
  const stack: unknown[] = [value];
  const depths: number[] = [1];
  while (stack.length > 0) {
    const node = stack.pop() as object;
    const depth = depths.pop() as number;
    if (depth > limits.maxDepth) throw tooDeep(0, limits);
    if (Array.isArray(node)) {
      for (const item of node) {
        if (typeof item === 'object' && item !== null) {
          stack.push(item);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    for (const key in node) {
      if (isUnsafeKey(key)) throw unsafeKey(0, key);
      const item = (node as Record<string, unknown>)[key];
      if (typeof item === 'object' && item !== null) {
        stack.push(item);
        depths.push(depth + 1);
      }
    }
  }
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

/**
 * Refuses, before JSON.stringify runs, what it would change without a word: NaN and infinities
 * (written as null), Maps, Sets and typed arrays (written as {} or as index-keyed objects), undefined
 * in arrays (null), bigints, functions and symbols. Dates pass (their toJSON writes ISO text, the
 * common convention), as do objects with a toJSON of their own. The keys `__proto__`, `constructor`
 * and `prototype` are refused too, as the decoder refuses them, so that nothing written is unreadable.
 * Iterative, so a deep or cyclic value meets maxDepth instead of the stack limit.
 */
export function checkJsonable(value: unknown, maxDepth: number): void {
  const stack: unknown[] = [value];
  const depths: number[] = [0];
  while (stack.length > 0) {
    const node = stack.pop();
    const depth = depths.pop() as number;
    if (typeof node !== 'object' || node === null) {
      checkLeaf(node);
      continue;
    }
    if (depth >= maxDepth) {
      throw new WirekitError(
        'WK_ENCODE_UNSUPPORTED',
        `the value nests deeper than ${maxDepth} levels (is it cyclic?).`,
      );
    }
    if (Array.isArray(node)) {
      for (const item of node) {
        if (item === undefined) throw unsupported('undefined in an array (JSON would write null)');
        stack.push(item);
        depths.push(depth + 1);
      }
      continue;
    }
    if (typeof (node as { toJSON?: unknown }).toJSON === 'function') continue;
    const proto = Object.getPrototypeOf(node);
    if (proto !== Object.prototype && proto !== null) {
      throw unsupported(
        `a ${proto?.constructor?.name ?? 'class instance'} (JSON would write it as a plain object)`,
      );
    }
    for (const key in node) {
      const item = (node as Record<string, unknown>)[key];
      if (item === undefined) continue;
      if (isUnsafeKey(key)) {
        throw new WirekitError(
          'WK_ENCODE_UNSUPPORTED',
          `the key ${JSON.stringify(key)} is refused by every wirekit decoder, so it is not written.`,
        );
      }
      stack.push(item);
      depths.push(depth + 1);
    }
  }
}

function checkLeaf(value: unknown): void {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw unsupported(`${value} (JSON would write null)`);
  } else if (typeof value === 'bigint' || typeof value === 'function' || typeof value === 'symbol') {
    throw unsupported(`a ${typeof value}`);
  }
}

function unsupported(what: string): WirekitError {
  return new WirekitError(
    'WK_ENCODE_UNSUPPORTED',
    `JSON cannot carry ${what}; use a schema, or another format.`,
  );
}
