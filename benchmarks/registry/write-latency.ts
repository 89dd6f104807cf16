/**
 * What one registration costs on a registry whose store is a Kafka topic: the time from a client's
 * POST /subjects/{s}/versions to its answer, for new schemas registered one after another on the
 * leader (each one a write to the topic; since the leader writes in transactions, a transaction).
 *
 *   npm run build && node build/benchmarks/registry/write-latency.js [--registrations 200] [--processes 3]
 *
 * One Kafka broker (test/support/servers/kafka-server.ts) for the run; each process starts its own
 * registry on a topic of its own, warms up, then times its registrations. Reported: the median over
 * processes of each process's median and 90th percentile, with the range across processes.
 */
import { execFile } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { kafkaStore, startRegistryServer } from 'wirekit-ts/events';
import { median } from 'wirekit-ts/lab';
import { startKafka } from '../../test/support/servers/kafka-server.js';
import { benchArgs } from '../args.js';

const usage = `Usage: node build/benchmarks/registry/write-latency.js [--registrations 200] [--processes 3]
The time one registration takes on a registry kept in a Kafka topic.`;

const { values } = benchArgs(usage, {
  options: {
    registrations: { type: 'string', default: '200' },
    processes: { type: 'string', default: '3' },
    // Internal: run one measuring process against this broker and topic.
    bootstrap: { type: 'string' },
    topic: { type: 'string' },
  },
});
const registrations = Math.max(10, Number(values.registrations));

interface Timing {
  readonly medianMs: number;
  readonly p90Ms: number;
}

const schemaOf = (index: number) =>
  JSON.stringify({
    type: 'record',
    name: 'Latency',
    fields: [{ name: `f${index}`, type: 'int', default: 0 }],
  });

async function measureOne(bootstrap: string, topic: string): Promise<Timing> {
  const server = await startRegistryServer({ store: kafkaStore({ brokers: [bootstrap], topic }) });
  const register = async (subject: string, index: number) => {
    const response = await fetch(`${server.url}/subjects/${subject}/versions`, {
      method: 'POST',
      headers: { 'content-type': 'application/vnd.schemaregistry.v1+json' },
      body: JSON.stringify({ schema: schemaOf(index) }),
    });
    if (response.status !== 200) throw new Error(`registration ${index}: ${await response.text()}`);
  };
  try {
    // The first write waits for the election and the writer's claim: warm up past it.
    for (let index = 0; index < 10; index += 1) await register(`warm-${index}`, index);
    const times: number[] = [];
    for (let index = 0; index < registrations; index += 1) {
      const started = performance.now();
      await register(`s-${index}`, index);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return { medianMs: median(times), p90Ms: times[Math.floor(times.length * 0.9)] ?? Number.NaN };
  } finally {
    await server.close();
  }
}

if (values.bootstrap !== undefined && values.topic !== undefined) {
  process.stdout.write(JSON.stringify(await measureOne(values.bootstrap, values.topic)));
} else {
  const broker = await startKafka();
  const results: Timing[] = [];
  try {
    const processes = Math.max(1, Number(values.processes));
    for (let run = 0; run < processes; run += 1) {
      const { stdout } = await promisify(execFile)(process.execPath, [
        fileURLToPath(import.meta.url),
        '--bootstrap',
        broker.bootstrap,
        '--topic',
        `_schemas_latency_${run}`,
        '--registrations',
        String(registrations),
      ]);
      results.push(JSON.parse(stdout) as Timing);
    }
  } finally {
    await broker.stop();
  }
  const spread = (pick: (timing: Timing) => number) => {
    const sorted = results.map(pick).sort((a, b) => a - b);
    return `${median(sorted).toFixed(1)} ms (${sorted[0]?.toFixed(1)}-${sorted.at(-1)?.toFixed(1)})`;
  };
  process.stdout.write(
    `registration on a Kafka-stored registry, ${registrations} per process, ${results.length} processes, load ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores:\n` +
      `  median ${spread((timing) => timing.medianMs)}, 90th percentile ${spread((timing) => timing.p90Ms)}\n`,
  );
}
