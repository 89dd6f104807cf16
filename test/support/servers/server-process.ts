/**
 * A throwaway server process as the benchmarks and tests start them (redis-server, nats-server, a
 * Kafka JVM): spawned, then awaited until its output shows the line that says it is ready, and
 * stopped by signal. One home for the waiting, so a timeout, an early exit or a failed spawn reads
 * the same for every server, with the tail of what it printed; and one home for the handle a test
 * gets (`startLocalServer`): kill it, start it again on the same port with the same directory, and
 * stop it for good, which is how the tests take a server away from its clients and give it back.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';

export interface ReadyOptions {
  /** The line, on stdout or stderr, that says the server is ready. */
  readonly ready: RegExp;
  /** What to call it in errors. */
  readonly name: string;
  readonly timeoutMs: number;
}

/** Spawns the command and resolves once `ready` appears in its output; kills it and rejects otherwise. */
function spawnUntilReady(
  command: string,
  args: readonly string[],
  options: ReadyOptions,
): Promise<ChildProcess> {
  const process = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise<ChildProcess>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => fail(new Error(`${options.name} did not become ready in ${options.timeoutMs / 1000} s`)),
      options.timeoutMs,
    );
    const fail = (error: Error) => {
      clearTimeout(timer);
      process.kill('SIGKILL');
      reject(new Error(`${error.message}\n${output.slice(-4000)}`));
    };
    process.once('error', fail);
    process.once('exit', (code) =>
      fail(new Error(`${options.name} exited with ${code} before it was ready`)),
    );
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (!options.ready.test(output)) return;
      clearTimeout(timer);
      process.removeAllListeners('exit');
      process.removeAllListeners('error');
      for (const stream of [process.stdout, process.stderr]) {
        stream?.removeAllListeners('data');
        // Keep draining, so a chatty server never blocks on a full pipe.
        stream?.resume();
      }
      resolve(process);
    };
    process.stdout?.on('data', collect);
    process.stderr?.on('data', collect);
  });
}

/**
 * Sends the signal and resolves when the process has exited (at once if it already had). A
 * process that has not exited `graceMs` after a signal other than SIGKILL is killed.
 */
export function stopProcess(
  process: ChildProcess | undefined,
  signal: NodeJS.Signals = 'SIGKILL',
  graceMs = 5_000,
): Promise<void> {
  if (process === undefined || process.exitCode !== null || process.signalCode !== null) {
    return Promise.resolve();
  }
  return new Promise<void>((resolve) => {
    const stuck = signal === 'SIGKILL' ? undefined : setTimeout(() => process.kill('SIGKILL'), graceMs);
    process.once('exit', () => {
      clearTimeout(stuck);
      resolve();
    });
    process.kill(signal);
  });
}

/** A server on 127.0.0.1 that a test can take away from its clients and give back. */
export interface LocalServer {
  readonly host: string;
  readonly port: number;
  /** Milliseconds from spawn to the ready line (of the last start). */
  readonly startMs: number;
  /** Kills it (SIGKILL: a crash, as its clients see it); its port and its directory stay for `start`. */
  kill(): Promise<void>;
  /** Starts it again on the same port, with what its directory kept (if it keeps anything). */
  start(): Promise<void>;
  /** Stops it (with `stopSignal`) and removes its directory. */
  stop(): Promise<void>;
}

export interface LocalServerOptions extends ReadyOptions {
  readonly command: string;
  /** The arguments of every start: the port and the directory are in them. */
  readonly args: readonly string[];
  readonly port: number;
  /** The server's own temporary directory, removed by `stop` (and when the first start fails). */
  readonly dir: string;
  /** What `stop` sends (default SIGKILL; nats-server wants SIGINT to exit cleanly). */
  readonly stopSignal?: NodeJS.Signals;
}

/** Starts the server and resolves with its handle once it is ready. */
export async function startLocalServer(options: LocalServerOptions): Promise<LocalServer> {
  let child: ChildProcess | undefined;
  let startMs = 0;
  const start = async () => {
    if (child !== undefined) throw new Error(`${options.name} is already running`);
    const started = performance.now();
    child = await spawnUntilReady(options.command, options.args, options);
    startMs = performance.now() - started;
  };
  // A clean shutdown that hangs (it should take milliseconds) ends as a kill, see stopProcess.
  const signal = async (name: NodeJS.Signals) => {
    const running = child;
    child = undefined;
    await stopProcess(running, name);
  };
  try {
    await start();
  } catch (error) {
    rmSync(options.dir, { recursive: true, force: true });
    throw error;
  }
  return {
    host: '127.0.0.1',
    port: options.port,
    get startMs() {
      return startMs;
    },
    kill: () => signal('SIGKILL'),
    start,
    async stop() {
      await signal(options.stopSignal ?? 'SIGKILL');
      rmSync(options.dir, { recursive: true, force: true });
    },
  };
}
