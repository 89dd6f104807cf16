/**
 * A case's fresh topic, ready before any producer or probe touches it. Every mode of bench:events
 * (run-case.ts, ceiling.ts, lag.ts) creates one topic per case and prepares it here, so none of them
 * can start on a partition the broker does not serve yet.
 *
 * Why not `createTopics({ waitForLeaders: true })`: it can return once the controller has chosen a
 * leader, before the broker hosts the partition (a ListOffsets sent then fails with
 * UNKNOWN_TOPIC_OR_PARTITION; a tiny run failed at load 10 on that), and its own wait gives up, rather
 * than waits, when the broker's metadata does not know the new topic yet (the same error, seen at
 * load 30). So the topic is created without that wait, and is ready when the metadata names a leader
 * for each partition and the end offset of each can be read; every error before that is "not yet".
 */
import type { Admin } from 'kafkajs';

/** The admin calls preparing a topic takes (a kafkajs Admin has them all). */
export type TopicAdmin = Pick<Admin, 'createTopics' | 'fetchTopicMetadata' | 'fetchTopicOffsets'>;

export interface PrepareTopicOptions {
  /** 1 by default: every bench case reads one partition in order. */
  readonly partitions?: number;
  /** How long the topic may take to be served before preparing it fails (30 s by default). */
  readonly timeoutMs?: number;
  /** Between two checks (100 ms by default). */
  readonly pollMs?: number;
  /** Where the line saying how long the topic took goes (stderr by default, beside each case's progress). */
  readonly log?: (line: string) => void;
}

export interface PreparedTopic {
  readonly topic: string;
  /** From the creation request to the first check that found every partition served. */
  readonly readyMs: number;
  /** Checks made (1 when the topic was served as soon as it was created). */
  readonly checks: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Creates `topic` and waits, at most `timeoutMs`, until each of its partitions has a leader and an
 * end offset the broker answers for. Throws, on timeout, an error naming what was waited for and
 * what the last check found.
 */
export async function prepareTopic(
  admin: TopicAdmin,
  topic: string,
  options: PrepareTopicOptions = {},
): Promise<PreparedTopic> {
  const partitions = options.partitions ?? 1;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const pollMs = options.pollMs ?? 100;
  const started = performance.now();
  await admin.createTopics({ topics: [{ topic, numPartitions: partitions }], waitForLeaders: false });
  for (let checks = 1; ; checks++) {
    const missing = await whatIsMissing(admin, topic, partitions);
    if (missing === undefined) {
      const readyMs = performance.now() - started;
      const log = options.log ?? ((line: string) => process.stderr.write(line));
      log(
        `  topic ${topic} served after ${(readyMs / 1000).toFixed(2)} s (${checks} check${checks === 1 ? '' : 's'})\n`,
      );
      return { topic, readyMs, checks };
    }
    if (performance.now() - started > timeoutMs)
      throw new Error(
        `topic ${topic} not ready after ${(timeoutMs / 1000).toFixed(1)} s (${checks} checks): waited for ` +
          `${partitions} partition(s) with a leader and a readable end offset; last check: ${missing}`,
      );
    await sleep(pollMs);
  }
}

/** What keeps the topic from being served, or undefined when nothing does. */
async function whatIsMissing(
  admin: TopicAdmin,
  topic: string,
  partitions: number,
): Promise<string | undefined> {
  try {
    const metadata = await admin.fetchTopicMetadata({ topics: [topic] });
    const served = metadata.topics.find((entry) => entry.name === topic)?.partitions ?? [];
    const led = served.filter((partition) => partition.leader >= 0).length;
    if (led < partitions) return `${led} of ${partitions} partition(s) with a leader in the metadata`;
    const offsets = await admin.fetchTopicOffsets(topic);
    if (offsets.length < partitions) return `end offsets of ${offsets.length} of ${partitions} partition(s)`;
    return undefined;
  } catch (error) {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }
}
