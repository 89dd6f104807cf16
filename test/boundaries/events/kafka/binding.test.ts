/**
 * The Kafka binding against a real broker (../../../benchmarks/kafka-server.ts, one for this file): events
 * round-trip with keys and headers, counted exactly and in order per key; a send that fails
 * validation publishes nothing; a failing handler gets the same events again after a doubling
 * backoff; poison events (bytes no codec reads, tombstones) go to a dead-letter topic or function
 * and the consumer goes on; hostile headers reach no prototype; a broker that is not there fails
 * sends and starts with WK_EVENT_BROKER_UNAVAILABLE in bounded time.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { Kafka, Message } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { deadLetterHeaderNames } from '../../../../src/boundaries/events/dead-letter.js';
import {
  type KafkaConnectionOptions,
  kafkaConsumer,
  kafkaProducer,
} from '../../../../src/boundaries/events/kafka/index.js';
import type {
  DeadLetter,
  EventConsumer,
  ReceivedEvent,
} from '../../../../src/boundaries/events/transport.js';
import { isWirekitError, WirekitError } from '../../../../src/errors/index.js';
import { hasKafka, type KafkaBroker, startKafka } from '../../../support/kafka.js';
import { freePort } from '../../../support/servers/free-port.js';
import {
  bindingFor,
  collector,
  committedSoon,
  createTopics,
  eventually,
  kafkaClients,
  kafkaFor,
  type Order,
  orderCodec,
  ordersOf,
  produceRaw,
  quiet,
  readRaw,
  sleep,
  uniqueName,
} from './harness.js';

test('the binding imports kafkajs lazily: its modules hold type-only imports of it', () => {
  const dir = new URL('../../../../src/boundaries/events/kafka/', import.meta.url).pathname;
  const files = readdirSync(dir).map((name) => join(dir, name));
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const line of text.split('\n').filter((l) => /from 'kafkajs'/.test(l))) {
      expect(line, file).toMatch(/^import type /);
    }
  }
  expect(readFileSync(join(dir, 'connection.ts'), 'utf8')).toContain("import('kafkajs')");
  // The Confluent client: imported by name in one place, on first use, and its types nowhere.
  for (const file of files) {
    expect(readFileSync(file, 'utf8'), file).not.toMatch(/from '@confluentinc\/kafka-javascript'/);
  }
  expect(readFileSync(join(dir, 'libraries.ts'), 'utf8')).toContain(
    "import('@confluentinc/kafka-javascript')",
  );
});

describe.skipIf(!hasKafka()).each(kafkaClients)('Kafka binding on %s', (client) => {
  let broker: KafkaBroker;
  /** The tests' own kafkajs client: topics, raw records, committed offsets. */
  let kafka: Kafka;
  /** How the binding under test reaches the broker, on this client library. */
  let wk: KafkaConnectionOptions;
  const consumers: EventConsumer[] = [];
  const started = async (consumer: Promise<EventConsumer>) => {
    const running = await consumer;
    consumers.push(running);
    return running;
  };

  beforeAll(async () => {
    broker = await startKafka();
    kafka = kafkaFor(broker.bootstrap);
    wk = bindingFor(client, broker.bootstrap);
  }, 120_000);

  afterAll(async () => {
    await Promise.allSettled(consumers.map((consumer) => consumer.stop()));
    await broker?.stop();
  }, 60_000);

  test('events round-trip with keys and headers, each exactly once, in order per key', async () => {
    const topic = uniqueName('orders');
    await createTopics(kafka, [topic], 3);
    const received = collector<Order>();
    const consumer = await started(
      kafkaConsumer({
        ...wk,
        groupId: uniqueName('g'),
        topic,
        codec: orderCodec(),
        handler: received.handler,
      }),
    );
    const producer = kafkaProducer({ ...wk, topic, codec: orderCodec() });
    const sent = ordersOf(120, 7);
    // Several sends, so that the events of one key come over several record batches.
    for (let i = 0; i < sent.length; i += 20) await producer.send(sent.slice(i, i + 20));
    await producer.send(ordersOf(1, 1, 120)[0] as (typeof sent)[number]);
    await producer.close();

    await eventually(() => received.events.length >= 121, 20_000, '121 events');
    expect(received.events).toHaveLength(121);
    expect(new Set(received.events.map((e) => e.value.id)).size).toBe(121);
    for (const event of received.events) {
      expect(new TextDecoder().decode(event.key)).toBe(event.value.key);
      expect(event.headers['x-id']).toBe(String(event.value.id));
      expect(event.value.note).toBe(`order ${event.value.id}`);
      expect(event.topic).toBe(topic);
      expect(event.redelivered).toBe(false);
      expect(event.schemaId).toBeUndefined();
      expect(Math.abs(event.timestamp - Date.now())).toBeLessThan(60_000);
    }
    // One key, one partition; within a key, the order it was sent in.
    const byKey = new Map<string, ReceivedEvent<Order>[]>();
    for (const event of received.events)
      byKey.set(event.value.key, [...(byKey.get(event.value.key) ?? []), event]);
    expect(byKey.size).toBe(7);
    const partitionsUsed = new Set<number>();
    for (const events of byKey.values()) {
      expect(new Set(events.map((e) => e.partition)).size).toBe(1);
      partitionsUsed.add((events[0] as ReceivedEvent<Order>).partition);
      const ids = events.map((e) => e.value.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      const offsets = events.map((e) => BigInt(e.offset));
      expect(offsets).toEqual([...offsets].sort((a, b) => (a < b ? -1 : 1)));
    }
    expect(partitionsUsed.size).toBeGreaterThan(1);
    expect(consumer.stats).toMatchObject({
      handled: 121,
      redelivered: 0,
      deadLettered: 0,
      handlerFailures: 0,
    });
    expect(consumer.stats.batches).toBe(received.batches.length);
    // Handler batches never exceed maxBatch (default 100) and never mix partitions.
    for (const batch of received.batches) {
      expect(batch.length).toBeLessThanOrEqual(100);
      expect(new Set(batch.map((e) => e.partition)).size).toBe(1);
    }
  });

  test('a send with a value its schema refuses rejects with the codec error and publishes nothing', async () => {
    const topic = uniqueName('refused');
    await createTopics(kafka, [topic], 1);
    const producer = kafkaProducer({ ...wk, topic, codec: orderCodec() });
    const [good] = ordersOf(1);
    const bad = { value: { id: 'seven', key: 'k', note: 'n' } as unknown as Order };
    await expect(producer.send([good as typeof bad & { key: string }, bad])).rejects.toMatchObject({
      code: 'WK_VALIDATION_FAILED',
    });
    await producer.close();
    const admin = kafka.admin();
    await admin.connect();
    const offsets = await admin.fetchTopicOffsets(topic);
    await admin.disconnect();
    expect(offsets.map((o) => o.high)).toEqual(['0']);
    await expect(producer.send(good as typeof bad)).rejects.toMatchObject({
      code: 'WK_EVENT_BROKER_UNAVAILABLE',
    });
  });

  test('a handler that fails twice gets the same events again after a doubling backoff; nothing is lost', async () => {
    const topic = uniqueName('flaky');
    await createTopics(kafka, [topic], 1);
    const producer = kafkaProducer({ ...wk, topic, codec: orderCodec() });
    await producer.send(ordersOf(30));
    const calls: { at: number; offsets: string[]; redelivered: boolean[] }[] = [];
    const errors: (Error | WirekitError)[] = [];
    const handled: ReceivedEvent<Order>[] = [];
    const consumer = await started(
      kafkaConsumer({
        ...wk,
        groupId: uniqueName('g'),
        topic,
        codec: orderCodec(),
        fromBeginning: true,
        maxBatch: 10,
        retryBackoffMs: 300,
        onError: (error) => errors.push(error),
        handler: async (events) => {
          calls.push({
            at: performance.now(),
            offsets: events.map((e) => e.offset),
            redelivered: events.map((e) => e.redelivered),
          });
          if (calls.length <= 2) throw new Error(`handler failure ${calls.length}`);
          handled.push(...events);
        },
      }),
    );
    await eventually(() => handled.length >= 30, 20_000, '30 handled events');
    await producer.send(ordersOf(5, 5, 30));
    await eventually(() => handled.length >= 35, 20_000, '35 handled events');
    await producer.close();

    const [first, second, third] = calls as [(typeof calls)[0], (typeof calls)[0], (typeof calls)[0]];
    // kafkajs hands over what a fetch brought (all 30, in chunks of 10); the Confluent client's
    // batches are what its cache held, which may be fewer at first: the first chunk starts at 0,
    // runs in order, and holds at most maxBatch.
    expect(first.offsets).toEqual(Array.from({ length: first.offsets.length }, (_, i) => String(i)));
    expect(first.offsets.length).toBeGreaterThan(0);
    expect(first.offsets.length).toBeLessThanOrEqual(10);
    if (client === 'kafkajs') expect(first.offsets).toHaveLength(10);
    expect(second.offsets).toEqual(first.offsets);
    expect(third.offsets).toEqual(first.offsets);
    expect(first.redelivered.every((r) => !r)).toBe(true);
    expect(second.redelivered.every((r) => r)).toBe(true);
    expect(third.redelivered.every((r) => r)).toBe(true);
    // Doubling from 300 ms: at least 300 ms, then at least 600 ms between the calls.
    expect(second.at - first.at).toBeGreaterThanOrEqual(290);
    expect(third.at - second.at).toBeGreaterThanOrEqual(590);
    expect(handled.map((e) => e.value.id)).toEqual(Array.from({ length: 35 }, (_, i) => i));
    expect(handled.slice(first.offsets.length).every((e) => !e.redelivered)).toBe(true);
    expect(consumer.stats).toMatchObject({
      handled: 35,
      redelivered: 2 * first.offsets.length,
      handlerFailures: 2,
      deadLettered: 0,
    });
    expect(errors.map((e) => e.message)).toEqual(['handler failure 1', 'handler failure 2']);
  });

  test('a poison event in the middle goes to the dead-letter topic with its bytes and why; the rest are handled', async () => {
    const topic = uniqueName('mixed');
    const deadTopic = uniqueName('mixed-dead');
    await createTopics(kafka, [topic, deadTopic], 1);
    const producer = kafkaProducer({ ...wk, topic, codec: orderCodec() });
    await producer.send(ordersOf(5));
    const junk = Buffer.from('not an envelope at all');
    await produceRaw(kafka, topic, [
      { key: 'bad-key', value: junk, headers: { origin: 'fuzzer', 'x-bin': Buffer.from([0xff, 0]) } },
    ]);
    await producer.send(ordersOf(5, 5, 5));
    await producer.close();

    const received = collector<Order>();
    const errors: (Error | WirekitError)[] = [];
    const groupId = uniqueName('g');
    const consumer = await started(
      kafkaConsumer({
        ...wk,
        groupId,
        topic,
        codec: orderCodec(),
        fromBeginning: true,
        deadLetter: deadTopic,
        onError: (error) => errors.push(error),
        handler: received.handler,
      }),
    );
    await eventually(
      () => received.events.length >= 10 && consumer.stats.deadLettered >= 1,
      20_000,
      'ten events and a dead letter',
    );
    expect(received.events.map((e) => e.value.id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(received.events.map((e) => e.offset)).not.toContain('5');

    const [dead, ...more] = await readRaw(kafka, deadTopic, 1);
    expect(more).toHaveLength(0);
    expect(Buffer.compare(dead?.value as Buffer, junk)).toBe(0);
    expect(dead?.key?.toString()).toBe('bad-key');
    const headers = dead?.headers ?? {};
    expect(headers.origin?.toString()).toBe('fuzzer');
    expect(Buffer.compare(headers['x-bin'] as Buffer, Buffer.from([0xff, 0]))).toBe(0);
    expect(headers[deadLetterHeaderNames.code]?.toString()).toMatch(/^WK_ENVELOPE_/);
    expect(headers[deadLetterHeaderNames.message]?.toString().length).toBeGreaterThan(0);
    expect(headers[deadLetterHeaderNames.topic]?.toString()).toBe(topic);
    expect(headers[deadLetterHeaderNames.partition]?.toString()).toBe('0');
    expect(headers[deadLetterHeaderNames.offset]?.toString()).toBe('5');

    expect(consumer.stats).toMatchObject({
      handled: 10,
      deadLettered: 1,
      handlerFailures: 0,
      redelivered: 0,
    });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(WirekitError);
    expect((errors[0] as WirekitError).code).toMatch(/^WK_ENVELOPE_/);
    // Committed past it: the group's offset is the end of the topic (11 records).
    expect(await committedSoon(kafka, groupId, topic, ['11'])).toEqual(['11']);
  });

  test('tombstones and hostile headers: dead-lettered to a function, or handed over without touching a prototype', async () => {
    const topic = uniqueName('hostile');
    await createTopics(kafka, [topic], 1);
    const producer = kafkaProducer({ ...wk, topic, codec: orderCodec() });
    const good = (await orderCodec().encode({ id: 1, key: 'k', note: 'fine' })) as Uint8Array;
    await produceRaw(kafka, topic, [
      { key: 'gone', value: null },
      {
        value: Buffer.from(good),
        // JSON.parse makes `__proto__` an own key, as a hostile producer's header name is.
        headers: JSON.parse(
          '{"__proto__":"polluted","constructor":"c","toString":"t","repeated":["first","last"]}',
        ),
      },
    ]);
    await producer.close();
    const deadLetters: DeadLetter[] = [];
    const received = collector<Order>();
    const consumer = await started(
      kafkaConsumer({
        ...wk,
        groupId: uniqueName('g'),
        topic,
        codec: orderCodec(),
        fromBeginning: true,
        deadLetter: async (dead) => {
          deadLetters.push(dead);
        },
        handler: received.handler,
      }),
    );
    await eventually(
      () => received.events.length >= 1 && deadLetters.length >= 1,
      20_000,
      'one event and one dead letter',
    );
    const [tombstone] = deadLetters as [DeadLetter];
    expect(tombstone.error.code).toBe('WK_EVENT_FRAME_INVALID');
    expect(tombstone.bytes).toHaveLength(0);
    expect(new TextDecoder().decode(tombstone.key)).toBe('gone');
    expect(tombstone).toMatchObject({ topic, partition: 0, offset: '0' });

    const [event] = received.events as [ReceivedEvent<Order>];
    expect(event.value).toEqual({ id: 1, key: 'k', note: 'fine' });
    expect(Object.getPrototypeOf(event.headers)).toBeNull();
    // The Confluent client folds headers into a plain object with `headers[name] = value`, so a
    // header named `__proto__` is gone before wirekit sees it (that one object's prototype took it).
    expect(Object.entries(event.headers).sort()).toEqual([
      ...(client === 'kafkajs' ? [['__proto__', 'polluted']] : []),
      ['constructor', 'c'],
      ['repeated', 'last'],
      ['toString', 't'],
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype.toString.call({})).toBe('[object Object]');
    expect(consumer.stats).toMatchObject({ handled: 1, deadLettered: 1 });
  });

  test('fuzz: random records among good events — the good ones are handled in order, every other one dead-lettered', async () => {
    const topic = uniqueName('fuzz');
    await createTopics(kafka, [topic], 1);
    const codec = orderCodec();
    const headerName = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom('__proto__', 'constructor', 'toString', 'x-id'),
    );
    const junk = fc.record({
      key: fc.option(
        fc.uint8Array({ maxLength: 16 }).map((bytes) => Buffer.from(bytes)),
        { nil: null },
      ),
      value: fc.option(
        fc.oneof(
          fc.uint8Array({ maxLength: 64 }).map((bytes) => ({ cut: -1, bytes })),
          // A real event cut short, with garbage after it: a valid envelope header, bad payload.
          fc.record({ cut: fc.nat(), bytes: fc.uint8Array({ maxLength: 40 }) }),
        ),
        { nil: null },
      ),
      headers: fc.dictionary(headerName, fc.string({ maxLength: 8 }), { maxKeys: 4 }),
    });
    const real = await codec.encode({ id: 1, key: 'k', note: 'n' });
    const records = fc.sample(junk, { numRuns: 150, seed: 14 });
    const messages: Message[] = [];
    const goodIds: number[] = [];
    for (const [i, { key, value, headers }] of records.entries()) {
      const bytes =
        value === null
          ? null
          : value.cut < 0
            ? Buffer.from(value.bytes)
            : Buffer.concat([real.subarray(0, value.cut % real.length), value.bytes]);
      // Through JSON, so a generated `__proto__` name is an own key, as on the wire.
      messages.push({ key, value: bytes, headers: JSON.parse(JSON.stringify(headers)) });
      if (i % 3 === 0) {
        goodIds.push(i);
        messages.push({ value: Buffer.from(await codec.encode({ id: i, key: 'good', note: `#${i}` })) });
      }
    }
    await produceRaw(kafka, topic, messages);
    const received = collector<Order>();
    const dead: DeadLetter[] = [];
    const consumer = await started(
      kafkaConsumer({
        ...wk,
        groupId: uniqueName('g'),
        topic,
        codec,
        fromBeginning: true,
        maxBatch: 16,
        deadLetter: async (letter) => {
          dead.push(letter);
        },
        handler: received.handler,
      }),
    );
    await eventually(
      () => consumer.stats.handled + consumer.stats.deadLettered >= messages.length,
      30_000,
      'every record handled or dead-lettered',
    );
    // A random record that happens to decode is handled, not lost: count it among the handled.
    const good = received.events.filter((e) => e.value.key === 'good');
    expect(good.map((e) => e.value.id)).toEqual(goodIds);
    expect(received.events.length + dead.length).toBe(messages.length);
    expect(dead.length).toBeGreaterThanOrEqual(records.length - 2);
    for (const letter of dead) expect(letter.error).toBeInstanceOf(WirekitError);
    expect(consumer.stats).toMatchObject({ handlerFailures: 0, redelivered: 0 });
    expect(({} as Record<string, unknown>).constructor).toBe(Object);
  });

  test('a dead-letter function that fails leaves the event uncommitted: it is dead-lettered again, then the consumer goes on', async () => {
    const topic = uniqueName('dlq-fails');
    await createTopics(kafka, [topic], 1);
    const producer = kafkaProducer({ ...wk, topic, codec: orderCodec() });
    await producer.send(ordersOf(2));
    await produceRaw(kafka, topic, [{ value: Buffer.from([0xde, 0xad]) }]);
    await producer.send(ordersOf(2, 2, 2));
    await producer.close();
    const attempts: string[] = [];
    const received = collector<Order>();
    const consumer = await started(
      kafkaConsumer({
        ...wk,
        groupId: uniqueName('g'),
        topic,
        codec: orderCodec(),
        fromBeginning: true,
        retryBackoffMs: 50,
        deadLetter: async (dead) => {
          attempts.push(dead.offset);
          if (attempts.length === 1) throw new Error('dead-letter store down');
        },
        handler: received.handler,
      }),
    );
    await eventually(() => received.events.length >= 4, 20_000, 'four events');
    expect(attempts).toEqual(['2', '2']);
    expect(received.events.map((e) => e.value.id)).toEqual([0, 1, 2, 3]);
    expect(consumer.stats).toMatchObject({ deadLettered: 1, handled: 4 });
  });

  test('a dead-letter topic that refuses the publish leaves the poison event and all after it uncommitted', async () => {
    const topic = uniqueName('dlq-refused');
    const groupId = uniqueName('g');
    await createTopics(kafka, [topic], 1);
    const producer = kafkaProducer({ ...wk, topic, codec: orderCodec() });
    await producer.send(ordersOf(2));
    await produceRaw(kafka, topic, [{ value: Buffer.from('junk') }]);
    await producer.send(ordersOf(2, 2, 2));
    await producer.close();
    const errors: (Error | WirekitError)[] = [];
    const received = collector<Order>();
    const consumer = await started(
      kafkaConsumer({
        ...wk,
        groupId,
        topic,
        codec: orderCodec(),
        fromBeginning: true,
        retryBackoffMs: 50,
        // Anything resolved would be committed within the test's wait.
        commit: { everyEvents: 1, everyMs: 50 },
        // Kafka refuses this name (a space and '!'): every publish to it fails.
        deadLetter: 'no such topic!',
        onError: (error) => errors.push(error),
        handler: received.handler,
      }),
    );
    await eventually(() => errors.length >= 2, 20_000, 'two failed dead-letter publishes');
    await sleep(300);
    // The chunk holding the poison event (offset 2) is neither handled nor committed, and nothing
    // skips it. The events before it are handled when a batch ended before the poison (the
    // Confluent client's first batches may be that short), else they wait with it.
    const before = received.events.length;
    expect(received.events.map((e) => e.offset)).toEqual(['0', '1'].slice(0, before));
    if (client === 'kafkajs') expect(before).toBe(0);
    expect(consumer.stats).toMatchObject({ handled: before, deadLettered: 0 });
    expect(errors.every((e) => isWirekitError(e, 'WK_EVENT_BROKER_UNAVAILABLE'))).toBe(true);
    expect(await committedSoon(kafka, groupId, topic, [before === 0 ? '-1' : String(before)])).toEqual([
      before === 0 ? '-1' : String(before),
    ]);
  });

  test('a consumer that cannot join (a session the broker refuses) rejects with WK_EVENT_BROKER_UNAVAILABLE', async () => {
    const topic = uniqueName('nojoin');
    await createTopics(kafka, [topic], 1);
    const attempt = kafkaConsumer({
      ...wk,
      groupId: uniqueName('g'),
      topic,
      codec: orderCodec(),
      // Below the broker's group.min.session.timeout.ms (6 s): the join is refused; kafkajs does
      // not retry it, librdkafka retries until the start timeout.
      sessionTimeout: 1000,
      heartbeatInterval: 300,
      ...(client === 'confluent' ? { startTimeoutMs: 5000 } : {}),
      handler: async () => undefined,
    });
    await expect(attempt).rejects.toMatchObject({ code: 'WK_EVENT_BROKER_UNAVAILABLE' });
  });

  test('options are checked before anything connects', async () => {
    const codec = orderCodec();
    const handler = async () => undefined;
    await expect(kafkaConsumer({ ...wk, groupId: 'g', codec, handler })).rejects.toThrow(TypeError);
    await expect(kafkaConsumer({ ...wk, groupId: '', topic: 't', codec, handler })).rejects.toThrow(
      TypeError,
    );
    await expect(
      kafkaConsumer({ ...wk, groupId: 'g', topic: 't', codec, handler, maxBatch: 0 }),
    ).rejects.toThrow(RangeError);
    await expect(kafkaConsumer({ groupId: 'g', topic: 't', codec, handler })).rejects.toThrow(TypeError);
    expect(() => kafkaProducer({ ...wk, topic: 't', codec, sendTimeoutMs: 0 })).toThrow(RangeError);
    const unknownClient = 'rdkafka' as 'kafkajs';
    expect(() => kafkaProducer({ ...wk, client: unknownClient, topic: 't', codec })).toThrow(TypeError);
    await expect(
      kafkaConsumer({ ...wk, client: unknownClient, groupId: 'g', topic: 't', codec, handler }),
    ).rejects.toThrow(TypeError);
  });
});

test.each(kafkaClients)(
  'without a broker, a send on %s rejects with WK_EVENT_BROKER_UNAVAILABLE within its deadline, and close() returns',
  async (client) => {
    const port = await freePort();
    const producer = kafkaProducer({
      client,
      brokers: [`127.0.0.1:${port}`],
      logLevel: quiet,
      topic: 'nowhere',
      codec: orderCodec(),
      sendTimeoutMs: 3000,
    });
    const started = performance.now();
    const error = await producer.send(ordersOf(1)).catch((e: unknown) => e);
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(WirekitError);
    expect((error as WirekitError).code).toBe('WK_EVENT_BROKER_UNAVAILABLE');
    // The deadline may come before kafkajs's own retries end, and then there is no kafkajs error yet.
    const cause = (error as WirekitError).cause;
    if (cause !== undefined) expect(cause).toBeInstanceOf(Error);
    expect(elapsed).toBeLessThan(3000 + 1000);
    const closing = performance.now();
    await producer.close();
    expect(performance.now() - closing).toBeLessThan(10_000);
  },
);

test.each(kafkaClients)(
  'without a broker, a consumer start on %s rejects with WK_EVENT_BROKER_UNAVAILABLE at its start timeout',
  async (client) => {
    const port = await freePort();
    const started = performance.now();
    await expect(
      kafkaConsumer({
        client,
        brokers: [`127.0.0.1:${port}`],
        logLevel: quiet,
        groupId: 'g',
        topic: 't',
        codec: orderCodec(),
        startTimeoutMs: 2000,
        handler: async () => undefined,
      }),
    ).rejects.toMatchObject({ code: 'WK_EVENT_BROKER_UNAVAILABLE' });
    expect(performance.now() - started).toBeLessThan(2000 + 1000);
  },
);
