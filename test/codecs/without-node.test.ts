/**
 * The codecs as a browser runs them: a fresh copy of the modules, loaded while the global Buffer
 * and process.getBuiltinModule are hidden, takes the web-standard paths of util/node-runtime.ts
 * (TextDecoder, plain loops, DecompressionStream), and must read and write what the Node paths do:
 * the same strings, the same refusals, Avro's deflate blocks through web streams with the same
 * cap, and a clear WK_UNKNOWN_FORMAT for what needs a native library.
 */
import { deflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import * as nodeArrow from '../../src/codecs/arrow/index.js';
import * as nodeAvro from '../../src/codecs/avro/index.js';
import { t } from '../../src/schema/index.js';
import * as node from '../../src/util/node-runtime.js';
import { chunked, collect } from '../support/streams.js';

type Runtime = typeof node;
type Arrow = typeof nodeArrow;
type Avro = typeof nodeAvro;

let web: Runtime;
let webArrow: Arrow;
let webAvro: Avro;

/** Imports fresh copies of the modules with Node's Buffer and built-in modules out of sight. */
async function importWithoutNode(): Promise<[Runtime, Arrow, Avro]> {
  const host = globalThis as { Buffer?: unknown };
  const buffer = host.Buffer;
  const getBuiltinModule = process.getBuiltinModule;
  vi.resetModules();
  try {
    host.Buffer = undefined;
    (process as { getBuiltinModule?: unknown }).getBuiltinModule = undefined;
    return await Promise.all([
      import('../../src/util/node-runtime.js'),
      import('../../src/codecs/arrow/index.js'),
      import('../../src/codecs/avro/index.js'),
    ]);
  } finally {
    host.Buffer = buffer;
    process.getBuiltinModule = getBuiltinModule;
  }
}

beforeAll(async () => {
  [web, webArrow, webAvro] = await importWithoutNode();
});

const bytesArbitrary = fc.oneof(
  fc.uint8Array({ maxLength: 300 }),
  fc.string({ unit: 'grapheme', maxLength: 60 }).map((text) => new TextEncoder().encode(text)),
  fc.string({ maxLength: 60 }).map((text) => new TextEncoder().encode(text)),
);

describe('the web fallbacks of node-runtime', () => {
  test('are the ones loaded (no Node found)', () => {
    expect(web.latin1Slice).toBeUndefined();
    expect(web.requirePackage).toBeUndefined();
    expect(web.maxNodeBufferLength).toBeUndefined();
    expect(node.latin1Slice).toBeTypeOf('function');
  });

  test('answer as Node does on any bytes', () => {
    fc.assert(
      fc.property(bytesArbitrary, bytesArbitrary, (bytes, other) => {
        expect(web.isUtf8(bytes)).toBe(node.isUtf8(bytes));
        expect(web.isAscii(bytes)).toBe(node.isAscii(bytes));
        expect(web.equalBytes(bytes, other)).toBe(node.equalBytes(bytes, other));
        expect(web.equalBytes(bytes, bytes.slice())).toBe(true);
        expect(web.encodeBase64(bytes)).toBe(node.encodeBase64(bytes));
        expect(web.decodeBase64(node.encodeBase64(bytes))).toEqual(bytes);
        if (node.isUtf8(bytes)) {
          const start = Math.floor(bytes.length / 3);
          // A cut inside a character is not valid UTF-8; both decode whole inputs only.
          expect(web.utf8Text(bytes, 0, bytes.length)).toBe(node.utf8Text(bytes, 0, bytes.length));
          if (node.isAscii(bytes))
            expect(web.asciiText(bytes, start, bytes.length)).toBe(
              node.asciiText(bytes, start, bytes.length),
            );
        }
      }),
    );
  });

  test('keep a leading byte order mark, as Node does', () => {
    const bom = Uint8Array.of(0xef, 0xbb, 0xbf, 0x41);
    expect(web.utf8Text(bom, 0, 4)).toBe('\uFEFFA');
    expect(node.utf8Text(bom, 0, 4)).toBe('\uFEFFA');
  });

  test('make writable output of the size asked', () => {
    const out = web.uninitializedBytes(1000);
    expect(out).toHaveLength(1000);
    expect(out.byteOffset).toBe(0);
    expect(out.buffer.byteLength).toBe(1000);
  });
});

const Row = t.object('Row', {
  id: t.int32(),
  name: t.string(),
  note: t.optional(t.string()),
  tags: t.array(t.string()),
});

const rows = Array.from({ length: 300 }, (_, i) => ({
  id: i,
  name: i % 3 === 0 ? `straße ${i} ✓` : `name-${i}`,
  note: i % 5 === 0 ? undefined : `note ${'x'.repeat(i % 40)}`,
  tags: i % 2 === 0 ? ['a', 'b'] : ['日本', '\uFEFFbom'],
}));

describe('Arrow without Node', () => {
  test('reads what Node writes, ASCII and not, whole, streamed and as batches', async () => {
    const bytes = nodeArrow.createArrowCodec({ schema: Row, batchSize: 64 }).encode(rows);
    const codec = webArrow.createArrowCodec({ schema: Row });
    expect(codec.decode(bytes)).toEqual(rows);
    // The same schema message again: the memo compares it byte for byte.
    expect(codec.decode(bytes)).toEqual(rows);
    expect(await collect(codec.decodeStream(chunked(bytes, [1000])))).toEqual(rows);
    const batches = await collect(codec.decodeBatches(chunked(bytes, [1000])));
    expect(batches.map((batch) => batch.numRows)).toEqual([64, 64, 64, 64, 44]);
    expect(webArrow.createArrowCodec().decode(bytes)).toEqual(nodeArrow.createArrowCodec().decode(bytes));
  });

  test('writes what Node reads', () => {
    const bytes = webArrow.createArrowCodec({ schema: Row }).encode(rows);
    expect(bytes).toEqual(nodeArrow.createArrowCodec({ schema: Row }).encode(rows));
  });

  test('refuses invalid UTF-8 as Node does', () => {
    const bytes = nodeArrow.createArrowCodec({ schema: Row }).encode([{ id: 1, name: 'é', tags: [] }]);
    const at = bytes.findIndex((byte, i) => byte === 0xc3 && bytes[i + 1] === 0xa9);
    const bad = bytes.slice();
    bad[at] = 0xff;
    const outcome = (decode: () => unknown) => {
      try {
        decode();
        return 'decoded';
      } catch (error) {
        return (error as { code?: string }).code;
      }
    };
    const webOutcome = outcome(() => webArrow.createArrowCodec({ schema: Row }).decode(bad));
    expect(webOutcome).toBe('WK_DECODE_MALFORMED');
    expect(outcome(() => nodeArrow.createArrowCodec({ schema: Row }).decode(bad))).toBe(webOutcome);
  });
});

const Reading = t.object('Reading', { id: t.int32(), text: t.string() });
const readings = Array.from({ length: 2000 }, (_, i) => ({ id: i, text: `reading ${i % 17}` }));

async function code(run: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await run();
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

describe('Avro without Node', () => {
  test('reads and writes deflate blocks through web streams, which zlib reads and writes too', async () => {
    const fromNode = await nodeAvro.writeContainer(readings, { schema: Reading, codec: 'deflate' });
    const read = await webAvro.readContainer(fromNode, { schema: Reading });
    expect(read.values).toEqual(readings);
    const codec = webAvro.createAvroCodec({ schema: Reading });
    expect(await collect(codec.decodeStream(chunked(fromNode, [1000])))).toEqual(readings);
    const fromWeb = await webAvro.writeContainer(readings, { schema: Reading, codec: 'deflate' });
    expect((await nodeAvro.readContainer(fromWeb, { schema: Reading })).values).toEqual(readings);
  });

  test('holds a deflate block to its cap', async () => {
    // 1 MB of zeros in about a kilobyte: the ratio cap allows far less than that.
    const header = await nodeAvro.writeContainer([], { schema: t.bytes(), codec: 'deflate' });
    const block = deflateRawSync(new Uint8Array(1_000_000));
    const sync = header.subarray(header.length - 16);
    const bomb = new Uint8Array([...header, 0x02, ...varint(block.length), ...block, ...sync]);
    const limits = { maxInputBytes: 100_000 };
    const codec = (avro: Avro) => avro.createAvroCodec({ schema: t.bytes(), limits });
    expect(await code(() => collect(codec(webAvro).decodeStream(chunked(bomb, [1000]))))).toBe(
      'WK_LIMIT_DECOMPRESSED',
    );
    expect(await code(() => collect(codec(nodeAvro).decodeStream(chunked(bomb, [1000]))))).toBe(
      'WK_LIMIT_DECOMPRESSED',
    );
    const corrupt = bomb.slice();
    corrupt.fill(0xff, header.length + 4, header.length + 12);
    expect(await code(() => collect(codec(webAvro).decodeStream(chunked(corrupt, [1000]))))).toBe(
      'WK_COMPRESSION_FAILED',
    );
  });

  test('says which blocks need Node', async () => {
    const deflated = await nodeAvro.writeContainer(readings, { schema: Reading, codec: 'deflate' });
    const codec = webAvro.createAvroCodec({ schema: Reading });
    expect(await code(async () => codec.decodeSequence(deflated))).toBe('WK_UNKNOWN_FORMAT');
    for (const name of ['snappy', 'zstandard'] as const) {
      const bytes = await nodeAvro.writeContainer(readings, { schema: Reading, codec: name });
      expect(await code(() => webAvro.readContainer(bytes, { schema: Reading }))).toBe('WK_UNKNOWN_FORMAT');
      expect(await code(() => webAvro.writeContainer(readings, { schema: Reading, codec: name }))).toBe(
        'WK_UNKNOWN_FORMAT',
      );
    }
  });
});

/** Avro's zigzag varint of a non-negative length. */
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
