/**
 * The Kafka source of `wirekit inspect kafka://BOOTSTRAP/TOPIC/PARTITION/OFFSET`: exactly one
 * record, its key, headers and timestamp. kafkajs is loaded only when such a source is given (it
 * is a development dependency: `npm install kafkajs` to use this), so the CLI runs without it.
 *
 * Reading one record must not leave anything behind or wait for ever. The partition's offsets are
 * asked first (an admin request, which never creates a topic), so an unknown topic or partition,
 * an empty partition, an offset past the end or one already deleted is an error at once, naming
 * the offsets there are. The record is then read by a consumer of a group made for this read
 * (random id, no offsets committed, the group deleted afterwards) that seeks to the offset and
 * stops at the first record. Everything together has a deadline.
 */
import { randomUUID } from 'node:crypto';
import type { Admin, Consumer, Kafka, KafkaMessage } from 'kafkajs';
import { WirekitError } from '../../errors/index.js';
import { inputTooLarge } from '../../util/input-limit.js';
import { hasScheme, splitSourceUrl } from '../source-url.js';
import { usageError } from '../usage.js';

export interface KafkaRecordSource {
  /** host:port of each bootstrap broker. */
  readonly brokers: readonly string[];
  readonly topic: string;
  readonly partition: number;
  /** An offset, or the partition's first or last record. */
  readonly offset: bigint | 'earliest' | 'latest';
  /** The URL as given: what output shows. */
  readonly display: string;
}

export interface KafkaRecord {
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
  /** Milliseconds since the epoch, as the record carries it. */
  readonly timestamp: number;
  readonly key: Uint8Array | null;
  readonly headers: readonly (readonly [string, Uint8Array])[];
  /** null for a tombstone. */
  readonly value: Uint8Array | null;
}

const scheme = 'kafka://';
const defaultPort = 9092;
/** How long the whole read (connect, offsets, join, fetch) may take before inspect gives up. */
export const kafkaTimeoutMs = 20_000;
const form = 'kafka://HOST:PORT[,HOST:PORT…]/TOPIC/PARTITION/OFFSET (OFFSET a number, earliest or latest)';

export function isKafkaUrl(source: string): boolean {
  return hasScheme(source, scheme);
}

export function parseKafkaUrl(source: string): KafkaRecordSource {
  const { authority, segments } = splitSourceUrl(source, scheme);
  if (segments.length !== 3 || segments.some((segment) => segment === ''))
    throw usageError(`${source} does not name a topic, a partition and an offset: ${form}.`);
  const [topicText, partitionText, offsetText] = segments as [string, string, string];
  const brokers = authority.split(',').map((broker) => brokerOf(broker, source));
  let topic: string;
  try {
    topic = decodeURIComponent(topicText);
  } catch {
    throw usageError(`${source} has a malformed percent escape in its topic.`);
  }
  // Kafka's own rule for topic names.
  if (!/^[A-Za-z0-9._-]{1,249}$/.test(topic))
    throw usageError(`${JSON.stringify(topic)} is not a Kafka topic name (letters, digits, '.', '_', '-').`);
  if (!/^[0-9]{1,9}$/.test(partitionText))
    throw usageError(`${source}: the partition is a number, not ${JSON.stringify(partitionText)}: ${form}.`);
  let offset: KafkaRecordSource['offset'];
  if (offsetText === 'earliest' || offsetText === 'latest') offset = offsetText;
  // Offsets are signed 64-bit.
  else if (/^[0-9]{1,19}$/.test(offsetText) && BigInt(offsetText) < 2n ** 63n) offset = BigInt(offsetText);
  else
    throw usageError(
      `${source}: the offset is a number, earliest or latest, not ${JSON.stringify(offsetText)}.`,
    );
  return { brokers, topic, partition: Number(partitionText), offset, display: source };
}

function brokerOf(text: string, source: string): string {
  let url: URL;
  try {
    url = new URL(`http://${text}`);
  } catch {
    throw usageError(`${source}: ${JSON.stringify(text)} is not HOST:PORT: ${form}.`);
  }
  if (url.hostname === '' || url.username !== '' || url.pathname !== '/' || url.search !== '')
    throw usageError(`${source}: ${JSON.stringify(text)} is not HOST:PORT: ${form}.`);
  return `${url.hostname}:${url.port === '' ? defaultPort : url.port}`;
}

