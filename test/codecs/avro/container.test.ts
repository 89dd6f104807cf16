import { deflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { headerBytes } from '../../../src/codecs/avro/container-format.js';
import {
  type ContainerCodec,
  containerCodecs,
  createAvroCodec,
  readContainer,
  writeContainer,
} from '../../../src/codecs/avro/index.js';
import { isWirekitError } from '../../../src/errors/index.js';
import { t } from '../../../src/index.js';
import { toAvro } from '../../../src/schema/export/avro.js';
import { avroValue } from '../../fixtures/avro-values.js';
import { EveryKind } from '../../fixtures/every-kind.js';
import { chunked, collect, concat, readAll } from '../../support/streams.js';

/** A small deterministic PRNG (mulberry32), so random chunk cuts are reproducible. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const codec = (limits?: Record<string, number>) => createAvroCodec({ schema: EveryKind, limits });
const values = Array.from({ length: 40 }, (_, i) => ({
  ...avroValue(),
  i32: i,
  name: `row ${i} ${'é'.repeat(i)}`,
  tags: Array.from({ length: i % 5 }, (_, j) => `t${j}`),
}));
const magic = [0x4f, 0x62, 0x6a, 0x01];
const sync = new Uint8Array(16).fill(0xab);

/** The code a promise rejects with ('no error' when it resolves); a non-wirekit rejection fails the test. */
async function rejection(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    if (isWirekitError(error)) return error.code;
    throw error;
  }
  return 'no error';
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

const decodeAll = (bytes: Uint8Array, limits?: Record<string, number>) =>
  collect(codec(limits).decodeStream(once(bytes)));

/** Where the block after a header of `header` bytes starts, for hand-made containers. */
function container(schemaText: string, blocks: { count: number; data: Uint8Array }[], codecName = 'null') {
  const head = headerBytes(schemaText, codecName as ContainerCodec, sync);
  const parts: (Uint8Array | number[])[] = [head];
  for (const block of blocks) parts.push(varint(block.count), varint(block.data.length), block.data, sync);
  return concat(parts);
}

function varint(n: number): number[] {
  let z = n * 2;
  const out: number[] = [];
  while (z > 0x7f) {
    out.push((z % 128) | 0x80);
    z = Math.floor(z / 128);
  }
  out.push(z);
  return out;
}

const schemaText = JSON.stringify(toAvro(EveryKind));

/** A copy of `bytes` with the byte at `index` inverted. */
function flip(bytes: Uint8Array, index: number): Uint8Array {
  const out = bytes.slice();
  out[index] = (out[index] as number) ^ 0xff;
  return out;
}

describe('avro: encodeStream and decodeStream (Object Container Files)', () => {
  test('the stream is a container whose header carries the exported schema', async () => {
    const bytes = await readAll(codec().encodeStream(values));
    expect([...bytes.subarray(0, 4)]).toEqual(magic);
    const file = await readContainer(bytes, { schema: EveryKind });
    expect(file.writerSchema).toEqual(toAvro(EveryKind));
    expect(file.codec).toBe('null');
    expect(file.values).toEqual(values);
  });

  test('decodeStream reads values however the chunks are cut', async () => {
    const bytes = await readAll(codec().encodeStream(values));
    const next = random(7);
    for (let run = 0; run < 10; run++) {
      const sizes = Array.from({ length: 20 }, () => 1 + Math.floor(next() * 300));
      expect(await collect(codec().decodeStream(chunked(bytes, sizes)))).toEqual(values);
    }
    expect(await collect(codec().decodeStream(chunked(bytes, [1])))).toEqual(values);
  });

  test('an async source goes out one block per value, and reads back', async () => {
    async function* source() {
      for (const value of values.slice(0, 5)) yield value;
    }
    const bytes = await readAll(codec().encodeStream(source()));
    expect(await collect(codec().decodeStream(chunked(bytes, [3, 17])))).toEqual(values.slice(0, 5));
  });

  test('a web ReadableStream is accepted as input', async () => {
    const bytes = await readAll(codec().encodeStream(values));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 100));
        controller.enqueue(bytes.slice(100));
        controller.close();
      },
    });
    expect(await collect(codec().decodeStream(stream))).toEqual(values);
  });

  test('many values fill several blocks', async () => {
    const many = Array.from({ length: 600 }, (_, i) => ({
      ...avroValue(),
      i32: i,
      blob: new Uint8Array(300),
    }));
    const bytes = await readAll(codec().encodeStream(many));
    expect(bytes.length).toBeGreaterThan(3 * 64 * 1024);
    expect(await collect(codec().decodeStream(chunked(bytes, [4096, 999])))).toEqual(many);
  });

  test('no values: a header and nothing else', async () => {
    const bytes = await readAll(codec().encodeStream([]));
    expect([...bytes.subarray(0, 4)]).toEqual(magic);
    expect(await decodeAll(bytes)).toEqual([]);
  });

  test('cancelling the stream ends the source', async () => {
    let finished = false;
    function* endless() {
      try {
        for (;;) yield avroValue();
      } finally {
        finished = true;
      }
    }
    const reader = codec().encodeStream(endless()).getReader();
    await reader.read();
    await reader.read();
    await reader.cancel();
    expect(finished).toBe(true);
  });

  test('a bad value fails the stream with its path', async () => {
    const bad = [avroValue(), { ...avroValue(), i8: 1000 }];
    await expect(readAll(codec().encodeStream(bad))).rejects.toMatchObject({
      code: 'WK_VALIDATION_FAILED',
      path: ['i8'],
    });
  });
});

