/**
 * One case of the WebSocket benchmark: a fresh server process, a client process with `clients`
 * sockets in one format, a window at the fixed rate, then the ramp that finds how many messages a
 * second the server keeps up with.
 *
 * A step holds when, over its window, the clients received at least 95 % of the messages offered
 * (rate × clients × time), the route dropped nothing, no connection closed and the server's
 * event-loop delay p99 stayed under the threshold. The ramp doubles the rate from `rampFrom`
 * messages a second until a step fails (or halves it until one holds), then tries the geometric
 * middle of the last held and the first failed rate once, so the answer is within a factor √2.
 */

import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { BenchChild } from './child.js';
import type { BenchFormat, ClientCommand, ClientReply, ServerCommand, ServerReply } from './protocol.js';

export interface CaseSettings {
  /** Ticks a second each client receives in the fixed-rate window (the example's 100). */
  readonly fixedRate: number;
  /** Seconds of each measured window. */
  readonly duration: number;
  /** Total messages a second the ramp starts from (or the fixed rate × clients, if higher). */
  readonly rampFrom: number;
  readonly maxSteps: number;
  /** A step whose event-loop delay p99 passes this fails. */
  readonly maxLoopMs: number;
}

export interface Step {
  /** Ticks a second per client, and messages a second offered in all. */
  readonly perClient: number;
  readonly offeredPerSecond: number;
  readonly receivedPerSecond: number;
  /** Received ÷ offered. */
  readonly delivered: number;
  readonly bytesPerMessage: number;
  /** Server CPU time (user + system) ÷ messages sent. */
  readonly cpuUsPerMessage: number;
  /** Server and client process CPU time ÷ wall time, in % of one core. */
  readonly serverCpuPercent: number;
  readonly clientCpuPercent: number;
  readonly loopP99Ms: number;
  readonly dropped: number;
  readonly missedTicks: number;
  readonly held: boolean;
  /** Why a step failed ('' when it held). */
  readonly reason: string;
}

export interface CaseResult {
  readonly format: BenchFormat;
  readonly clients: number;
  readonly fixed: Step;
  /** The highest step held, if any held; `limitFound` false when the ramp ran out of steps first. */
  readonly maxHeld: Step | undefined;
  readonly firstFailed: Step | undefined;
  readonly limitFound: boolean;
  readonly steps: readonly Step[];
}

const script = (name: string) => fileURLToPath(new URL(`./${name}.js`, import.meta.url));

export async function runCase(
  format: BenchFormat,
  clients: number,
  settings: CaseSettings,
): Promise<CaseResult> {
  const server = new BenchChild<ServerCommand, ServerReply>('the ws bench server', script('server'));
  const peers = new BenchChild<ClientCommand, ClientReply>('the ws bench clients', script('clients'));
  try {
    const { port } = await server.next('ready');
    const protocol = format === 'native' ? undefined : `wirekit.${format}`;
    const url = `ws://127.0.0.1:${port}/${format === 'native' ? 'native' : 'ws'}`;
    const connected = await peers.request({ type: 'connect', url, protocol, count: clients }, 'connected');
    if (connected.protocol !== (protocol ?? ''))
      throw new Error(`${format}: the server chose '${connected.protocol}'`);

    const step = async (perClient: number): Promise<Step> => {
      await server.request({ type: 'rate', perClient }, 'rate');
      // A quarter second at the new rate before the window opens: the timers and the JIT settle.
      await sleep(250);
      await Promise.all([
        server.request({ type: 'mark' }, 'window'),
        peers.request({ type: 'mark' }, 'window'),
      ]);
      await sleep(settings.duration * 1000);
      const [s, c] = await Promise.all([
        server.request({ type: 'mark' }, 'window'),
        peers.request({ type: 'mark' }, 'window'),
      ]);
      await server.request({ type: 'rate', perClient: 0 }, 'rate');
      await drain(peers);
      const seconds = s.wallMs / 1000;
      const offered = perClient * clients * seconds;
      const delivered = offered > 0 ? c.received / offered : 0;
      const reasons = [
        delivered < 0.95 ? `received ${(delivered * 100).toFixed(0)} %` : '',
        s.dropped > 0 ? `dropped ${s.dropped}` : '',
        c.closed > 0 ? `${c.closed} closed` : '',
        s.loopP99Ms > settings.maxLoopMs ? `loop p99 ${s.loopP99Ms.toFixed(0)} ms` : '',
      ].filter((reason) => reason !== '');
      return {
        perClient,
        offeredPerSecond: perClient * clients,
        receivedPerSecond: c.received / seconds,
        delivered,
        bytesPerMessage: c.received > 0 ? c.bytes / c.received : 0,
        cpuUsPerMessage: s.sent > 0 ? s.cpuUs / s.sent : Number.NaN,
        serverCpuPercent: s.cpuUs / 10 / s.wallMs,
        clientCpuPercent: c.cpuUs / 10 / s.wallMs,
        loopP99Ms: s.loopP99Ms,
        dropped: s.dropped,
        missedTicks: s.missedTicks,
        held: reasons.length === 0,
        reason: reasons.join(', '),
      };
    };

    const steps: Step[] = [];
    const fixed = await step(settings.fixedRate);
    steps.push(fixed);
    const run = async (perClient: number) => {
      const result = await step(perClient);
      steps.push(result);
      return result;
    };
    let held: Step | undefined;
    let failed: Step | undefined;
    let perClient = Math.max(settings.fixedRate, Math.ceil(settings.rampFrom / clients));
    while (steps.length <= settings.maxSteps && failed === undefined) {
      const result = await run(perClient);
      if (result.held) held = result;
      else failed = result;
      perClient *= 2;
    }
    // Nothing held from the start: halve until a step holds.
    for (let rate = (failed?.perClient ?? 0) / 2; held === undefined && rate >= 1; rate /= 2) {
      if (steps.length > settings.maxSteps) break;
      const result = await run(Math.floor(rate));
      if (result.held) held = result;
      else failed = result;
    }
    if (held !== undefined && failed !== undefined && steps.length <= settings.maxSteps) {
      const middle = Math.round(Math.sqrt(held.perClient * failed.perClient));
      if (middle > held.perClient && middle < failed.perClient) {
        const result = await run(middle);
        if (result.held) held = result;
        else failed = result;
      }
    }
    return {
      format,
      clients,
      fixed,
      maxHeld: held,
      firstFailed: failed,
      limitFound: failed !== undefined,
      steps,
    };
  } finally {
    await Promise.all([peers.stop(), server.stop()]);
  }
}

/** Waits until the messages in flight have arrived (no message in 100 ms; 3 s at most). */
async function drain(peers: BenchChild<ClientCommand, ClientReply>): Promise<void> {
  for (let waited = 0; waited < 3000; waited += 100) {
    await sleep(100);
    const { received } = await peers.request({ type: 'mark' }, 'window');
    if (received === 0) return;
  }
}
