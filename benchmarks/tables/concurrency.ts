/**
 * The field report's second failure: heap × concurrency. One demo server per case, started fresh
 * with a capped heap (`--max-old-space-size=512` unless told), takes 8 concurrent requests for the
 * same 1-year range; the bench reads every body to its end (counting bytes, keeping none) and asks
 * the server for its peak heap and RSS. Cases: the typical JSON API (every row an object, then one
 * JSON.stringify), wirekit's JSON and wirekit's Arrow (both streamed from the query's batches).
 * A server that runs out of heap dies: the case says so, with what the clients saw.
 */
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { freePort } from '../../test/support/servers/free-port.js';
import { startDemoServer } from './demo-server.js';

export interface ConcurrencyCase {
  readonly name: 'typical JSON' | 'wirekit JSON' | 'wirekit Arrow';
  readonly path: string;
  readonly accept: string;
}

export const concurrencyCases: readonly ConcurrencyCase[] = [
  { name: 'typical JSON', path: '/typical/series', accept: 'application/json' },
  { name: 'wirekit JSON', path: '/series', accept: 'application/json' },
  { name: 'wirekit Arrow', path: '/series', accept: 'application/vnd.apache.arrow.stream' },
];

export interface ConcurrencyResult {
  readonly name: string;
  readonly requests: number;
  readonly completed: number;
  readonly survived: boolean;
  readonly wallMs: number;
  readonly bytesPerRequest: number;
  readonly peakHeapBytes: number | undefined;
  readonly peakRssBytes: number | undefined;
  readonly failure: string | undefined;
}

export interface ConcurrencyOptions {
  readonly requests?: number;
  readonly months?: number;
  /** Range asked for, in months back from the table's end (default 12: the report's 1 year). */
  readonly rangeMonths?: number;
  readonly maxOldSpaceMb?: number;
  readonly dataDir: string;
  readonly log?: (line: string) => void;
}

/** Reads a body to its end, counting bytes. */
async function drain(response: Response): Promise<number> {
  let bytes = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
  return bytes;
}

export async function runConcurrencyCase(
  testCase: ConcurrencyCase,
  options: ConcurrencyOptions,
): Promise<ConcurrencyResult> {
  mkdirSync(options.dataDir, { recursive: true });
  const requests = options.requests ?? 8;
  const server = await startDemoServer({
    port: await freePort(),
    months: options.months ?? 24,
    dataDir: options.dataDir,
    nodeArgs: [`--max-old-space-size=${options.maxOldSpaceMb ?? 512}`],
    // The demo bounds its typical route's rows; this bench measures the pattern unbounded, in a
    // server whose heap cap keeps the damage to that server.
    serverArgs: ['--typical-max-rows', 'none'],
  });
  const { child, url: base } = server;
  let exited: string | undefined;
  child.once('exit', (code, signal) => {
    exited = `the server died (${signal ?? `exit ${code}`})`;
  });
  try {
    const meta = (await (await fetch(`${base}/meta`)).json()) as { to: string };
    const from = new Date(meta.to);
    from.setUTCMonth(from.getUTCMonth() - (options.rangeMonths ?? 12));
    await fetch(`${base}/stats/reset`, { method: 'POST' });
    const started = performance.now();
    const outcomes = await Promise.allSettled(
      Array.from({ length: requests }, async () => {
        const response = await fetch(`${base}${testCase.path}?from=${from.toISOString()}`, {
          headers: { accept: testCase.accept },
        });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        return drain(response);
      }),
    );
    const wallMs = performance.now() - started;
    const sizes = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    const errors = outcomes.flatMap((outcome) =>
      outcome.status === 'rejected'
        ? [String((outcome.reason as Error).cause ?? (outcome.reason as Error).message)]
        : [],
    );
    // A server that died may not have reported its exit yet when its clients saw the sockets close.
    if (errors.length > 0 && exited === undefined) await Promise.race([once(child, 'exit'), delay(2000)]);
    let stats: { peakHeapUsed: number; peakRss: number } | undefined;
    if (exited === undefined) {
      try {
        stats = (await (await fetch(`${base}/stats`)).json()) as { peakHeapUsed: number; peakRss: number };
      } catch (error) {
        exited = `the server stopped answering (${(error as Error).message})`;
      }
    }
    const complete = sizes.length === requests && new Set(sizes).size === 1;
    return {
      name: testCase.name,
      requests,
      completed: sizes.length,
      survived: exited === undefined && complete,
      wallMs,
      bytesPerRequest: Math.max(0, ...sizes),
      peakHeapBytes: stats?.peakHeapUsed,
      peakRssBytes: stats?.peakRss,
      failure:
        exited ??
        (errors.length > 0
          ? `${errors.length} requests failed: ${errors[0]}`
          : complete
            ? undefined
            : 'bodies differ in size'),
    };
  } finally {
    await server.stop();
  }
}

