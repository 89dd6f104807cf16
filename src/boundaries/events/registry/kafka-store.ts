/**
 * The registry's records in a compacted Kafka topic (`--store kafka:BOOTSTRAP[/TOPIC]`), as
 * Confluent's registry keeps `_schemas`: a deployment that already runs Kafka needs no other
 * database, and the topic replicates the registry with the rest of the cluster's data. kafkajs is
 * an optional peer, imported by load(), so the memory and file stores never need it. The topic, its
 * keys, how a start reads it and what compaction can cost: docs/events.md, "Stores".
 *
 * Several registries may share the topic (`shared`): the one Kafka's group protocol elects
 * (kafka-leader.ts) is its only writer, and every registry keeps reading the topic after load
 * (kafka-tail.ts) to apply what the leader writes. Before a purge the store writes the highest id
 * handed out so far under a key of its own, which compaction keeps once the purged version and its
 * tombstone are gone, so that a registry started on the compacted topic never hands that id out again.
 *
 * The leader writes in transactions under a transactional id the cluster shares (kafka-writer.ts):
 * a new leader claims it before catching up, and Kafka then refuses the replaced leader's writes,
 * which it answers as a registry that no longer leads (it steps down and follows the group's leader).
 */
import type { Admin, Kafka } from 'kafkajs';
import { isWirekitError, WirekitError } from '../../../errors/index.js';
import { type Kafkajs, loadKafkajs } from '../kafka/connection.js';
import { clusterRefusals } from './cluster-errors.js';
import { joinLeaderElection, type LeaderElection } from './kafka-leader.js';
import { kafkaMessageOf, recordOfMessage } from './kafka-records.js';
import { startTail, type Tail } from './kafka-tail.js';
import { claimTopicWriter, isFenced, type TopicWriter } from './kafka-writer.js';
import { StoreCorruptError } from './record-json.js';
import { isRegistryError } from './registry-error.js';
import type { RegistryRecord, RegistryStore, SharedLog } from './store.js';
import type { TopicMessage } from './topic-message.js';

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
  /**
   * The consumer group the registries sharing the topic join to elect their leader (default
   * `wirekit-registry.TOPIC`): registries in one group are one cluster. It is also the
   * transactional id their leader writes under, so that a new leader fences the one it replaced.
   */
  readonly groupId?: string;
  /**
   * How long the group waits for a silent member before dropping it (default 10 s, as Confluent's
   * registry; the broker allows 6 s to 30 min by default): a killed leader is replaced after it.
   */
  readonly sessionTimeoutMs?: number;
  /** How long a read on a follower may wait to catch up with the topic (default 10 s; then 50002). */
  readonly catchUpTimeoutMs?: number;
}