describe('avro: damaged and hostile containers', () => {
  test('truncation anywhere, garbage and a wrong sync marker give wirekit errors', async () => {
    const bytes = await readAll(codec().encodeStream(values.slice(0, 3)));
    expect(await rejection(() => decodeAll(new Uint8Array(0)))).toBe('WK_DECODE_TRUNCATED');
    for (let cut = 1; cut < bytes.length; cut += 7) {
      expect(await rejection(() => decodeAll(bytes.subarray(0, cut)))).toBe('WK_DECODE_TRUNCATED');
    }
    expect(await rejection(() => decodeAll(new TextEncoder().encode('{"not":"avro"}')))).toBe(
      'WK_DECODE_MALFORMED',
    );
    const wrongSync = flip(bytes, bytes.length - 1);
    expect(await rejection(() => decodeAll(wrongSync))).toBe('WK_DECODE_MALFORMED');
  });

  test('a block with bytes left after its values is malformed', async () => {
    const data = concat([createAvroCodec({ schema: EveryKind }).encode(avroValue()), [0]]);
    expect(await rejection(() => decodeAll(container(schemaText, [{ count: 1, data }])))).toBe(
      'WK_DECODE_MALFORMED',
    );
  });

  test('an unknown codec, a broken schema, a schema that does not resolve', async () => {
    expect(await rejection(() => decodeAll(container(schemaText, [], 'bzip2')))).toBe(
      'WK_DECODE_UNKNOWN_EXTENSION',
    );
    expect(await rejection(() => decodeAll(container('{"type":', [])))).toBe('WK_DECODE_MALFORMED');
    expect(await rejection(() => decodeAll(container('"string"', [])))).toBe('WK_DECODE_SCHEMA_MISMATCH');
  });

  test('a hostile header schema nested 100,000 deep fails cleanly', async () => {
    const deep = `${'{"type":"array","items":'.repeat(100_000)}"int"${'}'.repeat(100_000)}`;
    expect(await rejection(() => decodeAll(container(deep, [])))).toBe('WK_DECODE_MALFORMED');
  });

  test('a block larger than maxInputBytes is refused before it is buffered', async () => {
    const bytes = await readAll(codec().encodeStream(values));
    const limits = { maxInputBytes: 2000 };
    expect(await rejection(() => collect(codec(limits).decodeStream(chunked(bytes, [100]))))).toBe(
      'WK_LIMIT_INPUT',
    );
    const claim = container(schemaText, []);
    const huge = concat([claim, [0x02], varint(2 ** 40)]);
    expect(await rejection(() => decodeAll(huge))).toBe('WK_LIMIT_INPUT');
  });

  test('a block count beyond maxElements is refused', async () => {
    const bytes = container(schemaText, [{ count: 2 ** 30, data: new Uint8Array(0) }]);
    expect(await rejection(() => decodeAll(bytes))).toBe('WK_LIMIT_ELEMENTS');
  });

  test('decompression bombs stop at maxInputBytes', async () => {
    const limits = { maxInputBytes: 100_000 };
    const deflated = deflateRawSync(new Uint8Array(1_000_000));
    const deflateBomb = container(schemaText, [{ count: 1, data: deflated }], 'deflate');
    expect(await rejection(() => decodeAll(deflateBomb, limits))).toBe('WK_LIMIT_DECOMPRESSED');
    // A raw snappy block declares its length up front: 2^31 here, with no body to speak of.
    const snappyBomb = container(
      schemaText,
      [{ count: 1, data: Uint8Array.of(0x80, 0x80, 0x80, 0x80, 0x08, 0, 0, 0, 0) }],
      'snappy',
    );
    expect(await rejection(() => decodeAll(snappyBomb, limits))).toBe('WK_LIMIT_DECOMPRESSED');
    // A zstd frame of RLE blocks: 4 bytes each, 100,000 bytes out each.
    const rle = [0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x58];
    for (let i = 0; i < 2000; i++) {
      const header = (100_000 << 3) | (1 << 1) | (i === 1999 ? 1 : 0);
      rle.push(header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff, 0x61);
    }
    const zstdBomb = container(schemaText, [{ count: 1, data: Uint8Array.from(rle) }], 'zstandard');
    expect(await rejection(() => decodeAll(zstdBomb))).toBe('WK_LIMIT_DECOMPRESSED');
  });

  test('corrupt compressed blocks fail as such', async () => {
    for (const name of ['deflate', 'snappy', 'zstandard'] as const) {
      const good = await writeContainer(values.slice(0, 2), {
        schema: EveryKind,
        codec: name,
        syncMarker: sync,
      });
      const blockStart = good.length - 16 - 30;
      let bad = good;
      for (let i = 0; i < 8; i++) bad = flip(bad, blockStart + i);
      expect(await rejection(() => readContainer(bad, { schema: EveryKind }))).toMatch(
        /^WK_COMPRESSION_FAILED$|^WK_DECODE_/,
      );
    }
    // snappy's checksum catches a body that still inflates.
    const good = await writeContainer(values.slice(0, 1), {
      schema: EveryKind,
      codec: 'snappy',
      syncMarker: sync,
    });
    const bad = flip(good, good.length - 17);
    expect(await rejection(() => readContainer(bad, { schema: EveryKind }))).toBe('WK_COMPRESSION_FAILED');
  });

  test.each(containerCodecs)(
    'random mutations of a %s container only give values or wirekit errors',
    async (name) => {
      const good = await writeContainer(values.slice(0, 4), {
        schema: EveryKind,
        codec: name,
        blockSize: 500,
      });
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }),
          async (edits) => {
            const mutated = good.slice();
            for (const [position, value] of edits) mutated[position % mutated.length] = value;
            await rejection(() => readContainer(mutated, { schema: EveryKind }));
          },
        ),
        { numRuns: 150 },
      );
    },
  );
});

