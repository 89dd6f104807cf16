/**
 * The codec overhead benchmark: each wirekit codec against the library beneath it (or its format's
 * best-known JS library) and against native JSON, on the `records` dataset.
 *
 *   npm run build && node dist/bench/overhead/main.js [--dataset records|users|timeseries] [--processes 5]
 *     [--count 5000] [--rounds 30] [case …]
 *
 * Each case runs in fresh processes, with native JSON timed in the same process: timing several
 * libraries in one process shifted their ratios by up to 3.7× on this machine (shared JIT state).
 * Reported: medians over processes of per-process medians, and the range across processes.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Record8 } from '../datasets/records.js';
import { casesFor } from './cases.js';
import type { CaseResult } from './worker.js';

const { values, positionals } = parseArgs({
  options: {
    processes: { type: 'string', default: '5' },
    dataset: { type: 'string', default: 'records' },
    count: { type: 'string', default: '5000' },
    rounds: { type: 'string', default: '30' },
  },
  allowPositionals: true,
});

const worker = fileURLToPath(new URL('./worker.js', import.meta.url));
const selected =
  positionals.length > 0
    ? positionals
    : Object.keys(casesFor(Record8)).filter((name) => name !== 'json native');

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

const rows: string[] = [];
rows.push(
  '| case | bytes | vs JSON bytes | encode ms | decode ms | round trip / JSON (range) | cold start ms |',
);
rows.push('|---|---:|---:|---:|---:|---:|---:|');
for (const name of selected) {
  const runs: CaseResult[] = [];
  for (let p = 0; p < Number(values.processes); p++) {
    const out = execFileSync(process.execPath, [worker, name, values.count, values.rounds, values.dataset], {
      encoding: 'utf8',
    });
    runs.push(JSON.parse(out.trim().split('\n').pop() as string) as CaseResult);
  }
  const ratios = runs.map((r) => (r.encode + r.decode) / (r.jsonEncode + r.jsonDecode));
  const first = runs[0] as CaseResult;
  rows.push(
    `| ${first.name} | ${first.bytes.toLocaleString('en')} | ${(first.bytes / first.jsonBytes).toFixed(2)} | ` +
      `${median(runs.map((r) => r.encode)).toFixed(2)} | ${median(runs.map((r) => r.decode)).toFixed(2)} | ` +
      `${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}) | ` +
      `${median(runs.map((r) => r.coldMs)).toFixed(1)} |`,
  );
  process.stderr.write(`${rows.at(-1)}\n`);
}
process.stdout.write(
  `\n${values.dataset} × ${values.count}, ${values.processes} processes × ${values.rounds} rounds, node ${process.version}, ${new Date().toISOString()}\n\n${rows.join('\n')}\n`,
);