function unavailable(what: string, cause: unknown): WirekitError {
  if (isWirekitError(cause)) return cause;
  const why = cause instanceof Error ? cause.message : String(cause);
  return new WirekitError('WK_REGISTRY_UNAVAILABLE', `the Kafka store could not ${what}: ${why}`, { cause });
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

/** Resolves with `work`, or rejects with `onTimeout()` after `ms`. */
async function within<T>(work: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function kafkaStore(options: KafkaStoreOptions): RegistryStore {
  const topic = options.topic ?? '_schemas';
  const groupId = options.groupId ?? `wirekit-registry.${topic}`;
  const sessionTimeoutMs = options.sessionTimeoutMs ?? 10_000;
  const catchUpTimeoutMs = options.catchUpTimeoutMs ?? 10_000;
  let kafkajs: Kafkajs | undefined;
  let kafka: Kafka | undefined;
  let admin: Admin | undefined;
  /** The leader's writer, claimed when this registry took the lead (or first wrote, alone). */
  let writer: Promise<TopicWriter> | undefined;
  let tail: Tail | undefined;
  let election: LeaderElection | undefined;
  let follower: ((record: RegistryRecord) => Promise<void>) | undefined;
  let followed: () => void = () => {};
  const following = new Promise<void>((resolve) => {
    followed = resolve;
  });
  /** The highest id any record held: written before a purge, so that compaction cannot lower it. */
  let highestId = 0;
  /** Resolves once the leadership this registry holds has caught up with the log (see leading). */
  let ready: Promise<void> | undefined;
  /** Where each record load returned was read: topic, partition and offset. */
  let locations: string[] = [];

  const note = (record: RegistryRecord) => {
    if (record.kind === 'schema') highestId = Math.max(highestId, record.id);
    if (record.kind === 'ids') highestId = Math.max(highestId, record.highest);
  };

  /** The topic's end now: every record acknowledged before this call lies before it. */
  const topicEnd = async (): Promise<bigint> => {
    if (admin === undefined) throw unavailable('read the topic', new Error('the store is not loaded'));
    const [offsets] = await admin.fetchTopicOffsets(topic);
    return BigInt(offsets?.high ?? '0');
  };
  const catchUp = async (): Promise<void> => {
    const reader = tail;
    if (reader === undefined) throw unavailable('read the topic', new Error('the store is not loaded'));
    let end: bigint;
    try {
      end = await topicEnd();
    } catch (cause) {
      throw unavailable('read the end of the topic', cause);
    }
    await within(reader.reached(end), catchUpTimeoutMs, () =>
      clusterRefusals.catchUpTimeout(catchUpTimeoutMs),
    );
  };

  const applyFollowed = async (message: TopicMessage): Promise<void> => {
    const record = recordOfMessage(message, `${topic}/0@${message.offset}`);
    if (record === undefined) return;
    note(record);
    await following;
    await follower?.(record);
  };

  /** Claims the cluster's transactional id (fencing any writer that held it), replacing ours. */
  const claimWriter = (): Promise<TopicWriter> => {
    if (kafka === undefined)
      return Promise.reject(unavailable('write', new Error('the store is not loaded')));
    const client = kafka;
    // One claim at a time, the previous writer closed first: two claims in flight could leave this
    // registry holding the older epoch, which the broker would then refuse as a replaced leader's.
    const claimed = (writer ?? Promise.resolve(undefined))
      .then(
        (old) => old?.close(),
        () => {},
      )
      .then(() => claimTopicWriter({ kafka: client, topic, transactionalId: groupId }));
    writer = claimed;
    claimed.catch(() => {
      if (writer === claimed) writer = undefined;
    });
    return claimed;
  };
  /** A new leadership: the transactional id claimed first, then everything the previous leader committed applied. */
  const takeLead = (): Promise<void> => {
    ready ??= claimWriter()
      .then(() => catchUp())
      .catch((error: unknown) => {
        ready = undefined;
        throw unavailable('take the lead', error);
      });
    return ready;
  };

  const load = async (): Promise<RegistryRecord[]> => {
    kafkajs = await loadKafkajs().catch((cause: unknown) => {
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
    tail = startTail({ kafka, topic, loadEnd: await topicEnd(), apply: applyFollowed });
    const messages = await tail.loaded;
    const records: RegistryRecord[] = [];
    locations = [];
    for (const message of messages) {
      const location = `${topic}/0@${message.offset}`;
      const record = recordOfMessage(message, location);
      if (record === undefined) continue;
      note(record);
      records.push(record);
      locations.push(location);
    }
    return records;
  };

  const shared: SharedLog = {
    clusterId: groupId,
    follow(apply) {
      follower = apply;
      followed();
    },
    async join(url) {
      if (kafkajs === undefined || kafka === undefined || admin === undefined) {
        throw unavailable('join the election', new Error('the store is not loaded'));
      }
      election = await joinLeaderElection({
        kafkajs,
        kafka,
        admin,
        topic,
        groupId,
        url,
        sessionTimeoutMs,
        // A new leadership catches up afresh; losing it drops what the old one knew. One that
        // comes to this registry claims the transactional id at once, fencing the old leader now
        // rather than at this one's first write.
        onChange: () => {
          ready = undefined;
          setImmediate(() => {
            if (election?.leader()?.self === true) takeLead().catch(() => {});
          });
        },
      });
    },
    leader() {
      return election?.leader();
    },
    async caughtUp() {
      // The leader is the only writer, and applies each record before acknowledging it.
      if (election === undefined || (election.leader()?.self === true && ready !== undefined)) {
        if (ready !== undefined) await ready;
        return;
      }
      // Without the broker nothing new can be acknowledged either: the reads are answered from
      // what this registry has (as Confluent's registry answers them from its cache).
      await catchUp().catch((error: unknown) => {
        if (!isWirekitError(error, 'WK_REGISTRY_UNAVAILABLE') || isRegistryError(error)) throw error;
      });
    },
    async leading() {
      // Not in an election: this registry writes alone, as with any other store.
      if (election === undefined) return;
      const leader = shared.leader();
      if (leader === undefined) throw clusterRefusals.unknownLeader('an election is under way');
      if (!leader.self) throw clusterRefusals.unknownLeader(`${leader.url} leads, not this registry`);
      // Before its first id, a new leader fences the previous one and applies everything it wrote.
      await takeLead();
    },
  };

  return {
    shared,
    async load() {
      const timeoutMs = options.loadTimeoutMs ?? 60_000;
      try {
        return await within(load(), timeoutMs, () =>
          unavailable(`read ${topic} within ${timeoutMs} ms`, new Error('timed out')),
        );
      } catch (error) {
        await this.close().catch(() => {});
        if (error instanceof StoreCorruptError) throw error;
        throw unavailable(`load the registry from ${topic}`, error);
      }
    },

    locationOf(index) {
      return locations[index] ?? `${topic}/0`;
    },

    async append(record) {
      const reader = tail;
      if (kafka === undefined || reader === undefined)
        throw unavailable('append', new Error('the store is not loaded (or is closed)'));
      const messages = [kafkaMessageOf(record)];
      // A purge may drop the last record of the highest id; the mark keeps that id from coming back.
      if (record.kind === 'purge') messages.unshift(kafkaMessageOf({ kind: 'ids', highest: highestId }));
      const current = writer ?? claimWriter();
      const sent = current.then((claimed) => claimed.write(messages));
      reader.wrote(sent);
      let offsets: readonly bigint[];
      try {
        offsets = await sent;
      } catch (error) {
        // The writer is spent either way (kafkajs keeps a failed transaction's state): the next
        // write claims the id again, after catching up with whatever this one left in the log.
        const replacedHere = writer !== current;
        if (!replacedHere) writer = undefined;
        ready = undefined;
        // Claimed again here (this registry's view of the group changed and came back): it may
        // still lead, and the write may be tried again once it caught up.
        if (election !== undefined && replacedHere) {
          throw clusterRefusals.unknownLeader('this registry was taking the lead again');
        }
        if (election !== undefined && isFenced(error)) {
          election.stepDown();
          throw clusterRefusals.unknownLeader('another registry took the lead, and Kafka fenced this one');
        }
        throw error;
      }
      note(record);
      // The commit returns before the broker wrote its marker after the record; until then, a
      // read_committed reader (every follower) ends before the record. Acknowledged only once
      // this registry's own reader is past the marker, so a read sent anywhere after it sees it.
      const marker = (offsets.at(-1) ?? -1n) + 1n;
      await within(reader.reached(marker + 1n), catchUpTimeoutMs, () =>
        clusterRefusals.catchUpTimeout(catchUpTimeoutMs),
      );
    },

    async close() {
      const [leaving, reader, written, client] = [election, tail, writer, admin];
      election = undefined;
      tail = undefined;
      writer = undefined;
      admin = undefined;
      // The group first, so that the others elect a new leader without waiting for a session.
      await leaving?.stop();
      await Promise.allSettled([
        reader?.close(),
        written?.then((claimed) => claimed.close()),
        client?.disconnect(),
      ]);
    },
  };
}
