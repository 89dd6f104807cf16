/**
 * The schemaless reader for the inputs msgpackr cannot map by itself: with `mapsAsObjects` it turns
 * every map into an object (an integer key 1 becomes the property "1"), and without it every map
 * into a Map. wirekit's mapping decides per map: string keys only → object, any other key → Map.
 * The scanner has checked the bytes (lengths, UTF-8, keys, extensions, depth) before this runs, and
 * everything else is read as msgpackr reads it, so both paths give the same values. (The scanner
 * also sends here the values msgpackr would read otherwise: some timestamps, and int 64 and
 * uint 64 beyond the safe range, which msgpackr reads as rounded numbers and this as bigints.)
 */

import { decodeUtf8 } from '../../core/utf8.js';
import { DecodedMap } from '../../keyed/decode/decoded-map.js';
import { numberIfSafe } from '../../keyed/decode/safe-integer.js';
import { readLength } from './items.js';

const two32 = 0x1_0000_0000;

export class NaturalReader {
  private pos = 0;
  private readonly view: DataView;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  }

  read(): unknown {
    const bytes = this.bytes;
    const view = this.view;
    const head = bytes[this.pos++] as number;
    if (head < 0x80) return head;
    if (head < 0x90) return this.map(head & 0x0f);
    if (head < 0xa0) return this.array(head & 0x0f);
    if (head < 0xc0) return this.text(head & 0x1f);
    if (head >= 0xe0) return head - 0x100;
    const at = this.pos;
    switch (head) {
      case 0xc0:
        return null;
      case 0xc2:
        return false;
      case 0xc3:
        return true;
      case 0xc4:
      case 0xc5:
      case 0xc6:
        return this.bin(this.length(1 << (head - 0xc4)));
      case 0xc7:
      case 0xc8:
      case 0xc9:
        return this.extension(this.length(1 << (head - 0xc7)));
      case 0xca:
        this.pos += 4;
        return view.getFloat32(at);
      case 0xcb:
        this.pos += 8;
        return view.getFloat64(at);
      case 0xcc:
        this.pos += 1;
        return bytes[at];
      case 0xcd:
        this.pos += 2;
        return view.getUint16(at);
      case 0xce:
        this.pos += 4;
        return view.getUint32(at);
      case 0xcf:
        this.pos += 8;
        return numberIfSafe(view.getBigUint64(at));
      case 0xd0:
        this.pos += 1;
        return view.getInt8(at);
      case 0xd1:
        this.pos += 2;
        return view.getInt16(at);
      case 0xd2:
        this.pos += 4;
        return view.getInt32(at);
      case 0xd3:
        this.pos += 8;
        return numberIfSafe(view.getBigInt64(at));
      case 0xd9:
      case 0xda:
      case 0xdb:
        return this.text(this.length(1 << (head - 0xd9)));
      case 0xdc:
      case 0xdd:
        return this.array(this.length(head === 0xdc ? 2 : 4));
      case 0xde:
      case 0xdf:
        return this.map(this.length(head === 0xde ? 2 : 4));
      default:
        // fixext 1–16: only the timestamp passes the scanner.
        return this.extension(1 << (head - 0xd4));
    }
  }

  private length(width: number): number {
    const length = readLength(this.bytes, this.pos, width);
    this.pos += width;
    return length;
  }

  private text(length: number): string {
    const start = this.pos;
    this.pos += length;
    return decodeUtf8(this.bytes, start, this.pos);
  }

  private bin(length: number): Uint8Array {
    const start = this.pos;
    this.pos += length;
    return this.bytes.slice(start, this.pos);
  }

  private array(count: number): unknown[] {
    const out: unknown[] = new Array(count);
    for (let i = 0; i < count; i++) out[i] = this.read();
    return out;
  }

  private map(count: number): unknown {
    const map = new DecodedMap();
    for (let i = 0; i < count; i++) {
      const key = this.read();
      map.set(key, this.read());
    }
    return map.value;
  }

  /** The timestamp extension, to the millisecond at or before the instant (as the schema reader does). */
  private extension(length: number): Date {
    const at = this.pos + 1; // after the type byte, which the scanner allowed only as -1
    this.pos = at + length;
    const view = this.view;
    if (length === 4) return new Date(view.getUint32(at) * 1000);
    if (length === 8) {
      const high = view.getUint32(at);
      const nanos = Math.floor(high / 4);
      return new Date(((high & 3) * two32 + view.getUint32(at + 4)) * 1000 + Math.floor(nanos / 1e6));
    }
    const seconds = view.getInt32(at + 4) * two32 + view.getUint32(at + 8);
    return new Date(seconds * 1000 + Math.floor(view.getUint32(at) / 1e6));
  }
}
