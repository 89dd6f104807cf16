/**
 * The NATS binding with Confluent framing through a real schema registry (wirekit's own server on
 * a free port): events carry their writer schema id, a registry that goes away makes events wait
 * (not dead letters) until it is back, and an event naming a schema id the registry never issued
 * is poison.
 */
import type { JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventCodec } from '../../../../src/boundaries/events/event-codec.js';
import { writeConfluentFrame } from '../../../../src/boundaries/events/framing.js';
import { natsConsumer, natsProducer } from '../../../../src/boundaries/events/nats/index.js';
import { registryClient } from '../../../../src/boundaries/events/registry/client.js';
import { type MemoryStore, memoryStore } from '../../../../src/boundaries/events/registry/memory-store.js';
import {
  type RegistryServer,
  startRegistryServer,
} from '../../../../src/boundaries/events/registry/server.js';
import type { DeadLetter, EventConsumer } from '../../../../src/boundaries/events/transport.js';
import type { WirekitError } from '../../../../src/errors/index.js';
import { hasNats } from '../../../support/nats.js';
import {
  admin,
  type NatsServer,
  Reading,
  type Reading as ReadingValue,
  readings,
  recorder,
  startNats,
  tally,
  unique,
  waitFor,
} from './harness.js';

describe.skipIf(!hasNats())(
  'NATS JetStream binding with Confluent framing and a real registry',
  { timeout: 60_000 },
  () => {
    let server: NatsServer;
    let nc: NatsConnection;
    let jsm: JetStreamManager;
    let registry: RegistryServer;
    let store: MemoryStore;
    const consumers: EventConsumer[] = [];

    beforeAll(async () => {
      server = await startNats();
      ({ nc, jsm } = await admin(server.url));
      store = memoryStore();
      registry = await startRegistryServer({ store });
    });

    afterAll(async () => {
      await Promise.all(consumers.map((consumer) => consumer.stop()));
      await nc?.close();
      await server?.stop();
      await registry?.close();
    });

    /**
     * A codec with a registry client of its own (no cache shared with the producer's). No retries,
     * so that an outage shows at once; the timeout is generous because a loaded machine can take
     * seconds to answer a first registration, and the outage test closes the server rather than
     * waiting for a timeout.
     */
    const codecFor = (subject: string, format: 'avro' | 'protobuf' = 'avro') =>
      eventCodec({
        schema: Reading,
        format,
        registry: registryClient({ url: registry.url, retries: 0, timeoutMs: 15_000 }),
        subject: `${subject}-value`,
      });

    it.each(['avro', 'protobuf'] as const)(
      'carries the writer schema id with every %s event',
      async (format) => {
        const names = unique(`confluent_${format}`);
        const producer = natsProducer<ReadingValue>({
          connection: nc,
          subject: names.subject,
          stream: names.stream,
          ensureStream: true,
          codec: codecFor(names.subject, format),
        });
        await producer.send(readings(1, 20));
        await producer.close();
        const id = (await registryClient({ url: registry.url }).version(`${names.subject}-value`, 'latest'))
          .id;

        const seen = recorder<ReadingValue>();
        const consumer = await natsConsumer<ReadingValue>({
          connection: nc,
          stream: names.stream,
          durable: names.durable,
          codec: codecFor(names.subject, format),
          handler: seen.handler,
        });
        consumers.push(consumer);
        await waitFor(() => seen.events.length >= 20, '20 events');
        await consumer.stop();
        expect(seen.events.map((event) => event.value)).toEqual(readings(1, 20).map((event) => event.value));
        expect(seen.events.every((event) => event.schemaId === id)).toBe(true);
      },
    );

    it('makes events wait while the registry is away, and hands them over once it is back', async () => {
      const names = unique('outage');
      const producer = natsProducer<ReadingValue>({
        connection: nc,
        subject: names.subject,
        stream: names.stream,
        ensureStream: true,
        codec: codecFor(names.subject),
      });
      await producer.send(readings(1, 5));
      await producer.close();

      const { port } = registry;
      await registry.close();
      const errors: unknown[] = [];
      const letters: DeadLetter[] = [];
      const seen = recorder<ReadingValue>();
      const consumer = await natsConsumer<ReadingValue>({
        connection: nc,
        stream: names.stream,
        durable: names.durable,
        codec: codecFor(names.subject), // a fresh client: no schema cached
        handler: seen.handler,
        retryBackoffMs: 50,
        deadLetter: async (letter) => {
          letters.push(letter);
        },
        onError: (error) => errors.push(error),
      });
      consumers.push(consumer);
      await waitFor(() => errors.length >= 2, 'two attempts that found no registry');
      expect(seen.events).toEqual([]);

      // The registry comes back on its port with the records it had.
      store = memoryStore(store.records);
      registry = await startRegistryServer({ port, store });
      await waitFor(() => tally(seen.events).size === 5, 'the 5 events, once the registry answers');
      await consumer.stop();

      expect(letters).toEqual([]);
      expect(consumer.stats.deadLettered).toBe(0);
      expect(new Set(errors.map((error) => (error as WirekitError).code))).toEqual(
        new Set(['WK_REGISTRY_UNAVAILABLE']),
      );
      expect(seen.events.every((event) => event.redelivered)).toBe(true);
      const info = await jsm.consumers.info(names.stream, names.durable);
      expect(info.num_pending + info.num_ack_pending).toBe(0);
    });

    it('dead-letters an event whose schema id the registry never issued (WK_REGISTRY_NOT_FOUND)', async () => {
      const names = unique('unknown_id');
      const producer = natsProducer<ReadingValue>({
        connection: nc,
        subject: names.subject,
        stream: names.stream,
        ensureStream: true,
        codec: codecFor(names.subject),
      });
      await producer.send(readings(1, 2));
      const forged = writeConfluentFrame(987_654, Uint8Array.of(2, 0x78, 0));
      const { seq } = await jsm.jetstream().publish(names.subject, forged);
      await producer.send(readings(3, 2));
      await producer.close();

      const letters: DeadLetter[] = [];
      const seen = recorder<ReadingValue>();
      const consumer = await natsConsumer<ReadingValue>({
        connection: nc,
        stream: names.stream,
        durable: names.durable,
        codec: codecFor(names.subject),
        handler: seen.handler,
        deadLetter: async (letter) => {
          letters.push(letter);
        },
      });
      consumers.push(consumer);
      await waitFor(() => seen.events.length >= 4 && letters.length === 1, '4 events and the forged one');
      await consumer.stop();
      expect(seen.events.map((event) => event.value.n)).toEqual([1, 2, 3, 4]);
      expect(letters[0]?.error.code).toBe('WK_REGISTRY_NOT_FOUND');
      expect(letters[0]?.offset).toBe(String(seq));
      expect(Buffer.from(letters[0]?.bytes ?? [])).toEqual(Buffer.from(forged));
    });
  },
);
