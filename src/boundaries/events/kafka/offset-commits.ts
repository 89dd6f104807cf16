/**
 * The Kafka consumer's offset commits, off the handler's path: batch-handler.ts reports each chunk
 * whose handler resolved, and this module commits those offsets in the background, one commit in
 * flight for the whole member at a time, when enough events wait for one (`everyEvents`) or the
 * oldest has waited long enough (`everyMs`).
 *
 * Waiting for a commit before handing the next chunk over capped every format at 7,000-10,000
 * events/s on a loopback broker (a commit takes 10-12 ms there); a commit per chunk also costs the
 * broker a write per chunk. What it buys back is bounded: a handler's next chunk waits only when
 * twice `everyEvents` handled events are not yet committed, so a crash hands over again at most
 * that many plus the chunks in hand. Nothing is committed that a handler did not resolve for.
 */
/** When handled events are committed. */
export interface KafkaCommitPolicy {
  /** A commit starts once this many handled events wait for one (default 1,000; 1 commits every chunk). */
  readonly everyEvents?: number;
  /** ...or once the oldest of them has waited this long (default 1,000 ms). */
  readonly everyMs?: number;
}

/**
 * kafkajs's `Offsets`, by its shape: kafkajs is an optional peer, and this module's declarations
 * reach `wirekit-ts/events` (through KafkaCommitPolicy), which must type-check without it.
 */
interface CommitOffsets {
  readonly topics: { topic: string; partitions: { partition: number; offset: string }[] }[];
}

/** Sends one OffsetCommit request with the member's current generation (kafkajs's, per payload). */
type CommitRequest = (offsets: CommitOffsets) => Promise<void>;

interface OffsetCommitsOptions {
  readonly policy: Required<KafkaCommitPolicy>;
  /** Whether this member holds the partition now: offsets of a partition given away are dropped. */
  readonly holds: (topic: string, partition: number) => boolean;
  /**
   * A commit that failed for good. A rebalance and a broker away (kafkajs calls those retriable)
   * are ridden out quietly: the offsets wait and go with the next commit.
   */
  readonly onError: (error: unknown) => void;
}

export interface OffsetCommits {
  /** The commit request of the payload in hand: the latest generation's. */
  use(request: CommitRequest): void;
  /** The handler resolved for `events` events of the partition, up to (not including) `next`. */
  handled(topic: string, partition: number, next: bigint, events: number): void;
  /**
   * Resolves once fewer than the bound are uncommitted (starting a commit if none is in flight), or
   * as soon as `giveUp` says the wait is no longer wanted (the consumer stops, the partition went).
   */
  room(giveUp: () => boolean): Promise<void>;
  /** Commits all that was handled and waits for it; rejects if the last attempt failed. */
  flush(): Promise<void>;
  /** Handled events not yet committed, in flight or waiting. */
  readonly uncommitted: number;
  /** No more commits: timers cleared, waiters released. */
  close(): void;
}

interface Waiting {
  readonly topic: string;
  readonly partition: number;
  next: bigint;
  events: number;
}

const defaultCommitPolicy: Required<KafkaCommitPolicy> = { everyEvents: 1000, everyMs: 1000 };

/** Errors of a commit sent during a rebalance: the next commit, in the new generation, goes through. */
const rebalanceErrors = new Set([
  'REBALANCE_IN_PROGRESS',
  'ILLEGAL_GENERATION',
  'UNKNOWN_MEMBER_ID',
  'NOT_COORDINATOR_FOR_GROUP',
  'GROUP_COORDINATOR_NOT_AVAILABLE',
  'COORDINATOR_LOAD_IN_PROGRESS',
]);
const retryAfterFailureMs = 200;

