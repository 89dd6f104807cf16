/**
 * Strict UTF-8. TextDecoder/TextEncoder replace bad sequences and lone surrogates with U+FFFD,
 * which silently changes data; wirekit refuses both instead.
 */
import { WirekitError } from '../../errors/index.js';
import { latin1Slice, utf8Text } from '../../util/node-runtime.js';
import { asciiByCodes } from './ascii.js';
import { malformed } from './errors.js';

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

/** Bytes per window of a TextReader: each input byte is copied about once as windows move on. */
const windowBytes = 4096;

/**
 * The strings of one input, for readers that decode many: `decodeUtf8`, except that once an input
 * has given several short ASCII strings (at most 12 bytes: names, tags, enum-like values), the
 * next are cut from a latin1 string of the 4 KiB of input around them: one native call per window,
 * then ~7 ns a string against ~10-17 ns for `shortAscii`. The first few are made by `shortAscii`,
 * since a window costs a native call (~40 ns) that a small message with one or two strings would
 * not earn back (a quarter of a tiny message's decode, measured). V8 copies a cut of fewer than 13
 * characters into a string of its own, so a kept value holds no window alive.
 */
export class TextReader {
  private bytes: Uint8Array;
  private window = '';
  private from = 0;
  private to = 0;
  /** Short strings read from this input before windows are worth making. */
  private untilWindows = windowAfter;

  constructor(bytes: Uint8Array = new Uint8Array(0)) {
    this.bytes = bytes;
  }

  /** Reads from `bytes` from now on (the next input of a reader that is reused). */
  use(bytes: Uint8Array): void {
    this.bytes = bytes;
    this.window = '';
    this.from = 0;
    this.to = 0;
    this.untilWindows = windowAfter;
  }

  /** Bytes [start, end) of the input, which must be strict UTF-8, as a string. */
  read(start: number, end: number): string {
    const bytes = this.bytes;
    if (end - start > 12 || latin1Slice === undefined) return decodeUtf8(bytes, start, end);
    if (this.untilWindows > 0) {
      this.untilWindows--;
      return shortAscii(bytes, start, end - start) ?? decodeSlow(bytes, start, end);
    }
    let ascii = 0;
    for (let i = start; i < end; i++) ascii |= bytes[i] as number;
    if (ascii >= 0x80) return decodeUtf8(bytes, start, end);
    if (start < this.from || end > this.to) {
      this.from = start;
      this.to = Math.min(bytes.length, start + windowBytes);
      this.window = latin1Slice.call(bytes, start, this.to);
    }
    return this.window.slice(start - this.from, end - this.from);
  }
}

/** Short strings an input gives before a TextReader starts cutting them from windows. */
const windowAfter = 4;

/**
 * Bytes [start, start + length) as a string when they are ASCII and at most 12, else undefined:
 * one `String.fromCharCode` call with every byte an argument (core/ascii.ts) makes a flat string
 * at once, about twice as fast as appending characters one by one (which also builds ropes past
 * 12) and 4× a latin1Slice call at these lengths. Without code generation, the appending loop.
 */
function shortAscii(bytes: Uint8Array, start: number, length: number): string | undefined {
  if (length > 12) return undefined;
  const end = start + length;
  let ascii = 0;
  for (let i = start; i < end; i++) ascii |= bytes[i] as number;
  if (ascii >= 0x80) return undefined;
  if (asciiByCodes !== undefined) return asciiByCodes(bytes, start, length);
  let text = '';
  for (let i = start; i < end; i++) text += String.fromCharCode(bytes[i] as number);
  return text;
}

/**
 * Decodes bytes [start, end). Short ASCII runs go through `shortAscii`; longer ASCII text (emails,
 * names) up to 256 bytes is checked byte by byte and made by latin1Slice. Anything else goes to
 * the strict TextDecoder.
 */
export function decodeUtf8(bytes: Uint8Array, start: number, end: number): string {
  if (end - start <= 12) return shortAscii(bytes, start, end - start) ?? decodeSlow(bytes, start, end);
  if (latin1Slice !== undefined && end - start <= 256) {
    for (let i = start; i < end; i++) if ((bytes[i] as number) >= 0x80) return decodeSlow(bytes, start, end);
    return latin1Slice.call(bytes, start, end);
  }
  return decodeSlow(bytes, start, end);
}

/**
 * Bytes [start, end) that are not short ASCII. Node's utf8Slice (no subarray to make; about half a
 * fatal TextDecoder's cost on strings of tens of bytes, the same on kilobytes) writes U+FFFD for
 * every byte that is not UTF-8, so text without one came from valid UTF-8 and is the answer; text
 * with one goes to the strict decoder, which refuses the bytes or keeps a U+FFFD they spelled.
 */
function decodeSlow(bytes: Uint8Array, start: number, end: number): string {
  const text = utf8Text(bytes, start, end);
  if (!text.includes('\uFFFD')) return text;
  try {
    return decoder.decode(bytes.subarray(start, end));
  } catch {
    throw malformed(start, 'a string is not valid UTF-8');
  }
}

/**
 * Orders strings as their UTF-8 bytes (code point order): the order FlatBuffers' binary search by
 * key expects, and the order of Protocol Buffers' deterministic map keys. UTF-16 code units agree
 * with it except that surrogates (astral characters) sort below U+E000..U+FFFF, so only a pair of
 * units both from U+D800 on is shifted before comparing.
 */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x !== y) {
      if (x >= 0xd800 && y >= 0xd800) {
        x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
        y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
      }
      return x - y;
    }
  }
  return a.length - b.length;
}

export function encodeUtf8(text: string): Uint8Array {
  checkWellFormed(text);
  return encoder.encode(text);
}

/**
 * A lone surrogate has no UTF-8 form; writing U+FFFD in its place would lose data unannounced. The
 * error starts an empty path, which encoders put the value's path in front of as they unwind.
 */
export function checkWellFormed(text: string): void {
  if (!text.isWellFormed()) throw loneSurrogate();
}

/** The error for a string holding a lone surrogate (see checkWellFormed). */
export function loneSurrogate(): WirekitError {
  return new WirekitError(
    'WK_ENCODE_UNSUPPORTED',
    'a string holds a lone surrogate, which UTF-8 cannot carry.',
    {
      path: [],
    },
  );
}
