/**
 * One case of bench:events: one format, one repetition, on a fresh topic of the broker main.ts
 * started, with a fresh consumer process and a fresh producer process.
 *
 * After a warm-up (events at a low rate, then drained: it also waits out the consumer group's join),
 * the producer runs each step's rate for the step's seconds, while this process samples every
 * `sampleMs`: the topic's end offset (kafkajs admin `fetchTopicOffsets`, the produced offset), the
 * group's committed offset (`fetchOffsets`) and the consumer's own position and CPU time (IPC).
 * Lag is produced − position; the committed lag beside it adds the commit's delay. When the
 * producer's events are all acknowledged the step's produce window ends, and the consumer is left
 * to drain the step's events before the next step starts, so each step's counts are its own
 * (produced = consumed, checked) and its CPU time per event covers exactly its events.
 *
 * A step whose lag at the end of its window is more than `behindSeconds` of its production (at the
 * rate the producer reached) has fallen behind: the consumer consumed less than was produced, and
 * the lag was still there when production stopped. The case ends after the first such step (every
 * faster step would only fall further behind), when a backlog does not drain in time, or when the
 * producer could not reach a step's rate (a faster step would measure the producer).
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Admin, Kafka, logLevel } from 'kafkajs';
import { type Child, forkChild } from './children.js';
import type { ConsumerKind } from './consumer-plug.js';
import type { Calibration, ConsumerMessage, ConsumerSample, ConsumerSpec } from './consumer-process.js';
import type { Tally } from './handler.js';
import type { ProducerMessage, ProducerSpec, StepDone } from './producer-process.js';
import { type EventFormat, framingFor, type SubjectSpec, subjectLabel } from './subjects.js';
import { prepareTopic } from './topic.js';

const consumerScript = fileURLToPath(new URL('./consumer-process.js', import.meta.url));
const producerScript = fileURLToPath(new URL('./producer-process.js', import.meta.url));

export interface CaseSpec {
  readonly format: EventFormat;
  readonly repetition: number;
  readonly bootstrap: string;
  /** The broker's log directory (its `log.dirs`), where the topic's segments are measured. */
  readonly logDir: string;
  readonly registryUrl: string | undefined;
  readonly consumer: ConsumerKind;
  readonly rates: readonly number[];
  readonly stepSeconds: number;
  readonly warmupRate: number;
  readonly warmupSeconds: number;
  readonly sampleMs: number;
  /** A step has fallen behind when its lag at the end of the window exceeds this many seconds of its production. */
  readonly behindSeconds: number;
  readonly drainTimeoutSeconds: number;
  readonly maxBatch: number;
  readonly poolSize: number;
  readonly seed: number;
  readonly maxInFlight: number;
  readonly maxPerSend: number;
  readonly calibrateMs: number;
  /** Extra node flags for the consumer process (--cpu-prof). */
  readonly consumerExecArgv: readonly string[];
}

export interface LagSample {
  /** Seconds since the step's first event was due. */
  readonly t: number;
  /** The topic's end offset (events produced so far, warm-up included). */
  readonly produced: number;
  /** produced − the consumer's position. */
  readonly lag: number;
  /** produced − the group's committed offset. */
  readonly committedLag: number;
  /** The oldest age of an event at its handling since the sample before (ms). */
  readonly maxAgeMs: number | undefined;
}

