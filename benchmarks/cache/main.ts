/**
 * The cache boundary's benchmark: what storing a value in Redis costs the event loop and the
 * server's memory, for the report's pipelines, msgpackr with shared structures and wirekit's formats
 * × compressions in the envelope the cache writes; and, as a second part, the value sizes at which
 * compression starts to pay and async compression starts to block the loop less than sync.
 *
 *   npm run build && npm run bench:cache        # node build/benchmarks/cache/main.js
 *   node build/benchmarks/cache/main.js [--part subjects|threshold|all] [--processes 3] [--quick] [--json FILE]
 *     [--data FILE [--schema S.json] [--path P]] [--items 200] [--formats json,msgpack,…]
 *     [--compressions none,snappy,lz4,zstd] [--modes sync,async] [--subjects id,…] [--callers 1,16,64]
 *     [--rate 2000] [--sizes 256,…] [--threshold-sources records,products]
 *     [--threshold-formats msgpack,avro,json-native] [--min-saving 0.1] [--cpu-prof DIR]
 *   node build/benchmarks/cache/main.js --summarize run.json [--min-saving 0.2]   # a saved run's report again
 *
 * It starts its own redis-server on a free loopback port (no persistence) and stops it at the end.
 * Each case runs in fresh processes, one at a time (on 2 cores, two cases side by side would time
 * each other), the yardstick (the report's new pipeline) timed in the same process as each subject.
 * Reported: medians over processes of per-process medians, with the range across processes.
 */
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { FormatName } from 'wirekit-ts/codecs';
import type { CompressionName } from 'wirekit-ts/compression';
import { startRedis } from '../../test/support/servers/redis-server.js';
import { benchArgs } from '../args.js';
import type { Mode } from './adapter.js';
import { type CacheRun, cacheReport } from './report.js';
import {
  baselineIds,
  cacheCompressions,
  cacheFormats,
  checkSubjectId,
  defaultCacheFormats,
  wirekitIds,
} from './subjects.js';
import type { FailedSubject } from './tables.js';
import {
  type ThresholdCompression,
  type ThresholdFormat,
  type ThresholdResult,
  type ThresholdSpec,
  thresholdCompressions,
} from './threshold.js';
import type { ValuesSpec } from './values.js';
import type { CaseFailure, CaseResult, CaseSpec } from './worker.js';

const run = promisify(execFile);
const worker = fileURLToPath(new URL('./worker.js', import.meta.url));
const thresholdWorker = fileURLToPath(new URL('./threshold.js', import.meta.url));

const usage = `Usage: node build/benchmarks/cache/main.js [--part subjects|threshold|all] [--processes 3] [--quick]
         [--json FILE] [--data FILE [--schema S.json] [--path P]] [--items 200]
         [--formats ${defaultCacheFormats.join(',')}] [--compressions ${cacheCompressions.join(',')}]
         [--modes sync,async] [--subjects id,…] [--callers 1,16,64] [--rate 2000]
         [--budget-ms 120] [--stream-ms 200] [--steady-ms 500] [--sizes 256,512,…]
         [--threshold-sources records,products] [--threshold-formats msgpack,avro,json-native]
         [--threshold-compressions ${thresholdCompressions.join(',')}] [--min-saving 0.1] [--cpu-prof DIR]
       node build/benchmarks/cache/main.js --summarize FILE [--min-saving 0.1] [--json FILE]
Values in Redis (a redis-server it starts on loopback): the report's pipelines, msgpackr records and
wirekit's formats × compressions in the cache's envelope, each in fresh processes with the report's
new pipeline (JSON + async snappy) timed beside it; then the compression threshold by value size.
--summarize FILE prints the report of a run saved with --json again, measuring nothing. --cpu-prof DIR
has every case process write a V8 CPU profile into DIR.
Subjects: ${baselineIds.join(', ')}, wirekit:FORMAT:COMPRESSION:sync|async (formats ${cacheFormats.join(', ')}).`;

