/**
 * The Kafka binding with Confluent framing through a real schema registry (wirekit's own server,
 * over HTTP) and a real broker: events carry the writer schema's id, and the consumer reports it;
 * an event naming an id the registry does not have is poison (WK_REGISTRY_NOT_FOUND) and goes to
 * the dead-letter topic; a registry that cannot be reached is not: the events wait, uncommitted,
 * and are handled once the registry is back, each exactly once, none dead-lettered. The events of a
 * writer schema the consumer cannot use are dead-lettered at once, its schema fetched once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kafka } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { deadLetterHeaderNames } from '../../../../src/boundaries/events/dead-letter.js';
import { eventCodec } from '../../../../src/boundaries/events/event-codec.js';
import { writeConfluentFrame } from '../../../../src/boundaries/events/framing.js';
import { kafkaConsumer, kafkaProducer } from '../../../../src/boundaries/events/kafka/index.js';
import { registryClient } from '../../../../src/boundaries/events/registry/client.js';
import { fileStore } from '../../../../src/boundaries/events/registry/file-store.js';
import {
  type RegistryServer,
  startRegistryServer,
} from '../../../../src/boundaries/events/registry/server.js';
import type { EventConsumer } from '../../../../src/boundaries/events/transport.js';
import { isWirekitError, type WirekitError } from '../../../../src/errors/index.js';
import { t } from '../../../../src/index.js';
import { hasKafka, type KafkaBroker, startKafka } from '../../../support/kafka.js';
import {
  collector,
  committedOffsets,
  committedSoon,
  createTopics,
  eventually,
  kafkaFor,
  Order,
  ordersOf,
  produceRaw,
  readRaw,
  sleep,
  uniqueName,
} from './harness.js';

describe.skipIf(!hasKafka())('Kafka binding with a schema registry', () => {
  let broker: KafkaBroker;
  let kafka: Kafka;
  let registry: RegistryServer | undefined;
  let dir: string;
  const consumers: EventConsumer[] = [];

  // A codec with its own client, so nothing fetched by another is in its caches. No client
  // retries, and a short timeout: an unreachable registry shows at once.
  const codecOf = (subject: string) =>
    eventCodec({
      schema: Order,
      registry: registryClient({ url: registry?.url ?? '', retries: 0, timeoutMs: 2000 }),
      subject,
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wirekit-kafka-registry-'));
    [broker, registry] = await Promise.all([
      startKafka(),
      startRegistryServer({ store: fileStore(join(dir, 'schemas.log')) }),
    ]);
    kafka = kafkaFor(broker.bootstrap);
  }, 120_000);

  afterAll(async () => {
    await Promise.allSettled(consumers.map((consumer) => consumer.stop()));
    await registry?.close();
    await broker?.stop();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  test('events carry the writer schema id; an unknown id is poison and is dead-lettered', async () => {
    const topic = uniqueName('framed');
    const deadTopic = uniqueName('framed-dead');
    const subject = `${topic}-value`;
    await createTopics(kafka, [topic, deadTopic], 2);
    const producer = kafkaProducer({ kafka, topic, codec: codecOf(subject) });
    await producer.send(ordersOf(20, 4));
    await produceRaw(kafka, topic, [
      { key: 'k0', value: Buffer.from(writeConfluentFrame(987_654, Uint8Array.of(2, 0))) },
    ]);
    await producer.send(ordersOf(20, 4, 20));
    await producer.close();
    const id = registry?.registry.version(subject, 'latest').id;

    const received = collector<Order>();
    const consumer = await kafkaConsumer({
      kafka,
      groupId: uniqueName('g'),
      topic,
      codec: codecOf(subject),
      fromBeginning: true,
      deadLetter: deadTopic,
      handler: received.handler,
    });
    consumers.push(consumer);
    await eventually(
      () => received.events.length >= 40 && consumer.stats.deadLettered >= 1,
      30_000,
      '40 events and a dead letter',
    );
    expect(new Set(received.events.map((e) => e.value.id)).size).toBe(40);
    expect(new Set(received.events.map((e) => e.schemaId))).toEqual(new Set([id]));
    expect(typeof id).toBe('number');
    const [dead, ...more] = await readRaw(kafka, deadTopic, 1);
    expect(more).toEqual([]);
    expect(dead?.headers?.[deadLetterHeaderNames.code]?.toString()).toBe('WK_REGISTRY_NOT_FOUND');
    expect(dead?.key?.toString()).toBe('k0');
  });

  test('a writer schema the consumer cannot use: every event dead-lettered at once, the schema fetched once', async () => {
    const topic = uniqueName('unusable');
    const deadTopic = uniqueName('unusable-dead');
    const subject = `${topic}-value`;
    await createTopics(kafka, [topic, deadTopic], 1);
    // Order with its id a string: the field keeps its name, not its type, so Avro cannot resolve it.
    const Renamed = t.object('Order', { id: t.string(), key: t.string(), note: t.string() });
    const url = registry?.url ?? '';
    await registryClient({ url }).setCompatibility('NONE', subject);
    const producer = kafkaProducer({
      kafka,
      topic,
      codec: eventCodec({ schema: Renamed, registry: url, subject }),
    });
    await producer.send(
      Array.from({ length: 30 }, (_, i) => ({ key: `k${i}`, value: { id: `x${i}`, key: 'k', note: '' } })),
    );
    await producer.close();

    const inner = registryClient({ url, retries: 0, timeoutMs: 2000 });
    let fetches = 0;
    const counting = {
      ...inner,
      schemaById(id: number) {
        fetches++;
        return inner.schemaById(id);
      },
    };
    const consumer = await kafkaConsumer({
      kafka,
      groupId: uniqueName('g'),
      topic,
      codec: eventCodec({ schema: Order, registry: counting }),
      fromBeginning: true,
      maxBatch: 5,
      deadLetter: deadTopic,
      handler: async () => {},
    });
    consumers.push(consumer);
    await eventually(() => consumer.stats.deadLettered >= 30, 30_000, '30 dead letters');
    expect(consumer.stats.deadLettered).toBe(30);
    expect(fetches).toBe(1);
    const letters = await readRaw(kafka, deadTopic, 30);
    expect(
      new Set(letters.map((letter) => letter.headers?.[deadLetterHeaderNames.code]?.toString())),
    ).toEqual(new Set(['WK_DECODE_SCHEMA_MISMATCH']));
  });

  test('a registry that cannot be reached holds the events back; once it is back they are handled, none dead-lettered', async () => {
    const topic = uniqueName('outage');
    const subject = `${topic}-value`;
    const groupId = uniqueName('g');
    await createTopics(kafka, [topic], 1);
    const producer = kafkaProducer({ kafka, topic, codec: codecOf(subject) });
    await producer.send(ordersOf(30));
    await producer.close();
    const codec = codecOf(subject);
    const port = registry?.port as number;
    await registry?.close();
    registry = undefined;

    const errors: (Error | WirekitError)[] = [];
    const received = collector<Order>();
    const dead: unknown[] = [];
    const consumer = await kafkaConsumer({
      kafka,
      groupId,
      topic,
      codec,
      fromBeginning: true,
      retryBackoffMs: 100,
      // Anything resolved would be committed within the test's wait.
      commit: { everyEvents: 1, everyMs: 50 },
      onError: (error) => errors.push(error),
      deadLetter: async (letter) => {
        dead.push(letter);
      },
      handler: received.handler,
    });
    consumers.push(consumer);
    await eventually(() => errors.length >= 3, 20_000, 'three failed attempts to reach the registry');
    expect(received.events).toEqual([]);
    expect(await committedOffsets(kafka, groupId, topic)).toEqual(['-1']);
    for (const error of errors) expect(isWirekitError(error, 'WK_REGISTRY_UNAVAILABLE')).toBe(true);

    // The same registry, its records kept in its file, back on its port.
    registry = await startRegistryServer({ port, store: fileStore(join(dir, 'schemas.log')) });
    await eventually(() => received.events.length >= 30, 30_000, 'thirty events once the registry is back');
    await sleep(300);
    expect(received.events.map((e) => e.value.id)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect(dead).toEqual([]);
    expect(consumer.stats).toMatchObject({
      handled: 30,
      deadLettered: 0,
      handlerFailures: 0,
      redelivered: 0,
    });
    expect(await committedSoon(kafka, groupId, topic, ['30'])).toEqual(['30']);
  }, 90_000);
});
