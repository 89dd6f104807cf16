/**
 * The evolution scenario, end to end on real brokers (Kafka and NATS JetStream) through a
 * real registry: producers move from v1 to v2 (a field added with a default) and v3 (a field that
 * had a default removed, a field renamed with an alias) while a v1 consumer keeps reading; an
 * incompatible v4 is refused at registration with the registry's 409 and publishes nothing; a v3
 * consumer that starts late reads the v1 events written before it existed. Every event is counted
 * in every consumer: nothing dropped, nothing misread, and after a consumer restart nothing read
 * twice beyond what at-least-once allows (counted).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventCodec } from '../../../src/boundaries/events/event-codec.js';
import { kafkaConsumer, kafkaProducer } from '../../../src/boundaries/events/kafka/index.js';
import { natsConsumer, natsProducer } from '../../../src/boundaries/events/nats/index.js';
import { RegistryClientError, registryClient } from '../../../src/boundaries/events/registry/client.js';
import { type RegistryServer, startRegistryServer } from '../../../src/boundaries/events/registry/server.js';
import type {
  EventConsumer,
  EventProducer,
  ReceivedEvent,
} from '../../../src/boundaries/events/transport.js';
import { type Infer, t } from '../../../src/schema/index.js';
import { hasKafka, type KafkaBroker, startKafka } from '../../support/kafka.js';
import { hasNats } from '../../support/nats.js';
import { type NatsServer, startNats } from '../../support/servers/nats-server.js';

const Item = t.object('Item', { sku: t.string(), qty: t.int32() });
const V1 = t.object('OrderPlaced', {
  id: t.string(),
  customer: t.string(),
  total: t.float64(),
  items: t.array(Item),
  coupon: t.field(t.string(), { default: '' }),
});
const V2 = t.object('OrderPlaced', {
  id: t.string(),
  customer: t.string(),
  total: t.float64(),
  items: t.array(Item),
  coupon: t.field(t.string(), { default: '' }),
  channel: t.field(t.string(), { default: 'web' }),
});
const V3 = t.object('OrderPlaced', {
  id: t.string(),
  buyer: t.field(t.string(), { aliases: ['customer'] }),
  total: t.float64(),
  items: t.array(Item),
  channel: t.field(t.string(), { default: 'web' }),
});
// Incompatible with v3 under BACKWARD: `total` changes type and `region` has no default.
const V4 = t.object('OrderPlaced', {
  id: t.string(),
  buyer: t.string(),
  total: t.string(),
  items: t.array(Item),
  channel: t.string(),
  region: t.string(),
});
type V1 = Infer<typeof V1>;
type V3 = Infer<typeof V3>;

// kafkajs's logLevel.NOTHING; the binding imports kafkajs lazily, and so does this test.
const quiet = 0;
const perVersion = 60;
const items = (i: number) =>
  Array.from({ length: 1 + (i % 3) }, (_, k) => ({ sku: `sku-${i}-${k}`, qty: k + 1 }));
const v1Events = Array.from({ length: perVersion }, (_, i) => ({
  id: `v1-${i}`,
  customer: `c${i}`,
  total: i + 0.5,
  items: items(i),
  coupon: i % 2 === 0 ? `C${i}` : '',
}));
const v2Events = Array.from({ length: perVersion }, (_, i) => ({
  id: `v2-${i}`,
  customer: `c${i}`,
  total: i + 0.25,
  items: items(i),
  coupon: `D${i}`,
  channel: i % 2 === 0 ? 'app' : 'web',
}));
const v3Events = Array.from({ length: perVersion }, (_, i) => ({
  id: `v3-${i}`,
  buyer: `b${i}`,
  total: i + 0.75,
  items: items(i),
  channel: 'store',
}));
const total = perVersion * 3;

/** What a v1 reader must see of each event, by Avro resolution (and the writer's alias for v3). */
const asV1: Map<string, V1> = new Map([
  ...v1Events.map((e) => [e.id, e] as const),
  ...v2Events.map(({ channel: _, ...e }) => [e.id, e] as const),
  ...v3Events.map(({ buyer, channel: _, ...e }) => [e.id, { ...e, customer: buyer, coupon: '' }] as const),
]);
/** What a v3 reader must see: defaults for what old writers lacked, the old name read as the new. */
const asV3: Map<string, V3> = new Map([
  ...v1Events.map(
    ({ customer, coupon: _, ...e }) => [e.id, { ...e, buyer: customer, channel: 'web' }] as const,
  ),
  ...v2Events.map(({ customer, coupon: _, ...e }) => [e.id, { ...e, buyer: customer }] as const),
  ...v3Events.map((e) => [e.id, e] as const),
]);