export interface StepResult {
  readonly rate: number;
  /** Events the step produced (its end offset minus its start). */
  readonly produced: number;
  /** Events the consumer handled from the step's start until it drained. */
  readonly consumed: number;
  readonly producer: StepDone;
  /** The produce window: from the step's start to its last acknowledgement, seconds. */
  readonly windowSeconds: number;
  /** The rate the producer reached: the step's events over the time they took to send. */
  readonly producedPerSecond: number;
  /** The consumer's events per second over the producer's window (first send to last acknowledgement). */
  readonly consumedPerSecond: number;
  readonly lagMax: number;
  readonly lagEnd: number;
  readonly committedLagMax: number;
  /** The oldest event at its handling, over the window and the drain (ms). */
  readonly ageMaxMs: number;
  /** After the window, until the consumer reached the step's last event; NaN if it did not in time. */
  readonly drainSeconds: number;
  /** Consumer CPU per event over the window and the drain: the process's, and its loop thread's (µs). */
  readonly processCpuUs: number;
  readonly threadCpuUs: number;
  /** The share of the consumer loop thread's time runnable but waiting for a CPU (NaN where unknown). */
  readonly waitedShare: number;
  readonly behind: boolean;
  /** The producer reached less than 90 % of the rate: a faster step would measure the producer. */
  readonly producerBound: boolean;
  readonly samples: readonly LagSample[];
}

export interface CaseResult {
  readonly format: EventFormat;
  readonly label: string;
  readonly framing: string;
  readonly consumer: ConsumerKind;
  readonly repetition: number;
  readonly payloadBytes: { readonly mean: number; readonly min: number; readonly max: number };
  /** The topic's log segments, and those bytes per event (record batch headers included). */
  readonly logBytes: number;
  readonly brokerBytesPerEvent: number;
  /** Events on the topic, warm-up included. */
  readonly totalEvents: number;
  readonly warmup: { readonly events: number; readonly drainSeconds: number };
  readonly steps: readonly StepResult[];
  readonly calibration: Omit<Calibration, 'type'>;
  readonly tally: Tally;
  readonly consumerErrors: number;
  /** Samples whose committed offset the broker would not give (GROUP_LOAD_IN_PROGRESS); the last one stood in. */
  readonly committedMisses: number;
  readonly peakRssBytes: number;
}

type ConsumerChild = Child<ConsumerMessage>;
type ProducerChild = Child<ProducerMessage>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runCase(spec: CaseSpec): Promise<CaseResult> {
  const topic = `bench-events-${spec.format}-${spec.repetition}-${Date.now().toString(36)}`;
  const framing = framingFor(spec.format, spec.registryUrl);
  const subject: SubjectSpec = {
    format: spec.format,
    framing,
    subject: `${topic}-value`,
    ...(spec.registryUrl === undefined ? {} : { registryUrl: spec.registryUrl }),
  };
  const kafka = new Kafka({
    clientId: 'bench-orchestrator',
    brokers: [spec.bootstrap],
    logLevel: logLevel.NOTHING,
  });
  const admin = kafka.admin();
  await admin.connect();
  let consumer: ConsumerChild | undefined;
  let producer: ProducerChild | undefined;
  try {
    await prepareTopic(admin, topic);
    const consumerSpec: ConsumerSpec = {
      brokers: [spec.bootstrap],
      topic,
      groupId: topic,
      kind: spec.consumer,
      maxBatch: spec.maxBatch,
      subject,
      poolSize: spec.poolSize,
      seed: spec.seed,
    };
    const producerSpec: ProducerSpec = {
      brokers: [spec.bootstrap],
      topic,
      subject,
      poolSize: spec.poolSize,
      seed: spec.seed,
      maxInFlight: spec.maxInFlight,
      maxPerSend: spec.maxPerSend,
    };
    producer = await forkChild<ProducerMessage>(producerScript, producerSpec);
    consumer = await forkChild<ConsumerMessage>(consumerScript, consumerSpec, spec.consumerExecArgv);
    const probe = new Probe(admin, topic, consumer);

    const warm = await runStep(spec, probe, producer, spec.warmupRate, spec.warmupSeconds, 60);
    const steps: StepResult[] = [];
    for (const rate of spec.rates) {
      const step = await runStep(spec, probe, producer, rate, spec.stepSeconds, spec.drainTimeoutSeconds);
      steps.push(step);
      process.stderr.write(
        `    ${rate.toLocaleString('en-US')}/s: consumed ${Math.round(step.consumedPerSecond).toLocaleString('en-US')}/s, lag max ${step.lagMax.toLocaleString('en-US')}, end ${step.lagEnd.toLocaleString('en-US')}, ${step.processCpuUs.toFixed(1)} µs CPU/event${step.behind ? ' — behind' : ''}\n`,
      );
      if (step.producerBound)
        process.stderr.write(
          `    the producer reached ${Math.round(step.producedPerSecond)}/s of ${rate}/s: no faster step\n`,
        );
      if (step.behind || step.producerBound) break;
    }
    const calibration = await consumer.request({ type: 'calibrate', ms: spec.calibrateMs }, 'calibrate');
    const totalEvents = await probe.produced();
    const logBytes = segmentBytes(spec.logDir, topic);
    const stopped = await consumer.request({ type: 'stop' }, 'stopped');
    await consumer.exit(10_000);
    producer.process.send({ type: 'stop' });
    await producer.exit(10_000);
    const { type: _calibrate, ...calibrated } = calibration;
    return {
      format: spec.format,
      label: subjectLabel(spec.format, framing),
      framing: spec.format === 'plain-json' ? 'none' : framing,
      consumer: spec.consumer,
      repetition: spec.repetition,
      payloadBytes: producer.ready.payloadBytes,
      logBytes,
      brokerBytesPerEvent: logBytes / totalEvents,
      totalEvents,
      warmup: { events: warm.produced, drainSeconds: warm.drainSeconds },
      steps,
      calibration: calibrated,
      tally: stopped.tally,
      consumerErrors: stopped.errors,
      committedMisses: probe.committedMisses,
      peakRssBytes: probe.peakRss,
    };
  } finally {
    consumer?.process.kill('SIGKILL');
    producer?.process.kill('SIGKILL');
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin.disconnect();
  }
}

