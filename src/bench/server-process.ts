/**
 * A throwaway server process as the benchmarks and tests start them (redis-server, nats-server, a
 * Kafka JVM): spawned, then awaited until its output shows the line that says it is ready, and
 * stopped by signal. One home for the waiting, so a timeout, an early exit or a failed spawn reads
 * the same for every server, with the tail of what it printed.
 */
import { type ChildProcess, spawn } from 'node:child_process';

export interface ReadyOptions {
  /** The line, on stdout or stderr, that says the server is ready. */
  readonly ready: RegExp;
  /** What to call it in errors. */
  readonly name: string;
  readonly timeoutMs: number;
}

/** Spawns the command and resolves once `ready` appears in its output; kills it and rejects otherwise. */
export function spawnUntilReady(
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
