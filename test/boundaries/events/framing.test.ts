import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readConfluentFrame, writeConfluentFrame } from '../../../src/boundaries/events/framing.js';
import { WirekitError } from '../../../src/errors/index.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('Confluent framing', () => {
  it('writes the magic byte, the id big-endian, then the payload (golden bytes)', () => {
    expect(hex(writeConfluentFrame(1, Uint8Array.of(0x02, 0x61)))).toBe('00000000010261');
    expect(hex(writeConfluentFrame(0x01020304, new Uint8Array(0)))).toBe('0001020304');
    expect(hex(writeConfluentFrame(0xffffffff, Uint8Array.of(7)))).toBe('00ffffffff07');
  });

  it('writes Protobuf message indexes as Confluent does: [0] as one zero byte, others counted and zigzagged', () => {
    expect(hex(writeConfluentFrame(7, Uint8Array.of(0x08, 0x01), [0]))).toBe('0000000007000801');
    // [1, 0]: count 2 → zigzag 4, then 1 → 2 and 0 → 0.
    expect(hex(writeConfluentFrame(7, new Uint8Array(0), [1, 0]))).toBe('0000000007040200');
    // An index of 64 zigzags to 128: two varint bytes.
    expect(hex(writeConfluentFrame(7, new Uint8Array(0), [64]))).toBe('0000000007028001');
  });

  it('reads back what it writes, with and without indexes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0xffffffff }),
        fc.uint8Array({ maxLength: 64 }),
        fc.array(fc.integer({ min: 0, max: 100_000 }), { minLength: 1, maxLength: 8 }),
        (id, payload, indexes) => {
          const plain = readConfluentFrame(writeConfluentFrame(id, payload));
          expect(plain.schemaId).toBe(id);
          expect(hex(plain.payload)).toBe(hex(payload));
          const indexed = readConfluentFrame(writeConfluentFrame(id, payload, indexes), {
            messageIndexes: true,
          });
          expect(indexed.schemaId).toBe(id);
          expect(indexed.messageIndexes).toEqual(indexes);
          expect(hex(indexed.payload)).toBe(hex(payload));
        },
      ),
    );
  });

  it.each([
    ['empty', ''],
    ['four bytes', '00000001'],
    ['another magic byte', '0100000001ff'],
    ['an envelope', '894b5701'],
  ])('refuses %s with WK_EVENT_FRAME_INVALID', (_, bytes) => {
    expect(() => readConfluentFrame(Buffer.from(bytes, 'hex'))).toThrow(
      expect.objectContaining({ code: 'WK_EVENT_FRAME_INVALID' }),
    );
  });

  it.each([
    ['indexes cut off', '000000000104'],
    ['a varint without end', '0000000001ffffffffff'],
    ['a negative count', '000000000101'],
    ['a negative index', '00000000010203'],
    ['a count over the limit', '0000000001ff01'],
  ])('refuses %s', (_, bytes) => {
    expect(() => readConfluentFrame(Buffer.from(bytes, 'hex'), { messageIndexes: true })).toThrow(
      expect.objectContaining({ code: 'WK_EVENT_FRAME_INVALID' }),
    );
  });

  it('answers random bytes with a frame or WK_EVENT_FRAME_INVALID, nothing else', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        try {
          readConfluentFrame(bytes, { messageIndexes: true });
        } catch (error) {
          expect(error).toBeInstanceOf(WirekitError);
          expect((error as WirekitError).code).toBe('WK_EVENT_FRAME_INVALID');
        }
      }),
      { numRuns: 5000 },
    );
  });
});