describe('avro: writeContainer and readContainer', () => {
  test.each(containerCodecs)('%s: values, codec and metadata come back', async (name) => {
    const bytes = await writeContainer(values, {
      schema: EveryKind,
      codec: name,
      blockSize: 2000,
      metadata: { 'app.origin': 'test', 'app.raw': Uint8Array.of(0, 255) },
    });
    const file = await readContainer(bytes, { schema: EveryKind });
    expect(file.values).toEqual(values);
    expect(file.codec).toBe(name);
    expect(new TextDecoder().decode(file.metadata.get('app.origin'))).toBe('test');
    expect(file.metadata.get('app.raw')).toEqual(Uint8Array.of(0, 255));
    expect(await collect(codec().decodeStream(chunked(bytes, [13, 250])))).toEqual(values);
  });

  test('compression makes repetitive data smaller', async () => {
    const plain = await writeContainer(values, { schema: EveryKind });
    for (const name of ['deflate', 'snappy', 'zstandard'] as const) {
      expect((await writeContainer(values, { schema: EveryKind, codec: name })).length).toBeLessThan(
        plain.length,
      );
    }
  });

  test('a fixed sync marker makes the output reproducible; options are checked', async () => {
    const a = await writeContainer(values, { schema: EveryKind, syncMarker: sync });
    const b = await writeContainer(values, { schema: EveryKind, syncMarker: sync });
    expect(a).toEqual(b);
    const bad = (options: object) => rejection(() => writeContainer([], { schema: EveryKind, ...options }));
    expect(await bad({ codec: 'lzma' })).toBe('WK_OPTIONS_INVALID');
    expect(await bad({ blockSize: 0 })).toBe('WK_OPTIONS_INVALID');
    expect(await bad({ syncMarker: new Uint8Array(3) })).toBe('WK_OPTIONS_INVALID');
    expect(await bad({ metadata: { 'avro.codec': 'x' } })).toBe('WK_OPTIONS_INVALID');
  });

  test('async sources, validation, and limits', async () => {
    async function* source() {
      yield values[0];
      yield values[1];
    }
    const bytes = await writeContainer(source(), { schema: EveryKind });
    expect((await readContainer(bytes, { schema: EveryKind })).values).toEqual(values.slice(0, 2));
    const tooLong = { ...avroValue(), home: { street: 's', zip: 'x'.repeat(11) } };
    expect(await rejection(() => writeContainer([tooLong], { schema: EveryKind, validate: true }))).toBe(
      'WK_VALIDATION_FAILED',
    );
    expect(
      await rejection(() => readContainer(bytes, { schema: EveryKind, limits: { maxInputBytes: 10 } })),
    ).toBe('WK_LIMIT_INPUT');
  });

  test('a container of a scalar schema', async () => {
    const bytes = await writeContainer([1, 2, 3], { schema: t.int32(), codec: 'deflate' });
    expect((await readContainer(bytes, { schema: t.int64() })).values).toEqual([1n, 2n, 3n]);
  });
});