const { values } = benchArgs(usage, {
  options: {
    part: { type: 'string', default: 'all' },
    processes: { type: 'string', default: '3' },
    quick: { type: 'boolean', default: false },
    json: { type: 'string' },
    data: { type: 'string' },
    schema: { type: 'string' },
    path: { type: 'string' },
    items: { type: 'string' },
    formats: { type: 'string', default: defaultCacheFormats.join(',') },
    compressions: { type: 'string', default: cacheCompressions.join(',') },
    modes: { type: 'string', default: 'sync,async' },
    subjects: { type: 'string' },
    callers: { type: 'string', default: '1,16,64' },
    rate: { type: 'string', default: '2000' },
    'budget-ms': { type: 'string' },
    'stream-ms': { type: 'string' },
    'steady-ms': { type: 'string' },
    sizes: { type: 'string' },
    'threshold-sources': { type: 'string', default: 'records,products' },
    'threshold-formats': { type: 'string', default: 'msgpack,avro,json-native' },
    'threshold-compressions': { type: 'string', default: thresholdCompressions.join(',') },
    'min-saving': { type: 'string', default: '0.1' },
    summarize: { type: 'string' },
    'cpu-prof': { type: 'string' },
  },
});

function positiveInt(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`--${name} takes a positive integer, got ${text}`);
  return value;
}

function listOf<T extends string>(name: string, text: string, known: readonly string[]): T[] {
  const items = text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  const unknown = items.find((item) => !known.includes(item));
  if (unknown !== undefined) throw new Error(`--${name}: unknown ${unknown}; known: ${known.join(', ')}`);
  return items as T[];
}

const quick = values.quick;
const [part = 'all'] = listOf<'subjects' | 'threshold' | 'all'>('part', values.part, [
  'subjects',
  'threshold',
  'all',
]);
const processes = positiveInt('processes', values.processes);
const items = positiveInt('items', values.items ?? (quick ? '40' : '200'));
const callers = values.callers.split(',').map((c) => positiveInt('callers', c));
const clientCallers = callers.includes(16) ? 16 : (callers[Math.floor(callers.length / 2)] as number);
const rate = positiveInt('rate', values.rate);
const budgetMs = positiveInt('budget-ms', values['budget-ms'] ?? (quick ? '20' : '120'));
const streamMs = positiveInt('stream-ms', values['stream-ms'] ?? (quick ? '60' : '200'));
const steadyMs = positiveInt('steady-ms', values['steady-ms'] ?? (quick ? '150' : '500'));
const minSaving = Number(values['min-saving']);
if (!(minSaving >= 0 && minSaving < 1))
  throw new Error(`--min-saving takes a share from 0 to 1, got ${values['min-saving']}`);
const sizes = (
  values.sizes ?? (quick ? '256,4096,65536' : Array.from({ length: 13 }, (_, i) => 256 * 2 ** i).join(','))
)
  .split(',')
  .map((size) => positiveInt('sizes', size))
  .sort((a, b) => a - b);
if (values.data === undefined && (values.schema !== undefined || values.path !== undefined))
  throw new Error('--schema and --path go with --data FILE');

const valuesSpec: ValuesSpec =
  values.data === undefined
    ? { kind: 'products', count: items, seed: 1 }
    : {
        kind: 'file',
        file: {
          dataFile: values.data,
          ...(values.schema === undefined ? {} : { schemaFile: values.schema }),
          ...(values.path === undefined ? {} : { path: values.path }),
        },
      };
const subjectIds =
  values.subjects !== undefined
    ? values.subjects.split(',').map((id) => id.trim())
    : [
        ...baselineIds,
        ...wirekitIds(
          listOf<FormatName>('formats', values.formats, cacheFormats),
          listOf<CompressionName>('compressions', values.compressions, cacheCompressions),
          listOf<Mode>('modes', values.modes, ['sync', 'async']),
        ),
      ];
for (const id of subjectIds) checkSubjectId(id);
const thresholdSources = listOf<'records' | 'products'>('threshold-sources', values['threshold-sources'], [
  'records',
  'products',
]);
const thresholdFormats = listOf<ThresholdFormat>('threshold-formats', values['threshold-formats'], [
  'json-native',
  ...cacheFormats.filter((format) => format !== 'arrow'),
]);
const thresholdAlgorithms = listOf<ThresholdCompression>(
  'threshold-compressions',
  values['threshold-compressions'],
  thresholdCompressions,
);