/** One broker binding, as the scenario drives it. */
interface Bus {
  producer<T>(codec: ReturnType<typeof eventCodec<typeof V1>> | unknown): Promise<EventProducer<T>>;
  consumer<T>(
    group: string,
    codec: unknown,
    handler: (events: readonly ReceivedEvent<T>[]) => Promise<void>,
    maxBatch: number,
  ): Promise<EventConsumer>;
  stop(): Promise<void>;
}

/** Counts each event id a consumer group was handed, and the values it last saw. */
class Tally<T extends { id: string }> {
  readonly seen = new Map<string, number>();
  readonly values = new Map<string, T>();
  readonly schemaIds = new Set<number>();
  handle = async (events: readonly ReceivedEvent<T>[]) => {
    for (const event of events) {
      this.seen.set(event.value.id, (this.seen.get(event.value.id) ?? 0) + 1);
      this.values.set(event.value.id, event.value);
      if (event.schemaId !== undefined) this.schemaIds.add(event.schemaId);
    }
  };
  get duplicates(): number {
    let extra = 0;
    for (const count of this.seen.values()) extra += count - 1;
    return extra;
  }
}

async function until(check: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function kafkaBus(): Promise<Bus> {
  const broker: KafkaBroker = await startKafka();
  const { Kafka, logLevel } = (await import('kafkajs')).default;
  const admin = new Kafka({ brokers: [broker.bootstrap], logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: 'orders', numPartitions: 3 }], waitForLeaders: true });
  await admin.disconnect();
  const brokers = [broker.bootstrap];
  return {
    producer: async (codec) =>
      kafkaProducer({ brokers, topic: 'orders', codec: codec as never, logLevel: quiet }) as never,
    consumer: (group, codec, handler, maxBatch) =>
      kafkaConsumer({
        brokers,
        groupId: group,
        topic: 'orders',
        fromBeginning: true,
        codec: codec as never,
        handler: handler as never,
        maxBatch,
        logLevel: quiet,
      }),
    stop: () => broker.stop(),
  };
}

async function natsBus(): Promise<Bus> {
  const server: NatsServer = await startNats();
  const servers = server.url;
  return {
    producer: async (codec) =>
      natsProducer({
        servers,
        subject: 'orders.placed',
        stream: 'ORDERS',
        ensureStream: true,
        codec: codec as never,
      }) as never,
    consumer: (group, codec, handler, maxBatch) =>
      natsConsumer({
        servers,
        stream: 'ORDERS',
        durable: group,
        ensureStream: true,
        codec: codec as never,
        handler: handler as never,
        maxBatch,
      }),
    stop: () => server.stop(),
  };
}

const buses: [string, boolean, () => Promise<Bus>][] = [
  ['Kafka', hasKafka(), kafkaBus],
  ['NATS JetStream', hasNats(), natsBus],
];

