/**
 * bench:events `--mode lag`: the field report's scenario. A producer runs at a steady base rate,
 * then at a peak rate for `peakSeconds` (above what plain kafkajs + JSON.parse sustains), then at
 * the base rate again until the consumer has caught up (or `catchUpSeconds` passed). Per case (one
 * format, one event shape, one repetition): a fresh topic, a fresh producer process and a fresh
 * consumer process (wirekit's kafkaConsumer for wirekit's formats, kafkajs's eachBatch loop with
 * JSON.parse for the baseline), after a warm-up that also waits out the group's join.
 *
 * Every `sampleMs` this process reads the topic's end offset (kafkajs admin) and the consumer's
 * position (IPC). Lag in seconds at a sample is how long ago the oldest event not yet handled was
 * produced: the moment the end offset passed it, interpolated between the samples around it
 * (so to within a sample's interval). The catch-up time runs from the end of the peak to the
 * first sample whose lag is at most `caughtUpSeconds`. At the end the consumer drains the topic
 * and stops, and its handler's tally must hold every event once, intact, or the case fails.
 */
import { fileURLToPath } from 'node:url';
import { Kafka, logLevel } from 'kafkajs';
import { forkChild } from './children.js';
import type { ConsumerKind } from './consumer-plug.js';
import type { ConsumerMessage, ConsumerSpec } from './consumer-process.js';
import type { ProducerMessage, ProducerSpec } from './producer-process.js';
import { type EventShape, eventsPerSend } from './shapes.js';
import { type EventFormat, framingFor, type SubjectSpec, subjectLabel } from './subjects.js';
import { prepareTopic } from './topic.js';

const consumerScript = fileURLToPath(new URL('./consumer-process.js', import.meta.url));
const producerScript = fileURLToPath(new URL('./producer-process.js', import.meta.url));

export interface LagSpec {
  readonly format: EventFormat;
  readonly shape: EventShape;
  readonly repetition: number;
  readonly bootstrap: string;
  readonly registryUrl: string | undefined;
  readonly baseRate: number;
  readonly peakRate: number;
  /** At the base rate before the peak. */
  readonly baseSeconds: number;
  readonly peakSeconds: number;
  /** The most the base rate runs after the peak, waiting for the consumer to catch up. */
  readonly catchUpSeconds: number;
  /** Caught up: the oldest event not yet handled is at most this old. */
  readonly caughtUpSeconds: number;
  readonly sampleMs: number;
  readonly maxBatch: number;
  readonly poolSize: number;
  readonly seed: number;
  readonly consumerExecArgv: readonly string[];
}

export interface LagPoint {
  /** Seconds since the peak started (negative before it). */
  readonly t: number;
  /** Events produced and not yet handled. */
  readonly lag: number;
  /** The age of the oldest event not yet handled (0 when none is waiting). */
  readonly lagSeconds: number;
}

