/**
 * encodeSequence / decodeSequence: each format's framing for sequences, held whole. They must
 * write the bytes encodeStream writes and read what decodeStream reads, with the same checks, in
 * compiled and interpreted codecs alike; the limits count the items and the whole input.
 */
import { describe, expect, test } from 'vitest';
import { type ArrowCodec, createArrowCodec } from '../../../src/codecs/arrow/index.js';
import { writeContainer } from '../../../src/codecs/avro/index.js';
import type { Codec, FormatName } from '../../../src/codecs/core/codec.js';
import { createCodec } from '../../../src/codecs/registry.js';
import { type Infer, t } from '../../../src/index.js';
import { expectSameOutcomeOnMutations, outcome } from '../../support/outcome.js';
import { collect, concat, readAll } from '../../support/streams.js';

const Status = t.enum('Status', ['open', 'paid', 'void']);
const Order = t.object('Order', {
  id: t.int64(),
  customer: t.string(),
  status: Status,
  total: t.float64(),
  lines: t.array(t.object('Line', { sku: t.string(), qty: t.int32() })),
  note: t.optional(t.string()),
  at: t.timestamp({ precision: 'ms' }),
  blob: t.bytes(),
});
type Order = Infer<typeof Order>;

const order = (i: number): Order => ({
  id: BigInt(i) * 1_000_000_007n,
  customer: `customer ${i} ✓`,
  status: (['open', 'paid', 'void'] as const)[i % 3] as Order['status'],
  total: i * 1.25,
  lines: Array.from({ length: i % 4 }, (_, j) => ({ sku: `sku-${j}`, qty: j + 1 })),
  ...(i % 2 === 0 ? { note: `note ${i}` } : {}),
  at: new Date(Date.UTC(2024, 0, 1) + i * 60_000),
  blob: Uint8Array.from([i & 0xff, 0, 255]),
});
const orders = Array.from({ length: 40 }, (_, i) => order(i));

async function* once(bytes: Uint8Array) {
  yield bytes;
}

const formats: readonly FormatName[] = [
  'json',
  'msgpack',
  'cbor',
  'protobuf',
  'avro',
  'flatbuffers',
  'arrow',
];

type Item = Codec<Order> | ArrowCodec<Order>;

function codecOf(format: FormatName, compile: boolean, limits?: Record<string, number>): Item {
  const options = { schema: Order, compile, ...(limits && { limits }) };
  return format === 'arrow' ? createArrowCodec<Order>(options) : createCodec(format, options);
}

