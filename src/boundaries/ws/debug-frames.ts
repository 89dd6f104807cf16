/**
 * Frames as a person reads them, for the debug log: binary frames are unreadable in a log line, so
 * each frame is shown as its value's JSON form (the schema's own JSON codec writes it, so a
 * timestamp reads as ISO text and bytes as base64, exactly as `wirekit.json` would carry them), cut
 * to `maxChars`. A frame that did not decode is shown as hex of its first bytes instead.
 *
 * Rendering costs a JSON encode per frame, so it runs only when the option is on and the logger
 * would print debug lines at all.
 */
import type { Codec } from '../../codecs/core/codec.js';
import { createCodec } from '../../codecs/registry.js';
import type { Schema } from '../../schema/index.js';

export interface DebugFrameOptions {
  /** The longest rendering logged, in characters (default 1,000); longer ones are cut and say so. */
  readonly maxChars?: number;
}

export const defaultDebugChars = 1000;

/** What a debug line says about one frame. */
export interface FrameLogEntry {
  readonly direction: 'in' | 'out';
  readonly format: string;
  /** The frame's payload size on the wire. */
  readonly bytes: number;
  /** The value as JSON text (cut to maxChars), or hex of the first bytes of a frame that did not decode. */
  readonly frame: string;
}

const decoder = new TextDecoder();

export class FrameRenderer {
  readonly #json: Codec<unknown>;
  readonly #maxChars: number;

  constructor(schema: Schema, maxChars = defaultDebugChars) {
    this.#json = createCodec('json', { schema });
    this.#maxChars = maxChars;
  }

  /** The value's JSON text, cut to maxChars with the count of what was left out. */
  value(value: unknown): string {
    let text: string;
    try {
      text = decoder.decode(this.#json.encode(value));
    } catch {
      // A value that failed validation is logged by its sender's error, not rendered here.
      return '(a value the schema refuses)';
    }
    return cut(text, this.#maxChars);
  }

  /** Hex of the first bytes of a frame that did not decode: two characters a byte. */
  bytes(bytes: Uint8Array): string {
    const shown = bytes.subarray(0, Math.floor(this.#maxChars / 2));
    const hex = Array.from(shown, (byte) => byte.toString(16).padStart(2, '0')).join('');
    return shown.length < bytes.length ? `${hex}… (${bytes.length - shown.length} more bytes)` : hex;
  }
}

function cut(text: string, maxChars: number): string {
  return text.length <= maxChars
    ? text
    : `${text.slice(0, maxChars)}… (${text.length - maxChars} more chars)`;
}
