/**
 * A growable byte buffer for the data of Utf8 and Binary columns. Each column of each batch gets
 * its own (Arrow keeps the buffer), sized up front from the value count and doubled when full.
 */
import { WirekitError } from '../../../errors/index.js';

/** Stateless, so one serves every codec. */
const encoder = new TextEncoder();

/** Int32 offsets address at most this many bytes per column and batch. */
const maxColumnBytes = 2_147_483_647;

export class ByteSink {
  private bytes: Uint8Array;
  private length = 0;

  constructor(capacity: number) {
    this.bytes = new Uint8Array(Math.max(64, capacity));
  }

  get size(): number {
    return this.length;
  }

  /**
   * Appends `text` as UTF-8; false when it holds a lone surrogate (which UTF-8 cannot carry, and
   * TextEncoder would silently turn into U+FFFD).
   */
  writeString(text: string): boolean {
    const count = text.length;
    this.reserve(count * 3);
    const bytes = this.bytes;
    let at = this.length;
    // Short ASCII strings dominate records; copying them by hand beats a TextEncoder call.
    if (count <= 64) {
      let i = 0;
      for (; i < count; i++) {
        const unit = text.charCodeAt(i);
        if (unit >= 0x80) break;
        bytes[at++] = unit;
      }
      if (i === count) {
        this.length = at;
        return true;
      }
    }
    if (!text.isWellFormed()) return false;
    this.length += encoder.encodeInto(text, bytes.subarray(this.length)).written;
    return true;
  }

  writeBytes(source: Uint8Array): void {
    this.reserve(source.length);
    this.bytes.set(source, this.length);
    this.length += source.length;
  }

  /** The bytes written, as a view: the sink is not used again. */
  finish(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }

  private reserve(extra: number): void {
    const needed = this.length + extra;
    if (needed <= this.bytes.length) return;
    if (needed > maxColumnBytes + 3 * 64) {
      throw new WirekitError(
        'WK_ENCODE_UNSUPPORTED',
        'one column of one record batch holds more than 2 GiB of text or bytes; lower batchSize.',
      );
    }
    const grown = new Uint8Array(Math.min(Math.max(needed, this.bytes.length * 2), maxColumnBytes + 3 * 64));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }
}

/** Checks an offset before it is stored in an Int32 offsets buffer. */
export function checkOffset(offset: number): number {
  if (offset > maxColumnBytes) {
    throw new WirekitError(
      'WK_ENCODE_UNSUPPORTED',
      'one column of one record batch holds more than 2^31 - 1 bytes or items; lower batchSize.',
    );
  }
  return offset;
}