describe.each(formats)('%s: encodeSequence and decodeSequence', (format) => {
  describe.each([true, false])('compile: %s', (compile) => {
    const codec = codecOf(format, compile);

    test('round trip, and the bytes of encodeStream', async () => {
      const bytes = codec.encodeSequence(orders);
      expect(codec.decodeSequence(bytes)).toEqual(orders);
      const streamed = await readAll(codec.encodeStream(orders));
      if (format === 'avro') {
        // Only the random sync marker differs between two containers of the same values.
        expect(bytes.length).toBe(streamed.length);
        expect(codec.decodeSequence(streamed)).toEqual(orders);
      } else {
        expect(bytes).toEqual(streamed);
      }
      expect(await collect(codec.decodeStream(once(bytes)))).toEqual(orders);
    });

    test('any iterable in; an empty sequence round-trips', () => {
      function* some() {
        yield* orders.slice(0, 3);
      }
      expect(codec.decodeSequence(codec.encodeSequence(some()))).toEqual(orders.slice(0, 3));
      expect(codec.decodeSequence(codec.encodeSequence([]))).toEqual([]);
      expect(outcome(() => codec.encodeSequence(42 as never))).toMatchObject({
        ok: false,
        code: 'WK_VALIDATION_FAILED',
      });
    });

    test('maxElements counts the items, maxInputBytes the whole input', () => {
      const limited = (limits: Record<string, number>) => codecOf(format, compile, limits);
      const twenty = codec.encodeSequence(orders.slice(0, 20));
      const more = codec.encodeSequence(orders.slice(0, 21));
      if (format === 'arrow') {
        // An Arrow sequence is one table: its limits are decode's (rows and their arrays together).
        for (const bytes of [twenty, more])
          expect(outcome(() => limited({ maxElements: 30 }).decodeSequence(bytes))).toEqual(
            outcome(() => limited({ maxElements: 30 }).decode(bytes)),
          );
      } else {
        // Each item holds fewer than 20 elements of its own, which its decode checks as usual.
        expect(limited({ maxElements: 20 }).decodeSequence(twenty)).toHaveLength(20);
        expect(outcome(() => limited({ maxElements: 20 }).decodeSequence(more))).toMatchObject({
          ok: false,
          code: 'WK_LIMIT_ELEMENTS',
        });
      }
      expect(limited({ maxInputBytes: twenty.length }).decodeSequence(twenty)).toHaveLength(20);
      expect(
        outcome(() => limited({ maxInputBytes: twenty.length - 1 }).decodeSequence(twenty)),
      ).toMatchObject({
        ok: false,
        code: 'WK_LIMIT_INPUT',
      });
    });

    test('a cut sequence fails with a WirekitError; garbage too', () => {
      const bytes = codec.encodeSequence(orders.slice(0, 3));
      const cut = outcome(() => codec.decodeSequence(bytes.subarray(0, bytes.length - 2)));
      expect(cut.ok).toBe(false);
      if (format !== 'json') expect(cut).toMatchObject({ code: 'WK_DECODE_TRUNCATED' });
      expect(outcome(() => codec.decodeSequence(Uint8Array.from([0xc1, 0xff, 0x00])))).toMatchObject({
        ok: false,
      });
      expect(String((outcome(() => codec.decodeSequence('x' as never)) as { code: string }).code)).toMatch(
        /^WK_/,
      );
    });
  });

  test('compiled and interpreted give the same outcome on mutated sequences', () => {
    const compiled = codecOf(format, true);
    const interpreted = codecOf(format, false);
    const samples = [
      compiled.encodeSequence(orders.slice(0, 4)),
      compiled.encodeSequence(orders.slice(7, 9)),
    ];
    expect(interpreted.encodeSequence(orders.slice(0, 4)).length).toBe(samples[0]?.length);
    expectSameOutcomeOnMutations(
      samples,
      (bytes) => compiled.decodeSequence(bytes),
      (bytes) => interpreted.decodeSequence(bytes),
      100,
    );
  });
});

describe('sequence framing details', () => {
  test('NDJSON: blank lines and a last line without its newline, as decodeStream reads them', async () => {
    const codec = createCodec('json');
    const text = new TextEncoder().encode('{"a":1}\n\n  \r\n[2]\n"three"');
    expect(codec.decodeSequence(text)).toEqual([{ a: 1 }, [2], 'three']);
    expect(await collect(codec.decodeStream(once(text)))).toEqual([{ a: 1 }, [2], 'three']);
  });

  test('an error in a later item carries its offset in the whole input', () => {
    const codec = createCodec('msgpack');
    const bytes = concat([codec.encode({ a: 1 }), [0xc1]]);
    expect(outcome(() => codec.decodeSequence(bytes))).toMatchObject({
      ok: false,
      code: 'WK_DECODE_MALFORMED',
    });
    try {
      codec.decodeSequence(bytes);
    } catch (error) {
      expect((error as { offset: number }).offset).toBe(bytes.length - 1);
    }
  });

  test('schemaless MessagePack and CBOR: values of any kind back to back', () => {
    for (const format of ['msgpack', 'cbor'] as const) {
      const codec = createCodec(format);
      const values = [1, 'two', { three: [3] }, null, true];
      expect(codec.decodeSequence(codec.encodeSequence(values))).toEqual(values);
    }
  });

  test.each(['deflate', 'snappy', 'zstandard'] as const)(
    'Avro: a %s container reads synchronously',
    async (name) => {
      const bytes = await writeContainer(orders, { schema: Order, codec: name, blockSize: 512 });
      const codec = createCodec('avro', { schema: Order });
      expect(codec.decodeSequence(bytes)).toEqual(orders);
      // The whole file's values count against maxElements, not each block's.
      expect(
        outcome(() =>
          createCodec('avro', { schema: Order, limits: { maxElements: 39 } }).decodeSequence(bytes),
        ),
      ).toMatchObject({
        ok: false,
        code: 'WK_LIMIT_ELEMENTS',
      });
    },
  );

  test('FlatBuffers: decodeSequence of one unprefixed buffer fails clearly', () => {
    const codec = createCodec('flatbuffers', { schema: Order });
    expect(outcome(() => codec.decodeSequence(codec.encode(order(1))))).toMatchObject({ ok: false });
  });
});
