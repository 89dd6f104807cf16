/**
 * A throwaway NATS server with JetStream (Debian's `nats-server`) on a free port of 127.0.0.1, for
 * the event tests and benchmarks: its own temporary store directory, stopped and removed by `stop()`.
 *
 * `kill()` then `start()` restarts it on the same port with its JetStream store kept (streams,
 * messages, consumers and their acknowledgements), which is how the tests take the server away
 * from running producers and consumers and give it back.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { spawnUntilReady, stopProcess } from './server-process.js';

export interface NatsServer {
  readonly host: string;
  readonly port: number;
  /** nats://127.0.0.1:PORT */
  readonly url: string;
  /** The JetStream store directory (kept across kill/start, removed by stop). */
  readonly storeDir: string;
  /** Milliseconds from spawn to "Server is ready" (of the last start). */
  readonly startMs: number;
  /** Kills the server (SIGKILL: a crash, as its clients see it); the port and the store stay for `start`. */
  kill(): Promise<void>;
  /** Starts it again on the same port, with the JetStream store it had. */
  start(): Promise<void>;
  /** Stops it cleanly (SIGINT: nats-server's own shutdown; SIGTERM makes it exit 1) and removes its store. */
  stop(): Promise<void>;
}

export interface NatsServerOptions {
  /** Extra nats-server arguments. */
  readonly args?: readonly string[];
  /** The program (default `nats-server` on the PATH). */
  readonly command?: string;
}

const readyLine = /Server is ready/;

export async function startNats(options: NatsServerOptions = {}): Promise<NatsServer> {
  const storeDir = mkdtempSync(join(tmpdir(), 'wirekit-nats-'));
  const port = await freePort();
  const args = ['-js', '-sd', storeDir, '-a', '127.0.0.1', '-p', String(port), ...(options.args ?? [])];
  let child: ChildProcess | undefined;
  let startMs = 0;

  const start = async () => {
    if (child !== undefined) throw new Error('nats-server is already running');
    const started = performance.now();
    // nats-server logs to stderr; spawnUntilReady reads stdout too.
    child = await spawnUntilReady(options.command ?? 'nats-server', args, {
      ready: readyLine,
      name: 'nats-server',
      timeoutMs: 10_000,
    });
    startMs = performance.now() - started;
  };

  // A clean shutdown that hangs (it should take milliseconds) ends as a kill after 5 s.
  const signal = async (name: NodeJS.Signals) => {
    const running = child;
    child = undefined;
    await stopProcess(running, name);
  };

  await start();
  return {
    host: '127.0.0.1',
    port,
    url: `nats://127.0.0.1:${port}`,
    storeDir,
    get startMs() {
      return startMs;
    },
    kill: () => signal('SIGKILL'),
    start,
    async stop() {
      await signal('SIGINT');
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
