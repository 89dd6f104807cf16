/**
 * The dashboard demo server (examples/dashboard/server.ts) as a child process, for the table
 * benchmarks: started through tsx as `npm run demo` starts it, ready once `GET /meta` answers
 * (the first start generates the table, which takes a while for two years of readings), stopped
 * with SIGTERM. Its output goes to this process's stderr, so a failure to start says why.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../repo-root.js';

const serverScript = join(repoRoot, 'examples/dashboard/server.ts');

export interface DemoServerOptions {
  readonly port: number;
  /** Months of readings in the table (the longest range to be read). */
  readonly months: number;
  /** Where the table is kept between runs; the server's own default when absent. */
  readonly dataDir?: string;
  /** How long the first start (table generation included) may take. */
  readonly startTimeoutMs?: number;
  /** Flags for the server's Node, e.g. a heap cap. */
  readonly nodeArgs?: readonly string[];
  /** Flags for the server itself, e.g. `--typical-max-rows none`. */
  readonly serverArgs?: readonly string[];
}

export interface DemoServer {
  readonly url: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

export async function startDemoServer(options: DemoServerOptions): Promise<DemoServer> {
  const args = [
    ...(options.nodeArgs ?? []),
    '--import',
    'tsx',
    serverScript,
    '--port',
    String(options.port),
    '--months',
    String(options.months),
  ];
  if (options.dataDir !== undefined) args.push('--data', options.dataDir);
  args.push(...(options.serverArgs ?? []));
  // tsx is resolved from the working directory: the repository's.
  // Its stdout goes to our stderr: our stdout is the report alone.
  const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 2, 'inherit'] });
  const url = `http://127.0.0.1:${options.port}`;
  const exited = new Promise<never>((_, reject) => {
    child.once('exit', (code, signal) => reject(new Error(`the demo server exited (${signal ?? code})`)));
  });
  exited.catch(() => {});
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await gone;
  };
  const deadline = Date.now() + (options.startTimeoutMs ?? 900_000);
  try {
    await Promise.race([exited, waitForMeta(url, deadline)]);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, child, stop };
}

async function waitForMeta(url: string, deadline: number): Promise<void> {
  for (;;) {
    try {
      const response = await fetch(`${url}/meta`);
      if (response.ok) {
        await response.arrayBuffer();
        return;
      }
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`the demo server did not answer ${url}/meta in time`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
