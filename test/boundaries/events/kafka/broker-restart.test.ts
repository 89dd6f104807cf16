/**
 * The broker goes away under a running producer and consumer (SIGKILL, as a crash) and comes back
 * on the same port with its data: sends in flight wait and retry instead of failing, and every
 * event a send acknowledged is consumed, the duplicates bounded by what was in hand. One broker
 * for this file, since the test takes it down.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { kafkaConsumer, kafkaProducer } from '../../../../src/boundaries/events/kafka/index.js';
import type { EventConsumer } from '../../../../src/boundaries/events/transport.js';
import { hasKafka, type KafkaBroker, startKafka } from '../../../support/kafka.js';
import {
  createTopics,
  eventually,
  kafkaFor,
  orderCodec,
  ordersOf,
  quiet,
  sleep,
  uniqueName,
} from './harness.js';

describe.skipIf(!hasKafka())('Kafka broker restart', () => {
  let broker: KafkaBroker;
  let consumer: EventConsumer | undefined;

  beforeAll(async () => {
    broker = await startKafka();
  }, 120_000);

  afterAll(async () => {
    await consumer?.stop().catch(() => undefined);
    await broker?.stop();
  }, 60_000);

  test('every event acknowledged by send is consumed across a broker restart', async () => {
    const topic = uniqueName('restart');
    const maxBatch = 20;
    await createTopics(kafkaFor(broker.bootstrap), [topic], 3);
    // The binding's own clients (from `brokers`), with the retries it sets.
    const connection = { brokers: [broker.bootstrap], logLevel: quiet };
    const deliveries = new Map<number, number>();
    const consumerErrors: Error[] = [];
    consumer = await kafkaConsumer({
      ...connection,
      groupId: uniqueName('g'),
      topic,
      codec: orderCodec(),
      fromBeginning: true,
      maxBatch,
      onError: (error) => consumerErrors.push(error),
      handler: async (events) => {
        for (const event of events) deliveries.set(event.value.id, (deliveries.get(event.value.id) ?? 0) + 1);
      },
    });
    const producer = kafkaProducer({ ...connection, topic, codec: orderCodec(), sendTimeoutMs: 60_000 });

    const acknowledged = new Set<number>();
    const refused: unknown[] = [];
    let next = 0;
    let producing = true;
    const loop = (async () => {
      while (producing) {
        const batch = ordersOf(10, 10, next);
        next += 10;
        try {
          await producer.send(batch);
          for (const order of batch) acknowledged.add(order.value.id);
        } catch (error) {
          refused.push(error);
        }
        await sleep(20);
      }
    })();

    await eventually(
      () => acknowledged.size >= 200 && deliveries.size >= 100,
      30_000,
      'traffic before the restart',
    );
    await broker.kill();
    const beforeRestart = acknowledged.size;
    await sleep(1000);
    await broker.start();
    await eventually(
      () => acknowledged.size >= beforeRestart + 200,
      60_000,
      'sends acknowledged after the restart',
    );
    producing = false;
    await loop;
    await producer.close();

    const lost = () => [...acknowledged].filter((id) => !deliveries.has(id));
    await eventually(() => lost().length === 0, 60_000, 'every acknowledged event consumed');
    expect(lost()).toEqual([]);
    // Sends in flight through the outage were retried, not refused.
    expect(refused).toEqual([]);
    // Duplicates come from batches handled but not committed when the broker went: at most the
    // batch in hand of each partition.
    const duplicates = [...deliveries.values()].reduce((total, count) => total + count - 1, 0);
    expect(duplicates).toBeLessThanOrEqual(3 * maxBatch);
    // The made client's connection retries outlast the restart: the member rode it out, with no
    // crash, no new member, and no rebalance waiting for the old member's session.
    expect(consumerErrors).toEqual([]);
    await consumer.stop();
    consumer = undefined;
  }, 150_000);

  test('a member whose client gives up on the broker crashes, says so, and keeps consuming once it is back', async () => {
    const topic = uniqueName('crash');
    const kafka = kafkaFor(broker.bootstrap, { retries: 1, initialRetryTime: 100, maxRetryTime: 200 });
    await createTopics(kafka, [topic], 1);
    const errors: Error[] = [];
    const received = new Set<number>();
    const member = await kafkaConsumer({
      kafka,
      groupId: uniqueName('g'),
      topic,
      codec: orderCodec(),
      fromBeginning: true,
      // Short, so the crashed member's old self leaves the group soon after the broker is back.
      sessionTimeout: 6000,
      heartbeatInterval: 1000,
      retry: { retries: 1, initialRetryTime: 100, maxRetryTime: 200 },
      onError: (error) => errors.push(error),
      handler: async (events) => {
        for (const event of events) received.add(event.value.id);
      },
    });
    consumer = member;
    const producer = kafkaProducer({
      brokers: [broker.bootstrap],
      logLevel: quiet,
      topic,
      codec: orderCodec(),
    });
    await producer.send(ordersOf(10));
    await eventually(() => received.size >= 10, 20_000, 'ten events before the outage');

    await broker.kill();
    await eventually(() => errors.length >= 1, 30_000, 'the crash reported');
    await broker.start();
    await producer.send(ordersOf(10, 10, 10));
    await producer.close();
    await eventually(() => received.size >= 20, 60_000, 'ten more events after the broker is back');
    expect([...received].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    for (const error of errors) expect(error).toMatchObject({ code: 'WK_EVENT_BROKER_UNAVAILABLE' });
    expect(errors[0]?.message).toMatch(/crashed/);
    await member.stop();
    consumer = undefined;
  }, 150_000);
});
