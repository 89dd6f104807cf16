/**
 * A throwaway redis-server (Debian's `redis-server` package) on a free port of 127.0.0.1, for the
 * cache benchmark and the cache tests: no persistence, its own temporary directory, stopped and
 * removed by `stop()`. `startRedisCluster` starts three such nodes with cluster mode on and joins
 * them with `redis-cli --cluster create` (every slot covered, no replicas unless asked for).
 *
 * A server can be stopped and started again on the same port (`restart`), which is how the tests
 * take Redis away from a running cache and give it back.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { type LocalServer, startLocalServer } from './server-process.js';

/** A redis-server: `start` after `kill` gives it back empty (nothing is persisted). */
export interface RedisServer extends LocalServer {
  /** redis://127.0.0.1:PORT */
  readonly url: string;
}

export interface RedisServerOptions {
  /** Extra redis-server arguments, e.g. ['--cluster-enabled', 'yes']. */
  readonly args?: readonly string[];
  /** The program (default `redis-server` on the PATH). */
  readonly command?: string;
}

const readyLine = /Ready to accept connections/;

export async function startRedis(options: RedisServerOptions = {}): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'wirekit-redis-'));
  const port = await freePort();
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    dir,
    ...(options.args ?? []),
  ];
  const server = await startLocalServer({
    command: options.command ?? 'redis-server',
    args,
    port,
    dir,
    ready: readyLine,
    name: 'redis-server',
    timeoutMs: 10_000,
  });
  return Object.assign(server, { url: `redis://127.0.0.1:${port}` });
}

export interface RedisCluster {
  readonly nodes: readonly RedisServer[];
  /** [{ host, port }] of every node, as ioredis's Cluster takes its startup nodes. */
  readonly startupNodes: readonly { host: string; port: number }[];
  stop(): Promise<void>;
}

export interface RedisClusterOptions {
  /** Replicas per master (default 0): `size × (1 + replicas)` nodes in all. */
  readonly replicas?: number;
}

/**
 * `size` masters covering all 16,384 slots (and their replicas), ready (`cluster_state:ok` on every
 * node) when it resolves. Replicas may still be copying their master's data then: `WAIT` for them.
 */
export async function startRedisCluster(size = 3, options: RedisClusterOptions = {}): Promise<RedisCluster> {
  const replicas = options.replicas ?? 0;
  const nodes: RedisServer[] = [];
  try {
    for (let i = 0; i < size * (1 + replicas); i++) {
      nodes.push(
        await startRedis({
          args: [
            '--cluster-enabled',
            'yes',
            '--cluster-config-file',
            'nodes.conf',
            '--cluster-node-timeout',
            '5000',
          ],
        }),
      );
    }
    await run('redis-cli', [
      '--cluster',
      'create',
      ...nodes.map((node) => `${node.host}:${node.port}`),
      '--cluster-replicas',
      String(replicas),
      '--cluster-yes',
    ]);
    for (const node of nodes) await waitForClusterOk(node, size * (1 + replicas));
  } catch (error) {
    await Promise.all(nodes.map((node) => node.stop()));
    throw error;
  }
  return {
    nodes,
    startupNodes: nodes.map(({ host, port }) => ({ host, port })),
    async stop() {
      await Promise.all(nodes.map((node) => node.stop()));
    },
  };
}

/**
 * Waits for `cluster_state:ok`, and for CLUSTER SLOTS to list all `nodes` (replicas are listed once
 * their masters know them: a client that reads the slots before would never send a read to them).
 */
async function waitForClusterOk(node: RedisServer, nodes: number): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const info = await run('redis-cli', ['-p', String(node.port), 'cluster', 'info']);
    const slots = await run('redis-cli', ['-p', String(node.port), 'cluster', 'slots']);
    const listed = slots.split('\n').filter((line) => line === node.host).length;
    if (info.includes('cluster_state:ok') && listed === nodes) return;
    if (Date.now() > deadline)
      throw new Error(
        `cluster node ${node.port} never reached cluster_state:ok with ${nodes} nodes:\n${info}${slots}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function run(command: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: 30_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(' ')}: ${error.message}\n${stdout}${stderr}`));
      else resolve(stdout);
    });
  });
}