/** One sample of the three: the produced offset, the committed offset, the consumer. */
class Probe {
  peakRss = 0;
  /** Samples whose committed offset could not be read (the last one read stands in). */
  committedMisses = 0;
  private lastCommitted = 0;
  constructor(
    private readonly admin: Admin,
    private readonly topic: string,
    private readonly consumer: ConsumerChild,
  ) {}

  /**
   * The topic's end offset, read again for up to 2 s after a retriable error (a coordinator or
   * leader moving). A new topic's partition not yet hosted is not among them: prepareTopic waited
   * for it before the case began.
   */
  async produced(): Promise<number> {
    const giveUpAt = Date.now() + 2_000;
    for (;;) {
      try {
        const offsets = await this.admin.fetchTopicOffsets(this.topic);
        return offsets.reduce((sum, partition) => sum + Number(partition.high), 0);
      } catch (error) {
        if (Date.now() > giveUpAt || !isRetriable(error)) throw error;
        await sleep(100);
      }
    }
  }

  /**
   * The group's committed offset. Only a column of the report, so a read the broker refuses for a
   * moment (GROUP_LOAD_IN_PROGRESS while its coordinator loads) keeps the last one, counted.
   */
  async committed(): Promise<number> {
    try {
      const [entry] = await this.admin.fetchOffsets({ groupId: this.topic, topics: [this.topic] });
      this.lastCommitted = (entry?.partitions ?? []).reduce(
        (sum, partition) => sum + Math.max(0, Number(partition.offset)),
        0,
      );
    } catch (error) {
      if (!isRetriable(error)) throw error;
      this.committedMisses++;
    }
    return this.lastCommitted;
  }

  async sample(): Promise<{ produced: number; committed: number; consumer: ConsumerSample }> {
    const [produced, committed, consumer] = await Promise.all([
      this.produced(),
      this.committed(),
      this.consumer.request({ type: 'sample' }, 'sample'),
    ]);
    this.peakRss = Math.max(this.peakRss, consumer.rssBytes);
    return { produced, committed, consumer };
  }
}

const isRetriable = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { retriable?: unknown }).retriable === true;

