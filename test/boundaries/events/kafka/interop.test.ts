/**
 * The Kafka binding across its two client libraries, on one real broker: a key lands on the same
 * partition whichever library's producer sent it (both use the Java client's murmur2), and one
 * consumer group can change library mid-stream: events produced on one library, handled by a member
 * on the other until it stops, then by a member on the first, each exactly once, the group's
 * committed offsets read and written alike by both.
 */
import type { Kafka } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type KafkaClientName,
  kafkaConsumer,
  kafkaProducer,
} from '../../../../src/boundaries/events/kafka/index.js';
import type { EventConsumer } from '../../../../src/boundaries/events/transport.js';
import { hasKafka, type KafkaBroker, startKafka } from '../../../support/kafka.js';
import {
  bindingFor,
  collector,
  committedOffsets,
  createTopics,
  eventually,
  kafkaFor,
  type Order,
  orderCodec,
  ordersOf,
  sleep,
  uniqueName,
} from './harness.js';

describe.skipIf(!hasKafka())('Kafka binding across client libraries', () => {
  let broker: KafkaBroker;
  let kafka: Kafka;
  const consumers: EventConsumer[] = [];

  beforeAll(async () => {
    broker = await startKafka();
    kafka = kafkaFor(broker.bootstrap);
  }, 120_000);

  afterAll(async () => {
    await Promise.allSettled(consumers.map((consumer) => consumer.stop()));
    await broker?.stop();
  }, 60_000);

  async function publish(client: KafkaClientName, topic: string, count: number): Promise<void> {
    const producer = kafkaProducer({ ...bindingFor(client, broker.bootstrap), topic, codec: orderCodec() });
    const orders = ordersOf(count, 10);
    for (let i = 0; i < orders.length; i += 50) await producer.send(orders.slice(i, i + 50));
    await producer.close();
  }

  test('a key lands on the same partition from either library’s producer', async () => {
    const [fromKafkajs, fromConfluent] = [uniqueName('keys-kafkajs'), uniqueName('keys-confluent')];
    await createTopics(kafka, [fromKafkajs, fromConfluent], 6);
    await publish('kafkajs', fromKafkajs, 60);
    await publish('confluent', fromConfluent, 60);
    // Where each key went, as a consumer sees it.
    const placed = async (topic: string) => {
      const received = collector<Order>();
      const consumer = await kafkaConsumer({
        kafka,
        groupId: uniqueName('g'),
        topic,
        codec: orderCodec(),
        handler: received.handler,
      });
      consumers.push(consumer);
      await eventually(() => received.events.length >= 60, 20_000, `60 events of ${topic}`);
      await consumer.stop();
      return Object.fromEntries(received.events.map((e) => [e.value.key, e.partition]));
    };
    const byKafkajs = await placed(fromKafkajs);
    const byConfluent = await placed(fromConfluent);
    expect(Object.keys(byKafkajs)).toHaveLength(10);
    expect(new Set(Object.values(byKafkajs)).size).toBeGreaterThan(1);
    expect(byConfluent).toEqual(byKafkajs);
  });

  test.each([
    ['kafkajs', 'confluent'],
    ['confluent', 'kafkajs'],
  ] as const)(
    'produced on %s, handled by a %s member that stops, then by one on the other library: each event once',
    async (first, second) => {
      const topic = uniqueName('interop');
      const groupId = uniqueName('g');
      await createTopics(kafka, [topic], 3);
      await publish(first, topic, 300);

      const a = collector<Order>();
      const memberA = await kafkaConsumer({
        ...bindingFor(second, broker.bootstrap),
        groupId,
        topic,
        codec: orderCodec(),
        maxBatch: 10,
        // Slow enough to be stopped mid-stream.
        handler: async (events) => {
          await sleep(30);
          await a.handler(events);
        },
      });
      consumers.push(memberA);
      await eventually(() => a.events.length >= 100, 20_000, '100 events handled on the first member');
      await memberA.stop();
      const handledByA = a.events.length;
      expect(handledByA).toBeLessThan(300);

      const b = collector<Order>();
      const memberB = await kafkaConsumer({
        ...bindingFor(first, broker.bootstrap),
        groupId,
        topic,
        codec: orderCodec(),
        maxBatch: 10,
        handler: b.handler,
      });
      consumers.push(memberB);
      await eventually(
        () => handledByA + b.events.length >= 300,
        20_000,
        'the rest handled on the second member',
      );
      const ids = [...a.events, ...b.events].map((e) => e.value.id).sort((x, y) => x - y);
      expect(ids).toEqual(Array.from({ length: 300 }, (_, i) => i));
      expect(b.events.every((e) => !e.redelivered)).toBe(true);
      await memberB.stop();
      const committed = await committedOffsets(kafka, groupId, topic);
      expect(committed.reduce((sum, offset) => sum + Number(offset), 0)).toBe(300);
    },
  );
});
