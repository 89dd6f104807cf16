/**
 * The NATS binding when things stop: a consumer restarted on its durable, stop() while a batch is
 * in hand, a slow handler (backpressure), a handler slower than ack_wait, and the server itself
 * killed and started again (same port, same store) while events are produced and consumed.
 */
import type { JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { natsConsumer, natsProducer } from '../../../../src/boundaries/events/nats/index.js';
import type { EventConsumer } from '../../../../src/boundaries/events/transport.js';
import type { WirekitError } from '../../../../src/errors/index.js';
import { hasNats } from '../../../support/nats.js';
import {
  admin,
  type NatsServer,
  type Reading,
  readingCodec,
  readings,
  recorder,
  sleep,
  startNats,
  tally,
  unique,
  waitFor,
} from './harness.js';

describe.skipIf(!hasNats())('NATS JetStream binding, through stops and restarts', { timeout: 90_000 }, () => {
  let server: NatsServer;
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  let connected: () => Promise<void>;
  const codec = readingCodec();
  const consumers: EventConsumer[] = [];

  beforeAll(async () => {
    server = await startNats();
    ({ nc, jsm, connected } = await admin(server.url));
  });

  afterAll(async () => {
    await Promise.all(consumers.map((consumer) => consumer.stop()));
    await nc?.close();
    await server?.stop();
  });

  const fill = async (names: ReturnType<typeof unique>, count: number) => {
    const producer = natsProducer<Reading>({
      connection: nc,
      subject: names.subject,
      stream: names.stream,
      ensureStream: true,
      codec,
    });
    await producer.send(readings(1, count));
    await producer.close();
  };

  it('continues where the acks left off when a consumer restarts on its durable', async () => {
    const names = unique('restart');
    await fill(names, 100);
    const options = {
      servers: server.url,
      stream: names.stream,
      durable: names.durable,
      codec,
      maxBatch: 10,
    };
    const first = recorder<Reading>(() => sleep(5));
    const before = await natsConsumer<Reading>({ ...options, handler: first.handler });
    await waitFor(() => first.events.length >= 35, '35 events in the first run');
    await before.stop();
    const handledBefore = first.events.length;

    const second = recorder<Reading>();
    const after = await natsConsumer<Reading>({ ...options, handler: second.handler });
    consumers.push(after);
    await waitFor(() => tally([...first.events, ...second.events]).size === 100, 'all 100 across both runs');
    await sleep(200); // nothing more may come
    await after.stop();

    const both = tally([...first.events, ...second.events]);
    expect(both.size).toBe(100);
    const duplicates = [...both.values()].reduce((sum, count) => sum + count - 1, 0);
    expect(duplicates).toBeLessThanOrEqual(10);
    expect(second.events.length).toBe(100 - handledBefore + duplicates);
    // The second run starts where the first one's acks ended.
    expect(Math.min(...second.events.map((event) => event.value.n))).toBeGreaterThan(handledBefore - 10);
    const info = await jsm.consumers.info(names.stream, names.durable);
    expect(info.num_pending + info.num_ack_pending).toBe(0);
  });

  it('stop() lets the batch in hand finish and acks it before it resolves', async () => {
    const names = unique('stopping');
    await fill(names, 30);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered = 0;
    const seen = recorder<Reading>(async () => {
      entered += 1;
      if (entered === 2) await gate;
    });
    const consumer = await natsConsumer<Reading>({
      connection: nc,
      stream: names.stream,
      durable: names.durable,
      codec,
      maxBatch: 8,
      handler: seen.handler,
    });
    await waitFor(() => entered === 2, 'the second batch in the handler');
    const inHand = seen.batches[1] ?? [];
    let stopped = false;
    const stopping = consumer.stop().then(() => {
      stopped = true;
    });
    await sleep(300);
    expect(stopped).toBe(false);
    release();
    await stopping;
    // Batch 2 held every slot of max_ack_pending: the server had nothing more out, so nothing more came.
    expect(seen.batches).toHaveLength(2);
    const handled = seen.events.length;
    expect(handled).toBe((seen.batches[0]?.length ?? 0) + inHand.length);
    const lastHandled = Number(inHand.at(-1)?.offset);
    const info = await jsm.consumers.info(names.stream, names.durable);
    expect(info.ack_floor.stream_seq).toBe(lastHandled);
    expect(info.num_ack_pending).toBe(0);
    expect(info.num_pending).toBe(30 - handled);
    expect(info.num_redelivered).toBe(0);
  });

  it('keeps the events out with a slow handler within maxBatch (the server holds the rest)', async () => {
    const names = unique('backpressure');
    await fill(names, 400);
    const maxBatch = 16;
    const seen = recorder<Reading>(() => sleep(25));
    const consumer = await natsConsumer<Reading>({
      connection: nc,
      stream: names.stream,
      durable: names.durable,
      codec,
      maxBatch,
      handler: seen.handler,
    });
    consumers.push(consumer);
    const outstanding: number[] = [];
    const pending: number[] = [];
    while (seen.events.length < 120) {
      const info = await jsm.consumers.info(names.stream, names.durable);
      outstanding.push(info.num_ack_pending);
      pending.push(info.num_pending);
      await sleep(15);
    }
    await consumer.stop();
    expect(Math.max(...outstanding)).toBeLessThanOrEqual(maxBatch);
    expect(Math.max(...outstanding)).toBeGreaterThan(0);
    expect(Math.min(...pending)).toBeGreaterThan(200); // the rest waited on the server
    expect(Math.max(...seen.batches.map((batch) => batch.length))).toBeLessThanOrEqual(maxBatch);
    expect([...tally(seen.events).values()].every((count) => count === 1)).toBe(true);
  });

  it('keeps a handler slower than ack_wait from having its events handed out again', async () => {
    const names = unique('slow');
    await fill(names, 6);
    const seen = recorder<Reading>((batch) => (batch[0]?.value.n === 1 ? sleep(2_200) : undefined));
    const consumer = await natsConsumer<Reading>({
      connection: nc,
      stream: names.stream,
      durable: names.durable,
      codec,
      ackWaitMs: 1_000,
      handler: seen.handler,
    });
    consumers.push(consumer);
    await waitFor(() => seen.events.length >= 6, 'the 6 events');
    await sleep(1_200); // past another ack_wait: a redelivery would show now
    await consumer.stop();
    expect(seen.events.map((event) => event.value.n)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(consumer.stats.redelivered).toBe(0);
    expect((await jsm.consumers.info(names.stream, names.durable)).num_redelivered).toBe(0);
  });

  it('delivers every acknowledged publish through a server crash and restart mid-stream', async () => {
    const names = unique('crash');
    const producerErrors: unknown[] = [];
    const consumerErrors: unknown[] = [];
    const producer = natsProducer<Reading>({
      servers: server.url,
      subject: names.subject,
      stream: names.stream,
      ensureStream: true,
      codec,
      ackTimeoutMs: 2_000,
    });
    await producer.send(readings(0, 1)); // creates the stream
    const seen = recorder<Reading>();
    const consumer = await natsConsumer<Reading>({
      servers: server.url,
      stream: names.stream,
      durable: names.durable,
      codec,
      maxBatch: 20,
      ackWaitMs: 2_000,
      handler: seen.handler,
      onError: (error) => consumerErrors.push(error),
    });
    consumers.push(consumer);

    const batches = 30;
    const perBatch = 20;
    const acked: number[] = [];
    const producing = (async () => {
      for (let batch = 0; batch < batches; batch++) {
        const events = readings(1 + batch * perBatch, perBatch);
        try {
          await producer.send(events);
          acked.push(...events.map((event) => event.value.n));
        } catch (error) {
          producerErrors.push(error);
        }
        await sleep(10);
      }
    })();
    await waitFor(() => acked.length >= 100 && seen.events.length >= 50, 'traffic before the crash');
    await server.kill();
    await sleep(300);
    await server.start();
    await producing;
    await waitFor(
      () => acked.every((n) => tally(seen.events).has(n)),
      'every acknowledged event consumed',
      30_000,
    );
    await producer.close();
    await consumer.stop();
    await connected();

    expect(producerErrors).toEqual([]);
    expect(acked).toHaveLength(batches * perBatch);
    // Retried publishes kept their msgID: the stream holds each event once.
    expect((await jsm.streams.info(names.stream)).state.messages).toBe(batches * perBatch + 1);
    const counts = tally(seen.events);
    expect(counts.size).toBe(batches * perBatch + 1);
    // The consumer reported the lost connection, and nothing else went wrong.
    expect(consumerErrors.length).toBeGreaterThan(0);
    expect(
      consumerErrors.every((error) => (error as WirekitError).code === 'WK_EVENT_BROKER_UNAVAILABLE'),
    ).toBe(true);
  });

  it('gives up with WK_EVENT_BROKER_UNAVAILABLE while the server is away, and works again once it is back', async () => {
    const names = unique('away');
    const producer = natsProducer<Reading>({
      servers: server.url,
      subject: names.subject,
      stream: names.stream,
      ensureStream: true,
      codec,
      ackTimeoutMs: 250,
      retries: 2,
      retryBackoffMs: 50,
    });
    await producer.send(readings(1, 1));
    await server.kill();
    const failed = await producer.send(readings(2, 3)).catch((error: unknown) => error);
    expect(failed).toMatchObject({ code: 'WK_EVENT_BROKER_UNAVAILABLE' });
    expect((failed as WirekitError).cause).toBeInstanceOf(Error);
    await server.start();
    await producer.send(readings(5, 1));
    await producer.close();
    await connected();
    const stored = (await jsm.streams.info(names.stream)).state.messages;
    // The failed batch may have been stored in part (its acks were what was lost), never twice.
    expect(stored).toBeGreaterThanOrEqual(2);
    expect(stored).toBeLessThanOrEqual(5);
  });
});
