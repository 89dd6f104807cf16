/**
 * bench:events `--mode ceiling`: how fast each consumer drains a backlog, the most it can consume.
 * Per case (one format on one consumer, one event shape, one repetition), a fresh topic is filled
 * with `events` events of the shape (the ~1 KB order or the ~10 KB document) by a fresh producer process, which then exits; a fresh consumer process joins a new
 * group and consumes them from the beginning, and its rate is taken from its own counts (IPC
 * samples every 50 ms) between its first handled event and its last, so the group's join is not
 * billed to it. Nothing else runs meanwhile: the figure is the consumer's, with the broker beside it.
 *
 * The consumers are those of consumer-plug.ts: `wirekit` (kafkaConsumer, the format's event codec)
 * and `kafkajs` (kafkajs's own eachBatch loop with the same decoder: the raw ceiling for that
 * format), and plain JSON on kafkajs, the baseline a service without wirekit runs. `client` puts
 * each of them on kafkajs or on Confluent's librdkafka client (`--client kafkajs,confluent` runs
 * every case on both and sets them side by side).
 */
import { fileURLToPath } from 'node:url';
import { Kafka, logLevel } from 'kafkajs';
import type { KafkaClientName } from 'wirekit-ts/events';
import { median } from 'wirekit-ts/lab';
import { forkChild } from './children.js';
import type { ConsumerKind } from './consumer-plug.js';
import type { ConsumerMessage, ConsumerSample, ConsumerSpec } from './consumer-process.js';
import type { ProducerMessage, ProducerSpec } from './producer-process.js';
import { type EventShape, eventsPerSend } from './shapes.js';
import { type EventFormat, framingFor, type SubjectSpec, subjectLabel } from './subjects.js';
import { prepareTopic } from './topic.js';

const consumerScript = fileURLToPath(new URL('./consumer-process.js', import.meta.url));
const producerScript = fileURLToPath(new URL('./producer-process.js', import.meta.url));

/** One case of the mode: what is measured, apart from the repetition. */
export interface CeilingCase {
  readonly format: EventFormat;
  readonly consumer: ConsumerKind;
  readonly shape: EventShape;
  /** The Kafka client library under the consumer (absent in runs saved before there were two). */
  readonly client?: KafkaClientName;
}

/**
 * The mode's cases: every format on both consumers (plain JSON on the library's own loop only, the
 * baseline), for every shape and client library.
 */
export function ceilingCases(
  formats: readonly EventFormat[],
  shapes: readonly EventShape[],
  clients: readonly KafkaClientName[] = ['kafkajs'],
): CeilingCase[] {
  return clients.flatMap((client) =>
    shapes.flatMap((shape) =>
      formats.flatMap((format): CeilingCase[] =>
        (format === 'plain-json' ? (['kafkajs'] as const) : (['wirekit', 'kafkajs'] as const)).map(
          (consumer) => ({ format, consumer, shape, client }),
        ),
      ),
    ),
  );
}

const clientOf = (result: CeilingCase): KafkaClientName => result.client ?? 'kafkajs';

export interface CeilingSpec extends CeilingCase {
  readonly repetition: number;
  readonly bootstrap: string;
  readonly registryUrl: string | undefined;
  readonly events: number;
  readonly maxBatch: number;
  readonly poolSize: number;
  readonly seed: number;
  readonly timeoutSeconds: number;
  readonly consumerExecArgv: readonly string[];
}

