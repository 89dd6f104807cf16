/**
 * The writer under the MessagePack and CBOR emitters. Both formats are big-endian and
 * length-prefixed, so they share everything below the format's header bytes: a head byte with a
 * 1-, 2-, 4- or 8-byte big-endian argument, and text behind a header sized before its UTF-8 is
 * known. The buffer itself (growth, the slab outputs are cut from) is core/byte-writer.ts.
 */
import { ByteWriter } from '../../core/byte-writer.js';

export abstract class KeyedWriter extends ByteWriter {
  /** Set while a call is writing, so that a re-entrant call (a getter that encodes) gets its own writer. */
  busy = false;

  /** Starts a new output. */
  begin(): void {
    this.beginOutput();
    this.busy = true;
  }

  /** The bytes written since `begin`, as a view into the slab (see core/byte-writer.ts). */
  override finish(): Uint8Array {
    const out = super.finish();
    this.busy = false;
    return out;
  }

  /** Ends a call that failed, shrinking a buffer that one large value inflated. */
  release(): void {
    this.busy = false;
    this.reset();
  }

  protected byte2(head: number, value: number): void {
    this.ensure(2);
    this.buf[this.pos] = head;
    this.buf[this.pos + 1] = value;
    this.pos += 2;
  }

  protected byteUint16(head: number, value: number): void {
    this.ensure(3);
    this.buf[this.pos] = head;
    this.view.setUint16(this.pos + 1, value);
    this.pos += 3;
  }

  protected byteUint32(head: number, value: number): void {
    this.ensure(5);
    this.buf[this.pos] = head;
    this.view.setUint32(this.pos + 1, value);
    this.pos += 5;
  }

  /** `value` is a non-negative integer below 2^64, as a number (exact up to 2^53) or a bigint. */
  protected byteUint64(head: number, value: number | bigint): void {
    this.ensure(9);
    this.buf[this.pos] = head;
    if (typeof value === 'bigint') this.view.setBigUint64(this.pos + 1, value);
    else {
      this.view.setUint32(this.pos + 1, Math.floor(value / 0x1_0000_0000));
      this.view.setUint32(this.pos + 5, value >>> 0);
    }
    this.pos += 9;
  }

  /** `value` is an integer in [-2^63, 2^63 - 1], as a number (exact up to 2^53) or a bigint. */
  protected byteInt64(head: number, value: number | bigint): void {
    this.ensure(9);
    this.buf[this.pos] = head;
    if (typeof value === 'bigint') this.view.setBigInt64(this.pos + 1, value);
    else {
      const high = Math.floor(value / 0x1_0000_0000);
      this.view.setInt32(this.pos + 1, high);
      this.view.setUint32(this.pos + 5, value - high * 0x1_0000_0000);
    }
    this.pos += 9;
  }

  protected byteFloat32(head: number, value: number): void {
    this.ensure(5);
    this.buf[this.pos] = head;
    this.view.setFloat32(this.pos + 1, value);
    this.pos += 5;
  }

  protected byteFloat64(head: number, value: number): void {
    this.ensure(9);
    this.buf[this.pos] = head;
    this.view.setFloat64(this.pos + 1, value);
    this.pos += 9;
  }

  /** The head byte of a text string shorter than `shortText` bytes, its length in the low bits. */
  protected abstract readonly shortTextHead: number;
  /** One more than the longest text a one-byte head carries (MessagePack's fixstr 32, CBOR's 24). */
  protected abstract readonly shortText: number;

  /**
   * A text string. Most are short and ASCII: those are copied in one loop that stops at the first
   * non-ASCII unit, behind a one-byte head, without `text`'s header guess, sizes and calls (utf8At
   * was 35 % of a product's encode; this took it from 3.09 to 2.70 ms); any other goes to
   * `text`, from the same position, so the bytes are the same.
   */
  string(value: string): void {
    const units = value.length;
    if (units < this.shortText) {
      this.ensure(1 + units);
      const buf = this.buf;
      const at = this.pos + 1;
      let i = 0;
      for (; i < units; i++) {
        const unit = value.charCodeAt(i);
        if (unit >= 0x80) break;
        buf[at + i] = unit;
      }
      if (i === units) {
        buf[this.pos] = this.shortTextHead | units;
        this.pos = at + units;
        return;
      }
    }
    this.text(value);
  }

  /** A map key whose UTF-8 is already known (compiled encoders and plans keep each key's bytes). */
  key(utf8: Uint8Array): void {
    this.textHeader(utf8.length);
    this.raw(utf8);
  }

  /** The size of the text-string header for a string of `length` UTF-8 bytes. */
  protected abstract textHeaderSize(length: number): number;

  /** Writes the text-string header at the current position and moves past it. */
  protected abstract textHeader(length: number): void;

  /**
   * Writes `text` as UTF-8 after a header sized as if the text were ASCII (one byte per code
   * unit), then the real header. The bytes move only when the real header has another size, which
   * takes non-ASCII text near a header-size boundary.
   */
  protected text(text: string): void {
    const units = text.length;
    const guess = this.textHeaderSize(units);
    this.ensure(guess + units * 3 + 9);
    const start = this.pos + guess;
    const end = this.utf8At(text, start);
    const length = end - start;
    const actual = this.textHeaderSize(length);
    if (actual !== guess) this.buf.copyWithin(this.pos + actual, start, end);
    this.textHeader(length);
    this.pos += length;
  }
}
