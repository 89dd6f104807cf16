/**
 * Writes into the runtime's Builder below its own helpers: strings without TextEncoder's per-call
 * cost, and vector elements into room that startVector has already reserved and aligned.
 */
import type { Builder } from 'flatbuffers';
import { checkWellFormed } from '../../core/utf8.js';
import type { Store } from '../plan.js';

export function wellFormed(text: string): string {
  // The runtime's TextEncoder would write U+FFFD for a lone surrogate, changing the data silently.
  checkWellFormed(text);
  return text;
}

/**
 * A string as the runtime's createString writes it (length, bytes, a 0 byte), but short ones byte by
 * byte from the end: below a few dozen characters TextEncoder's per-call cost dominates encoding.
 * The text is well-formed (checked before), so surrogates come in pairs.
 */
export function createString(builder: Builder, text: string): number {
  const n = text.length;
  if (n > 64) return builder.createString(text);
  let length = n;
  for (let i = 0; i < n; i++) {
    const unit = text.charCodeAt(i);
    // UTF-8 bytes per UTF-16 unit: 1, 2, 2 (each half of a 4-byte pair), or 3.
    if (unit >= 0x80) length += unit < 0x800 || (unit >= 0xd800 && unit <= 0xdfff) ? 1 : 2;
  }
  builder.addInt8(0);
  builder.startVector(1, length, 1);
  for (let i = n - 1; i >= 0; i--) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) builder.writeInt8(unit);
    else if (unit < 0x800) {
      builder.writeInt8(0x80 | (unit & 0x3f));
      builder.writeInt8(0xc0 | (unit >> 6));
    } else if (unit >= 0xdc00 && unit <= 0xdfff) {
      const point = ((text.charCodeAt(--i) - 0xd800) << 10) + (unit - 0xdc00) + 0x10000;
      builder.writeInt8(0x80 | (point & 0x3f));
      builder.writeInt8(0x80 | ((point >> 6) & 0x3f));
      builder.writeInt8(0x80 | ((point >> 12) & 0x3f));
      builder.writeInt8(0xf0 | (point >> 18));
    } else {
      builder.writeInt8(0x80 | (unit & 0x3f));
      builder.writeInt8(0x80 | ((unit >> 6) & 0x3f));
      builder.writeInt8(0xe0 | (unit >> 12));
    }
  }
  return builder.endVector();
}

export function writeBare(builder: Builder, store: Store, bits: number | bigint): void {
  switch (store) {
    case 'i8':
      builder.writeInt8(bits as number);
      return;
    case 'i16':
      builder.writeInt16(bits as number);
      return;
    case 'i32':
      builder.writeInt32(bits as number);
      return;
    case 'i64':
      builder.writeInt64(bits as bigint);
      return;
    case 'f32':
      builder.writeFloat32(bits as number);
      return;
    case 'f64':
      builder.writeFloat64(bits as number);
      return;
  }
}