async function runStep(
  spec: CaseSpec,
  probe: Probe,
  producer: ProducerChild,
  rate: number,
  seconds: number,
  drainTimeoutSeconds: number,
): Promise<StepResult> {
  const first = await probe.sample();
  const startProduced = first.produced;
  const started = performance.now();
  const at = () => (performance.now() - started) / 1000;
  const samples: LagSample[] = [];
  let last = first;
  const record = (sample: typeof first) => {
    last = sample;
    samples.push({
      t: at(),
      produced: sample.produced,
      lag: sample.produced - sample.consumer.position,
      committedLag: sample.produced - sample.committed,
      maxAgeMs: sample.consumer.maxAgeMs,
    });
  };

  let windowOpen = true;
  const stepped = producer.request({ type: 'step', rate, seconds }, 'stepped').finally(() => {
    windowOpen = false;
  });
  let samplingFailed: unknown;
  const sampling = (async () => {
    while (windowOpen) {
      const next = performance.now() + spec.sampleMs;
      record(await probe.sample());
      await sleep(Math.max(0, next - performance.now()));
    }
  })().catch((error: unknown) => {
    samplingFailed = error;
  });
  const done = await stepped;
  await sampling;
  if (samplingFailed !== undefined) throw samplingFailed;
  const windowSeconds = at();
  record(await probe.sample());
  const atWindowEnd = last;
  const endProduced = atWindowEnd.produced;
  const lagEnd = endProduced - atWindowEnd.consumer.position;

  // Drain: sample until the consumer reached the step's last event, or gave up.
  const drainStarted = performance.now();
  while (last.consumer.position < endProduced) {
    if (performance.now() - drainStarted > drainTimeoutSeconds * 1000) break;
    await sleep(spec.sampleMs);
    record(await probe.sample());
  }
  const drained = last.consumer.position >= endProduced;
  const drainSeconds = drained ? (performance.now() - drainStarted) / 1000 : Number.NaN;
  const consumed = last.consumer.handled - first.consumer.handled;
  const wallUs = (performance.now() - started) * 1e3;
  const ages = samples.map((sample) => sample.maxAgeMs ?? 0);
  const produced = endProduced - startProduced;
  const producedPerSecond = produced / done.sendSeconds;
  return {
    rate,
    produced,
    consumed,
    producer: done,
    windowSeconds,
    producedPerSecond,
    // Over the producer's own window (first send to last acknowledgement): the orchestrator's
    // includes the IPC to start it, which would make a consumer that kept up look a few % slower.
    consumedPerSecond: (atWindowEnd.consumer.position - first.consumer.position) / done.ackSeconds,
    lagMax: Math.max(...samples.map((sample) => sample.lag)),
    lagEnd,
    committedLagMax: Math.max(...samples.map((sample) => sample.committedLag)),
    ageMaxMs: Math.max(0, ...ages),
    drainSeconds,
    processCpuUs: (last.consumer.processCpuUs - first.consumer.processCpuUs) / consumed,
    threadCpuUs: (last.consumer.threadCpuUs - first.consumer.threadCpuUs) / consumed,
    waitedShare: (last.consumer.threadWaitedUs - first.consumer.threadWaitedUs) / wallUs,
    behind: lagEnd > Math.max(2 * spec.maxBatch, spec.behindSeconds * producedPerSecond) || !drained,
    producerBound: producedPerSecond < 0.9 * rate,
    samples,
  };
}

/** The bytes of a topic's log segments (`*.log` in each partition's directory; indexes are preallocated, not counted). */
function segmentBytes(logDir: string, topic: string): number {
  let total = 0;
  for (const entry of readdirSync(logDir)) {
    if (!entry.startsWith(`${topic}-`) || !/^\d+$/.test(entry.slice(topic.length + 1))) continue;
    for (const file of readdirSync(join(logDir, entry))) {
      if (file.endsWith('.log')) total += statSync(join(logDir, entry, file)).size;
    }
  }
  if (total === 0) throw new Error(`no log segments of ${topic} in ${logDir}`);
  return total;
}
