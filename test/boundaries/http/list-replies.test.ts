/**
 * What a user holding a codec does with the server's list replies: every sequence framing the
 * plugin writes (a list reply of a record-rooted format, a `stream` route in every format) reads
 * back with the item codec's decodeSequence, synchronously, from the whole body.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createArrowCodec } from '../../../src/codecs/arrow/index.js';
import { createCodec, type FormatName, formatNames } from '../../../src/codecs/index.js';
import { Reading } from '../../../src/lab/datasets/timeseries.js';
import { User } from '../../../src/lab/datasets/users.js';
import { t } from '../../../src/schema/index.js';
import { buildApp, sampleUsers } from './app.js';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildApp();
});
afterAll(() => app.close());

async function body(url: string, accept: string): Promise<{ type: string; bytes: Uint8Array }> {
  const response = await app.inject({ method: 'GET', url, headers: { accept } });
  expect(response.statusCode).toBe(200);
  return { type: String(response.headers['content-type']), bytes: new Uint8Array(response.rawPayload) };
}

describe('list replies read with a codec', () => {
  test.each(['protobuf', 'avro', 'flatbuffers'] as const)(
    '%s: a list reply is a sequence that the item codec reads',
    async (format) => {
      const item = createCodec(format, { schema: User });
      const { type, bytes } = await body('/users', item.streamMediaType);
      expect(type).toBe(item.streamMediaType);
      expect(item.decodeSequence(bytes)).toEqual(sampleUsers);
      // The array-rooted codec is another message (a wrapper around a repeated field): not these bytes.
      // Its error says which codec reads them instead.
      expect(() => createCodec(format, { schema: t.array(User) }).decode(bytes)).toThrow(
        `createCodec('${format}', { schema: User }).decodeSequence(bytes)`,
      );
    },
  );

  const formats: readonly FormatName[] = formatNames;
  test.each(formats)('%s: a streamed route reads with decodeSequence', async (format) => {
    const item =
      format === 'arrow' ? createArrowCodec({ schema: Reading }) : createCodec(format, { schema: Reading });
    const { type, bytes } = await body('/readings?count=250', item.streamMediaType);
    expect(type).toBe(item.streamMediaType);
    const rows = item.decodeSequence(bytes) as unknown[];
    expect(rows).toHaveLength(250);
    expect(rows[249]).toEqual(item.decodeSequence(item.encodeSequence([rows[249]] as never[]))[0]);
  });
});
