/**
 * The registry's records in a compacted Kafka topic (`--store kafka:BOOTSTRAP[/TOPIC]`), as
 * Confluent's registry keeps `_schemas`: a deployment that already runs Kafka needs no other
 * database, and the topic replicates the registry with the rest of the cluster's data. kafkajs is
 * an optional peer, imported by load(), so the memory and file stores never need it. The topic, its
 * keys, how a start reads it and what compaction can cost: docs/events.md, "Stores".
 */
import type { Admin, Consumer, Kafka, Producer } from 'kafkajs';
import { isWirekitError, WirekitError } from '../../../errors/index.js';
import { type Kafkajs, loadKafkajs } from '../kafka/connection.js';
import { checkedRecord, StoreCorruptError } from './record-json.js';
import type { RegistryRecord, RegistryStore } from './store.js';

export interface KafkaStoreOptions {
  /** Bootstrap brokers, `host:port` each. */
  readonly brokers: readonly string[];
  /** The topic (default `_schemas`, Confluent's). */
  readonly topic?: string;
  /** Replicas of a topic this store creates (default -1: the broker's default.replication.factor). */
  readonly replicationFactor?: number;
  /** How long load may take to connect and read the topic (default 60 s). */
  readonly loadTimeoutMs?: number;
  readonly clientId?: string;
}

interface Message {
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly offset: string;
}

function unavailable(what: string, cause: unknown): WirekitError {
  if (isWirekitError(cause)) return cause;
  const why = cause instanceof Error ? cause.message : String(cause);
  return new WirekitError('WK_REGISTRY_UNAVAILABLE', `the Kafka store could not ${what}: ${why}`, { cause });
}

/**
 * A record's Kafka key and value (null for a tombstone), as Confluent's registry writes them.
 * @internal exported for its tests, which need no broker.
 */
export function kafkaMessageOf(record: RegistryRecord): { key: string; value: string | null } {
  if (record.kind === 'mode') {
    const key = JSON.stringify({ keytype: 'MODE', subject: record.subject, magic: 0 });
    return { key, value: record.mode === null ? null : JSON.stringify({ mode: record.mode }) };
  }
  if (record.kind === 'config') {
    const key = JSON.stringify({ keytype: 'CONFIG', subject: record.subject, magic: 0 });
    const value =
      record.compatibility === null ? null : JSON.stringify({ compatibilityLevel: record.compatibility });
    return { key, value };
  }
  const key = JSON.stringify({
    keytype: 'SCHEMA',
    subject: record.subject,
    version: record.version,
    magic: 1,
  });
  if (record.kind === 'purge') return { key, value: null };
  return {
    key,
    value: JSON.stringify({
      subject: record.subject,
      version: record.version,
      id: record.id,
      ...(record.schemaType === 'AVRO' ? {} : { schemaType: record.schemaType }),
      ...(record.references.length === 0 ? {} : { references: record.references }),
      schema: record.schema,
      deleted: record.deleted,
    }),
  };
}

function json(bytes: Buffer, location: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (cause) {
    throw new StoreCorruptError(location, `the ${what} is not JSON`, { cause });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new StoreCorruptError(location, `the ${what} is not a JSON object`);
  }
  return value as Record<string, unknown>;
}

/**
 * The record a message of the topic holds; undefined for key types that hold none of wirekit's.
 * @internal exported for its tests, which need no broker.
 */
export function recordOfMessage(message: Message, location: string): RegistryRecord | undefined {
  if (message.key === null) throw new StoreCorruptError(location, 'the message has no key');
  const key = json(message.key, location, 'key');
  const value =
    message.value === null || message.value.length === 0 ? null : json(message.value, location, 'value');
  if (key.keytype === 'CONFIG') {
    // Confluent's config values may set other things (normalize, aliases) and no level at all.
    const compatibility = value === null ? null : (value.compatibilityLevel ?? null);
    return checkedRecord({ kind: 'config', subject: key.subject ?? null, compatibility }, location);
  }
  if (key.keytype === 'MODE') {
    return checkedRecord({ kind: 'mode', subject: key.subject ?? null, mode: value?.mode ?? null }, location);
  }
  if (key.keytype !== 'SCHEMA') return undefined;
  if (value === null)
    return checkedRecord({ kind: 'purge', subject: key.subject, version: key.version }, location);
  return checkedRecord(
    {
      kind: 'schema',
      subject: value.subject,
      version: value.version,
      id: value.id,
      schemaType: value.schemaType ?? 'AVRO',
      schema: value.schema,
      references: value.references ?? [],
      deleted: value.deleted ?? false,
    },
    location,
  );
}

