/**
 * The event codec remembers writer schema ids that failed, against a real registry server (and,
 * end to end, a real NATS JetStream consumer): the events of a writer schema the consumer cannot
 * use fail at once with the first one's error, after one fetch and one attempt at making its
 * decoder, however many there are; an unknown id the same; a registry outage is remembered only
 * for `registryRetryMs`, after which the registry is asked again and the events read. The work
 * done is counted at the registry client (every schema fetch goes through it, and every attempt
 * at a decoder follows a fetch).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventCodec } from '../../../src/boundaries/events/event-codec.js';
import { readConfluentFrame, writeConfluentFrame } from '../../../src/boundaries/events/framing.js';
import { natsConsumer, natsProducer } from '../../../src/boundaries/events/nats/index.js';
import { registryClient } from '../../../src/boundaries/events/registry/client.js';
import type { RegistryClient } from '../../../src/boundaries/events/registry/client-api.js';
import { type MemoryStore, memoryStore } from '../../../src/boundaries/events/registry/memory-store.js';
import { type RegistryServer, startRegistryServer } from '../../../src/boundaries/events/registry/server.js';
import type { DeadLetter } from '../../../src/boundaries/events/transport.js';
import { t } from '../../../src/index.js';
import { hasNats } from '../../support/nats.js';
import {
  admin,
  type NatsServer,
  Reading,
  type Reading as ReadingValue,
  readings,
  recorder,
  startNats,
  unique,
  waitFor,
} from './nats/harness.js';

/** The same record with `n` a string: its field keeps its name and number, not its type. */
const Renamed = t.object('Reading', { sensor: t.string(), n: t.string() });

/** A registry client that counts the schemas asked of it by id. */
function counted(url: string): { client: RegistryClient; fetches: Map<number, number> } {
  const inner = registryClient({ url, retries: 0, timeoutMs: 2_000 });
  const fetches = new Map<number, number>();
  return {
    fetches,
    client: {
      ...inner,
      schemaById(id) {
        fetches.set(id, (fetches.get(id) ?? 0) + 1);
        return inner.schemaById(id);
      },
    },
  };
}

/** How each promise settled: the error it rejected with, or 'read'. */
const outcomes = (promises: Promise<unknown>[]) =>
  Promise.all(
    promises.map((promise) =>
      promise.then(
        () => 'read' as const,
        (error: unknown) => error,
      ),
    ),
  );

describe('writer schema ids that failed', () => {
  let store: MemoryStore;
  let registry: RegistryServer;

  beforeAll(async () => {
    store = memoryStore();
    registry = await startRegistryServer({ store });
  });
  afterAll(() => registry?.close());

  /** Events written with `writer` under `subject`, and the id the registry gave it. */
  async function written(
    writer: typeof Renamed,
    format: 'avro' | 'protobuf',
    subject: string,
    count: number,
  ) {
    const producer = eventCodec({ schema: writer, format, registry: registry.url, subject });
    const events = await Promise.all(
      Array.from({ length: count }, (_, i) => producer.encode({ sensor: 's1', n: String(i) })),
    );
    return { events, id: readConfluentFrame(events[0] as Uint8Array).schemaId };
  }

  it.each(['avro', 'protobuf'] as const)(
    'a %s writer schema the reader cannot use: one fetch, then every event fails at once with the same error',
    async (format) => {
      const { events, id } = await written(Renamed, format, `unusable-${format}-value`, 40);
      const { client, fetches } = counted(registry.url);
      const reader = eventCodec({ schema: Reading, format, registry: client });

      const first = await outcomes([reader.decode(events[0] as Uint8Array)]);
      expect(first[0]).toMatchObject({ code: 'WK_DECODE_SCHEMA_MISMATCH' });
      // One by one (as a consumer's batches come) and all at once: no new fetch, the same error.
      for (const event of events.slice(1, 20)) {
        const [outcome] = await outcomes([reader.decode(event)]);
        expect(outcome).toBe(first[0]);
      }
      const rest = await outcomes(events.slice(20).map((event) => reader.decode(event)));
      expect(rest.every((outcome) => outcome === first[0])).toBe(true);
      expect(fetches.get(id)).toBe(1);
    },
  );

  it('an id the registry never issued: one fetch for all its events', async () => {
    const { client, fetches } = counted(registry.url);
    const reader = eventCodec({ schema: Reading, registry: client });
    const forged = writeConfluentFrame(987_654, Uint8Array.of(2, 0x78, 0));
    const results: unknown[] = [];
    for (let i = 0; i < 25; i++) results.push(...(await outcomes([reader.decode(forged)])));
    expect(results[0]).toMatchObject({ code: 'WK_REGISTRY_NOT_FOUND' });
    expect(results.every((outcome) => outcome === results[0])).toBe(true);
    expect(fetches.get(987_654)).toBe(1);
  });

  it('the memory is bounded by maxFailedWriterSchemas, oldest out', async () => {
    const { client, fetches } = counted(registry.url);
    const reader = eventCodec({ schema: Reading, registry: client, maxFailedWriterSchemas: 2 });
    const decode = (id: number) => outcomes([reader.decode(writeConfluentFrame(id, Uint8Array.of(0)))]);
    for (const id of [900_001, 900_002, 900_003, 900_002, 900_003, 900_001]) await decode(id);
    // 900_001 went out when 900_003 came in, so it was asked again; the other two were remembered.
    expect(Object.fromEntries(fetches)).toEqual({ 900001: 2, 900002: 1, 900003: 1 });
  });

  it('a registry outage is remembered for registryRetryMs only: then the registry is asked again', async () => {
    const producer = eventCodec({ schema: Reading, registry: registry.url, subject: 'outage-value' });
    const good = await producer.encode({ sensor: 's1', n: 7 });
    const id = readConfluentFrame(good).schemaId;
    const { client, fetches } = counted(registry.url);
    const reader = eventCodec({ schema: Reading, registry: client, registryRetryMs: 300 });

    const { port } = registry;
    await registry.close();
    const [away] = await outcomes([reader.decode(good)]);
    expect(away).toMatchObject({ code: 'WK_REGISTRY_UNAVAILABLE' });
    // Within the retry time: the same error at once, the registry not asked.
    const [again] = await outcomes([reader.decode(good)]);
    expect(again).toBe(away);
    expect(fetches.get(id)).toBe(1);

    store = memoryStore(store.records);
    registry = await startRegistryServer({ port, store });
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(await reader.decode(good)).toEqual({ value: { sensor: 's1', n: 7 }, schemaId: id });
    expect(fetches.get(id)).toBe(2);
  });

  it('its options are checked when the codec is made', () => {
    for (const options of [{ registryRetryMs: -1 }, { maxFailedWriterSchemas: 1.5 }, { maxWriterSchemas: 0 }])
      expect(() => eventCodec({ schema: Reading, registry: registry.url, ...options })).toThrow(
        expect.objectContaining({ code: 'WK_OPTIONS_INVALID' }),
      );
  });
});

