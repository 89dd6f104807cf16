/**
 * bench:events `--mode ceiling`: how fast each consumer drains a backlog, the most it can consume.
 * Per case (one format on one consumer, one repetition), a fresh topic is filled with `events`
 * order events by a fresh producer process, which then exits; a fresh consumer process joins a new
 * group and consumes them from the beginning, and its rate is taken from its own counts (IPC
 * samples every 50 ms) between its first handled event and its last, so the group's join is not
 * billed to it. Nothing else runs meanwhile: the figure is the consumer's, with the broker beside it.
 *
 * The consumers are those of consumer-plug.ts: `wirekit` (kafkaConsumer, the format's event codec)
 * and `kafkajs` (kafkajs's own eachBatch loop with the same decoder: the raw ceiling for that
 * format), and plain JSON on kafkajs, the baseline a service without wirekit runs. `client` puts
 * both on Confluent's librdkafka client instead (`--client kafkajs,confluent` measures each
 * case on both, side by side).
 */
import { fileURLToPath } from 'node:url';
import { Kafka, logLevel } from 'kafkajs';
import type { KafkaClientName } from 'wirekit-ts/events';
import { median } from 'wirekit-ts/lab';
import { forkChild } from './children.js';
import type { ConsumerKind } from './consumer-plug.js';
import type { ConsumerMessage, ConsumerSample, ConsumerSpec } from './consumer-process.js';
import type { ProducerMessage, ProducerSpec } from './producer-process.js';
import { type EventFormat, framingFor, subjectLabel } from './subjects.js';

const consumerScript = fileURLToPath(new URL('./consumer-process.js', import.meta.url));
const producerScript = fileURLToPath(new URL('./producer-process.js', import.meta.url));

export interface CeilingSpec {
  readonly format: EventFormat;
  readonly consumer: ConsumerKind;
  readonly client: KafkaClientName;
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

export interface CeilingResult {
  readonly format: EventFormat;
  readonly label: string;
  readonly consumer: ConsumerKind;
  /** The Kafka client library under the consumer (absent in runs saved before there were two). */
  readonly client?: KafkaClientName;
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
  const topic = `ceiling-${spec.format}-${spec.consumer}-${spec.client}-${spec.repetition}-${process.pid}`;
  const subject = {
    format: spec.format,
    framing,
    subject: `${topic}-value`,
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
    await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
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
    maxPerSend: 1000,
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
    client: spec.client,
    maxBatch: spec.maxBatch,
    subject,
    poolSize: spec.poolSize,
    seed: spec.seed,
  };
  const consumer = await forkChild<ConsumerMessage>(consumerScript, consumerSpec, spec.consumerExecArgv);
  try {
    let first: ConsumerSample | undefined;
    let last: ConsumerSample | undefined;
    const deadline = Date.now() + spec.timeoutSeconds * 1000;
    while (last === undefined || last.handled < filled.events) {
      if (Date.now() > deadline)
        throw new Error(`handled ${last?.handled ?? 0} of ${filled.events} in ${spec.timeoutSeconds} s`);
      await sleep(50);
      last = await consumer.request({ type: 'sample' }, 'sample');
      if (first === undefined && last.handled > 0) first = last;
    }
    const from = first ?? last;
    const seconds = (last.at - from.at) / 1000;
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
      client: spec.client,
      repetition: spec.repetition,
      events: filled.events,
      perSecond: events / seconds,
      processCpuUs: (last.processCpuUs - from.processCpuUs) / events,
      fillSeconds: filled.ackSeconds,
    };
  } finally {
    await consumer.exit(10_000);
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
 * The table: per format (and client library, when there are several), wirekit's consumer and the
 * client's own eachBatch loop with the same decoder (medians and ranges over the repetitions),
 * wirekit's share of that ceiling, and each against plain JSON.parse on the same client. With two
 * clients, a second table sets them side by side.
 */
export function ceilingReport(results: readonly CeilingResult[]): string {
  const clientOf = (r: CeilingResult): KafkaClientName => r.client ?? 'kafkajs';
  const clients = [...new Set(results.map(clientOf))];
  const pick = (format: EventFormat, consumer: ConsumerKind, client: KafkaClientName) =>
    results.filter((r) => r.format === format && r.consumer === consumer && clientOf(r) === client);
  const rates = (format: EventFormat, consumer: ConsumerKind, client: KafkaClientName) =>
    pick(format, consumer, client).map((r) => r.perSecond);
  const cpu = (format: EventFormat, consumer: ConsumerKind, client: KafkaClientName) =>
    median(pick(format, consumer, client).map((r) => r.processCpuUs));
  const formats = [...new Set(results.map((r) => r.format))].filter((f) => f !== 'plain-json');
  const lines = [
    '| format | wirekit consumer, events/s | the client’s eachBatch, same decoder | wirekit / ceiling | wirekit / plain JSON | CPU µs/event (wirekit, loop) |',
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
  let report = `\n## Consumer ceiling: a backlog of ${integer(events)} events drained, per format\n\n${lines.join('\n')}\n`;
  if (clients.length > 1) report += sideBySide(results, clients);
  return report;
}

/** Per format and consumer, each client's median rate and CPU, and the others' against the first. */
function sideBySide(results: readonly CeilingResult[], clients: readonly KafkaClientName[]): string {
  const [first] = clients as [KafkaClientName];
  const of = (format: EventFormat, consumer: ConsumerKind, client: KafkaClientName) =>
    results.filter(
      (r) => r.format === format && r.consumer === consumer && (r.client ?? 'kafkajs') === client,
    );
  const lines = [
    `| format | consumer | ${clients.map((c) => `${c}, events/s (CPU µs/event)`).join(' | ')} | ${clients
      .slice(1)
      .map((c) => `${c} / ${first}`)
      .join(' | ')} |`,
    `|---|---|${clients.map(() => '---:').join('|')}|${clients
      .slice(1)
      .map(() => '---:')
      .join('|')}|`,
  ];
  const formats = [...new Set(results.map((r) => r.format))];
  for (const format of formats) {
    for (const consumer of ['wirekit', 'kafkajs'] as const) {
      if (of(format, consumer, first).length === 0) continue;
      const medians = clients.map((client) => median(of(format, consumer, client).map((r) => r.perSecond)));
      const cells = clients.map(
        (client, i) =>
          `${integer(medians[i] as number)} (${median(of(format, consumer, client).map((r) => r.processCpuUs)).toFixed(1)})`,
      );
      const ratios = medians.slice(1).map((m) => `${(m / (medians[0] as number)).toFixed(2)}×`);
      const label = results.find((r) => r.format === format)?.label ?? format;
      const who = consumer === 'wirekit' ? 'wirekit' : 'eachBatch loop';
      lines.push(`| ${label} | ${who} | ${cells.join(' | ')} | ${ratios.join(' | ')} |`);
    }
  }
  return `\n## The client libraries side by side (medians)\n\n${lines.join('\n')}\n`;
}