export function checkCommitPolicy(policy: KafkaCommitPolicy | undefined): Required<KafkaCommitPolicy> {
  const everyEvents = policy?.everyEvents ?? defaultCommitPolicy.everyEvents;
  const everyMs = policy?.everyMs ?? defaultCommitPolicy.everyMs;
  if (!Number.isInteger(everyEvents) || everyEvents < 1) {
    throw new RangeError(`kafkaConsumer: commit.everyEvents must be a whole number ≥ 1, got ${everyEvents}`);
  }
  if (!(everyMs >= 0) || !Number.isFinite(everyMs)) {
    throw new RangeError(`kafkaConsumer: commit.everyMs must be a finite number ≥ 0, got ${everyMs}`);
  }
  return { everyEvents, everyMs };
}

export function offsetCommits(options: OffsetCommitsOptions): OffsetCommits {
  const { everyEvents, everyMs } = options.policy;
  const bound = 2 * everyEvents;
  const waiting = new Map<string, Waiting>();
  let waitingEvents = 0;
  let inFlight: Promise<boolean> | undefined;
  let inFlightEvents = 0;
  let request: CommitRequest | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const armTimer = () => {
    if (timer !== undefined || closed || waitingEvents === 0) return;
    timer = setTimeout(() => {
      timer = undefined;
      start();
    }, everyMs);
  };

  /** Starts a commit of what waits, unless one is in flight; the promise says whether it went through. */
  const start = (): Promise<boolean> | undefined => {
    if (inFlight !== undefined) return inFlight;
    if (closed || request === undefined) return undefined;
    clearTimeout(timer);
    timer = undefined;
    const taken = [...waiting.values()].filter((w) => options.holds(w.topic, w.partition));
    const events = taken.reduce((sum, w) => sum + w.events, 0);
    // A partition given away is the new holder's to commit: what waited of it comes again there.
    waiting.clear();
    waitingEvents = 0;
    if (taken.length === 0) return undefined;
    const byTopic = new Map<string, { partition: number; offset: string }[]>();
    for (const { topic, partition, next } of taken) {
      const partitions = byTopic.get(topic) ?? [];
      partitions.push({ partition, offset: String(next) });
      byTopic.set(topic, partitions);
    }
    const send = request;
    inFlightEvents = events;
    inFlight = send({ topics: [...byTopic].map(([topic, partitions]) => ({ topic, partitions })) }).then(
      () => true,
      (error: unknown) => {
        // Back in line, under what was handled meanwhile (a later offset of a partition wins).
        for (const w of taken) add(w.topic, w.partition, w.next, w.events);
        const { type, retriable } = error as { type?: string; retriable?: boolean };
        if (retriable !== true && !rebalanceErrors.has(type ?? '')) options.onError(error);
        return false;
      },
    );
    const settled = inFlight;
    void settled.then((ok) => {
      inFlight = undefined;
      inFlightEvents = 0;
      if (ok && waitingEvents >= everyEvents) start();
      else armTimer();
    });
    return settled;
  };

  const add = (topic: string, partition: number, next: bigint, events: number) => {
    const key = `${partition}:${topic}`;
    const entry = waiting.get(key);
    if (entry === undefined) waiting.set(key, { topic, partition, next, events });
    else {
      if (next > entry.next) entry.next = next;
      entry.events += events;
    }
    waitingEvents += events;
  };

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  return {
    use(given) {
      request = given;
    },
    handled(topic, partition, next, events) {
      if (closed) return;
      add(topic, partition, next, events);
      if (waitingEvents >= everyEvents) start();
      else armTimer();
    },
    async room(giveUp) {
      while (!closed && !giveUp() && waitingEvents + inFlightEvents >= bound) {
        const commit = start();
        if (commit === undefined) return;
        if (!(await commit)) await sleep(retryAfterFailureMs);
      }
    },
    async flush() {
      let ok = true;
      for (let attempt = 0; attempt < 3; attempt++) {
        await inFlight;
        const commit = start();
        if (commit === undefined) return;
        ok = await commit;
        if (ok && waitingEvents === 0) return;
        if (!ok) await sleep(retryAfterFailureMs);
      }
      if (!ok) throw new Error('the last offset commit failed');
    },
    get uncommitted() {
      return waitingEvents + inFlightEvents;
    },
    close() {
      closed = true;
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
