/**
 * A throwaway NATS server with JetStream (Debian's `nats-server`) on a free port of 127.0.0.1, for
 * the event tests and benchmarks: its own temporary store directory, stopped and removed by `stop()`.
 *
 * `kill()` then `start()` restarts it on the same port with its JetStream store kept (streams,
 * messages, consumers and their acknowledgements), which is how the tests take the server away
 * from running producers and consumers and give it back.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

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
    const process = spawn(options.command ?? 'nats-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = process;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => fail(new Error('nats-server did not become ready in 10 s')), 10_000);
      const fail = (error: Error) => {
        clearTimeout(timer);
        child = undefined;
        process.kill('SIGKILL');
        reject(new Error(`${error.message}\n${output.slice(-4000)}`));
      };
      process.once('error', fail);
      process.once('exit', (code) => fail(new Error(`nats-server exited with ${code} before it was ready`)));
      // nats-server logs to stderr; stdout is read too in case a build logs there.
      const collect = (chunk: Buffer) => {
        output += chunk.toString();
        if (!readyLine.test(output)) return;
        clearTimeout(timer);
        process.removeAllListeners('exit');
        process.removeAllListeners('error');
        for (const stream of [process.stdout, process.stderr]) {
          stream?.removeAllListeners('data');
          stream?.resume();
        }
        resolve();
      };
      process.stdout?.on('data', collect);
      process.stderr?.on('data', collect);
    });
    startMs = performance.now() - started;
  };

  const signal = async (name: NodeJS.Signals) => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      // A clean shutdown that hangs (it should take milliseconds) ends as a kill.
      const stuck = setTimeout(() => running.kill('SIGKILL'), 5_000);
      running.once('exit', () => {
        clearTimeout(stuck);
        resolve();
      });
      running.kill(name);
    });
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
