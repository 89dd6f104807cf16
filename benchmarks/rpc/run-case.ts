/**
 * One case of bench:rpc: a fresh server process for the stack, a fresh client process, a warm-up
 * window, then the measured window between two marks of the server's CPU, and the stack's
 * serializer timed alone in the same server process afterwards.
 */
import { fileURLToPath } from 'node:url';
import { BenchChild } from '../ws/child.js';
import type { StackEntry } from './cases.js';
import type { ClientCommand, ClientReply, ServerCommand, ServerReply, Window } from './protocol.js';
import type { Workload } from './service.js';

export interface CaseSettings {
  readonly users: number;
  readonly seconds: number;
  readonly warmupSeconds: number;
  readonly concurrency: Readonly<Record<Workload, number>>;
  /** How much CPU time the serializer alone is given to be timed (at least five rounds). */
  readonly serializeMs: number;
  /** Where each server process writes its V8 CPU profile (`--cpu-prof`), if anywhere. */
  readonly cpuProfileDir: string | undefined;
}

export interface CaseResult {
  readonly id: string;
  readonly workload: Workload;
  readonly repetition: number;
  readonly concurrency: number;
  readonly client: Window;
  /** The server process's CPU over the measured window. */
  readonly serverCpuUs: number;
  readonly serverWallMs: number;
  /** The stack's serializer alone on one reply (a stream: all its messages), mean CPU µs. */
  readonly serializeUs: number;
}

const script = (name: string) => fileURLToPath(new URL(`./${name}.js`, import.meta.url));

export async function runCase(
  entry: StackEntry,
  workload: Workload,
  repetition: number,
  settings: CaseSettings,
): Promise<CaseResult> {
  const profile =
    settings.cpuProfileDir === undefined
      ? []
      : [
          '--cpu-prof',
          '--cpu-prof-dir',
          settings.cpuProfileDir,
          '--cpu-prof-name',
          `${workload}-${entry.id}-${repetition + 1}.cpuprofile`,
        ];
  const server = new BenchChild<ServerCommand, ServerReply>(`the ${entry.id} server`, script('server'), [
    ...process.execArgv,
    ...profile,
  ]);
  const client = new BenchChild<ClientCommand, ClientReply>('the rpc bench client', script('client'));
  try {
    const { port } = await server.request(
      { type: 'start', stack: entry.stack, codec: entry.codec, users: settings.users },
      'ready',
    );
    const concurrency = settings.concurrency[workload];
    const target = {
      port,
      protocol: entry.protocol,
      codec: entry.codec,
      workload,
      users: settings.users,
      concurrency,
    };
    await client.request({ type: 'connect', target }, 'connected');
    await client.request({ type: 'run', seconds: settings.warmupSeconds }, 'ran');
    await server.request({ type: 'mark' }, 'window');
    const { type: _ran, ...window } = await client.request({ type: 'run', seconds: settings.seconds }, 'ran');
    const used = await server.request({ type: 'mark' }, 'window');
    const serialized = await server.request(
      { type: 'serialize', workload, milliseconds: settings.serializeMs },
      'serialized',
    );
    return {
      id: entry.id,
      workload,
      repetition,
      concurrency,
      client: window,
      serverCpuUs: used.cpuUs,
      serverWallMs: used.wallMs,
      serializeUs: serialized.us,
    };
  } finally {
    await Promise.all([client.stop(), server.stop()]);
  }
}
