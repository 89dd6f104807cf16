/**
 * What the allocation budget holds: each amplification case (cases.ts) decoded in a fresh process
 * under a 400 MB heap, reporting how it ended (the WK_ code it was refused with, `decoded`, or a
 * crash), how long the decode took and the process's peak resident memory.
 *
 *   npm run build && npm run bench:amplification     # node build/benchmarks/amplification/main.js
 *   node build/benchmarks/amplification/main.js [--heap-mb 400] [--json FILE] [case …]
 *
 * The inputs are made once, in this process, and written to a temporary directory; each child reads
 * its file, so the input's own making costs the child nothing. The peak includes Node itself
 * (about 45 MiB) and the input as read; "before" is the child's peak once its input is read.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs } from '../args.js';
import { repoRoot } from '../repo-root.js';
import { type AmplificationCase, amplificationCase, amplificationCases } from './cases.js';
import type { WorkerOutcome } from './worker.js';

const usage = `Usage: node build/benchmarks/amplification/main.js [--heap-mb 400] [--json FILE] [case …]
Each amplification case decoded in a fresh process under a small heap: the refusal or the peak memory.
Cases: ${amplificationCases.map((c) => c.name).join(', ')}`;

const { values, positionals } = benchArgs(usage, {
  options: { 'heap-mb': { type: 'string', default: '400' }, json: { type: 'string' } },
  allowPositionals: true,
});

export interface AmplificationResult {
  readonly case: string;
  readonly what: string;
  readonly inputBytes: number;
  /** `decoded`, the WK_ code of the refusal, or `crashed (…)`. */
  readonly outcome: string;
  readonly message: string;
  readonly ms: number | undefined;
  readonly rssBeforeMiB: number | undefined;
  readonly peakRssMiB: number | undefined;
}

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
// The CLI as the package installs it: its bin, in the package's built tree.
const cli = join(
  repoRoot,
  (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { bin: { wirekit: string } }).bin
    .wirekit,
);

interface ChildEnd {
  /** The exit code, or the signal that ended it (an exhausted heap aborts: SIGABRT). */
  readonly end: number | string;
  readonly stdout: string;
  readonly stderr: string;
}

function runChild(args: readonly string[], peakFile: string): Promise<ChildEnd> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [`--max-old-space-size=${heapMb}`, '--import', here('./peak.js'), ...args],
      { env: { ...process.env, WIREKIT_PEAK_FILE: peakFile }, maxBuffer: 16 * 1024 * 1024, timeout: 300_000 },
      (error, stdout, stderr) => {
        const end =
          error === null
            ? 0
            : (error.signal ?? (typeof error.code === 'number' ? error.code : String(error.code)));
        resolve({ end, stdout, stderr });
      },
    );
    child.stdin?.end();
  });
}

function peakOf(file: string): number | undefined {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { peakRssMiB: number }).peakRssMiB;
  } catch {
    return undefined; // the child died before its exit handler ran: the heap ran out
  }
}

async function runCase(
  found: AmplificationCase,
  input: string,
  inputBytes: number,
): Promise<AmplificationResult> {
  const peakFile = join(dir, `${found.name}.peak.json`);
  const base = { case: found.name, what: found.what, inputBytes };
  if ('cli' in found.decode) {
    const started = process.hrtime.bigint();
    const { end, stderr } = await runChild([cli, ...found.decode.cli(input)], peakFile);
    const ms = Math.round(Number(process.hrtime.bigint() - started) / 1e6);
    const line = stderr.trim().split('\n')[0] ?? '';
    const refusal = /\b(WK_[A-Z_]+)\b/.exec(line)?.[1];
    const outcome = end === 0 ? 'decoded' : end === 1 && refusal !== undefined ? refusal : `crashed (${end})`;
    return { ...base, outcome, message: line, ms, rssBeforeMiB: undefined, peakRssMiB: peakOf(peakFile) };
  }
  const { end, stdout, stderr } = await runChild([here('./worker.js'), found.name, input], peakFile);
  if (end !== 0) {
    const message = stderr.trim().split('\n').slice(0, 3).join(' ');
    return {
      ...base,
      outcome: `crashed (${end})`,
      message,
      ms: undefined,
      rssBeforeMiB: undefined,
      peakRssMiB: peakOf(peakFile),
    };
  }
  const result = JSON.parse(stdout) as WorkerOutcome;
  return { ...base, ...result, peakRssMiB: peakOf(peakFile) };
}

const heapMb = Number(values['heap-mb']);
if (!Number.isInteger(heapMb) || heapMb < 64)
  throw new Error(`--heap-mb takes an integer of at least 64, got ${values['heap-mb']}`);
const chosen = positionals.length > 0 ? positionals.map(amplificationCase) : amplificationCases;
const dir = mkdtempSync(join(tmpdir(), 'wirekit-amplification-'));
const results: AmplificationResult[] = [];
try {
  // Cases that share an input (the envelope's four) share its file, made once.
  const files = new Map<AmplificationCase['input'], { path: string; bytes: number }>();
  for (const found of chosen) {
    let file = files.get(found.input);
    if (file === undefined) {
      const bytes = found.input();
      file = { path: join(dir, `${found.name}.bin`), bytes: bytes.length };
      writeFileSync(file.path, bytes);
      files.set(found.input, file);
    }
    const result = await runCase(found, file.path, file.bytes);
    results.push(result);
    process.stderr.write(`${result.case}: ${result.outcome}\n`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const cell = (value: number | undefined, unit: string) => (value === undefined ? '-' : `${value} ${unit}`);
const rows = results.map((r) => [
  r.case,
  `${r.inputBytes.toLocaleString('en-US')} B`,
  r.outcome,
  cell(r.ms, 'ms'),
  cell(r.rssBeforeMiB, 'MiB'),
  cell(r.peakRssMiB, 'MiB'),
]);
const header = ['case', 'input', 'outcome', 'decode', 'RSS before', 'peak RSS'];
const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)));
const line = (cells: readonly string[]) => cells.map((text, i) => text.padEnd(widths[i] ?? 0)).join('  ');
process.stdout.write(`Node ${process.version}, --max-old-space-size=${heapMb}, one fresh process a case\n`);
process.stdout.write(`${[line(header), ...rows.map(line)].join('\n')}\n`);
if (values.json !== undefined) writeFileSync(values.json, `${JSON.stringify(results, null, 2)}\n`);
