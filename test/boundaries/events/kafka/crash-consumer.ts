/**
 * A consumer for the Kafka tests to kill (harness.ts, crashMember, starts it): it joins the group
 * named on its command line and prints, as one JSON line per handler call, the ids it handled,
 * just before the handler resolves (so before the commit). The test SIGKILLs it mid-stream, as a crash would, and checks that a new
 * member continues from the committed offsets with nothing lost. EVERY_EVENTS and EVERY_MS are its
 * commit policy (`commit` of kafkaConsumer; the default policy without them); the KAFKA_CLIENT
 * environment variable its client library (kafkajs unless told).
 *
 *   node --import tsx crash-consumer.ts BOOTSTRAP TOPIC GROUP MAX_BATCH [EVERY_EVENTS EVERY_MS]
 */
import { writeSync } from 'node:fs';
import { kafkaConsumer } from '../../../../src/boundaries/events/kafka/index.js';
import { orderCodec, quiet, sleep } from './harness.js';

const [bootstrap, topic, groupId, maxBatch, everyEvents, everyMs] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string | undefined,
  string | undefined,
];

await kafkaConsumer({
  client: process.env.KAFKA_CLIENT === 'confluent' ? 'confluent' : 'kafkajs',
  brokers: [bootstrap],
  logLevel: quiet,
  groupId,
  topic,
  fromBeginning: true,
  maxBatch: Number(maxBatch),
  ...(everyEvents === undefined
    ? {}
    : { commit: { everyEvents: Number(everyEvents), everyMs: Number(everyMs) } }),
  codec: orderCodec(),
  // The broker's minimum, so the killed member leaves the group soon.
  sessionTimeout: 6000,
  heartbeatInterval: 1000,
  handler: async (events) => {
    await sleep(20);
    // Synchronously: a write still buffered when the process is killed would be lost.
    writeSync(1, `${JSON.stringify(events.map((e) => e.value.id))}\n`);
  },
});
writeSync(1, 'ready\n');