const command = [
  'node',
  relative(process.cwd(), fileURLToPath(import.meta.url)),
  ...process.argv.slice(2).map((arg) => (/^[\w./,=:-]+$/.test(arg) ? arg : JSON.stringify(arg))),
].join(' ');

/** With --cpu-prof DIR, every case process writes a V8 CPU profile there (open it in Chrome's DevTools). */
const profile = values['cpu-prof'] === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', values['cpu-prof']];

async function child<T>(script: string, spec: unknown): Promise<T> {
  const { stdout } = await run(process.execPath, [...profile, script, JSON.stringify(spec)], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout.trim().split('\n').pop() as string) as T;
}

/** Prints the report of a run (and saves it with --json). */
function publish(run: CacheRun, minSaving: number): void {
  const report = cacheReport(run, minSaving);
  process.stdout.write(report.text);
  if (values.json === undefined) return;
  const saved = { ...run, summaries: report.summaries, thresholds: report.thresholds };
  writeFileSync(values.json, `${JSON.stringify(saved, null, 2)}\n`);
}

if (values.summarize !== undefined) {
  publish(JSON.parse(readFileSync(values.summarize, 'utf8')) as CacheRun, minSaving);
} else {
  const loadAtStart = loadavg();
  const started = performance.now();
  const redis = await startRedis();
  process.once('SIGINT', () => {
    void redis.stop().finally(() => process.exit(130));
  });
  const results: CaseResult[] = [];
  const failures: FailedSubject[] = [];
  const thresholdResults: ThresholdResult[] = [];
  try {
    if (part !== 'threshold') {
      let done = 0;
      for (const subject of subjectIds) {
        for (let p = 0; p < processes; p++) {
          const spec: CaseSpec = {
            subject,
            values: valuesSpec,
            redisUrl: redis.url,
            budgetMs,
            streamMs,
            steadyMs,
            steadyRate: rate,
            callers,
            minOps: 5,
            warmRuns: quick ? 200 : 1_000,
            yardstickFirst: p % 2 === 1,
          };
          const result = await child<CaseResult | CaseFailure>(worker, spec);
          process.stderr.write(`${++done}/${subjectIds.length * processes} ${subject} (process ${p + 1})\n`);
          if ('failure' in result) {
            failures.push({ id: subject, failure: result.failure });
            done += processes - p - 1;
            break;
          }
          results.push(result);
        }
      }
    }
    if (part !== 'subjects') {
      const cases = thresholdSources.flatMap((source) =>
        thresholdFormats.flatMap((format) =>
          thresholdAlgorithms.map((compression) => ({ source, format, compression })),
        ),
      );
      let done = 0;
      for (const { source, format, compression } of cases) {
        for (let p = 0; p < processes; p++) {
          const spec: ThresholdSpec = {
            source,
            format,
            compression,
            sizes,
            budgetMs: Math.max(10, budgetMs / 2),
            clientMs: Math.max(30, streamMs / 3),
            clientCallers,
            minOps: quick ? 3 : 5,
            redisUrl: redis.url,
          };
          thresholdResults.push(await child<ThresholdResult>(thresholdWorker, spec));
          process.stderr.write(
            `threshold ${++done}/${cases.length * processes} ${source} ${format} ${compression}\n`,
          );
        }
      }
    }
  } finally {
    await redis.stop();
  }
  const version = execFileSync('redis-server', ['--version'], { encoding: 'utf8' });
  publish(
    {
      command,
      date: new Date().toISOString(),
      node: process.version,
      redis: { version: /v=([\d.]+)/.exec(version)?.[1], port: redis.port },
      machine: {
        cpus: cpus().length,
        model: cpus()[0]?.model.trim(),
        threadPool: Number(process.env.UV_THREADPOOL_SIZE ?? 4),
        loadAtStart,
        loadAtEnd: loadavg(),
      },
      options: {
        part,
        processes,
        dataset: valuesSpec.kind === 'products' ? 'products' : (values.data as string),
        subjects: subjectIds,
        callers,
        clientCallers,
        rate,
        budgetMs,
        streamMs,
        steadyMs,
        sizes,
        minSaving,
      },
      seconds: (performance.now() - started) / 1e3,
      failures,
      results,
      thresholdResults,
    },
    minSaving,
  );
}
