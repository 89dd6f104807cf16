/**
 * The transcoder's own writers of Timestamps and base64 (src/codecs/protobuf/transcode/) against
 * the text the ProtoJSON writer makes (protojson-time.ts `timestampText`, util/base64.ts
 * `toBase64`): byte for byte, over the whole range of instants ProtoJSON writes and every length.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { maxMillis, minMillis, timestampText } from '../../../src/codecs/protobuf/protojson-time.js';
import { base64Length, writeBase64 } from '../../../src/codecs/protobuf/transcode/base64.js';
import { writeTimestamp } from '../../../src/codecs/protobuf/transcode/timestamp.js';
import { toBase64 } from '../../../src/util/base64.js';

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

function timestampOf(millis: number): string {
  const out = new Uint8Array(32);
  return latin1(out.subarray(0, writeTimestamp(out, 0, millis)));
}

test('Timestamps: the writer’s text at the edges of the range, of eras, leap days and the epoch', () => {
  const day = 86_400_000;
  const edges = [
    minMillis,
    minMillis + 1,
    maxMillis,
    maxMillis - 999,
    0,
    -1,
    1,
    999,
    1000,
    -day,
    Date.UTC(2000, 1, 29, 23, 59, 59, 999),
    Date.UTC(1900, 1, 28),
    Date.UTC(1900, 2, 1),
    Date.UTC(2100, 1, 28, 12),
    Date.UTC(1600, 1, 29),
    Date.UTC(400, 0, 1),
    Date.UTC(1969, 11, 31, 23, 59, 59, 1),
  ];
  for (const millis of edges) expect(timestampOf(millis)).toBe(timestampText(new Date(millis)));
});

test('Timestamps: the writer’s text for any instant of years 0001-9999', () => {
  fc.assert(
    fc.property(fc.integer({ min: minMillis, max: maxMillis }), (millis) => {
      expect(timestampOf(millis)).toBe(timestampText(new Date(millis)));
    }),
    { numRuns: 20_000 },
  );
});

test('base64: toBase64’s text for every length and byte', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 70 }), fc.nat({ max: 5 }), (bytes, offset) => {
      const padded = new Uint8Array(offset + bytes.length);
      padded.set(bytes, offset);
      const out = new Uint8Array(base64Length(bytes.length) + 3);
      const end = writeBase64(padded, offset, padded.length, out, 3);
      expect(end - 3).toBe(base64Length(bytes.length));
      expect(latin1(out.subarray(3, end))).toBe(toBase64(bytes));
    }),
    { numRuns: 2000 },
  );
});
