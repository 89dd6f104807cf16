/**
 * The orchestrator's side of bench:events's producer and consumer processes: fork one with its
 * spec, and ask it something over IPC and wait for the answer of the expected type. A child that
 * reports an error, or exits, fails whatever waits on it, so a broken case ends with the child's
 * own message instead of hanging the run.
 */
import { type ChildProcess, fork } from 'node:child_process';

export interface Child<Out extends { type: string }> {
  readonly process: ChildProcess;
  /** Its first message, sent once it is ready. */
  readonly ready: Extract<Out, { type: 'ready' }>;
  /** Sends `message` (if any) and resolves the next message of type `type`. */
  request<T extends Out['type']>(message: unknown, type: T): Promise<Extract<Out, { type: T }>>;
  /** Resolves when it exited; kills it if it has not within `ms`. */
  exit(ms: number): Promise<void>;
}

export async function forkChild<Out extends { type: string }>(
  script: string,
  spec: unknown,
  execArgv: readonly string[] = [],
): Promise<Child<Out>> {
  const child = fork(script, [JSON.stringify(spec)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: [...execArgv],
  });
  const waiting = new Map<string, { resolve: (message: Out) => void; reject: (error: Error) => void }>();
  let ended: Error | undefined;
  const failAll = (error: Error) => {
    ended ??= error;
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  child.on('message', (message: Out | { type: 'error'; message: string }) => {
    if (message.type === 'error' && 'message' in message) {
      failAll(new Error(`${script}: ${message.message}`));
      return;
    }
    const waiter = waiting.get(message.type);
    if (waiter === undefined) return;
    waiting.delete(message.type);
    waiter.resolve(message as Out);
  });
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      failAll(new Error(`${script} exited (${signal ?? code})`));
      resolve();
    });
  });
  const handle: Omit<Child<Out>, 'ready'> = {
    process: child,
    request(message, type) {
      if (ended !== undefined) return Promise.reject(ended);
      if (waiting.has(type)) return Promise.reject(new Error(`already waiting for ${type}`));
      const answer = new Promise<Out>((resolve, reject) => waiting.set(type, { resolve, reject }));
      if (message !== undefined) child.send(message as object);
      return answer as Promise<Extract<Out, { type: typeof type }>>;
    },
    async exit(ms) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const timer = setTimeout(() => child.kill('SIGKILL'), ms);
      await exited;
      clearTimeout(timer);
    },
  };
  const ready = (await handle.request(undefined, 'ready' as Out['type'])) as Extract<Out, { type: 'ready' }>;
  return { ...handle, ready };
}
