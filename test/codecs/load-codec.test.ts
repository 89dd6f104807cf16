/**
 * Codecs loaded on first use are the registry's codecs: for every format, by name or media type,
 * the same bytes, values and refusals as createCodec's, the checks of the request thrown as
 * rejections.
 */
import { describe, expect, test } from 'vitest';
import { formatNames } from '../../src/codecs/core/codec.js';
import { mediaTypesOf } from '../../src/codecs/formats.js';
import { loadArrowCodec, loadCodec } from '../../src/codecs/load-codec.js';
import { createCodec } from '../../src/codecs/registry.js';
import { User, users } from '../../src/lab/datasets/users.js';
import { t } from '../../src/schema/index.js';
import { collect } from '../support/streams.js';

const sample = users(20, 3);

async function rejection(run: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await run();
    return 'resolved';
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

describe.each(formatNames)('%s', (format) => {
  const schema = format === 'arrow' ? User : t.array(User);

  test('writes and reads as the registry codec does', async () => {
    const loaded = await loadCodec(format, { schema });
    const made = createCodec(format, { schema });
    expect(loaded.mediaType).toBe(made.mediaType);
    expect(loaded.compiled).toBe(made.compiled);
    const bytes = made.encode(sample as never);
    // Avro containers and Arrow streams carry no random parts in a single value.
    expect(loaded.encode(sample as never)).toEqual(bytes);
    expect(loaded.decode(bytes)).toEqual(sample);
    const truncated = bytes.subarray(0, bytes.length - 3);
    expect(await rejection(async () => loaded.decode(truncated))).toBe(
      await rejection(async () => made.decode(truncated)),
    );
  });

  test('answers to its media types', async () => {
    for (const type of mediaTypesOf(format)) {
      expect((await loadCodec(type as never, { schema })).format).toBe(format);
    }
  });
});

describe('what cannot be loaded', () => {
  test('an unknown format, and a format that needs a schema without one, are rejections', async () => {
    expect(await rejection(() => loadCodec('yaml' as never))).toBe('WK_UNKNOWN_FORMAT');
    for (const format of ['protobuf', 'avro', 'flatbuffers'] as const) {
      expect(await rejection(() => loadCodec(format, { schema: undefined }))).toBe('WK_SCHEMA_REQUIRED');
    }
    expect(await rejection(() => loadCodec('arrow', { schema: t.string() }))).toBe(
      await rejection(async () => createCodec('arrow', { schema: t.string() })),
    );
  });

  test('the schemaless formats load without a schema', async () => {
    for (const format of ['json', 'msgpack', 'cbor'] as const) {
      const codec = await loadCodec(format);
      expect(codec.decode(codec.encode({ a: [1, 'x'] }))).toEqual({ a: [1, 'x'] });
    }
  });
});

test('loadArrowCodec gives record batches as createCodec would give rows', async () => {
  const codec = await loadArrowCodec({ schema: User, batchSize: 8 });
  const bytes = createCodec('arrow', { schema: User }).encode(sample as never);
  const batches = await collect(
    codec.decodeBatches(
      (async function* () {
        yield bytes;
      })(),
    ),
  );
  expect(batches.reduce((sum, batch) => sum + batch.numRows, 0)).toBe(sample.length);
  expect(batches[0]?.getChild('name')?.get(0)).toBe(sample[0]?.name);
});
