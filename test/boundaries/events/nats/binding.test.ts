/**
 * The NATS JetStream binding against a real nats-server: publishes acked and stored once, events
 * handed over with their key, headers and position, failed batches redelivered with backoff,
 * poison events dead-lettered (and the consumer going on), the errors a producer answers with.
 * (A registry outage, Confluent framing: registry.test.ts.)
 */
import type { JetStreamManager } from '@nats-io/jetstream';
import { headers, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventCodec } from '../../../../src/boundaries/events/event-codec.js';
import { natsConsumer, natsProducer } from '../../../../src/boundaries/events/nats/index.js';
import type { DeadLetter, EventConsumer } from '../../../../src/boundaries/events/transport.js';
import { WirekitError } from '../../../../src/errors/index.js';
import { t } from '../../../../src/schema/index.js';
import { hasNats } from '../../../support/nats.js';
import { freePort } from '../../../support/servers/free-port.js';
import {
  admin,
  type NatsServer,
  type Reading,
  readingCodec,
  readings,
  recorder,
  startNats,
  tally,
  unique,
  waitFor,
} from './harness.js';

describe.skipIf(!hasNats())('NATS JetStream binding', { timeout: 60_000 }, () => {
  let server: NatsServer;
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  const codec = readingCodec();
  const consumers: EventConsumer[] = [];

  beforeAll(async () => {
    server = await startNats();
    ({ nc, jsm } = await admin(server.url));
  });

  afterAll(async () => {
    await Promise.all(consumers.map((consumer) => consumer.stop()));
    await nc?.close();
    await server?.stop();
  });

  const stored = async (stream: string) => (await jsm.streams.info(stream)).state.messages;

  it('round-trips every event once, with its key, headers, subject, sequence and time', async () => {
    const names = unique('roundtrip');
    const producer = natsProducer<Reading>({
      servers: server.url,
      subject: names.subject,
      stream: names.stream,
      ensureStream: true,
      codec,
    });
    const before = Date.now();
    const keys = ['plain', Uint8Array.of(0, 255, 10, 13), 'two\nlines', ' padded ', 'ключ 🔑'];
    for (let batch = 0; batch < 4; batch++) {
      await producer.send(
        readings(batch * 50, 50).map((event, i) => ({
          ...event,
          key: keys[(batch * 50 + i) % keys.length],
          headers: { 'trace-id': `t-${batch * 50 + i}`, Origin: 'test' },
        })),
      );
    }
    await producer.send({ value: { sensor: 'last', n: 200 } });
    await producer.close();
    expect(await stored(names.stream)).toBe(201);

    const seen = recorder<Reading>();
    const consumer = await natsConsumer<Reading>({
      servers: server.url,
      stream: names.stream,
      durable: names.durable,
      codec,
      handler: seen.handler,
      maxBatch: 32,
    });
    consumers.push(consumer);
    await waitFor(() => seen.events.length >= 201, '201 events');
    await consumer.stop();

    expect(seen.events).toHaveLength(201);
    expect([...tally(seen.events).values()].every((count) => count === 1)).toBe(true);
    expect(Math.max(...seen.batches.map((batch) => batch.length))).toBeLessThanOrEqual(32);
    const ordered = seen.events.map((event) => event.value.n);
    expect(ordered).toEqual([...ordered].sort((a, b) => a - b));
    for (const [index, event] of seen.events.entries()) {
      expect(event.topic).toBe(names.subject);
      expect(event.partition).toBe(0);
      expect(event.offset).toBe(String(index + 1));
      expect(event.schemaId).toBeUndefined();
      expect(event.redelivered).toBe(false);
      expect(event.timestamp).toBeGreaterThanOrEqual(before - 1_000);
      expect(event.timestamp).toBeLessThanOrEqual(Date.now() + 1_000);
      if (event.value.n === 200) {
        expect(event.key).toBeUndefined();
        expect({ ...event.headers }).toEqual({});
        continue;
      }
      const key = keys[event.value.n % keys.length] as string | Uint8Array;
      expect(event.key).toEqual(typeof key === 'string' ? new Uint8Array(Buffer.from(key)) : key);
      expect({ ...event.headers }).toEqual({ 'trace-id': `t-${event.value.n}`, Origin: 'test' });
    }
    expect(consumer.stats).toMatchObject({
      handled: 201,
      redelivered: 0,
      deadLettered: 0,
      handlerFailures: 0,
    });
    expect(consumer.stats.batches).toBe(seen.batches.length);
    const info = await jsm.consumers.info(names.stream, names.durable);
    expect(info.num_pending + info.num_ack_pending).toBe(0);
    expect(info.config.max_ack_pending).toBe(32);
    expect(info.config.ack_policy).toBe('explicit');
  });

  it('hands a failed batch over again after a growing delay, marked redelivered, and loses nothing', async () => {
    const names = unique('retry');
    const producer = natsProducer<Reading>({
      connection: nc,
      subject: names.subject,
      stream: names.stream,
      ensureStream: true,
      codec,
    });
    await producer.send(readings(1, 10));
    await producer.close();
    expect(nc.isClosed()).toBe(false); // a given connection stays the caller's

    const failures: number[] = [];
    const errors: unknown[] = [];
    const seen = recorder<Reading>((batch) => {
      if (batch.some((event) => event.value.n === 3) && failures.length < 2) {
        failures.push(Date.now());
        throw new Error(`handler failure ${failures.length}`);
      }
    });
    const consumer = await natsConsumer<Reading>({
      servers: server.url,
      stream: names.stream,
      durable: names.durable,
      codec,
      handler: seen.handler,
      maxBatch: 4,
      retryBackoffMs: 60,
      onError: (error) => errors.push(error),
    });
    consumers.push(consumer);
    await waitFor(() => tally(seen.events).size === 10, 'all 10 events handled');
    await consumer.stop();

    expect([...tally(seen.events).keys()].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const third = seen.batches.filter((batch) => batch.some((event) => event.value.n === 3));
    expect(third).toHaveLength(3); // failed, failed, handled
    expect(third.map((batch) => batch.find((event) => event.value.n === 3)?.redelivered)).toEqual([
      false,
      true,
      true,
    ]);
    expect(consumer.stats.handlerFailures).toBe(2);
    expect(consumer.stats.redelivered).toBeGreaterThanOrEqual(2);
    expect(errors.map((error) => (error as Error).message)).toEqual([
      'handler failure 1',
      'handler failure 2',
    ]);
    // The second redelivery waited at least the doubled backoff (60 ms, then 120 ms).
    const handedAt = (failures[1] as number) - (failures[0] as number);
    expect(handedAt).toBeGreaterThanOrEqual(55);
    const info = await jsm.consumers.info(names.stream, names.durable);
    expect(info.num_pending + info.num_ack_pending).toBe(0);
  });

  it('dead-letters poison events to a subject with their bytes and the error, and goes on', async () => {
    const names = unique('poison');
    const dead = unique('poison_dlq');
    await jsm.streams.add({ name: dead.stream, subjects: [dead.subject] });
    const producer = natsProducer<Reading>({
      connection: nc,
      subject: names.subject,
      stream: names.stream,
      ensureStream: true,
      codec,
    });
    const js = jsm.jetstream();
    const valid = await codec.encode({ sensor: 'x', n: 0 });
    const otherSchema = await readingCodecOf('Other').encode({ sensor: 'x', n: 0 });
    const poison = [
      Uint8Array.of(1, 2, 3, 4), // no envelope at all
      valid.subarray(0, valid.length - 2), // cut short
      otherSchema, // another schema's fingerprint
    ];
    await producer.send(readings(1, 3));
    const { seq: firstPoison } = await js.publish(names.subject, poison[0], {
      headers: headersOf({ 'wirekit-key': 'bad-key', note: 'garbage' }),
    });
    await producer.send(readings(4, 3));
    await js.publish(names.subject, poison[1]);
    await js.publish(names.subject, poison[2]);
    await producer.send(readings(7, 4));
    await producer.close();

    const errors: unknown[] = [];
    const seen = recorder<Reading>();
    const consumer = await natsConsumer<Reading>({
      connection: nc,
      stream: names.stream,
      durable: names.durable,
      codec,
      handler: seen.handler,
      deadLetter: dead.subject,
      maxBatch: 5,
      onError: (error) => errors.push(error),
    });
    consumers.push(consumer);
    await waitFor(
      () => seen.events.length >= 10 && consumer.stats.deadLettered >= 3,
      '10 handled, 3 dead-lettered',
    );
    await consumer.stop();
    expect(nc.isClosed()).toBe(false);

    expect(seen.events.map((event) => event.value.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(consumer.stats).toMatchObject({ handled: 10, deadLettered: 3, handlerFailures: 0 });
    expect(errors.map((error) => (error as WirekitError).code)).toEqual([
      'WK_ENVELOPE_INVALID',
      expect.stringMatching(/^WK_(DECODE|ENVELOPE)_/),
      'WK_ENVELOPE_SCHEMA',
    ]);
    expect(await stored(dead.stream)).toBe(3);
    const letters = await Promise.all([1, 2, 3].map((seq) => jsm.streams.getMessage(dead.stream, { seq })));
    expect(letters.map((letter) => Buffer.from(letter?.data ?? []))).toEqual(
      poison.map((bytes) => Buffer.from(bytes)),
    );
    const first = letters[0]?.header;
    expect(first?.get('wirekit-error-code')).toBe('WK_ENVELOPE_INVALID');
    expect(first?.get('wirekit-error-message')).not.toBe('');
    expect(first?.get('wirekit-source-topic')).toBe(names.subject);
    expect(first?.get('wirekit-source-partition')).toBe('0');
    expect(first?.get('wirekit-source-offset')).toBe(String(firstPoison));
    expect(first?.get('wirekit-key')).toBe('bad-key');
    expect(first?.get('note')).toBe('garbage');
    expect(letters[2]?.header.get('wirekit-error-code')).toBe('WK_ENVELOPE_SCHEMA');
    const info = await jsm.consumers.info(names.stream, names.durable);
    expect(info.num_pending + info.num_ack_pending).toBe(0);
  });

  it('hands poison events to a dead-letter function, and retries one it failed to take', async () => {
    const names = unique('poisonfn');
    const producer = natsProducer<Reading>({
      connection: nc,
      subject: names.subject,
      stream: names.stream,
      ensureStream: true,
      codec,
    });
    await producer.send(readings(1, 2));
    const { seq } = await jsm.jetstream().publish(names.subject, Uint8Array.of(0x89, 0x57), {
      headers: headersOf({ 'wirekit-key-b64': Buffer.from([7, 8]).toString('base64'), kind: 'short' }),
    });
    await producer.send(readings(3, 2));
    await producer.close();

    const letters: DeadLetter[] = [];
    let refusals = 0;
    const seen = recorder<Reading>();
    const consumer = await natsConsumer<Reading>({
      connection: nc,
      stream: names.stream,
      durable: names.durable,
      codec,
      handler: seen.handler,
      retryBackoffMs: 20,
      deadLetter: async (letter) => {
        if (refusals++ === 0) throw new Error('dead-letter store down');
        letters.push(letter);
      },
    });
    consumers.push(consumer);
    await waitFor(() => seen.events.length >= 4 && letters.length === 1, 'the poison event taken');
    await consumer.stop();

    expect(seen.events.map((event) => event.value.n)).toEqual([1, 2, 3, 4]);
    expect(refusals).toBe(2);
    const [letter] = letters;
    expect(Buffer.from(letter?.bytes ?? [])).toEqual(Buffer.from([0x89, 0x57]));
    expect(letter?.key).toEqual(Uint8Array.of(7, 8));
    expect({ ...letter?.headers }).toEqual({ kind: 'short' });
    expect(letter).toMatchObject({ topic: names.subject, partition: 0, offset: String(seq) });
    expect(letter?.error).toBeInstanceOf(WirekitError);
    expect(letter?.error.code).toBe('WK_ENVELOPE_INVALID');
    expect(consumer.stats.deadLettered).toBe(1);
  });

  it('skips a poison event without a dead-letter target, reporting and counting it', async () => {
    const names = unique('skip');
    await jsm.streams.add({ name: names.stream, subjects: [names.subject] });
    const producer = natsProducer<Reading>({
      connection: nc,
      subject: names.subject,
      stream: names.stream,
      ensureStream: true,
      codec,
    });
    await jsm.jetstream().publish(names.subject, new TextEncoder().encode('{"sensor":"json","n":1}'));
    await producer.send(readings(2, 1));
    await producer.close();
    const errors: unknown[] = [];
    const seen = recorder<Reading>();
    const consumer = await natsConsumer<Reading>({
      connection: nc,
      stream: names.stream,
      durable: names.durable,
      codec,
      handler: seen.handler,
      onError: (error) => errors.push(error),
    });
    consumers.push(consumer);
    await waitFor(
      () => seen.events.length === 1 && consumer.stats.deadLettered === 1,
      'the event and the skip',
    );
    await consumer.stop();
    expect(seen.events[0]?.value.n).toBe(2);
    expect(errors).toHaveLength(1);
    expect((errors[0] as WirekitError).code).toBe('WK_ENVELOPE_INVALID');
    const info = await jsm.consumers.info(names.stream, names.durable);
    expect(info.num_pending + info.num_ack_pending).toBe(0);
  });

  it('stores a publish once when its ack came too late and it was sent again (msgID de-duplication)', async () => {
    const names = unique('dedup');
    await jsm.streams.add({ name: names.stream, subjects: [names.subject] });
    // Acks awaited for 1 ms only: most publishes of a 300-event batch time out after they were
    // stored, and are sent again.
    const producer = natsProducer<Reading>({
      connection: nc,
      subject: names.subject,
      stream: names.stream,
      codec,
      ackTimeoutMs: 1,
      retries: 50,
      retryBackoffMs: 5,
    });
    await producer.send(readings(1, 300));
    await producer.close();
    expect(await stored(names.stream)).toBe(300);
    const seen = recorder<Reading>();
    const consumer = await natsConsumer<Reading>({
      connection: nc,
      stream: names.stream,
      durable: names.durable,
      codec,
      handler: seen.handler,
    });
    consumers.push(consumer);
    await waitFor(() => seen.events.length >= 300, '300 events');
    await consumer.stop();
    expect(tally(seen.events).size).toBe(300);
  });

  it('reads only the filter subject, and shares a durable between two instances without loss', async () => {
    const names = unique('filter');
    await jsm.streams.add({ name: names.stream, subjects: [`${names.subject}.>`] });
    const wanted = natsProducer<Reading>({
      connection: nc,
      subject: `${names.subject}.a`,
      stream: names.stream,
      codec,
    });
    const other = natsProducer<Reading>({
      connection: nc,
      subject: `${names.subject}.b`,
      stream: names.stream,
      codec,
    });
    for (let i = 0; i < 5; i++) {
      await wanted.send(readings(i * 20, 20));
      await other.send(readings(1_000 + i * 20, 20));
    }
    await Promise.all([wanted.close(), other.close()]);

    const seenA = recorder<Reading>();
    const seenB = recorder<Reading>();
    const options = {
      connection: nc,
      stream: names.stream,
      durable: names.durable,
      subject: `${names.subject}.a`,
      codec,
      maxBatch: 10,
    };
    const one = await natsConsumer<Reading>({ ...options, handler: seenA.handler });
    const two = await natsConsumer<Reading>({ ...options, handler: seenB.handler });
    consumers.push(one, two);
    await waitFor(() => tally([...seenA.events, ...seenB.events]).size >= 100, 'the 100 events of subject a');
    await Promise.all([one.stop(), two.stop()]);
    const all = [...seenA.events, ...seenB.events];
    expect([...tally(all).keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(all.every((event) => event.topic === `${names.subject}.a`)).toBe(true);
    expect(all).toHaveLength(100);
    const info = await jsm.consumers.info(names.stream, names.durable);
    expect(info.config.filter_subject).toBe(`${names.subject}.a`);
    expect(info.num_pending + info.num_ack_pending).toBe(0);
  });

  it('refuses an event larger than the server takes, publishing nothing more of the batch', async () => {
    const names = unique('large');
    await jsm.streams.add({ name: names.stream, subjects: [names.subject] });
    const producer = natsProducer<Reading>({
      connection: nc,
      subject: names.subject,
      stream: names.stream,
      codec,
      maxInFlight: 1,
    });
    const huge = { value: { sensor: 'x'.repeat(2 * 1024 * 1024), n: 2 } };
    const refused = await producer
      .send([...readings(1, 1), huge, ...readings(3, 1)])
      .catch((error: unknown) => error);
    await producer.close();
    expect(refused).toMatchObject({ code: 'WK_EVENT_BROKER_UNAVAILABLE' });
    expect((refused as WirekitError).message).toMatch(/refused/);
    expect(await stored(names.stream)).toBe(1);
  });

  it('encodes and checks a whole batch before publishing any of it', async () => {
    const names = unique('atomic');
    const producer = natsProducer<Reading>({
      connection: nc,
      subject: names.subject,
      stream: names.stream,
      ensureStream: true,
      codec,
    });
    await producer.send(readings(1, 1));
    const bad = [...readings(2, 3), { value: { sensor: 'x', n: 'four' } as unknown as Reading }];
    await expect(producer.send(bad)).rejects.toMatchObject({ code: 'WK_VALIDATION_FAILED' });
    await expect(
      producer.send({ value: { sensor: 'x', n: 5 }, headers: { 'bad name': 'v' } }),
    ).rejects.toMatchObject({
      code: 'WK_VALIDATION_FAILED',
      path: ['headers', 'bad name'],
    });
    await expect(
      producer.send([...readings(6, 2), { value: { sensor: 'x', n: 8 }, headers: { ok: 'line\nbreak' } }]),
    ).rejects.toMatchObject({
      code: 'WK_VALIDATION_FAILED',
      path: [2, 'headers', 'ok'],
    });
    await expect(
      producer.send({ value: { sensor: 'x', n: 9 }, headers: { 'Nats-Msg-Id': 'mine' } }),
    ).rejects.toMatchObject({
      code: 'WK_VALIDATION_FAILED',
    });
    await producer.close();
    await expect(producer.send(readings(10, 1))).rejects.toMatchObject({
      code: 'WK_EVENT_BROKER_UNAVAILABLE',
    });
    expect(await stored(names.stream)).toBe(1);
  });

  it('answers WK_EVENT_BROKER_UNAVAILABLE, with the cause, when nothing acknowledges', async () => {
    const nowhere = `nats://127.0.0.1:${await freePort()}`;
    const lost = natsProducer<Reading>({ servers: nowhere, subject: 'ev.nowhere', codec });
    const refused = await lost.send(readings(1, 1)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(WirekitError);
    expect(refused).toMatchObject({ code: 'WK_EVENT_BROKER_UNAVAILABLE' });
    expect((refused as WirekitError).cause).toBeInstanceOf(Error);
    await lost.close();

    // No stream captures the subject: JetStream has no responder for it, and no stream would store
    // it, so the producer names what is missing at once instead of retrying (the test below has the
    // message in full).
    const uncaptured = natsProducer<Reading>({
      connection: nc,
      subject: 'ev.uncaptured',
      codec,
      retries: 2,
      retryBackoffMs: 10,
    });
    const unanswered = await uncaptured.send(readings(1, 1)).catch((error: unknown) => error);
    expect(unanswered).toMatchObject({ code: 'WK_EVENT_STREAM_MISSING' });
    expect((unanswered as WirekitError).message).toContain('ev.uncaptured');

    // The subject is stored by another stream than the one expected: refused at once, not retried.
    const names = unique('expected');
    const elsewhere = unique('elsewhere');
    await jsm.streams.add({ name: names.stream, subjects: [names.subject] });
    await jsm.streams.add({ name: elsewhere.stream, subjects: [elsewhere.subject] });
    const misdirected = natsProducer<Reading>({
      connection: nc,
      subject: names.subject,
      stream: elsewhere.stream,
      codec,
    });
    const wrong = await misdirected.send(readings(1, 1)).catch((error: unknown) => error);
    expect(wrong).toMatchObject({ code: 'WK_EVENT_BROKER_UNAVAILABLE' });
    expect((wrong as WirekitError).message).toContain('refused');
    expect(await stored(names.stream)).toBe(0);

    expect(nc.isClosed()).toBe(false);
  });

  it('answers WK_EVENT_STREAM_MISSING, naming the stream, when a named stream is missing and not to be created', async () => {
    const names = unique('missing');
    const producer = natsProducer<Reading>({
      servers: server.url,
      subject: names.subject,
      stream: names.stream,
      codec,
    });
    const missing = await producer.send(readings(0, 1)).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(WirekitError);
    expect(missing).toMatchObject({ code: 'WK_EVENT_STREAM_MISSING' });
    expect((missing as WirekitError).message).toContain(names.stream);
    expect((missing as WirekitError).message).toContain('ensureStream: true');
    expect((missing as WirekitError).message).toContain(names.subject);
    await expect(jsm.streams.info(names.stream)).rejects.toThrow();

    await expect(
      natsConsumer<Reading>({
        connection: nc,
        stream: names.stream,
        durable: 'd',
        codec,
        handler: async () => {},
      }),
    ).rejects.toMatchObject({ code: 'WK_EVENT_STREAM_MISSING' });
    expect(nc.isClosed()).toBe(false);

    // The same producer, told to create it, stores the event.
    const creating = natsProducer<Reading>({
      servers: server.url,
      subject: names.subject,
      stream: names.stream,
      ensureStream: true,
      codec,
    });
    await creating.send(readings(0, 1));
    expect(await stored(names.stream)).toBe(1);
    await Promise.all([producer.close(), creating.close()]);
  });

  it('answers WK_EVENT_STREAM_MISSING, naming the subject, when no stream is named and none captures the subject', async () => {
    const names = unique('uncaptured');
    // Few attempts: the error must come from the first one, not from the retries running out.
    const producer = natsProducer<Reading>({
      servers: server.url,
      subject: names.subject,
      codec,
      retries: 1,
    });
    const missing = await producer.send(readings(0, 1)).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(WirekitError);
    expect(missing).toMatchObject({ code: 'WK_EVENT_STREAM_MISSING' });
    expect((missing as WirekitError).message).toContain(names.subject);
    expect((missing as WirekitError).message).toContain('ensureStream');
    expect((missing as WirekitError).message).not.toMatch(/not enabled/i);
    await producer.close();

    // Once a stream captures the subject, the same kind of producer stores the event.
    await jsm.streams.add({ name: names.stream, subjects: [names.subject] });
    const capturing = natsProducer<Reading>({ servers: server.url, subject: names.subject, codec });
    await capturing.send(readings(0, 1));
    expect(await stored(names.stream)).toBe(1);
    await capturing.close();
  });

  it('refuses bad options when constructed', async () => {
    expect(() => natsProducer({ subject: 'ev.*', codec })).toThrow(TypeError);
    expect(() => natsProducer({ subject: 'ev.a', codec, ensureStream: true })).toThrow(TypeError);
    expect(() => natsProducer({ subject: 'ev.a', codec, retries: -1 })).toThrow(RangeError);
    expect(() => natsProducer({ subject: 'ev.a', codec, connection: nc, servers: server.url })).toThrow(
      TypeError,
    );
    const base = { connection: nc, stream: 'S', durable: 'd', codec, handler: async () => {} };
    await expect(natsConsumer({ ...base, maxBatch: 0 })).rejects.toThrow(RangeError);
    await expect(natsConsumer({ ...base, maxBatch: 2.5 })).rejects.toThrow(RangeError);
    await expect(natsConsumer({ ...base, ackWaitMs: 10 })).rejects.toThrow(RangeError);
    await expect(natsConsumer({ ...base, durable: '' })).rejects.toThrow(TypeError);
  });
});

/** Same fields plus one, under another name: another fingerprint, which the envelope refuses. */
function readingCodecOf(name: string) {
  const schema = t.object(name, { sensor: t.string(), n: t.int32(), extra: t.optional(t.string()) });
  return eventCodec({ schema, framing: 'envelope' });
}

function headersOf(entries: Record<string, string>) {
  const set = headers();
  for (const [name, value] of Object.entries(entries)) set.set(name, value);
  return set;
}
