/**
 * What the Kafka binding's tests share: the client libraries the binding runs on, an event schema
 * and its real event codec, unique topics made with the admin API, raw kafkajs produce and
 * read-back for bytes the codec would never write, a group's committed offsets, orders published
 * through wirekit's producer, a group member in a child process to kill, and a wait that polls a
 * condition. The raw helpers stay on kafkajs whichever library the binding runs on: they are the
 * tests' own peer.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  type Kafka,
  Kafka as KafkaClient,
  type KafkaMessage,
  logLevel,
  type Message,
  type RetryOptions,
} from 'kafkajs';
import { eventCodec } from '../../../../src/boundaries/events/event-codec.js';
import {
  type KafkaClientName,
  type KafkaConnectionOptions,
  kafkaProducer,
} from '../../../../src/boundaries/events/kafka/index.js';
import type { ReceivedEvent } from '../../../../src/boundaries/events/transport.js';
import { type Infer, t } from '../../../../src/schema/index.js';

export const Order = t.object('Order', { id: t.int32(), key: t.string(), note: t.string() });
export type Order = Infer<typeof Order>;

/** Avro in wirekit's envelope: no registry needed. */
export const orderCodec = () => eventCodec({ schema: Order, framing: 'envelope' });

/** kafkajs stays silent in tests: failures reach the assertions as errors. */
export const quiet = logLevel.NOTHING;

export function kafkaFor(bootstrap: string, retry?: RetryOptions): Kafka {
  return new KafkaClient({
    clientId: 'wirekit-test',
    brokers: [bootstrap],
    logLevel: quiet,
    ...(retry === undefined ? {} : { retry }),
  });
}

/** Every client library the binding runs on: the tests that apply to both run once for each. */
export const kafkaClients: readonly KafkaClientName[] = ['kafkajs', 'confluent'];

/**
 * How a test's producers and consumers reach the broker on one library: kafkajs with the test's
 * own quiet client, the Confluent client with one the binding makes from `brokers`.
 */
export function bindingFor(client: KafkaClientName, bootstrap: string): KafkaConnectionOptions {
  return client === 'kafkajs'
    ? { client, kafka: kafkaFor(bootstrap) }
    : { client, brokers: [bootstrap], logLevel: quiet };
}

let counter = 0;
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}`;
}

export async function createTopics(kafka: Kafka, names: readonly string[], partitions = 3): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.createTopics({
      topics: names.map((topic) => ({ topic, numPartitions: partitions })),
      waitForLeaders: true,
    });
  } finally {
    await admin.disconnect();
  }
}

/** Produces records as they are (bytes no codec wrote, hostile headers, tombstones). */
export async function produceRaw(kafka: Kafka, topic: string, messages: Message[]): Promise<void> {
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  try {
    await producer.send({ topic, acks: -1, messages });
  } finally {
    await producer.disconnect();
  }
}

/** Reads `count` records of a topic from its beginning with a plain kafkajs consumer. */
export async function readRaw(
  kafka: Kafka,
  topic: string,
  count: number,
  timeoutMs = 20_000,
): Promise<KafkaMessage[]> {
  const consumer = kafka.consumer({ groupId: uniqueName('reader'), maxWaitTimeInMs: 200 });
  const read: KafkaMessage[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        read.push(message);
      },
    });
    await eventually(() => read.length >= count, timeoutMs, `${count} records on ${topic}`);
    // A moment more, so that a record too many would show.
    await sleep(300);
    return read;
  } finally {
    await consumer.disconnect();
  }
}

/** The group's committed offset of each partition of the topic, in partition order. */
export async function committedOffsets(kafka: Kafka, groupId: string, topic: string): Promise<string[]> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const [offsets] = await admin.fetchOffsets({ groupId, topics: [topic] });
    return (offsets?.partitions ?? []).sort((a, b) => a.partition - b.partition).map((p) => p.offset);
  } finally {
    await admin.disconnect();
  }
}

/** How many events the group has committed over the topic's partitions (-1: nothing committed there). */
export async function committedCount(kafka: Kafka, groupId: string, topic: string): Promise<number> {
  const offsets = await committedOffsets(kafka, groupId, topic);
  return offsets.reduce((total, offset) => total + Math.max(0, Number(offset)), 0);
}

/**
 * The group's committed offsets once they are `expected`, or as they are after `timeoutMs`: the
 * consumer commits in the background, within its policy's `everyMs` (1 s by default) of handling.
 */
export async function committedSoon(
  kafka: Kafka,
  groupId: string,
  topic: string,
  expected: readonly string[],
  timeoutMs = 5000,
): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const offsets = await committedOffsets(kafka, groupId, topic);
    if (offsets.join() === expected.join() || Date.now() > deadline) return offsets;
    await sleep(100);
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function eventually(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(25);
  }
}

/** A handler that keeps what it is given, and the batches as they came. */
export function collector<T>() {
  const events: ReceivedEvent<T>[] = [];
  const batches: (readonly ReceivedEvent<T>[])[] = [];
  return {
    events,
    batches,
    handler: async (batch: readonly ReceivedEvent<T>[]) => {
      batches.push(batch);
      events.push(...batch);
    },
  };
}

export const ordersOf = (
  n: number,
  keys = 5,
  from = 0,
): { key: string; value: Order; headers: Record<string, string> }[] =>
  Array.from({ length: n }, (_, i) => {
    const id = from + i;
    const key = `k${id % keys}`;
    return { key, value: { id, key, note: `order ${id}` }, headers: { 'x-id': String(id) } };
  });

/** `count` orders (ids from 0, over 10 keys) sent through wirekit's producer, 50 a batch. */
export async function publishOrders(kafka: Kafka, topic: string, count: number): Promise<void> {
  const producer = kafkaProducer({ kafka, topic, codec: orderCodec() });
  const orders = ordersOf(count, 10);
  for (let i = 0; i < orders.length; i += 50) await producer.send(orders.slice(i, i + 50));
  await producer.close();
}

/** A group member in a child process (crash-consumer.ts), to be killed as a crash would kill it. */
export interface CrashMember {
  readonly child: ChildProcess;
  /** The ids its handler had handled, as it printed them, growing while it runs. */
  readonly handled: number[];
  /** SIGKILL, then the ids it had handled when it died. */
  kill(): Promise<number[]>;
}

/**
 * Starts crash-consumer.ts on `client` in the group; `commit` is its policy as
 * `[everyEvents, everyMs]` (the consumer's default policy without it).
 */
export function crashMember(
  client: KafkaClientName,
  bootstrap: string,
  where: { topic: string; groupId: string; maxBatch: number; commit?: readonly [number, number] },
): CrashMember {
  const script = fileURLToPath(new URL('./crash-consumer.ts', import.meta.url));
  const policy = where.commit === undefined ? [] : where.commit.map(String);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', script, bootstrap, where.topic, where.groupId, String(where.maxBatch), ...policy],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, KAFKA_CLIENT: client } },
  );
  const handled: number[] = [];
  createInterface({ input: child.stdout as NonNullable<typeof child.stdout> }).on('line', (line) => {
    if (line.startsWith('[')) handled.push(...(JSON.parse(line) as number[]));
  });
  return {
    child,
    handled,
    async kill() {
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      return [...handled];
    },
  };
}
