/**
 * The event-stream benchmark: how fast a consumer keeps up with a real Kafka broker on loopback, per
 * format, as the producer's rate steps up — the figure behind the field report's "consumer lag at
 * peak 40 s → under 4 s" after moving an event bus from JSON to Avro.
 *
 *   npm run build && npm run bench:events        # node build/benchmarks/events/main.js (~10 min)
 *   node build/benchmarks/events/main.js [--quick] [--formats plain-json,json,msgpack,avro,protobuf]
 *     [--rates 2500,5000,...] [--step-seconds 4] [--repetitions 3] [--consumer wirekit|kafkajs|both]
 *     [--registry start|none|URL] [--max-batch 100] [--pool 2000] [--json FILE] [--cpu-prof DIR]
 *   node build/benchmarks/events/main.js --summarize FILE   # a saved run's report again
 *   node build/benchmarks/events/main.js --mode ceiling [--events 60000] [--shapes order,document] [--repetitions 3]
 *     [--client kafkajs,confluent]
 *     # each consumer draining a backlog (ceiling.ts): wirekit's vs the library's eachBatch, per format,
 *     # shape and Kafka client library
 *   node build/benchmarks/events/main.js --mode lag [--peak-seconds 60] [--shapes order,document]
 *     [--lag-rates order=5000/30000,document=1000/4500] [--html FILE]
 *     # a steady rate with a peak (lag.ts): max lag and time to catch up, per format and shape
 *
 * It starts its own broker (test/support/servers/kafka-server.ts: Kafka 4.1.1, KRaft, one node on 127.0.0.1),
 * and runs every case — one format, one repetition — on a fresh topic with a fresh consumer process
 * and a fresh producer process (run-case.ts), one case at a time, the formats taking turns within
 * each repetition so that drift on the machine falls on all of them.
 *
 * This file starts and stops the broker and the registry and runs the steps mode; the command line
 * is options.ts, the other modes' loops ceiling-mode.ts and lag-mode.ts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startRegistryServer } from 'wirekit-ts/events';
import { kafkaVersion } from '../../test/support/servers/kafka-jars.js';
import { type KafkaBroker, startKafka } from '../../test/support/servers/kafka-server.js';
import { ceilingCases } from './ceiling.js';
import { runCeilingMode } from './ceiling-mode.js';
import type { ConsumerKind } from './consumer-plug.js';
import { parseLagRates, runLagMode } from './lag-mode.js';
import { eventsOptions, parseClients, parseFormats, parseShapes, positive } from './options.js';
import { type EventsRun, eventsReport } from './report.js';
import { type CaseResult, runCase } from './run-case.js';
import type { EventFormat } from './subjects.js';

const values = eventsOptions();

function publish(run: EventsRun): void {
  process.stdout.write(eventsReport(run));
  if (values.json !== undefined) writeFileSync(values.json, `${JSON.stringify(run, null, 2)}\n`);
}

/**
 * Kafka's StorageTool reads a random cluster id that starts with '-' (1 in 64 of them) as an
 * option and fails: a second attempt draws another id.
 */
async function startBroker(logDir: string): Promise<KafkaBroker> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startKafka({ properties: { 'log.dirs': logDir } });
    } catch (error) {
      if (attempt === 3 || !/expected one argument/.test(String(error))) throw error;
    }
  }
}