describe.each(buses)('schema evolution over %s', (_name, available, startBus) => {
  let bus: Bus;
  let registry: RegistryServer;

  beforeAll(async () => {
    if (!available) return;
    registry = await startRegistryServer();
    bus = await startBus();
  }, 120_000);

  afterAll(async () => {
    await bus?.stop();
    await registry?.close();
  });

  it.skipIf(!available)(
    'keeps every consumer reading while producers move v1 → v2 → v3, refuses v4, and reads old events into the new schema',
    async () => {
      const client = registryClient({ url: registry.url });
      const subject = 'orders-value';
      const codecOf = <S extends typeof V1 | typeof V2 | typeof V3 | typeof V4>(schema: S) =>
        eventCodec({ schema, registry: client, subject });

      // Six-month-old events: v1 is all there is.
      const v1Producer = await bus.producer<V1>(codecOf(V1));
      await v1Producer.send(v1Events.map((value) => ({ key: value.id, value })));

      // The v1 consumer is running before any producer moves on.
      const v1Tally = new Tally<V1>();
      const v1Consumer = await bus.consumer<V1>('billing-v1', codecOf(V1), v1Tally.handle, 25);

      const v2Producer = await bus.producer(codecOf(V2));
      await v2Producer.send(v2Events.map((value) => ({ key: value.id, value })));
      const v3Producer = await bus.producer(codecOf(V3));
      await v3Producer.send(v3Events.map((value) => ({ key: value.id, value })));

      // v4 breaks BACKWARD: refused with the registry's 409, and nothing of it reaches the bus.
      const v4Producer = await bus.producer(codecOf(V4));
      const refused = await v4Producer
        .send({ value: { id: 'v4-0', buyer: 'x', total: '1', items: [], channel: 'web', region: 'eu' } })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(refused).toBeInstanceOf(RegistryClientError);
      expect((refused as RegistryClientError).code).toBe('WK_REGISTRY_INCOMPATIBLE');
      expect((refused as RegistryClientError).details).toMatchObject({ status: 409 });
      expect(await client.versions(subject)).toEqual([1, 2, 3]);

      await until(() => v1Tally.seen.size >= total, 'the v1 consumer to read every event');

      // A v3 consumer that starts late, stopped part-way and started again in the same group.
      const v3Tally = new Tally<V3>();
      const first = await bus.consumer<V3>('analytics-v3', codecOf(V3), v3Tally.handle, 10);
      await until(() => v3Tally.seen.size >= total / 2, 'the v3 consumer to read half');
      await first.stop();
      const handledBeforeRestart = first.stats.handled;
      const second = await bus.consumer<V3>('analytics-v3', codecOf(V3), v3Tally.handle, 10);
      await until(() => v3Tally.seen.size >= total, 'the restarted v3 consumer to read the rest');
      // Let anything that would arrive twice arrive before counting.
      await new Promise((resolve) => setTimeout(resolve, 1500));

      for (const producer of [v1Producer, v2Producer, v3Producer, v4Producer]) await producer.close();
      await v1Consumer.stop();
      await second.stop();

      // Nothing dropped, nothing misread, nothing from v4.
      expect(v1Tally.seen.size).toBe(total);
      expect(v3Tally.seen.size).toBe(total);
      for (const [id, value] of asV1) expect(v1Tally.values.get(id), id).toEqual(value);
      for (const [id, value] of asV3) expect(v3Tally.values.get(id), id).toEqual(value);
      expect(v1Tally.schemaIds.size).toBe(3);
      // The v1 consumer never restarted: every event exactly once.
      expect(v1Tally.duplicates).toBe(0);
      expect(v1Consumer.stats).toMatchObject({ handled: total, deadLettered: 0, handlerFailures: 0 });
      // At-least-once across the restart: what the first member handled but had not acknowledged
      // when it stopped may come again; stop() acknowledges its batch, so here nothing does.
      expect(v3Tally.duplicates).toBeLessThanOrEqual(10);
      expect(handledBeforeRestart + second.stats.handled).toBe(total + v3Tally.duplicates);
      expect(second.stats.deadLettered).toBe(0);
    },
    180_000,
  );
});
