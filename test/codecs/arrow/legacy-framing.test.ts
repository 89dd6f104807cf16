/**
 * Arrow IPC in the framing before 0.15: each message starts with its metadata length alone (no
 * 0xFFFFFFFF continuation marker) and a stream ends with a 4-byte 0. Arrow 0.14 and older wrote
 * it, with V4 metadata (unions still had a validity buffer), and pyarrow still writes it with
 * `IpcWriteOptions(use_legacy_format=True, metadata_version=V4)`; stored files and old services
 * hold it. Both framings are read, streams and files, whole or as the bytes arrive.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { createArrowCodec } from '../../../src/codecs/arrow/index.js';
import { cli } from '../../support/cli.js';
import { codeOf } from '../../support/code-of.js';
import { noPyarrowVariants, pyarrowVariants, VariantOrders } from '../../support/pyarrow-ipc.js';
import { chunked, collect } from '../../support/streams.js';
import { has } from '../../support/tools.js';

const usable = has('venv:pyarrow');
let variant = noPyarrowVariants;
beforeAll(() => {
  if (usable) variant = pyarrowVariants();
});

const schemaless = createArrowCodec();

describe.skipIf(!usable)('pre-0.15 framing from pyarrow', () => {
  test('the fixtures are what they say: no continuation marker, a 4-byte end', () => {
    const stream = variant('kinds.legacy.arrows');
    expect(new DataView(stream.buffer, stream.byteOffset).getUint32(0, true)).not.toBe(0xffffffff);
    expect([...stream.subarray(-4)]).toEqual([0, 0, 0, 0]);
    expect(new TextDecoder().decode(variant('kinds.legacy.arrow').subarray(0, 6))).toBe('ARROW1');
  });

  for (const ext of ['arrows', 'arrow'] as const) {
    test(`every kind of column, V4 metadata, ${ext === 'arrows' ? 'stream' : 'file'}: as the 0.15+ rows`, () => {
      const rows = schemaless.decode(variant(`kinds.plain.${ext}`));
      expect(rows).toHaveLength(6);
      expect(schemaless.decode(variant(`kinds.legacy.${ext}`))).toStrictEqual(rows);
      for (const compile of [true, false]) {
        const orders = createArrowCodec({ schema: VariantOrders, compile });
        expect(orders.decode(variant(`orders.legacy.${ext}`))).toStrictEqual(
          orders.decode(variant(`orders.plain.${ext}`)),
        );
      }
    });
  }

  test('a stream read as its bytes arrive, however they are cut', async () => {
    const bytes = variant('kinds.legacy.arrows');
    const rows = schemaless.decode(variant('kinds.plain.arrows'));
    for (const sizes of [[1], [2], [3, 5], [4], [4096]])
      expect(await collect(schemaless.decodeStream(chunked(bytes, sizes)))).toStrictEqual(rows);
    const file = variant('kinds.legacy.arrow');
    expect(await collect(schemaless.decodeStream(chunked(file, [2])))).toStrictEqual(rows);
  });

  test('decodeTable, and wirekit inspect --format arrow', async () => {
    const table = createArrowCodec({ schema: VariantOrders }).decodeTable(variant('orders.legacy.arrows'));
    expect(table.numRows).toBe(5);
    const dir = await mkdtemp(join(tmpdir(), 'wirekit-legacy-'));
    try {
      await writeFile(join(dir, 'orders.arrows'), variant('orders.legacy.arrows'));
      const { code, text } = await cli([
        'inspect',
        join(dir, 'orders.arrows'),
        '--format',
        'arrow',
        '--json',
      ]);
      expect(code).toBe(0);
      const report = JSON.parse(text);
      expect(report.arrow).toMatchObject({ ipc: 'stream', rows: 5, batches: 3 });
      expect(report.value).toHaveLength(5);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('pre-0.15 framing: what a bare length can break', () => {
  const legacy = (words: readonly number[]) => {
    const out = new Uint8Array(4 * words.length);
    words.forEach((word, i) => {
      new DataView(out.buffer).setUint32(4 * i, word, true);
    });
    return out;
  };

  test('a first word that is neither the marker nor a length is malformed', () => {
    for (const word of [0x80000000, 0xfffffffe])
      expect(codeOf(() => schemaless.decode(legacy([word, 0])))).toBe('WK_DECODE_MALFORMED');
  });

  test('a huge length is truncated input whole, and a message past maxInputBytes as a stream', async () => {
    const bytes = legacy([0x7ffffff0, 0]);
    expect(codeOf(() => schemaless.decode(bytes))).toBe('WK_DECODE_TRUNCATED');
    const streamed = collect(schemaless.decodeStream(chunked(bytes, [8])));
    await expect(streamed).rejects.toMatchObject({ code: 'WK_LIMIT_INPUT' });
  });

  test.skipIf(!usable)(
    'a stream cut inside its 4-byte end is truncated; bytes after it are trailing',
    async () => {
      const bytes = variant('orders.legacy.arrows');
      expect(codeOf(() => schemaless.decode(bytes.subarray(0, -2)))).toBe('WK_DECODE_TRUNCATED');
      const longer = new Uint8Array([...bytes, 0]);
      expect(codeOf(() => schemaless.decode(longer))).toBe('WK_DECODE_TRAILING');
      await expect(
        collect(schemaless.decodeStream(chunked(bytes.subarray(0, -2), [3]))),
      ).rejects.toMatchObject({
        code: 'WK_DECODE_TRUNCATED',
      });
    },
  );
});
