/**
 * The Kafka consumer's background commits against a real broker (one for this file): offsets are
 * committed on the count and time policy the user sets, only for events whose handler resolved,
 * and stop() commits the rest; a member killed (SIGKILL, in a child process) after its handler
 * resolved but before the background commit loses nothing, and its successor sees again exactly
 * the events handled and not committed, fewer than the policy's bound.
 */
import type { ChildProcess } from 'node:child_process';
import type { Kafka } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type KafkaConnectionOptions, kafkaConsumer } from '../../../../src/boundaries/events/kafka/index.js';
import type { EventConsumer } from '../../../../src/boundaries/events/transport.js';
import { hasKafka, type KafkaBroker, startKafka } from '../../../support/kafka.js';
import {
  bindingFor,
  collector,
  committedCount,
  committedOffsets,
  committedSoon,
  crashMember,
  createTopics,
  eventually,
  kafkaClients,
  kafkaFor,
  type Order,
  orderCodec,
  publishOrders,
  sleep,
  uniqueName,
} from './harness.js';

describe.skipIf(!hasKafka())('Kafka consumer background commits', () => {
  let broker: KafkaBroker;
  let kafka: Kafka;
  const consumers: EventConsumer[] = [];
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    broker = await startKafka();
    kafka = kafkaFor(broker.bootstrap);
  }, 120_000);

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await Promise.allSettled(consumers.map((consumer) => consumer.stop()));
    await broker?.stop();
  }, 60_000);

  const publish = (topic: string, count: number) => publishOrders(kafka, topic, count);

  describe.each(kafkaClients)('on %s', (client) => {
    /** How the consumers under test reach the broker, on this client library. */
    let wk: KafkaConnectionOptions;
    beforeAll(() => {
      wk = bindingFor(client, broker.bootstrap);
    });

    test('offsets are committed once everyEvents wait, or once the oldest waited everyMs; stop() commits the rest', async () => {
      const topic = uniqueName('policy');
      await createTopics(kafka, [topic], 1);
      await publish(topic, 120);

      // By count only: 120 handled, commits at each 50 waiting, the last 20 wait for stop().
      const byCount = uniqueName('g');
      const counted = collector<Order>();
      const a = await kafkaConsumer({
        ...wk,
        groupId: byCount,
        topic,
        codec: orderCodec(),
        maxBatch: 10,
        commit: { everyEvents: 50, everyMs: 60_000 },
        handler: counted.handler,
      });
      await eventually(() => counted.events.length >= 120, 20_000, '120 events handled');
      await sleep(500);
      const whileRunning = await committedCount(kafka, byCount, topic);
      // Chunks of 10 on kafkajs: commits at 50 and 100. The Confluent client's first batches may be
      // shorter, so a commit may take a few more than 50; fewer than 50 wait for stop() either way.
      if (client === 'kafkajs') expect([50, 100]).toContain(whileRunning);
      expect(whileRunning).toBeGreaterThanOrEqual(50);
      expect(120 - whileRunning).toBeLessThan(50);
      await a.stop();
      expect(await committedOffsets(kafka, byCount, topic)).toEqual(['120']);

      // By time: fewer than everyEvents, committed once the oldest waited everyMs.
      const byTime = uniqueName('g');
      const timed = collector<Order>();
      const b = await kafkaConsumer({
        ...wk,
        groupId: byTime,
        topic,
        codec: orderCodec(),
        maxBatch: 10,
        commit: { everyEvents: 10_000, everyMs: 300 },
        handler: timed.handler,
      });
      consumers.push(b);
      await eventually(() => timed.events.length >= 120, 20_000, '120 events handled');
      expect(await committedSoon(kafka, byTime, topic, ['120'])).toEqual(['120']);
    });

    test('options of the policy are checked before anything connects', async () => {
      const base = { ...wk, groupId: 'g', topic: 't', codec: orderCodec(), handler: async () => {} };
      await expect(kafkaConsumer({ ...base, commit: { everyEvents: 0 } })).rejects.toThrow(RangeError);
      await expect(kafkaConsumer({ ...base, commit: { everyEvents: 2.5 } })).rejects.toThrow(RangeError);
      await expect(kafkaConsumer({ ...base, commit: { everyMs: -1 } })).rejects.toThrow(RangeError);
    });

    test('a member killed after its handler resolved, before the background commit: nothing lost, duplicates within the bound', async () => {
      const topic = uniqueName('killed');
      const groupId = uniqueName('g');
      const maxBatch = 10;
      const everyEvents = 50;
      await createTopics(kafka, [topic], 3);
      await publish(topic, 300);
      // Commits by count only, so that what is handled after the last one waits for the next.
      const member = crashMember(client, broker.bootstrap, {
        topic,
        groupId,
        maxBatch,
        commit: [everyEvents, 600_000],
      });
      children.push(member.child);
      // Past one commit (at 50) and short of the next (at 100): handled events wait for a commit.
      await eventually(() => member.handled.length >= 70, 60_000, 'the child member to handle 70');
      const handledByChild = await member.kill();
      const committedByChild = await committedCount(kafka, groupId, topic);
      // The kill fell between handlers that resolved and the commit that would have covered them.
      expect(committedByChild).toBeLessThan(handledByChild.length);

      const second = collector<Order>();
      consumers.push(
        await kafkaConsumer({
          ...wk,
          groupId,
          topic,
          codec: orderCodec(),
          maxBatch,
          sessionTimeout: 6000,
          heartbeatInterval: 1000,
          handler: second.handler,
        }),
      );
      const seen = () => new Set([...handledByChild, ...second.events.map((e) => e.value.id)]);
      // The dead member holds its partitions until its session (6 s) runs out.
      await eventually(() => seen().size >= 300, 60_000, 'every event handled by one member or the other');
      await sleep(300);
      const again = second.events.filter((e) => handledByChild.includes(e.value.id));
      // Losses: none. Duplicates: exactly what was handled and not committed, within the bound.
      expect(seen().size).toBe(300);
      expect(again.length).toBe(handledByChild.length - committedByChild);
      expect(again.length).toBeGreaterThan(0);
      expect(again.length).toBeLessThanOrEqual(2 * everyEvents + maxBatch);
      expect(second.events.length).toBe(300 - handledByChild.length + again.length);
    }, 90_000);
  });
});