describe.skipIf(!hasNats())('writer schema ids that failed, through a NATS JetStream consumer', () => {
  let server: NatsServer;
  let registry: RegistryServer;

  beforeAll(async () => {
    server = await startNats();
    registry = await startRegistryServer({ store: memoryStore() });
  });
  afterAll(async () => {
    await server?.stop();
    await registry?.close();
  });

  it('dead-letters every event of an unusable writer schema at once, fetching its schema once', async () => {
    const { nc } = await admin(server.url);
    const names = unique('unusable');
    const subject = `${names.subject}-value`;
    const good = natsProducer<ReadingValue>({
      connection: nc,
      subject: names.subject,
      stream: names.stream,
      ensureStream: true,
      codec: eventCodec({ schema: Reading, registry: registry.url, subject }),
    });
    await good.send(readings(1, 3));
    await registryClient({ url: registry.url }).setCompatibility('NONE', subject);
    const bad = natsProducer<{ sensor: string; n: string }>({
      connection: nc,
      subject: names.subject,
      stream: names.stream,
      codec: eventCodec({ schema: Renamed, registry: registry.url, subject }),
    });
    await bad.send(Array.from({ length: 30 }, (_, i) => ({ value: { sensor: 's1', n: `x${i}` } })));
    await good.send(readings(4, 3));
    await good.close();
    await bad.close();

    const { client, fetches } = counted(registry.url);
    const letters: DeadLetter[] = [];
    const seen = recorder<ReadingValue>();
    const consumer = await natsConsumer<ReadingValue>({
      connection: nc,
      stream: names.stream,
      durable: names.durable,
      codec: eventCodec({ schema: Reading, registry: client }),
      handler: seen.handler,
      maxBatch: 5,
      deadLetter: async (letter) => {
        letters.push(letter);
      },
    });
    try {
      await waitFor(() => seen.events.length >= 6 && letters.length >= 30, '6 events and 30 dead letters');
    } finally {
      await consumer.stop();
      await nc.close();
    }
    expect(seen.events.map((event) => event.value.n)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(letters).toHaveLength(30);
    expect(new Set(letters.map((letter) => letter.error.code))).toEqual(
      new Set(['WK_DECODE_SCHEMA_MISMATCH']),
    );
    // Two schema ids (the reader's and the unusable one), each fetched once across seven batches and more.
    expect([...fetches.values()]).toEqual([1, 1]);
    expect(consumer.stats.deadLettered).toBe(30);
  });
});