if (values.summarize !== undefined) {
  publish(JSON.parse(readFileSync(values.summarize, 'utf8')) as EventsRun);
} else {
  // Before the broker starts: an error thrown after it would leave the broker running.
  if (!['steps', 'ceiling', 'lag'].includes(values.mode))
    throw new Error(`--mode takes steps, ceiling or lag, got ${values.mode}`);
  const quick = values.quick;
  const formats = parseFormats(values.formats);
  // Steps about √2 apart from 5,000: a format's limit is found to within a step (±20 %).
  const rates = (
    values.rates ?? (quick ? '2500,5000,10000,20000,40000' : '2500,5000,7000,10000,14000,20000,28000,40000')
  )
    .split(',')
    .map((rate) => positive('rates', rate))
    .sort((a, b) => a - b);
  const stepSeconds = positive('step-seconds', values['step-seconds'] ?? (quick ? '2' : '4'));
  const repetitions = positive('repetitions', values.repetitions ?? (quick ? '1' : '3'));
  const warmupSeconds = positive('warmup-seconds', values['warmup-seconds'] ?? (quick ? '1' : '2'));
  const consumerChoice = values.consumer;
  if (!['wirekit', 'kafkajs', 'both'].includes(consumerChoice))
    throw new Error(`--consumer takes wirekit, kafkajs or both, got ${consumerChoice}`);
  const consumers: ConsumerKind[] =
    consumerChoice === 'both' ? ['wirekit', 'kafkajs'] : [consumerChoice as ConsumerKind];
  // The baseline is plain kafkajs by definition; wirekit's formats on the consumers asked for.
  const cases = formats.flatMap((format): { format: EventFormat; consumer: ConsumerKind }[] =>
    format === 'plain-json'
      ? [{ format, consumer: 'kafkajs' as ConsumerKind }]
      : consumers.map((consumer) => ({ format, consumer })),
  );
  const profile =
    values['cpu-prof'] === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', values['cpu-prof']];

  const command = [
    'node',
    relative(process.cwd(), fileURLToPath(import.meta.url)),
    ...process.argv.slice(2).map((arg) => (/^[\w./,=:-]+$/.test(arg) ? arg : JSON.stringify(arg))),
  ].join(' ');
  const loadAtStart = loadavg();
  const started = performance.now();
  // The broker's log directory is ours, so the topics' segments can be measured on disk.
  const logDir = mkdtempSync(join(tmpdir(), 'wirekit-bench-events-'));
  const broker = await startBroker(logDir);
  process.stderr.write(
    `Kafka ${kafkaVersion} on ${broker.bootstrap} (started in ${(broker.startMs / 1000).toFixed(1)} s)\n`,
  );
  // Avro and Protobuf go through a registry, wirekit's own unless --registry names another.
  let registry: { url: string; close(): Promise<void> } | undefined;
  if (values.registry === 'start') registry = await startRegistryServer({ host: '127.0.0.1' });
  else if (values.registry !== 'none') registry = { url: values.registry, close: async () => undefined };
  const cleanUp = async () => {
    await registry?.close();
    await broker.stop();
    rmSync(logDir, { recursive: true, force: true });
  };
  process.once('SIGINT', () => {
    void cleanUp().finally(() => process.exit(130));
  });
  // A failure outside the cases' own error handling must not leave the broker running.
  process.once('unhandledRejection', (error) => {
    process.stderr.write(`bench:events failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    void cleanUp().finally(() => process.exit(1));
  });
  if (values.mode === 'lag') {
    const shapes = parseShapes(values.shapes);
    const peakSeconds = positive('peak-seconds', values['peak-seconds']);
    try {
      await runLagMode({
        command,
        kafka: kafkaVersion,
        bootstrap: broker.bootstrap,
        registryUrl: registry?.url,
        formats,
        shapes,
        rates: parseLagRates(values['lag-rates']),
        baseSeconds: positive('base-seconds', values['base-seconds']),
        peakSeconds,
        // Long enough for a consumer at a third of the peak's excess to drain it.
        catchUpSeconds: positive(
          'catch-up-seconds',
          values['catch-up-seconds'] ?? String(Math.max(30, 5 * peakSeconds)),
        ),
        caughtUpSeconds: positive('caught-up-seconds', values['caught-up-seconds']),
        repetitions: positive('repetitions', values.repetitions ?? '1'),
        maxBatch: positive('max-batch', values['max-batch']),
        poolSize: positive('pool', values.pool),
        consumerExecArgv: profile,
        json: values.json,
        html: values.html,
      });
    } finally {
      await cleanUp();
    }
    process.exit(0);
  }
  if (values.mode === 'ceiling') {
    try {
      await runCeilingMode({
        command,
        kafka: kafkaVersion,
        bootstrap: broker.bootstrap,
        registryUrl: registry?.url,
        cases: ceilingCases(formats, parseShapes(values.shapes), parseClients(values.client)),
        events: positive('events', values.events),
        repetitions,
        maxBatch: positive('max-batch', values['max-batch']),
        poolSize: positive('pool', values.pool),
        consumerExecArgv: profile,
        json: values.json,
      });
    } finally {
      await cleanUp();
    }
    process.exit(0);
  }
  const results: CaseResult[] = [];
  const failures: EventsRun['failures'][number][] = [];
  try {
    const total = cases.length * repetitions;
    for (let repetition = 0; repetition < repetitions; repetition++) {
      // Each repetition in a turned order, so no case always runs first (or last) on the broker.
      const order = cases.map((_, i) => cases[(i + repetition) % cases.length] as (typeof cases)[number]);
      for (const { format, consumer } of order) {
        process.stderr.write(
          `${results.length + failures.length + 1}/${total} ${format} on ${consumer}'s consumer (repetition ${repetition + 1})\n`,
        );
        try {
          results.push(
            await runCase({
              format,
              repetition,
              bootstrap: broker.bootstrap,
              logDir,
              registryUrl: registry?.url,
              consumer,
              rates,
              stepSeconds,
              warmupRate: Math.min(rates[0] as number, 2000),
              warmupSeconds,
              sampleMs: 250,
              behindSeconds: positive('behind-seconds', values['behind-seconds']),
              drainTimeoutSeconds: Math.max(20, 4 * stepSeconds),
              maxBatch: positive('max-batch', values['max-batch']),
              poolSize: positive('pool', values.pool),
              seed: 1,
              maxInFlight: 4,
              maxPerSend: 1000,
              calibrateMs: quick ? 150 : 400,
              consumerExecArgv: profile,
            }),
          );
        } catch (error) {
          process.stderr.write(`  failed: ${(error as Error).message}\n`);
          failures.push({ format, consumer, repetition, error: (error as Error).message });
        }
      }
    }
  } finally {
    await cleanUp();
  }
  // `java -version` writes to stderr.
  const java = spawnSync('java', ['-version'], { encoding: 'utf8' }).stderr;
  publish({
    command,
    date: new Date().toISOString(),
    node: process.version,
    kafka: { version: kafkaVersion, bootstrap: broker.bootstrap, logDir },
    java: /version "([^"]+)"/.exec(java)?.[1] ?? 'unknown',
    machine: {
      cpus: cpus().length,
      model: cpus()[0]?.model.trim() ?? 'unknown',
      loadAtStart,
      loadAtEnd: loadavg(),
    },
    options: {
      formats,
      rates,
      stepSeconds,
      repetitions,
      warmupSeconds,
      consumers,
      registry:
        registry === undefined
          ? undefined
          : values.registry === 'start'
            ? 'wirekit’s registry server, on loopback'
            : registry.url,
      maxBatch: Number(values['max-batch']),
      pool: Number(values.pool),
      behindSeconds: Number(values['behind-seconds']),
    },
    seconds: (performance.now() - started) / 1000,
    results,
    failures,
  });
}