/**
 * The record (its value at most `maxBytes`, else WK_LIMIT_INPUT). A broker that cannot be reached
 * is WK_EVENT_BROKER_UNAVAILABLE; a topic, partition or offset that holds no record is WK_CLI_INPUT
 * saying what there is.
 */
export async function readKafkaRecord(
  source: KafkaRecordSource,
  maxBytes: number,
  timeoutMs = kafkaTimeoutMs,
): Promise<KafkaRecord> {
  const { Kafka: KafkaClient, logLevel } = await loadKafkajs();
  const where = `kafka://${source.brokers.join(',')}`;
  const kafka: Kafka = new KafkaClient({
    clientId: 'wirekit-inspect',
    brokers: [...source.brokers],
    logLevel: logLevel.NOTHING,
    connectionTimeout: Math.min(5000, timeoutMs),
    requestTimeout: Math.min(10_000, timeoutMs),
    retry: { retries: 2, initialRetryTime: 200, maxRetryTime: 2000 },
  });
  const admin = kafka.admin();
  const groupId = `wirekit-inspect-${randomUUID()}`;
  let consumer: Consumer | undefined;
  // Set once the read is over (done or out of time), so a step still under way starts nothing new.
  let over = false;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new WirekitError(
            'WK_EVENT_BROKER_UNAVAILABLE',
            `${where} gave no record of ${source.display} within ${timeoutMs / 1000} s.`,
          ),
        ),
      timeoutMs,
    );
  });
  try {
    const read = async (): Promise<KafkaRecord> => {
      try {
        await admin.connect();
      } catch (cause) {
        throw unavailable(`cannot connect to ${where}: ${(cause as Error).message}`, cause);
      }
      const offset = await targetOffset(admin, source);
      if (over) throw unavailable(`${where} took too long`);
      consumer = kafka.consumer({
        groupId,
        allowAutoTopicCreation: false,
        // The broker sends at least one record whatever this says; it bounds what comes with it.
        maxBytesPerPartition: Math.min(Math.max(maxBytes + 65_536, 1_048_576), 2 ** 31 - 1),
        maxWaitTimeInMs: 500,
        retry: { retries: 5, initialRetryTime: 100, maxRetryTime: 1000 },
      });
      const message = await firstRecordFrom(consumer, source, offset);
      const value = message.value === null ? null : new Uint8Array(message.value);
      if (value !== null && value.length > maxBytes) throw inputTooLarge(source.display, maxBytes);
      return {
        topic: source.topic,
        partition: source.partition,
        offset: message.offset,
        timestamp: Number(message.timestamp),
        key: message.key === null ? null : new Uint8Array(message.key),
        headers: headersOf(message.headers),
        value,
      };
    };
    return await Promise.race([read(), deadline]);
  } finally {
    over = true;
    clearTimeout(timer);
    await consumer?.disconnect().catch(() => undefined);
    // The group held no offsets and has no members left: removing it leaves the broker as it was.
    if (consumer !== undefined) await admin.deleteGroups([groupId]).catch(() => undefined);
    await admin.disconnect().catch(() => undefined);
  }
}

