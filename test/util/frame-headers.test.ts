/**
 * The frame headers both layers' walks read (src/util/frame-headers.ts), on frames the real
 * libraries write: what a header says must be what the library wrote, and a header cut short or
 * bent is named as a fault, never read past its end.
 */
import { Encoder } from '@toondepauw/node-zstd';
import { compressFrameSync } from 'lz4-napi';
import { describe, expect, test } from 'vitest';
import {
  lz4FrameMagic,
  readLz4Block,
  readLz4FrameHeader,
  readZstdBlock,
  readZstdFrameHeader,
  zstdBlockMax,
} from '../../src/util/frame-headers.js';

const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
const text = new TextEncoder().encode('frames and blocks, '.repeat(20_000));

describe('LZ4 (lz4-napi)', () => {
  const frame = new Uint8Array(compressFrameSync(Buffer.from(text)));

  test('the header and blocks lead to the frame end, and the blocks hold the content', () => {
    expect(view(frame).getUint32(0, true)).toBe(lz4FrameMagic);
    const header = readLz4FrameHeader(frame, view(frame), 0);
    if (typeof header === 'string') throw new Error(header);
    let offset = header.blocksAt;
    let bound = 0;
    for (;;) {
      const block = readLz4Block(frame, view(frame), offset, header);
      if (typeof block === 'string') throw new Error(block);
      if (block === null) break;
      bound += block.stored ? block.size : Math.min(header.blockMax, 255 * block.size);
      offset = block.next;
    }
    expect(offset + 4 + (header.contentChecksum ? 4 : 0)).toBe(frame.length);
    expect(bound).toBeGreaterThanOrEqual(text.length);
  });

  test('a header cut short, another version or a reserved block maximum is a fault', () => {
    expect(readLz4FrameHeader(frame.subarray(0, 6), view(frame.subarray(0, 6)), 0)).toBe(
      'the frame is truncated at byte 6',
    );
    const bent = frame.slice();
    bent[4] = (bent[4] as number) ^ 0xc0;
    expect(readLz4FrameHeader(bent, view(bent), 0)).toMatch(/^frame version \d is not 1$/);
    bent.set(frame.subarray(0, 6));
    bent[5] = 0x30;
    expect(readLz4FrameHeader(bent, view(bent), 0)).toBe('block maximum code 3 is reserved');
  });
});

describe('Zstandard (@toondepauw/node-zstd)', () => {
  const frame = new Uint8Array(new Encoder(3).encodeSync(Buffer.from(text)));

  test('the blocks lead to the frame end, each within 128 KiB', () => {
    const header = readZstdFrameHeader(frame, 0);
    if (typeof header === 'string') throw new Error(header);
    let offset = header.blocksAt;
    let bound = 0;
    for (let last = false; !last; ) {
      const block = readZstdBlock(frame, offset);
      if (typeof block === 'string') throw new Error(block);
      expect(block.bound).toBeLessThanOrEqual(zstdBlockMax);
      bound += block.bound;
      offset = block.next;
      last = block.last;
    }
    expect(offset + (header.checksum ? 4 : 0)).toBe(frame.length);
    expect(bound).toBeGreaterThanOrEqual(text.length);
  });

  test('a reserved bit, a reserved block type, an oversized or cut-off block is a fault', () => {
    const header = readZstdFrameHeader(frame, 0);
    if (typeof header === 'string') throw new Error(header);
    const bent = frame.slice();
    bent[4] = (bent[4] as number) | 0x08;
    expect(readZstdFrameHeader(bent, 0)).toBe('a reserved bit of the frame header is set');
    const at = header.blocksAt;
    const block = (word: number) => {
      const bytes = frame.slice(0, at + 3);
      bytes.set([word & 0xff, (word >> 8) & 0xff, (word >> 16) & 0xff], at);
      return readZstdBlock(bytes, at);
    };
    expect(block(3 << 1)).toBe(`a block at byte ${at} has the reserved type`);
    expect(block(((zstdBlockMax + 1) << 3) | 1)).toBe(`a block of ${zstdBlockMax + 1} bytes exceeds 128 KiB`);
    expect(block((10 << 3) | 1)).toBe(`the frame is truncated at byte ${at + 3}`);
    expect(readZstdBlock(frame.subarray(0, at + 3), at)).toMatch(/^the frame is truncated at byte/);
  });
});