export interface LagResult {
  readonly format: EventFormat;
  readonly shape: EventShape;
  readonly label: string;
  readonly consumer: ConsumerKind;
  readonly repetition: number;
  readonly payloadBytes: { readonly mean: number; readonly min: number; readonly max: number };
  readonly baseRate: number;
  readonly peakRate: number;
  readonly peakSeconds: number;
  /** The rate the producer reached during the peak (its events over the time they took to send). */
  readonly peakProducedPerSecond: number;
  readonly maxLag: number;
  readonly maxLagSeconds: number;
  /** From the end of the peak to the first sample caught up; NaN if not within catchUpSeconds. */
  readonly catchUpSeconds: number;
  /** Events on the topic, and events the handler saw (each once: the case fails otherwise). */
  readonly produced: number;
  readonly handled: number;
  readonly points: readonly LagPoint[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Sample {
  /** Seconds since the sampling began. */
  readonly at: number;
  readonly produced: number;
  readonly position: number;
}

/** When the event at `offset` was produced: the end offset passing it, interpolated between samples. */
function producedAt(samples: readonly Sample[], offset: number): number {
  const after = samples.findIndex((sample) => sample.produced > offset);
  if (after <= 0) return samples[Math.max(0, after)]?.at ?? 0;
  const a = samples[after - 1] as Sample;
  const b = samples[after] as Sample;
  return a.at + ((offset + 1 - a.produced) / (b.produced - a.produced)) * (b.at - a.at);
}

export async function runLag(spec: LagSpec): Promise<LagResult> {
  const framing = framingFor(spec.format, spec.registryUrl);
  const topic = `lag-${spec.format}-${spec.shape}-${spec.repetition}-${Date.now().toString(36)}`;
  const consumerKind: ConsumerKind = spec.format === 'plain-json' ? 'kafkajs' : 'wirekit';
  const subject: SubjectSpec = {
    format: spec.format,
    framing,
    subject: `${topic}-value`,
    shape: spec.shape,
    ...(spec.registryUrl === undefined ? {} : { registryUrl: spec.registryUrl }),
  };
  const kafka = new Kafka({ clientId: 'bench-lag', brokers: [spec.bootstrap], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  const endOffset = async () => {
    const offsets = await admin.fetchTopicOffsets(topic);
    return offsets.reduce((sum, partition) => sum + Number(partition.high), 0);
  };
  let producer: Awaited<ReturnType<typeof forkChild<ProducerMessage>>> | undefined;
  let consumer: Awaited<ReturnType<typeof forkChild<ConsumerMessage>>> | undefined;
  try {
    await prepareTopic(admin, topic);
    const producerSpec: ProducerSpec = {
      brokers: [spec.bootstrap],
      topic,
      subject,
      poolSize: spec.poolSize,
      seed: spec.seed,
      maxInFlight: 4,
      maxPerSend: eventsPerSend(spec.shape),
    };
    producer = await forkChild<ProducerMessage>(producerScript, producerSpec);
    const consumerSpec: ConsumerSpec = {
      brokers: [spec.bootstrap],
      topic,
      groupId: topic,
      kind: consumerKind,
      maxBatch: spec.maxBatch,
      subject,
      poolSize: spec.poolSize,
      seed: spec.seed,
    };
    consumer = await forkChild<ConsumerMessage>(consumerScript, consumerSpec, spec.consumerExecArgv);
    const position = async () => (await consumer?.request({ type: 'sample' }, 'sample'))?.position ?? 0;

    // Warm-up: a second at the base rate, drained, so the group has joined and the code is warm.
    await producer.request({ type: 'step', rate: spec.baseRate, seconds: 1 }, 'stepped');
    const warmed = await endOffset();
    const warmDeadline = performance.now() + 60_000;
    while ((await position()) < warmed) {
      if (performance.now() > warmDeadline) throw new Error('the consumer did not drain the warm-up in 60 s');
      await sleep(100);
    }

    const samples: Sample[] = [];
    const started = performance.now();
    const at = () => (performance.now() - started) / 1000;
    let sampling = true;
    let caughtUpAt: number | undefined;
    let peakEnd = Number.POSITIVE_INFINITY;
    const sampler = (async () => {
      while (sampling) {
        const next = performance.now() + spec.sampleMs;
        const [produced, consumed] = await Promise.all([endOffset(), position()]);
        const sample = { at: at(), produced, position: consumed };
        samples.push(sample);
        const waiting = produced > consumed ? sample.at - producedAt(samples, consumed) : 0;
        if (caughtUpAt === undefined && sample.at > peakEnd && waiting <= spec.caughtUpSeconds)
          caughtUpAt = sample.at;
        await sleep(Math.max(0, next - performance.now()));
      }
    })();
    await producer.request({ type: 'step', rate: spec.baseRate, seconds: spec.baseSeconds }, 'stepped');
    const peakStart = at();
    const peak = await producer.request(
      { type: 'step', rate: spec.peakRate, seconds: spec.peakSeconds },
      'stepped',
    );
    peakEnd = at();
    // The base rate again, a second at a time, until caught up (and a second after, to show it).
    while (at() - peakEnd < spec.catchUpSeconds) {
      await producer.request({ type: 'step', rate: spec.baseRate, seconds: 1 }, 'stepped');
      if (caughtUpAt !== undefined && at() - caughtUpAt >= 1) break;
    }
    sampling = false;
    await sampler;

    // Drain what is left, then the handler's tally: every event once, intact.
    const produced = await endOffset();
    const drainDeadline = performance.now() + Math.max(60, 2 * spec.peakSeconds) * 1000;
    while ((await position()) < produced) {
      if (performance.now() > drainDeadline) break;
      await sleep(200);
    }
    const { tally, errors } = await consumer.request({ type: 'stop' }, 'stopped');
    if (tally.events !== produced || tally.mismatches > 0 || errors > 0)
      throw new Error(
        `${spec.format} ${spec.shape}: handled ${tally.events} of ${produced} events, ${tally.mismatches} altered, ${errors} errors`,
      );
    const points = samples.map((sample, i): LagPoint => {
      const waiting = sample.produced > sample.position;
      return {
        t: sample.at - peakStart,
        lag: sample.produced - sample.position,
        lagSeconds: waiting ? sample.at - producedAt(samples.slice(0, i + 1), sample.position) : 0,
      };
    });
    return {
      format: spec.format,
      shape: spec.shape,
      label: subjectLabel(spec.format, framing),
      consumer: consumerKind,
      repetition: spec.repetition,
      payloadBytes: producer.ready.payloadBytes,
      baseRate: spec.baseRate,
      peakRate: spec.peakRate,
      peakSeconds: spec.peakSeconds,
      peakProducedPerSecond: peak.events / peak.sendSeconds,
      maxLag: Math.max(0, ...points.map((point) => point.lag)),
      maxLagSeconds: Math.max(0, ...points.map((point) => point.lagSeconds)),
      catchUpSeconds: caughtUpAt === undefined ? Number.NaN : caughtUpAt - peakEnd,
      produced,
      handled: tally.events,
      points,
    };
  } finally {
    consumer?.process.kill('SIGKILL');
    if (producer !== undefined) {
      producer.process.send({ type: 'stop' });
      await producer.exit(10_000);
    }
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin.disconnect();
  }
}
