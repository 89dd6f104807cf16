/**
 * The schemaless reader for the inputs cbor-x cannot map by itself: maps with non-string keys (with
 * `mapsAsObjects` every key becomes a property name, without it every map a Map; wirekit decides
 * per map), chunked strings (which cbor-x refuses), tag 1 holding a 64-bit integer form (which
 * cbor-x multiplies as a bigint and fails on) and integers beyond the safe range in a 64-bit form
 * (which cbor-x, reading 64-bit forms as numbers, would round). The scanner has checked the bytes
 * before this runs, and everything else is read as cbor-x reads it, so both paths give the same
 * values: a safe integer as a number, a wider one and every bignum as a bigint.
 */

import { decodeUtf8 } from '../../core/utf8.js';
import { DecodedMap } from '../../keyed/decode/decoded-map.js';
import { numberIfSafe } from '../../keyed/decode/safe-integer.js';
import { halfToNumber } from './items.js';

export class NaturalReader {
  private pos = 0;
  private readonly view: DataView;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  }

  /** The argument of the head at `pos`, past it; -1 for chunked items; 64-bit forms as bigint. */
  private argument(): number | bigint {
    const info = (this.bytes[this.pos] as number) & 0x1f;
    this.pos++;
    if (info < 24) return info;
    if (info === 31) return -1;
    const at = this.pos;
    this.pos += 1 << (info - 24);
    if (info === 24) return this.bytes[at] as number;
    if (info === 25) return this.view.getUint16(at);
    if (info === 26) return this.view.getUint32(at);
    return this.view.getBigUint64(at);
  }

  read(): unknown {
    const head = this.bytes[this.pos] as number;
    switch (head >> 5) {
      case 0: {
        const value = this.argument();
        return typeof value === 'bigint' ? numberIfSafe(value) : value;
      }
      case 1: {
        const value = this.argument();
        return typeof value === 'bigint' ? numberIfSafe(-1n - value) : -1 - value;
      }
      case 2:
        return this.string(false);
      case 3:
        return this.string(true);
      case 4: {
        const count = Number(this.argument());
        const out: unknown[] = count >= 0 ? new Array(count) : [];
        for (let i = 0; count < 0 ? !this.atBreak() : i < count; i++) out[i] = this.read();
        return out;
      }
      case 5:
        return this.map(Number(this.argument()));
      case 6:
        return this.tag(Number(this.argument()));
      default:
        return this.simple(head);
    }
  }

  private atBreak(): boolean {
    if (this.bytes[this.pos] !== 0xff) return false;
    this.pos++;
    return true;
  }

  private string(text: boolean): string | Uint8Array {
    const length = Number(this.argument());
    if (length >= 0) {
      const start = this.pos;
      this.pos += length;
      return text ? decodeUtf8(this.bytes, start, this.pos) : this.bytes.slice(start, this.pos);
    }
    const chunks: (string | Uint8Array)[] = [];
    while (!this.atBreak()) chunks.push(this.string(text));
    if (text) return chunks.join('');
    const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
    let filled = 0;
    for (const chunk of chunks as Uint8Array[]) {
      out.set(chunk, filled);
      filled += chunk.length;
    }
    return out;
  }

  private map(count: number): unknown {
    const map = new DecodedMap();
    for (let i = 0; count < 0 ? !this.atBreak() : i < count; i++) {
      const key = this.read();
      map.set(key, this.read());
    }
    return map.value;
  }

  /** The tags the scanner lets through, mapped as cbor-x maps them. */
  private tag(tag: number): unknown {
    const content = this.read();
    switch (tag) {
      case 0:
        return new Date(content as string);
      case 1:
        return new Date(Math.round(Number(content) * 1000));
      case 2:
      case 3: {
        let value = 0n;
        for (const byte of content as Uint8Array) value = (value << 8n) | BigInt(byte);
        return tag === 2 ? value : -1n - value;
      }
      case 4: {
        const [exponent, mantissa] = content as [number | bigint, number | bigint];
        return +`${mantissa}e${exponent}`;
      }
      default:
        return content; // 55799, self-described CBOR
    }
  }

  private simple(head: number): unknown {
    const at = this.pos + 1;
    switch (head) {
      case 0xf4:
        this.pos++;
        return false;
      case 0xf5:
        this.pos++;
        return true;
      case 0xf6:
        this.pos++;
        return null;
      case 0xf9:
        this.pos += 3;
        return halfToNumber(this.view.getUint16(at));
      case 0xfa:
        this.pos += 5;
        return this.view.getFloat32(at);
      case 0xfb:
        this.pos += 9;
        return this.view.getFloat64(at);
      default:
        this.pos++;
        return undefined; // 0xf7; the scanner refuses the other simple values
    }
  }
}
