/**
 * Strict UTF-8. TextDecoder/TextEncoder replace bad sequences and lone surrogates with U+FFFD,
 * which silently changes data; wirekit refuses both instead.
 */
import { WirekitError } from '../errors/index.js';
import { malformed } from './errors.js';

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

/**
 * Node's Buffer#latin1Slice, which takes any Uint8Array: for ASCII bytes it is the string, made
 * in one native call, without TextDecoder's validation (ASCII needs none) or a subarray.
 * Undefined outside Node (browsers), where TextDecoder does the work.
 */
export const latin1Slice = (() => {
  const slice = (globalThis as { Buffer?: { prototype?: { latin1Slice?: unknown } } }).Buffer?.prototype
    ?.latin1Slice;
  return typeof slice === 'function'
    ? (slice as (this: Uint8Array, start: number, end: number) => string)
    : undefined;
})();

/**
 * Decodes bytes [start, end). Short ASCII runs are decoded by hand: for the short keys and values
 * that dominate records, that is several times faster than a TextDecoder call; past 12 characters
 * the concatenation builds cons strings, so longer ASCII text (emails, names) is checked byte by
 * byte and made by latin1Slice. Anything else goes to the strict TextDecoder.
 */
export function decodeUtf8(bytes: Uint8Array, start: number, end: number): string {
  if (end - start <= 12) {
    let text = '';
    for (let i = start; i < end; i++) {
      const byte = bytes[i] as number;
      if (byte >= 0x80) return decodeSlow(bytes, start, end);
      text += String.fromCharCode(byte);
    }
    return text;
  }
  if (latin1Slice !== undefined && end - start <= 256) {
    for (let i = start; i < end; i++) if ((bytes[i] as number) >= 0x80) return decodeSlow(bytes, start, end);
    return latin1Slice.call(bytes, start, end);
  }
  return decodeSlow(bytes, start, end);
}

function decodeSlow(bytes: Uint8Array, start: number, end: number): string {
  try {
    return decoder.decode(bytes.subarray(start, end));
  } catch {
    throw malformed(start, 'a string is not valid UTF-8');
  }
}

export function encodeUtf8(text: string): Uint8Array {
  checkWellFormed(text);
  return encoder.encode(text);
}

/** A lone surrogate has no UTF-8 form; writing U+FFFD in its place would lose data unannounced. */
export function checkWellFormed(text: string): void {
  if (!text.isWellFormed()) {
    throw new WirekitError(
      'WK_ENCODE_UNSUPPORTED',
      'a string holds a lone surrogate, which UTF-8 cannot carry.',
    );
  }
}
