/**
 * The codec overhead benchmark: each wirekit codec against the library beneath it (or its format's
 * best-known JS library), against @furyjs/fury and against native JSON, on one dataset or on all.
 *
 *   npm run build && node build/benchmarks/overhead/main.js [--dataset NAME[,NAME…]|all]
 *     [--processes 5] [--count N] [--rounds 30] [case …]
 *
 * Datasets: records, users, timeseries, products, accounts, documents, statuses and catalog as one
 * array per call; documents-each, statuses-each, catalog-each and messages one item per call (a
 * call's fixed cost). `products-text`, `documents-text` and `documents-each-text` are the same
 * values with their decimals declared as strings: a format's decimal rows against its text rows
 * show what its binary decimals cost.
 *
 * Each case runs in fresh processes, with native JSON timed in the same process: timing several
 * libraries in one process shifted their ratios by up to 3.7× on this machine (shared JIT state).
 * Reported: medians over processes of per-process medians, and the range across processes. A case
 * that cannot run on a dataset (a library that cannot hold its shape) gets a row saying why.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median, Record8 } from 'wirekit-ts/lab';
import { benchArgs } from '../args.js';
import { casesFor } from './cases.js';
import { overheadDatasets } from './datasets.js';
import type { CaseFailure, CaseResult } from './worker.js';

const usage = `Usage: node build/benchmarks/overhead/main.js [--dataset NAME[,NAME…]|all]
         [--processes 5] [--count N] [--rounds 30] [case …]
Each wirekit codec against the library beneath it, Fury and native JSON; a case per fresh process.`;

const { values, positionals } = benchArgs(usage, {
  options: {
    processes: { type: 'string', default: '5' },
    dataset: { type: 'string', default: 'records' },
    /** Rows per dataset; each dataset's own default when left out. */
    count: { type: 'string', default: '' },
    rounds: { type: 'string', default: '30' },
  },
  allowPositionals: true,
});

const worker = fileURLToPath(new URL('./worker.js', import.meta.url));
const known = Object.keys(casesFor(Record8));
const selected = positionals.length > 0 ? positionals : known.filter((name) => name !== 'json native');
const unknownCase = selected.find((name) => !known.includes(name));
if (unknownCase !== undefined) throw new Error(`unknown case ${unknownCase}; known: ${known.join(', ')}`);
const datasets = values.dataset === 'all' ? Object.keys(overheadDatasets) : values.dataset.split(',');
const unknownDataset = datasets.find((name) => !Object.hasOwn(overheadDatasets, name));
if (unknownDataset !== undefined) {
  throw new Error(
    `unknown dataset ${unknownDataset}; known: ${Object.keys(overheadDatasets).join(', ')}, all`,
  );
}

function runProcesses(name: string, dataset: string): CaseResult[] | CaseFailure {
  const runs: CaseResult[] = [];
  for (let p = 0; p < Number(values.processes); p++) {
    const out = execFileSync(process.execPath, [worker, name, values.count, values.rounds, dataset], {
      encoding: 'utf8',
    });
    const result = JSON.parse(out.trim().split('\n').pop() as string) as CaseResult | CaseFailure;
    if ('error' in result) return result;
    runs.push(result);
  }
  return runs;
}

const tables: string[] = [];
for (const dataset of datasets) {
  const rows = [
    '| case | bytes | vs JSON bytes | encode ms | decode ms | round trip / JSON (range) | cold start ms | encode / JSON | decode / JSON |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const name of selected) {
    const runs = runProcesses(name, dataset);
    if (!Array.isArray(runs)) {
      rows.push(`| ${name} | n/a: ${runs.error.replaceAll('|', '/')} | | | | | | | |`);
    } else {
      const ratios = runs.map((r) => (r.encode + r.decode) / (r.jsonEncode + r.jsonDecode));
      // Each direction against its own native step, as a hop pays them: a decode, then an encode.
      const encodes = runs.map((r) => r.encode / r.jsonEncode);
      const decodes = runs.map((r) => r.decode / r.jsonDecode);
      const first = runs[0] as CaseResult;
      rows.push(
        `| ${first.name} | ${first.bytes.toLocaleString('en')} | ${(first.bytes / first.jsonBytes).toFixed(2)} | ` +
          `${median(runs.map((r) => r.encode)).toFixed(2)} | ${median(runs.map((r) => r.decode)).toFixed(2)} | ` +
          `${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}) | ` +
          `${median(runs.map((r) => r.coldMs)).toFixed(1)} | ${median(encodes).toFixed(2)} | ${median(decodes).toFixed(2)} |`,
      );
    }
    process.stderr.write(`${dataset}: ${rows.at(-1)}\n`);
  }
  const count =
    values.count === '' ? overheadDatasets[dataset as keyof typeof overheadDatasets].count : values.count;
  const unit = overheadDatasets[dataset as keyof typeof overheadDatasets].unit;
  tables.push(
    `### ${dataset} × ${count}${unit === 'item' ? ', one call per item' : ', one array per call'}\n\n${values.processes} processes × ${values.rounds} rounds, node ${process.version}, ` +
      `${new Date().toISOString()}\n\n${rows.join('\n')}`,
  );
}
process.stdout.write(`\n${tables.join('\n\n')}\n`);