export interface CeilingResult extends CeilingCase {
  readonly label: string;
  readonly repetition: number;
  readonly events: number;
  /** Events handled per second, from the first handled event to the last. */
  readonly perSecond: number;
  /** The consumer process's CPU per event over the same span (µs). */
  readonly processCpuUs: number;
  readonly fillSeconds: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runCeiling(spec: CeilingSpec): Promise<CeilingResult> {
  const framing = framingFor(spec.format, spec.registryUrl);
  const topic = `ceiling-${spec.format}-${spec.consumer}-${clientOf(spec)}-${spec.shape}-${spec.repetition}-${process.pid}`;
  const subject: SubjectSpec = {
    format: spec.format,
    framing,
    subject: `${topic}-value`,
    shape: spec.shape,
    ...(spec.registryUrl === undefined ? {} : { registryUrl: spec.registryUrl }),
  };
  const kafka = new Kafka({
    clientId: 'bench-ceiling',
    brokers: [spec.bootstrap],
    logLevel: logLevel.NOTHING,
  });
  const admin = kafka.admin();
  await admin.connect();
  try {
    await prepareTopic(admin, topic);
  } finally {
    await admin.disconnect();
  }

  const producerSpec: ProducerSpec = {
    brokers: [spec.bootstrap],
    topic,
    subject,
    poolSize: spec.poolSize,
    seed: spec.seed,
    maxInFlight: 4,
    maxPerSend: eventsPerSend(spec.shape),
  };
  const producer = await forkChild<ProducerMessage>(producerScript, producerSpec);
  const filled = await producer.request(
    { type: 'step', rate: 1_000_000, seconds: spec.events / 1_000_000 },
    'stepped',
  );
  producer.process.send({ type: 'stop' });
  await producer.exit(10_000);

  const consumerSpec: ConsumerSpec = {
    brokers: [spec.bootstrap],
    topic,
    groupId: topic,
    kind: spec.consumer,
    client: clientOf(spec),
    maxBatch: spec.maxBatch,
    subject,
    poolSize: spec.poolSize,
    seed: spec.seed,
  };
  const consumer = await forkChild<ConsumerMessage>(consumerScript, consumerSpec, spec.consumerExecArgv);
  try {
    // The span starts at the last sample before the first handled event, so a backlog drained
    // between two samples still has a time; the group's join before it is not billed.
    let before: ConsumerSample | undefined;
    let first: ConsumerSample | undefined;
    let last: ConsumerSample | undefined;
    const deadline = Date.now() + spec.timeoutSeconds * 1000;
    while (last === undefined || last.handled < filled.events) {
      if (Date.now() > deadline)
        throw new Error(`handled ${last?.handled ?? 0} of ${filled.events} in ${spec.timeoutSeconds} s`);
      await sleep(50);
      last = await consumer.request({ type: 'sample' }, 'sample');
      if (first === undefined) {
        if (last.handled > 0) first = last;
        else before = last;
      }
    }
    const from = first !== undefined && first.at < last.at ? first : (before ?? first ?? last);
    const seconds = (last.at - from.at) / 1000;
    if (!(seconds > 0))
      throw new Error(
        `${spec.shape} ${spec.format}: all ${filled.events} events were handled before the first sample, so there is no rate to time; raise --events`,
      );
    const events = last.handled - from.handled;
    const { tally, errors } = await consumer.request({ type: 'stop' }, 'stopped');
    // Every event handled once, its amounts intact: a rate of anything else would be no rate.
    if (tally.events !== filled.events || tally.mismatches > 0 || errors > 0)
      throw new Error(
        `handled ${tally.events} of ${filled.events} events, ${tally.mismatches} altered, ${errors} errors`,
      );
    return {
      format: spec.format,
      label: subjectLabel(spec.format, framing),
      consumer: spec.consumer,
      shape: spec.shape,
      client: clientOf(spec),
      repetition: spec.repetition,
      events: filled.events,
      perSecond: events / seconds,
      processCpuUs: (last.processCpuUs - from.processCpuUs) / events,
      fillSeconds: filled.ackSeconds,
    };
  } finally {
    await consumer.exit(10_000);
    // A case's backlog is tens of MB on the broker's disk: the next case does not need it.
    await admin.connect();
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin.disconnect();
  }
}

const integer = (value: number): string =>
  Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '—';

function spread(values: readonly number[]): string {
  if (values.length === 0) return '—';
  const low = Math.min(...values);
  const high = Math.max(...values);
  return low === high
    ? integer(median(values))
    : `${integer(median(values))} (${integer(low)}-${integer(high)})`;
}

/**
 * The tables, one per event shape: per format (and client library, when there are several),
 * wirekit's consumer and the library's own eachBatch loop with the same decoder (medians and ranges
 * over the repetitions), wirekit's share of that ceiling, and each against plain JSON.parse on the
 * same shape and library. With two libraries, a table per shape sets them side by side.
 */
export function ceilingReport(results: readonly CeilingResult[]): string {
  const shapes = [...new Set(results.map((r) => r.shape))];
  const clients = [...new Set(results.map(clientOf))];
  return shapes
    .map((shape) => {
      const ofShape = results.filter((r) => r.shape === shape);
      return (
        shapeTable(shape, ofShape, clients) + (clients.length > 1 ? sideBySide(shape, ofShape, clients) : '')
      );
    })
    .join('');
}

function pick(
  results: readonly CeilingResult[],
  format: EventFormat,
  consumer: ConsumerKind,
  client: KafkaClientName,
): CeilingResult[] {
  return results.filter((r) => r.format === format && r.consumer === consumer && clientOf(r) === client);
}

function shapeTable(
  shape: EventShape,
  results: readonly CeilingResult[],
  clients: readonly KafkaClientName[],
): string {
  const rates = (format: EventFormat, consumer: ConsumerKind, client: KafkaClientName) =>
    pick(results, format, consumer, client).map((r) => r.perSecond);
  const cpu = (format: EventFormat, consumer: ConsumerKind, client: KafkaClientName) =>
    median(pick(results, format, consumer, client).map((r) => r.processCpuUs));
  const formats = [...new Set(results.map((r) => r.format))].filter((f) => f !== 'plain-json');
  const lines = [
    '| format | wirekit consumer, events/s | the library’s eachBatch, same decoder | wirekit / ceiling | wirekit / plain JSON | CPU µs/event (wirekit, loop) |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  for (const client of clients) {
    const on = clients.length > 1 ? `, ${client}` : '';
    const plain = median(rates('plain-json', 'kafkajs', client));
    for (const format of formats) {
      const wirekit = rates(format, 'wirekit', client);
      const raw = rates(format, 'kafkajs', client);
      const share = median(wirekit) / median(raw);
      const label = results.find((r) => r.format === format)?.label ?? format;
      lines.push(
        `| ${label}${on} | ${spread(wirekit)} | ${spread(raw)} | ${Number.isFinite(share) ? `${Math.round(share * 100)} %` : '—'} | ${Number.isFinite(plain) ? `${(median(wirekit) / plain).toFixed(2)}×` : '—'} | ${cpu(format, 'wirekit', client).toFixed(1)}, ${cpu(format, 'kafkajs', client).toFixed(1)} |`,
      );
    }
    if (results.some((r) => r.format === 'plain-json' && clientOf(r) === client))
      lines.push(
        `| plain JSON on ${client} (JSON.parse) | — | ${spread(rates('plain-json', 'kafkajs', client))} | — | 1.00× | —, ${cpu('plain-json', 'kafkajs', client).toFixed(1)} |`,
      );
  }
  const events = results[0]?.events ?? 0;
  return `\n## Consumer ceiling, ${shape} events: a backlog of ${integer(events)} drained, per format\n\n${lines.join('\n')}\n`;
}

/** Per format and consumer, each library's median rate and CPU, and the others' against the first. */
function sideBySide(
  shape: EventShape,
  results: readonly CeilingResult[],
  clients: readonly KafkaClientName[],
): string {
  const [first] = clients as [KafkaClientName];
  const others = clients.slice(1);
  const lines = [
    `| format | consumer | ${clients.map((c) => `${c}, events/s (CPU µs/event)`).join(' | ')} | ${others.map((c) => `${c} / ${first}`).join(' | ')} |`,
    `|---|---|${clients.map(() => '---:').join('|')}|${others.map(() => '---:').join('|')}|`,
  ];
  for (const format of new Set(results.map((r) => r.format))) {
    for (const consumer of ['wirekit', 'kafkajs'] as const) {
      if (pick(results, format, consumer, first).length === 0) continue;
      const medians = clients.map((client) =>
        median(pick(results, format, consumer, client).map((r) => r.perSecond)),
      );
      const cells = clients.map(
        (client, i) =>
          `${integer(medians[i] as number)} (${median(pick(results, format, consumer, client).map((r) => r.processCpuUs)).toFixed(1)})`,
      );
      const ratios = medians.slice(1).map((m) => `${(m / (medians[0] as number)).toFixed(2)}×`);
      const label = results.find((r) => r.format === format)?.label ?? format;
      lines.push(
        `| ${label} | ${consumer === 'wirekit' ? 'wirekit' : 'eachBatch loop'} | ${cells.join(' | ')} | ${ratios.join(' | ')} |`,
      );
    }
  }
  return `\n## ${shape} events: the client libraries side by side (medians)\n\n${lines.join('\n')}\n`;
}
