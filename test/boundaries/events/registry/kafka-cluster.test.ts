/**
 * Three registries on one Kafka topic (a real broker, Apache Kafka 4.1.1), in this process: one
 * leader elected through Kafka's group protocol, writes sent to any of them landing once, reads
 * on every node seeing what was acknowledged, what an operator sees (`GET /v1/metadata/id`, `/`),
 * a leader that leaves handing over to another, and ids that a purge followed by compaction cannot
 * bring back. The leader killed mid-stream, in child processes: kafka-failover.test.ts.
 */
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { kafkaStore } from '../../../../src/boundaries/events/registry/kafka-store.js';
import {
  type RegistryServer,
  startRegistryServer,
} from '../../../../src/boundaries/events/registry/server.js';
import { hasKafka, type KafkaBroker, startKafka } from '../../../support/kafka.js';
import { call, subjectPath, userSchema } from './http.js';

/** Waits (polling) until `check` holds, up to `ms`. */
async function until(check: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface View {
  url: string;
  leader: string | null;
  role: string;
}
const viewOf = async (server: RegistryServer) =>
  (await call(server.url, 'GET', '/v1/metadata/id')).body as View;

describe.runIf(hasKafka() || process.env.CI === 'true')('three registries on one Kafka topic', () => {
  let broker: KafkaBroker;
  beforeAll(async () => {
    // The log cleaner looks for work every half second rather than every 15 s.
    broker = await startKafka({ properties: { 'log.cleaner.backoff.ms': '500' } });
  }, 180_000);
  afterAll(async () => {
    await broker?.stop();
  });

  const cluster = async (topic: string, count = 3) =>
    Promise.all(
      Array.from({ length: count }, () =>
        startRegistryServer({
          store: kafkaStore({ brokers: [broker.bootstrap], topic, sessionTimeoutMs: 6_000 }),
        }),
      ),
    );

  test('one leader; writes to any node land once, and every node reads them', async () => {
    const servers = await cluster('_schemas_three');
    try {
      await until(async () => {
        const views = await Promise.all(servers.map(viewOf));
        return views.every((view) => view.leader !== null && view.leader === views[0]?.leader);
      }, 30_000);
      const views = await Promise.all(servers.map(viewOf));
      expect(views.filter((view) => view.role === 'leader')).toHaveLength(1);
      expect(views.filter((view) => view.role === 'follower')).toHaveLength(2);
      const leader = views.find((view) => view.role === 'leader') as View;
      expect(servers.map((server) => server.url)).toContain(leader.url);
      expect((await call(servers[1]?.url as string, 'GET', '/')).body).toMatchObject({ leader: leader.url });

      const ids: unknown[] = [];
      for (let index = 0; index < 9; index += 1) {
        const server = servers[index % 3] as RegistryServer;
        const schema = userSchema({ name: `f${index}`, type: 'int', default: 0 });
        const reply = await call(server.url, 'POST', subjectPath(`s${index}`, '/versions'), { schema });
        expect(reply.status).toBe(200);
        ids.push((reply.body as { id: number }).id);
        // Acknowledged: every node has it.
        for (const reader of servers) {
          const read = await call(reader.url, 'GET', subjectPath(`s${index}`, '/versions/latest'));
          expect(read.body).toMatchObject({ id: (reply.body as { id: number }).id, version: 1 });
        }
      }
      expect(ids).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
      // The same schema sent to two nodes at once is one version with one id.
      const again = await Promise.all(
        servers.map((server) =>
          call(server.url, 'POST', subjectPath('twice', '/versions'), { schema: userSchema() }),
        ),
      );
      expect(new Set(again.map((reply) => JSON.stringify(reply.body))).size).toBe(1);
      expect((await call(servers[2]?.url as string, 'GET', subjectPath('twice', '/versions'))).body).toEqual([
        1,
      ]);
    } finally {
      await Promise.all(servers.map((server) => server.close()));
    }
  }, 120_000);

  /**
   * The keys of every message the topic holds now, from its start; refused after `ms` (a consumer
   * group that has not joined, or a batch that never reaches the offset read first, on a loaded
   * machine), its consumer stopped, so that a caller polling for a compaction tries again instead
   * of waiting forever.
   */
  async function keysOf(topic: string, ms = 20_000): Promise<string[]> {
    const kafka = new Kafka({ brokers: [broker.bootstrap], logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    const [offsets] = await admin.fetchTopicOffsets(topic);
    await admin.disconnect();
    const high = BigInt(offsets?.high ?? '0');
    const consumer = kafka.consumer({ groupId: `keys-${topic}-${Date.now()}`, maxWaitTimeInMs: 100 });
    const keys: string[] = [];
    let timer: NodeJS.Timeout | undefined;
    try {
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
      await new Promise<void>((resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`the keys of ${topic} were not read within ${ms} ms`)), ms);
        void consumer.run({
          eachBatch: async ({ batch }) => {
            for (const message of batch.messages) keys.push(message.key?.toString() ?? '');
            if (BigInt(batch.lastOffset()) >= high - 1n) resolve();
          },
        });
      });
    } finally {
      clearTimeout(timer);
      await consumer.disconnect();
    }
    return keys;
  }

  test('after a purge and the compaction that drops it, a restarted registry does not hand out its id again', async () => {
    const topic = '_schemas_compacted';
    const kafka = new Kafka({ brokers: [broker.bootstrap], logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    // Compacted as eagerly as the broker allows: small segments, tombstones kept for no time.
    await admin.createTopics({
      waitForLeaders: true,
      topics: [
        {
          topic,
          numPartitions: 1,
          replicationFactor: 1,
          configEntries: [
            { name: 'cleanup.policy', value: 'compact' },
            { name: 'segment.ms', value: '100' },
            { name: 'min.cleanable.dirty.ratio', value: '0.01' },
            { name: 'delete.retention.ms', value: '0' },
            { name: 'min.compaction.lag.ms', value: '0' },
          ],
        },
      ],
    });
    await admin.disconnect();
    const store = () => kafkaStore({ brokers: [broker.bootstrap], topic, sessionTimeoutMs: 6_000 });
    const first = await startRegistryServer({ store: store() });
    const api = (method: string, path: string, body?: unknown) => call(first.url, method, path, body);
    expect((await api('POST', subjectPath('kept', '/versions'), { schema: userSchema() })).body).toEqual({
      id: 1,
    });
    const purged = userSchema({ name: 'gone', type: 'int', default: 0 });
    expect((await api('POST', subjectPath('purged', '/versions'), { schema: purged })).body).toEqual({
      id: 2,
    });
    await api('DELETE', subjectPath('purged', ''));
    await api('DELETE', subjectPath('purged', '?permanent=true'));
    // Records written later roll the segment that holds the purge, so the cleaner can take it.
    const purgedKey = (key: string) => key.includes('"subject":"purged"');
    await until(async () => {
      await api('PUT', '/config', { compatibility: 'NONE' });
      await api('PUT', '/config', { compatibility: 'BACKWARD' });
      // A read that did not finish in time is a poll that found nothing yet.
      const keys = await keysOf(topic).catch(() => undefined);
      return keys !== undefined && !keys.some(purgedKey);
    }, 90_000);
    await first.close();
    // Compaction left no record of id 2: without the mark, the highest id in the topic is 1.
    const keys = await keysOf(topic);
    expect(keys.some(purgedKey)).toBe(false);
    expect(keys).toContain('{"keytype":"WIREKIT_ID_HIGH_WATER","magic":0}');

    const second = await startRegistryServer({ store: store() });
    try {
      const schema = userSchema({ name: 'new', type: 'int', default: 0 });
      const reply = await call(second.url, 'POST', subjectPath('after', '/versions'), { schema });
      expect(reply.body).toEqual({ id: 3 });
      expect((await call(second.url, 'GET', '/schemas/ids/2')).status).toBe(404);
    } finally {
      await second.close();
    }
  }, 180_000);
});
