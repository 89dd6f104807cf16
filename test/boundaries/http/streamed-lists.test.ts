/**
 * A list written as one value while its rows come: the bytes equal what the codec of the whole
 * list writes (Protocol Buffers), or decode to the list with it (CBOR, JSON), however the row
 * codec's stream happens to be cut into chunks.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { streamedList } from '../../../src/boundaries/http/streamed-lists.js';
import { createCodec } from '../../../src/codecs/index.js';
import { t } from '../../../src/schema/index.js';
import { collect } from '../../support/streams.js';

// Optional fields make empty messages possible: a row of zero bytes, a frame that is all prefix.
const Row = t.object('Row', {
  id: t.optional(t.uint32()),
  name: t.optional(t.string()),
  blob: t.optional(t.bytes()),
});
type Row = { id?: number; name?: string; blob?: Uint8Array };

const rowArbitrary = fc.record(
  {
    id: fc.nat(),
    name: fc.string({ maxLength: 40 }),
    // Up to 300 bytes, so that length prefixes take one and two bytes.
    blob: fc.uint8Array({ maxLength: 300 }),
  },
  { requiredKeys: [] },
) as fc.Arbitrary<Row>;

/** `bytes` cut at the given positions (any order, repeats allowed). */
function cut(bytes: Uint8Array, positions: readonly number[]): Uint8Array[] {
  const points = [...new Set(positions.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const point of [...points, bytes.length]) {
    chunks.push(bytes.slice(from, point));
    from = point;
  }
  return chunks;
}

async function* from(chunks: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  yield* chunks;
}

async function written(form: Parameters<typeof streamedList>[0], chunks: readonly Uint8Array[]) {
  // A plain Uint8Array, so that decoded bytes fields are too (a Buffer's subarrays are Buffers).
  return new Uint8Array(Buffer.concat(await collect(streamedList(form, from(chunks)))));
}

describe('protobuf-repeated', () => {
  const row = createCodec('protobuf', { schema: Row });
  const list = createCodec('protobuf', { schema: t.array(Row) });

  test('the same bytes as the codec of the list, however the delimited stream is cut', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(rowArbitrary, { maxLength: 30 }), fc.array(fc.nat()), async (rows, at) => {
        const delimited = Buffer.concat(await collect(row.encodeStream(rows)));
        const bytes = await written('protobuf-repeated', cut(delimited, at));
        expect(Buffer.from(list.encode(rows)).equals(Buffer.from(bytes))).toBe(true);
        expect(list.decode(bytes)).toEqual(rows);
      }),
      { numRuns: 300 },
    );
  });

  test('an empty message and a two-byte length prefix split between chunks', async () => {
    const rows: Row[] = [{}, { blob: new Uint8Array(200).fill(7) }, {}];
    const delimited = Buffer.concat(await collect(row.encodeStream(rows)));
    // 00 | ca 01 | 200 bytes | 00: cut inside the second prefix and right after each empty frame.
    const bytes = await written('protobuf-repeated', cut(delimited, [1, 2, 3, 204]));
    expect([...bytes.subarray(0, 5)]).toEqual([0x0a, 0x00, 0x0a, 0xcb, 0x01]);
    expect(list.decode(bytes)).toEqual(rows);
  });
});

describe('cbor-array', () => {
  test('an indefinite-length array the codec of the list reads', async () => {
    const row = createCodec('cbor', { schema: Row });
    const list = createCodec('cbor', { schema: t.array(Row) });
    await fc.assert(
      fc.asyncProperty(fc.array(rowArbitrary, { maxLength: 20 }), async (rows) => {
        const bytes = await written('cbor-array', await collect(row.encodeStream(rows)));
        expect(bytes[0]).toBe(0x9f);
        expect(bytes[bytes.length - 1]).toBe(0xff);
        expect(list.decode(bytes)).toEqual(rows);
      }),
      { numRuns: 100 },
    );
  });
});

describe('json-array', () => {
  test('one JSON array, empty or not, whatever the chunks', async () => {
    const row = createCodec('json', { schema: Row });
    const list = createCodec('json', { schema: t.array(Row) });
    await fc.assert(
      fc.asyncProperty(fc.array(rowArbitrary, { maxLength: 20 }), fc.array(fc.nat()), async (rows, at) => {
        const ndjson = Buffer.concat(await collect(row.encodeStream(rows)));
        expect(list.decode(await written('json-array', cut(ndjson, at)))).toEqual(rows);
      }),
      { numRuns: 100 },
    );
  });
});