/** Creates the topic (one partition, compacted) if missing; refuses one that is otherwise. */
async function ensureTopic(
  kafkajs: Kafkajs,
  admin: Admin,
  topic: string,
  replicationFactor: number,
): Promise<void> {
  if (!(await admin.listTopics()).includes(topic)) {
    await admin.createTopics({
      waitForLeaders: true,
      topics: [
        {
          topic,
          numPartitions: 1,
          replicationFactor,
          configEntries: [{ name: 'cleanup.policy', value: 'compact' }],
        },
      ],
    });
  }
  const metadata = await admin.fetchTopicMetadata({ topics: [topic] });
  const partitions = metadata.topics[0]?.partitions.length ?? 0;
  if (partitions !== 1) {
    throw new WirekitError(
      'WK_REGISTRY_UNAVAILABLE',
      `the registry's topic ${topic} has ${partitions} partitions; it needs exactly one (one order for every record)`,
    );
  }
  const described = await admin.describeConfigs({
    resources: [{ type: kafkajs.ConfigResourceTypes.TOPIC, name: topic, configNames: ['cleanup.policy'] }],
    includeSynonyms: false,
  });
  const policy = described.resources[0]?.configEntries.find((entry) => entry.configName === 'cleanup.policy');
  if (policy !== undefined && !policy.configValue.split(',').includes('compact')) {
    throw new WirekitError(
      'WK_REGISTRY_UNAVAILABLE',
      `the registry's topic ${topic} has cleanup.policy=${policy.configValue}; it needs compact, or old versions are deleted with time`,
    );
  }
}

/** Every message from the topic's start up to (not including) `high`, in offset order. */
async function readUpTo(
  kafka: Kafka,
  admin: Admin,
  topic: string,
  range: { low: bigint; high: bigint },
  track: (consumer: Consumer | undefined) => void,
): Promise<Message[]> {
  const { low, high } = range;
  const messages: Message[] = [];
  if (high <= low) return messages;
  const groupId = `wirekit-registry-load-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 100, allowAutoTopicCreation: false });
  track(consumer);
  try {
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      consumer
        .run({
          autoCommit: false,
          eachBatch: async ({ batch }) => {
            for (const message of batch.messages) {
              if (BigInt(message.offset) < high) messages.push(message);
            }
            // The batch's last offset counts even when compaction removed the messages at its end.
            if (BigInt(batch.lastOffset()) >= high - 1n) resolve();
          },
        })
        .catch(reject);
    });
  } finally {
    await consumer.disconnect();
    track(undefined);
  }
  // The group only existed to fetch; it committed nothing, and is not left behind.
  await admin.deleteGroups([groupId]).catch(() => {});
  return messages;
}

export function kafkaStore(options: KafkaStoreOptions): RegistryStore {
  const topic = options.topic ?? '_schemas';
  let kafka: Kafka | undefined;
  let admin: Admin | undefined;
  let producer: Producer | undefined;
  let loading: Consumer | undefined;
  /** Where each record load returned was read: topic, partition and offset. */
  let locations: string[] = [];

  const load = async (): Promise<RegistryRecord[]> => {
    const kafkajs = await loadKafkajs().catch((cause: unknown) => {
      throw unavailable('load kafkajs', cause);
    });
    kafka = new kafkajs.Kafka({
      clientId: options.clientId ?? 'wirekit-registry',
      brokers: [...options.brokers],
      logLevel: kafkajs.logLevel.NOTHING,
      retry: { retries: 5, initialRetryTime: 100, maxRetryTime: 2_000 },
    });
    admin = kafka.admin();
    await admin.connect();
    await ensureTopic(kafkajs, admin, topic, options.replicationFactor ?? -1);
    const [offsets] = await admin.fetchTopicOffsets(topic);
    const range = { low: BigInt(offsets?.low ?? '0'), high: BigInt(offsets?.high ?? '0') };
    const messages = await readUpTo(kafka, admin, topic, range, (consumer) => {
      loading = consumer;
    });
    producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
    await producer.connect();
    const records: RegistryRecord[] = [];
    locations = [];
    for (const message of messages) {
      const location = `${topic}/0@${message.offset}`;
      const record = recordOfMessage(message, location);
      if (record === undefined) continue;
      records.push(record);
      locations.push(location);
    }
    return records;
  };

  return {
    async load() {
      const timeoutMs = options.loadTimeoutMs ?? 60_000;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(unavailable(`read ${topic} within ${timeoutMs} ms`, new Error('timed out'))),
          timeoutMs,
        );
      });
      try {
        return await Promise.race([load(), timeout]);
      } catch (error) {
        await this.close().catch(() => {});
        if (error instanceof StoreCorruptError) throw error;
        throw unavailable(`load the registry from ${topic}`, error);
      } finally {
        clearTimeout(timer);
      }
    },

    locationOf(index) {
      return locations[index] ?? `${topic}/0`;
    },

    async append(record) {
      if (producer === undefined)
        throw unavailable('append', new Error('the store is not loaded (or is closed)'));
      const { key, value } = kafkaMessageOf(record);
      await producer.send({ topic, acks: -1, messages: [{ key, value }] });
    },

    async close() {
      const open = [producer, admin, loading];
      producer = undefined;
      admin = undefined;
      loading = undefined;
      await Promise.allSettled(open.map((client) => client?.disconnect()));
    },
  };
}