/** The offset to read, checked against the partition's first and next offsets. */
async function targetOffset(admin: Admin, source: KafkaRecordSource): Promise<bigint> {
  let partitions: Awaited<ReturnType<Admin['fetchTopicOffsets']>>;
  try {
    partitions = await admin.fetchTopicOffsets(source.topic);
  } catch (cause) {
    const type = (cause as { type?: string }).type ?? (cause as { cause?: { type?: string } }).cause?.type;
    if (
      type === 'UNKNOWN_TOPIC_OR_PARTITION' ||
      /does not host this topic/.test(String((cause as Error).message))
    )
      throw noRecord(`${source.display}: the cluster has no topic ${source.topic}.`, cause);
    throw unavailable(`cannot read the offsets of ${source.topic}: ${(cause as Error).message}`, cause);
  }
  const found = partitions.find((p) => p.partition === source.partition);
  if (found === undefined)
    throw noRecord(
      `${source.display}: topic ${source.topic} has partitions 0 to ${partitions.length - 1}, not ${source.partition}.`,
    );
  const low = BigInt(found.low);
  const high = BigInt(found.high);
  const place = `partition ${source.partition} of ${source.topic}`;
  if (high <= low) throw noRecord(`${source.display}: ${place} holds no records (next offset ${high}).`);
  const offset = source.offset === 'earliest' ? low : source.offset === 'latest' ? high - 1n : source.offset;
  if (offset >= high)
    throw noRecord(
      `${source.display}: offset ${offset} is past the end of ${place}, whose records are at offsets ${low} to ${high - 1n}.`,
    );
  if (offset < low)
    throw noRecord(
      `${source.display}: offset ${offset} of ${place} is gone (retention); its records are at offsets ${low} to ${high - 1n}.`,
    );
  return offset;
}

/** The record at `offset`, or the first after it when compaction removed that one (then an error saying so). */
async function firstRecordFrom(
  consumer: Consumer,
  source: KafkaRecordSource,
  offset: bigint,
): Promise<KafkaMessage> {
  try {
    await consumer.connect();
    await consumer.subscribe({ topics: [source.topic], fromBeginning: false });
  } catch (cause) {
    throw unavailable(`cannot consume ${source.topic}: ${(cause as Error).message}`, cause);
  }
  const message = await new Promise<KafkaMessage>((resolve, reject) => {
    const seek = () => {
      try {
        consumer.seek({ topic: source.topic, partition: source.partition, offset: String(offset) });
      } catch {
        // Between a crash and its restart there is no group to seek in; the next join seeks.
      }
    };
    // A crash kafkajs restarts from (a coordinator still loading, a rebalance) rejoins the group at
    // its default position: the seek is made again on every join.
    consumer.on(consumer.events.GROUP_JOIN, () => seek());
    consumer.on(consumer.events.CRASH, (event) => {
      if (!event.payload.restart)
        reject(unavailable(`the consumer stopped: ${event.payload.error.message}`, event.payload.error));
    });
    consumer
      .run({
        autoCommit: false,
        eachMessage: async ({ partition, message }) => {
          if (partition === source.partition && BigInt(message.offset) >= offset) resolve(message);
        },
      })
      .then(seek)
      .catch((cause: unknown) =>
        reject(unavailable(`cannot consume ${source.topic}: ${(cause as Error).message}`, cause)),
      );
  });
  if (BigInt(message.offset) !== offset)
    throw noRecord(
      `${source.display}: partition ${source.partition} of ${source.topic} has no record at offset ${offset} (compacted away, or a transaction marker); the next is at ${message.offset}.`,
    );
  return message;
}

function headersOf(headers: KafkaMessage['headers']): [string, Uint8Array][] {
  const out: [string, Uint8Array][] = [];
  for (const [name, value] of Object.entries(headers ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined) continue;
      out.push([name, typeof item === 'string' ? new TextEncoder().encode(item) : new Uint8Array(item)]);
    }
  }
  return out;
}

async function loadKafkajs(): Promise<typeof import('kafkajs')> {
  try {
    const module = await import('kafkajs');
    // kafkajs is CommonJS: its named exports may sit on the default export.
    return ((module as { default?: typeof import('kafkajs') }).default ?? module) as typeof import('kafkajs');
  } catch (cause) {
    throw new WirekitError(
      'WK_CLI_INPUT',
      'reading from Kafka needs the kafkajs package: npm install kafkajs',
      { cause },
    );
  }
}

function unavailable(message: string, cause?: unknown): WirekitError {
  return new WirekitError(
    'WK_EVENT_BROKER_UNAVAILABLE',
    message,
    cause === undefined ? undefined : { cause },
  );
}

function noRecord(message: string, cause?: unknown): WirekitError {
  return new WirekitError('WK_CLI_INPUT', message, cause === undefined ? undefined : { cause });
}
