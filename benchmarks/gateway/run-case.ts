/**
 * One case of bench:gateway: a fresh backend process (bench:rpc's server process, running the
 * hop's backend stack), a fresh gateway process in front of it and a fresh load-generator process;
 * a warm-up window, then the measured window between two marks of the gateway's CPU and of the
 * backend's.
 */
import { fileURLToPath } from 'node:url';
import type { ServerCommand, ServerReply, Window } from '../rpc/protocol.js';
import { BenchChild } from '../ws/child.js';
import type { HopEntry } from './cases.js';
import type { GatewayCommand, GatewayReply, LoadCommand, LoadReply } from './protocol.js';
import type { GatewayWorkload } from './service.js';

export interface CaseSettings {
  readonly users: number;
  readonly seconds: number;
  readonly warmupSeconds: number;
  readonly concurrency: Readonly<Record<GatewayWorkload, number>>;
  /** Where each gateway process writes its V8 CPU profile (`--cpu-prof`), if anywhere. */
  readonly cpuProfileDir: string | undefined;
}

export interface CaseResult {
  readonly hop: HopEntry['id'];
  readonly workload: GatewayWorkload;
  readonly repetition: number;
  readonly concurrency: number;
  readonly client: Window;
  /** Each process's CPU over the measured window. */
  readonly gatewayCpuUs: number;
  readonly backendCpuUs: number;
}

const script = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export async function runCase(
  entry: HopEntry,
  workload: GatewayWorkload,
  repetition: number,
  settings: CaseSettings,
): Promise<CaseResult> {
  const backend = new BenchChild<ServerCommand, ServerReply>(
    `the ${entry.backend} backend`,
    script('../rpc/server.js'),
  );
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
  const gateway = new BenchChild<GatewayCommand, GatewayReply>(
    `the ${entry.id} gateway`,
    script('./gateway.js'),
    [...process.execArgv, ...profile],
  );
  const load = new BenchChild<LoadCommand, LoadReply>('the load generator', script('./load.js'));
  try {
    const concurrency = settings.concurrency[workload];
    const { port: backendPort } = await backend.request(
      { type: 'start', stack: entry.backend, codec: entry.codec, users: settings.users },
      'ready',
    );
    const { port } = await gateway.request(
      { type: 'start', hop: entry.id, backendPort, connections: concurrency },
      'ready',
    );
    const target = { port, hop: entry.id, workload, users: settings.users, concurrency };
    await load.request({ type: 'connect', target }, 'connected');
    await load.request({ type: 'run', seconds: settings.warmupSeconds }, 'ran');
    await Promise.all([
      gateway.request({ type: 'mark' }, 'window'),
      backend.request({ type: 'mark' }, 'window'),
    ]);
    const { type: _ran, ...window } = await load.request({ type: 'run', seconds: settings.seconds }, 'ran');
    const [gatewayUsed, backendUsed] = await Promise.all([
      gateway.request({ type: 'mark' }, 'window'),
      backend.request({ type: 'mark' }, 'window'),
    ]);
    return {
      hop: entry.id,
      workload,
      repetition,
      concurrency,
      client: window,
      gatewayCpuUs: gatewayUsed.cpuUs,
      backendCpuUs: backendUsed.cpuUs,
    };
  } finally {
    await Promise.all([load.stop(), gateway.stop(), backend.stop()]);
  }
}