const mib = (bytes: number | undefined) => (bytes === undefined ? '–' : `${Math.round(bytes / 2 ** 20)} MiB`);

export function concurrencyMarkdown(
  results: readonly ConcurrencyResult[],
  options: ConcurrencyOptions,
): string {
  const lines = [
    `${options.requests ?? 8} concurrent requests for the last ${options.rangeMonths ?? 12} months, one fresh server per case, \`--max-old-space-size=${options.maxOldSpaceMb ?? 512}\`:`,
    '',
    '| case | survived | completed | wall time | bytes per reply | server peak heap | server peak RSS | what happened |',
    '|---|---|---:|---:|---:|---:|---:|---|',
  ];
  for (const r of results) {
    lines.push(
      `| ${r.name} | ${r.survived ? 'yes' : '**no**'} | ${r.completed}/${r.requests} | ${(r.wallMs / 1000).toFixed(1)} s | ${(r.bytesPerRequest / 1e6).toFixed(1)} MB | ${mib(r.peakHeapBytes)} | ${mib(r.peakRssBytes)} | ${r.failure ?? ''} |`,
    );
  }
  return lines.join('\n');
}

function flagValue(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
}

/**
 * `npm run bench:tables -- concurrency [--requests 8] [--range-months 12] [--months 24]
 * [--max-old-space 512] [--data DIR] [--cases 'wirekit Arrow,typical JSON'] [--markdown FILE]
 * [--json FILE]`: each case in a fresh server process, the table printed as Markdown.
 */
export async function concurrencyMain(args: readonly string[]): Promise<void> {
  const { writeFileSync } = await import('node:fs');
  const { homedir } = await import('node:os');
  const { join } = await import('node:path');
  const number = (name: string) => {
    const text = flagValue(args, name);
    return text === undefined ? undefined : Number(text);
  };
  const picked = flagValue(args, '--cases')?.split(',');
  const options: ConcurrencyOptions = {
    dataDir:
      flagValue(args, '--data') ??
      join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'wirekit', 'demo'),
    ...(number('--requests') !== undefined && { requests: number('--requests') as number }),
    ...(number('--range-months') !== undefined && { rangeMonths: number('--range-months') as number }),
    ...(number('--months') !== undefined && { months: number('--months') as number }),
    ...(number('--max-old-space') !== undefined && { maxOldSpaceMb: number('--max-old-space') as number }),
  };
  const results: ConcurrencyResult[] = [];
  for (const testCase of concurrencyCases) {
    if (picked !== undefined && !picked.includes(testCase.name)) continue;
    process.stderr.write(`${testCase.name}: ${options.requests ?? 8} concurrent requests ...\n`);
    results.push(await runConcurrencyCase(testCase, options));
  }
  const markdown = concurrencyMarkdown(results, options);
  process.stdout.write(`${markdown}\n`);
  const markdownFile = flagValue(args, '--markdown');
  if (markdownFile !== undefined) writeFileSync(markdownFile, `${markdown}\n`);
  const jsonFile = flagValue(args, '--json');
  if (jsonFile !== undefined) writeFileSync(jsonFile, `${JSON.stringify(results, null, 2)}\n`);
}
