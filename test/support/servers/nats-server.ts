/**
 * A throwaway NATS server with JetStream (Debian's `nats-server`) on a free port of 127.0.0.1, for
 * the event tests and benchmarks: its own temporary store directory, stopped and removed by `stop()`.
 *
 * `kill()` then `start()` restarts it on the same port with its JetStream store kept (streams,
 * messages, consumers and their acknowledgements), which is how the tests take the server away
 * from running producers and consumers and give it back.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { type LocalServer, startLocalServer } from './server-process.js';

/** `stop` is nats-server's own clean shutdown (SIGINT: SIGTERM makes it exit 1). */
export interface NatsServer extends LocalServer {
  /** nats://127.0.0.1:PORT */
  readonly url: string;
  /** The JetStream store directory (kept across kill/start, removed by stop). */
  readonly storeDir: string;
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
  // nats-server logs to stderr; the ready line is looked for on stdout and stderr.
  const server = await startLocalServer({
    command: options.command ?? 'nats-server',
    args,
    port,
    dir: storeDir,
    stopSignal: 'SIGINT',
    ready: readyLine,
    name: 'nats-server',
    timeoutMs: 10_000,
  });
  return Object.assign(server, { url: `nats://127.0.0.1:${port}`, storeDir });
}
