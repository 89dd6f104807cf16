/**
 * A consumer reads a writer schema from its registry once per id, with the registry's own bounds:
 * a registry that keeps larger schemas (or one that is not wirekit's) may hand it an Avro writer of
 * 60,000 nodes, which the consumer refuses as a writer it cannot read (WK_DECODE_SCHEMA_MISMATCH,
 * poison) instead of spending its event loop on it. A writer within the bounds is read as before.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isPoison } from '../../../src/boundaries/events/dead-letter.js';
import { eventCodec } from '../../../src/boundaries/events/event-codec.js';
import { writeConfluentFrame } from '../../../src/boundaries/events/framing.js';
import { registryClient } from '../../../src/boundaries/events/registry/client.js';
import { type RegistryServer, startRegistryServer } from '../../../src/boundaries/events/registry/server.js';
import { t } from '../../../src/index.js';
import { avroIntRecord } from '../../fixtures/avro-texts.js';

let server: RegistryServer;
beforeAll(async () => {
  server = await startRegistryServer({
    schemaLimits: { maxSchemaNodes: 1_000_000 },
    maxBodyBytes: 8 * 1024 * 1024,
  });
});
afterAll(() => server.close());

const Reading = t.object('Reading', { f0: t.int32() });
const writer = (fields: number) => avroIntRecord('Reading', fields);

describe('writer schemas past the bounds', () => {
  test('are refused as unreadable, and the event is poison', async () => {
    const client = registryClient({ url: server.url });
    const id = await client.register('wide-value', { schema: writer(20_000) });
    const codec = eventCodec({ schema: Reading, registry: client });
    const error = await codec
      .decode(writeConfluentFrame(id, new Uint8Array(20_000)))
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'WK_DECODE_SCHEMA_MISMATCH',
      message: expect.stringMatching(/more than 50000 JSON values, past the node limit/),
    });
    expect(isPoison(error)).toBe(true);
  });

  test('within them, a writer with more fields than the reader is read', async () => {
    const client = registryClient({ url: server.url });
    const id = await client.register('narrow-value', { schema: writer(1_000) });
    const codec = eventCodec({ schema: Reading, registry: client });
    const payload = new Uint8Array(1_000);
    payload[0] = 14; // f0 = 7, zigzag
    expect(await codec.decode(writeConfluentFrame(id, payload))).toEqual({ value: { f0: 7 }, schemaId: id });
  });
});
