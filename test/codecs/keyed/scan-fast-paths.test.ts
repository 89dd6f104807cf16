/**
 * The shortcuts the schemaless scanners take for speed, each held to the slow path it replaces:
 * 8-byte MessagePack timestamps go to msgpackr only where msgpackr reads them as wirekit's own
 * reader does, and the scanners' int32 counters refuse containers too large for them.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createCborCodec } from '../../../src/codecs/cbor/index.js';
import { NaturalReader } from '../../../src/codecs/msgpack/decode/natural.js';
import { createMsgpackCodec } from '../../../src/codecs/msgpack/index.js';
import { codeOf } from '../../support/code-of.js';
import { hex } from '../../support/self-describing.js';

/** The 8-byte timestamp extension: 30 bits of nanoseconds, 34 of seconds. */
function timestamp64(seconds: number, nanos: number): Uint8Array {
  const bytes = new Uint8Array(10);
  bytes[0] = 0xd7;
  bytes[1] = 0xff;
  const view = new DataView(bytes.buffer);
  view.setUint32(2, nanos * 4 + Math.floor(seconds / 0x1_0000_0000));
  view.setUint32(6, seconds % 0x1_0000_0000);
  return bytes;
}

describe('msgpack: 8-byte timestamps', () => {
  const plain = createMsgpackCodec();

  test('decode to the millisecond at or before the instant, whichever reader runs', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 34 - 1 }),
        fc.oneof(
          fc.integer({ min: 0, max: 999 }).map((ms) => ms * 1_000_000),
          fc.integer({ min: 0, max: 999_999_999 }),
          fc.integer({ min: 0, max: 999 }).map((ms) => ms * 1_000_000 + 999_999),
        ),
        (seconds, nanos) => {
          const bytes = timestamp64(seconds, nanos);
          const expected = seconds * 1000 + Math.floor(nanos / 1_000_000);
          expect((plain.decode(bytes) as Date).getTime()).toBe(expected);
          expect((new NaturalReader(bytes).read() as Date).getTime()).toBe(expected);
        },
      ),
    );
  });

  test('the instants msgpackr rounds up still decode rounded down', () => {
    // 1 s + 999,999,999 ns; and a 2023 instant + 0.999999 ms, where msgpackr's sum rounds up.
    expect((plain.decode(timestamp64(1, 999_999_999)) as Date).getTime()).toBe(1999);
    expect((plain.decode(timestamp64(1_700_000_000, 999_999)) as Date).getTime()).toBe(1_700_000_000_000);
  });

  test('Dates round-trip inside records, at every millisecond of a second', () => {
    const dates = Array.from({ length: 1000 }, (_, ms) => new Date(1_700_000_000_000 + ms));
    const back = plain.decode(plain.encode({ dates })) as { dates: Date[] };
    expect(back.dates.map((date) => date.getTime())).toEqual(dates.map((date) => date.getTime()));
  });
});

describe('container counts beyond the scanners int32 counters', () => {
  const huge = { maxElements: 2 ** 40, maxInputBytes: 2 ** 40 };

  test('msgpack: an array or map of 2^30 items or more is too many elements', () => {
    const msgpack = createMsgpackCodec({ limits: huge });
    expect(codeOf(() => msgpack.decode(hex('dd40000000')))).toBe('WK_LIMIT_ELEMENTS');
    expect(codeOf(() => msgpack.decode(hex('df40000000')))).toBe('WK_LIMIT_ELEMENTS');
    expect(codeOf(() => msgpack.decode(hex('dd3fffffff')))).toBe('WK_DECODE_TRUNCATED');
  });

  test('cbor: an array or map of 2^30 items or more is too many elements', () => {
    const cbor = createCborCodec({ limits: huge });
    expect(codeOf(() => cbor.decode(hex('9a40000000')))).toBe('WK_LIMIT_ELEMENTS');
    expect(codeOf(() => cbor.decode(hex('bb0000000100000000')))).toBe('WK_LIMIT_ELEMENTS');
    expect(codeOf(() => cbor.decode(hex('9a3fffffff')))).toBe('WK_DECODE_TRUNCATED');
  });
});
