/**
 * The Kafka store against a real broker (Apache Kafka 4.1.1, test/support/kafka.ts): the topic
 * it creates, Confluent's keys and the tombstone of a purge, a registry server restarted on the
 * same topic answering as before, topics it must refuse, a log two uncoordinated writers left (refused
 * at the next start), ids at their bound, the mode kept, and a broker that goes away.
 */
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { kafkaMessageOf } from '../../../../src/boundaries/events/registry/kafka-records.js';
import { kafkaStore } from '../../../../src/boundaries/events/registry/kafka-store.js';
import { StoreCorruptError } from '../../../../src/boundaries/events/registry/record-json.js';
import { startRegistryServer } from '../../../../src/boundaries/events/registry/server.js';
import { isWirekitError } from '../../../../src/errors/index.js';
import { hasKafka, type KafkaBroker, startKafka } from '../../../support/kafka.js';
import { call, subjectPath, userSchema } from './http.js';

const v1 = userSchema();
const v2 = userSchema({ name: 'age', type: 'int', default: 0 });
const v3 = userSchema({ name: 'email', type: 'string', default: '' });

describe.skipIf(!hasKafka())('the Kafka store', () => {
  let broker: KafkaBroker;
  let kafka: Kafka;

  beforeAll(async () => {
    broker = await startKafka();
    kafka = new Kafka({ brokers: [broker.bootstrap], logLevel: logLevel.NOTHING });
  }, 180_000);
  afterAll(async () => {
    await broker?.stop();
  });

  /** Every message of the topic, key and value as text (null for a tombstone). */
  async function messagesOf(topic: string): Promise<{ key: string; value: string | null }[]> {
    const admin = kafka.admin();
    await admin.connect();
    const [offsets] = await admin.fetchTopicOffsets(topic);
    await admin.disconnect();
    const high = Number(offsets?.high ?? 0);
    const consumer = kafka.consumer({ groupId: `peek-${topic}-${Date.now()}`, maxWaitTimeInMs: 100 });
    const seen: { key: string; value: string | null }[] = [];
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await new Promise<void>((resolve) => {
      consumer.run({
        eachBatch: async ({ batch }) => {
          for (const message of batch.messages) {
            seen.push({ key: message.key?.toString() ?? '', value: message.value?.toString() ?? null });
          }
          // The last offset may be a transaction's commit marker, which is no message.
          if (Number(batch.lastOffset()) >= high - 1) resolve();
        },
      });
    });
    await consumer.disconnect();
    return seen;
  }

  test('a server restarted on the topic has the same ids, versions, levels and deletions', async () => {
    const topic = '_schemas_restart';
    const first = await startRegistryServer({ store: kafkaStore({ brokers: [broker.bootstrap], topic }) });
    const api = (method: string, path: string, body?: unknown) => call(first.url, method, path, body);
    expect((await api('POST', subjectPath('orders', '/versions'), { schema: v1 })).body).toEqual({ id: 1 });
    expect((await api('POST', subjectPath('orders', '/versions'), { schema: v2 })).body).toEqual({ id: 2 });
    await api('POST', subjectPath('copies', '/versions'), { schema: v2 });
    await api('POST', subjectPath('gone', '/versions'), { schema: v3 });
    await api('PUT', '/config', { compatibility: 'FULL' });
    await api('PUT', '/config/orders', { compatibility: 'NONE' });
    await api('PUT', '/config/copies', { compatibility: 'NONE' });
    await api('DELETE', '/config/copies');
    await api('DELETE', subjectPath('orders', '/versions/1'));
    await api('DELETE', subjectPath('gone', ''));
    await api('DELETE', subjectPath('gone', '?permanent=true'));
    await first.close();

    const second = await startRegistryServer({ store: kafkaStore({ brokers: [broker.bootstrap], topic }) });
    try {
      const again = (method: string, path: string, body?: unknown) =>
        call(second.url, method, path, body).then((reply) => reply.body);
      expect(await again('GET', '/subjects')).toEqual(['copies', 'orders']);
      expect(await again('GET', subjectPath('orders', '/versions?deleted=true'))).toEqual([1, 2]);
      expect(await again('GET', subjectPath('orders', '/versions'))).toEqual([2]);
      expect(await again('GET', subjectPath('copies', '/versions/1'))).toEqual({
        subject: 'copies',
        version: 1,
        id: 2,
        schema: v2,
      });
      expect(await again('GET', '/schemas/ids/1')).toEqual({ schema: v1 });
      expect(await again('GET', '/schemas/ids/3')).toMatchObject({ error_code: 40403 });
      expect(await again('GET', '/config')).toEqual({ compatibilityLevel: 'FULL' });
      expect(await again('GET', '/config/orders')).toEqual({ compatibilityLevel: 'NONE' });
      expect(await again('GET', '/config/copies')).toMatchObject({ error_code: 40408 });
      expect(await again('POST', subjectPath('orders', '/versions'), { schema: v3 })).toEqual({ id: 4 });
    } finally {
      await second.close();
    }
  }, 120_000);

  test("the topic is compacted, with one partition, Confluent's keys, and an id mark and a tombstone for a purge", async () => {
    const topic = '_schemas_layout';
    const server = await startRegistryServer({ store: kafkaStore({ brokers: [broker.bootstrap], topic }) });
    await call(server.url, 'POST', subjectPath('s', '/versions'), { schema: v1 });
    await call(server.url, 'PUT', '/config', { compatibility: 'FULL' });
    await call(server.url, 'DELETE', subjectPath('s', '/versions/1'));
    await call(server.url, 'DELETE', subjectPath('s', '/versions/1?permanent=true'));
    await server.close();

    const admin = kafka.admin();
    await admin.connect();
    const { ConfigResourceTypes } = await import('kafkajs');
    const configs = await admin.describeConfigs({
      resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configNames: ['cleanup.policy'] }],
      includeSynonyms: false,
    });
    expect(configs.resources[0]?.configEntries[0]?.configValue).toBe('compact');
    const metadata = await admin.fetchTopicMetadata({ topics: [topic] });
    expect(metadata.topics[0]?.partitions).toHaveLength(1);
    await admin.disconnect();

    const schemaKey = '{"keytype":"SCHEMA","subject":"s","version":1,"magic":1}';
    const value = { subject: 's', version: 1, id: 1, schema: v1 };
    const messages = await messagesOf(topic);
    expect(
      messages.map((m) => ({ key: m.key, value: m.value === null ? null : JSON.parse(m.value) })),
    ).toEqual([
      { key: schemaKey, value: { ...value, deleted: false } },
      { key: '{"keytype":"CONFIG","subject":null,"magic":0}', value: { compatibilityLevel: 'FULL' } },
      { key: schemaKey, value: { ...value, deleted: true } },
      // Before a purge, the id high-water mark: compaction keeps it after the tombstone is gone.
      { key: '{"keytype":"WIREKIT_ID_HIGH_WATER","magic":0}', value: { highest: 1 } },
      { key: schemaKey, value: null },
    ]);
  }, 120_000);

  test('a topic of several partitions, or one that deletes old records, is refused', async () => {
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({
      waitForLeaders: true,
      topics: [
        { topic: 'spread', numPartitions: 3, configEntries: [{ name: 'cleanup.policy', value: 'compact' }] },
        { topic: 'expiring', numPartitions: 1, configEntries: [{ name: 'cleanup.policy', value: 'delete' }] },
      ],
    });
    await admin.disconnect();
    for (const [topic, why] of [
      ['spread', /3 partitions/],
      ['expiring', /cleanup\.policy=delete/],
    ] as const) {
      const error = await kafkaStore({ brokers: [broker.bootstrap], topic })
        .load()
        .catch((caught: unknown) => caught);
      expect(isWirekitError(error, 'WK_REGISTRY_UNAVAILABLE')).toBe(true);
      expect((error as Error).message).toMatch(why);
    }
  }, 120_000);

  test('a log two uncoordinated writers left (one id, two schemas) is refused at start, naming the offset', async () => {
    const topic = '_schemas_two_writers';
    const store = () => kafkaStore({ brokers: [broker.bootstrap], topic });
    const first = await startRegistryServer({ store: store() });
    expect((await call(first.url, 'POST', subjectPath('orders', '/versions'), { schema: v1 })).body).toEqual({
      id: 1,
    });
    await first.close();
    // What a second writer outside the election would have written: id 1 again, for another schema.
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({
      topic,
      messages: [
        kafkaMessageOf({
          kind: 'schema',
          subject: 'payments',
          version: 1,
          id: 1,
          schemaType: 'AVRO',
          schema: v3,
          references: [],
          deleted: false,
        }),
      ],
    });
    await producer.disconnect();

    const error = await startRegistryServer({ store: store() }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreCorruptError);
    // Offset 0 holds the registration, 1 its transaction's commit marker, 2 the foreign record.
    expect((error as StoreCorruptError).location).toBe(`${topic}/0@2`);
    expect((error as Error).message).toMatch(/id 1 already names another schema/);
  }, 120_000);

  test('at id 2^31-1 a new schema is refused with 42205; the mode is kept in the topic', async () => {
    const topic = '_schemas_bounds';
    const producer = kafka.producer();
    await producer.connect();
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({
      waitForLeaders: true,
      topics: [{ topic, numPartitions: 1, configEntries: [{ name: 'cleanup.policy', value: 'compact' }] }],
    });
    await admin.disconnect();
    // A raw record, as another writer (or an edit) could leave it.
    await producer.send({
      topic,
      messages: [
        {
          key: '{"keytype":"SCHEMA","subject":"big","version":1,"magic":1}',
          value: JSON.stringify({ subject: 'big', version: 1, id: 2 ** 31 - 1, schema: v1, deleted: false }),
        },
      ],
    });
    await producer.disconnect();

    const first = await startRegistryServer({ store: kafkaStore({ brokers: [broker.bootstrap], topic }) });
    const refused = await call(first.url, 'POST', subjectPath('next', '/versions'), { schema: v2 });
    expect({ status: refused.status, body: refused.body }).toMatchObject({
      status: 422,
      body: { error_code: 42205 },
    });
    await call(first.url, 'PUT', '/mode', { mode: 'READONLY' });
    await first.close();

    const second = await startRegistryServer({ store: kafkaStore({ brokers: [broker.bootstrap], topic }) });
    try {
      expect((await call(second.url, 'GET', '/mode')).body).toEqual({ mode: 'READONLY' });
      expect((await call(second.url, 'GET', subjectPath('big', '/versions/1'))).body).toMatchObject({
        id: 2 ** 31 - 1,
      });
      const readOnly = await call(second.url, 'POST', subjectPath('big', '/versions'), { schema: v1 });
      expect(readOnly.body).toMatchObject({ error_code: 42205, message: expect.stringMatching(/read-only/) });
    } finally {
      await second.close();
    }
  }, 120_000);

  test('a broker that goes away fails writes with 50001 and changes nothing; back, writes go on', async () => {
    const topic = '_schemas_outage';
    const server = await startRegistryServer({ store: kafkaStore({ brokers: [broker.bootstrap], topic }) });
    try {
      await call(server.url, 'POST', subjectPath('s', '/versions'), { schema: v1 });
      await broker.kill();
      const refused = await call(server.url, 'POST', subjectPath('s', '/versions'), { schema: v2 });
      expect(refused.status).toBe(500);
      expect(refused.body).toMatchObject({ error_code: 50001 });
      expect((await call(server.url, 'GET', subjectPath('s', '/versions'))).body).toEqual([1]);
      await broker.start();
      let reply = await call(server.url, 'POST', subjectPath('s', '/versions'), { schema: v2 });
      // The producer may need a moment to find the broker again.
      for (let attempt = 0; reply.status !== 200 && attempt < 10; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        reply = await call(server.url, 'POST', subjectPath('s', '/versions'), { schema: v2 });
      }
      expect(reply.body).toEqual({ id: 2 });
    } finally {
      await server.close();
    }
  }, 180_000);

  test('an unreachable broker fails load with WK_REGISTRY_UNAVAILABLE', async () => {
    const error = await kafkaStore({ brokers: ['127.0.0.1:1'], loadTimeoutMs: 20_000 })
      .load()
      .catch((caught: unknown) => caught);
    expect(isWirekitError(error, 'WK_REGISTRY_UNAVAILABLE')).toBe(true);
  }, 60_000);
});
