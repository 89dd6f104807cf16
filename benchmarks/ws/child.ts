/**
 * A forked benchmark process spoken to over its IPC channel: send a command, await the next reply
 * of a given type. A reply of type `failed`, or the process exiting, rejects what is awaited, so a
 * case that breaks ends with a message instead of hanging the run.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { stopProcess } from '../../test/support/servers/server-process.js';

interface Reply {
  readonly type: string;
}

export class BenchChild<Command, R extends Reply> {
  readonly process: ChildProcess;
  readonly #inbox: R[] = [];
  #waiting: { type: string; resolve: (reply: R) => void; reject: (error: Error) => void } | undefined;
  #exited: Error | undefined;

  constructor(
    readonly name: string,
    script: string,
    /** Node's options for the child (default: this process's, as fork does). */
    execArgv: readonly string[] = process.execArgv,
  ) {
    this.process = fork(script, [], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      execArgv: [...execArgv],
    });
    this.process.on('message', (reply: R) => {
      this.#inbox.push(reply);
      this.#deliver();
    });
    this.process.once('exit', (code, signal) => {
      this.#exited = new Error(`${name} exited (${signal ?? code})`);
      this.#waiting?.reject(this.#exited);
      this.#waiting = undefined;
    });
  }

  /** The next reply of `type` (earlier replies of other types are discarded). */
  next<T extends R['type']>(type: T): Promise<Extract<R, { type: T }>> {
    if (this.#exited !== undefined) return Promise.reject(this.#exited);
    return new Promise((resolve, reject) => {
      this.#waiting = { type, resolve: resolve as (reply: R) => void, reject };
      this.#deliver();
    });
  }

  request<T extends R['type']>(command: Command, type: T): Promise<Extract<R, { type: T }>> {
    this.process.send(command as object);
    return this.next(type);
  }

  /** Ends the process (SIGTERM, then SIGKILL if it hangs). */
  stop(): Promise<void> {
    return stopProcess(this.process, 'SIGTERM', 2_000);
  }

  #deliver(): void {
    const waiting = this.#waiting;
    if (waiting === undefined) return;
    for (let reply = this.#inbox.shift(); reply !== undefined; reply = this.#inbox.shift()) {
      if (reply.type === 'failed') {
        this.#waiting = undefined;
        waiting.reject(new Error(`${this.name}: ${(reply as { message?: string }).message}`));
        return;
      }
      if (reply.type === waiting.type) {
        this.#waiting = undefined;
        waiting.resolve(reply);
        return;
      }
    }
  }
}
