/**
 * MessagePack's bytes for each primitive (https://github.com/msgpack/msgpack/blob/master/spec.md),
 * always in the smallest form the spec offers, as the spec asks of serializers.
 */

import { decimalFits } from '../../../schema/decimal.js';
import { KeyedWriter } from '../../keyed/encode/writer.js';
import { unsupported } from '../../keyed/failures.js';
import type { WireEmitter } from '../../keyed/wire.js';

const two32 = 0x1_0000_0000;
const two34 = 0x4_0000_0000;

export class MsgpackEmitter extends KeyedWriter implements WireEmitter {
  nil(): void {
    this.byte(0xc0);
  }

  undef(): void {
    this.byte(0xc0);
  }

  bool(value: boolean): void {
    this.byte(value ? 0xc3 : 0xc2);
  }

  int(value: number): void {
    if (value >= 0) {
      if (value < 0x80) this.byte(value);
      else if (value < 0x100) this.byte2(0xcc, value);
      else if (value < 0x10000) this.byteUint16(0xcd, value);
      else if (value < two32) this.byteUint32(0xce, value);
      else this.byteUint64(0xcf, value);
    } else if (value >= -0x20) this.byte(value & 0xff);
    else if (value >= -0x80) this.byte2(0xd0, value & 0xff);
    else if (value >= -0x8000) this.byteUint16(0xd1, value & 0xffff);
    else if (value >= -0x8000_0000) this.byteUint32(0xd2, value >>> 0);
    else this.byteInt64(0xd3, value);
  }

  bigint(value: bigint): void {
    if (value >= -0x8000_0000n && value <= 0xffff_ffffn) this.int(Number(value));
    else if (value < 0n) this.byteInt64(0xd3, value);
    else this.byteUint64(0xcf, value);
  }

  /**
   * The same bytes as the number of that value where one exists. MessagePack's widest integers are
   * int 64 and uint 64, and it has no standard bignum (an extension type would be wirekit's own,
   * which other readers refuse or hand out as opaque bytes), so wider values are refused.
   */
  anyBigint(value: bigint): void {
    if (value >= -0x8000_0000_0000_0000n && value <= 0xffff_ffff_ffff_ffffn) this.bigint(value);
    else
      throw unsupported(
        `${value}n is beyond MessagePack's integers (int 64 and uint 64), and MessagePack has no bignum; send it as a string, or use CBOR, whose bignums hold it.`,
      );
  }

  float32(value: number): void {
    this.byteFloat32(0xca, value);
  }

  float64(value: number): void {
    this.byteFloat64(0xcb, value);
  }

  protected readonly shortTextHead = 0xa0;
  protected readonly shortText = 0x20;

  protected textHeaderSize(length: number): number {
    return length < 0x20 ? 1 : length < 0x100 ? 2 : length < 0x10000 ? 3 : 5;
  }

  protected textHeader(length: number): void {
    if (length < 0x20) this.byte(0xa0 | length);
    else if (length < 0x100) this.byte2(0xd9, length);
    else if (length < 0x10000) this.byteUint16(0xda, length);
    else if (length < two32) this.byteUint32(0xdb, length);
    else throw unsupported('a string of 4 GiB or more does not fit MessagePack.');
  }

  bytes(value: Uint8Array): void {
    const length = value.length;
    if (length < 0x100) this.byte2(0xc4, length);
    else if (length < 0x10000) this.byteUint16(0xc5, length);
    else if (length < two32) this.byteUint32(0xc6, length);
    else throw unsupported('a byte string of 4 GiB or more does not fit MessagePack.');
    this.raw(value);
  }

  /** The timestamp extension (type -1) in its smallest form: 32, 64 or 96 bits. */
  timestamp(millis: number): void {
    const seconds = Math.floor(millis / 1000);
    const nanos = (millis - seconds * 1000) * 1_000_000;
    this.ensure(15);
    if (seconds >= 0 && seconds < two34) {
      if (nanos === 0 && seconds < two32) {
        this.byte2(0xd6, 0xff);
        this.view.setUint32(this.pos, seconds);
        this.pos += 4;
      } else {
        this.byte2(0xd7, 0xff);
        this.view.setUint32(this.pos, nanos * 4 + Math.floor(seconds / two32));
        this.view.setUint32(this.pos + 4, seconds >>> 0);
        this.pos += 8;
      }
      return;
    }
    this.byte(0xc7);
    this.byte2(12, 0xff);
    this.view.setUint32(this.pos, nanos);
    this.pos += 4;
    this.byteInt64WithoutHead(seconds);
  }

  private byteInt64WithoutHead(value: number): void {
    const high = Math.floor(value / two32);
    this.view.setInt32(this.pos, high);
    this.view.setUint32(this.pos + 4, value - high * two32);
    this.pos += 8;
  }

  /** MessagePack has no decimal type: the canonical text keeps every digit. */
  decimal(text: string): void {
    this.text(text);
  }

  decimalWithin(text: string, integerDigits: number, fractionDigits: number): boolean {
    if (!decimalFits(text, integerDigits, fractionDigits)) return false;
    this.text(text);
    return true;
  }

  arrayHeader(count: number): void {
    if (count < 0x10) this.byte(0x90 | count);
    else if (count < 0x10000) this.byteUint16(0xdc, count);
    else this.byteUint32(0xdd, count);
  }

  mapHeader(count: number): void {
    if (count < 0x10) this.byte(0x80 | count);
    else if (count < 0x10000) this.byteUint16(0xde, count);
    else this.byteUint32(0xdf, count);
  }
}
