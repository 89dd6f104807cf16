/**
 * One case of the read-cost benchmark (read-cost.ts), in a process of its own: a cache on the Redis
 * store reads `keys` keys of about `bytes` bytes each, `reads` times one after another, and the
 * worker reports what one read cost Redis (INFO commandstats and INFO cpu, reset and read around
 * the timed reads) and this process (the median latency of a read, and CPU time per read).
 *
 * `read` chooses how the store is asked: `bounded` is the cache as it ships (every read carries
 * the cache's size limit, so the store reads in the way that sends no value past it), `mget` the
 * same store without a limit (one MGET), the yardstick.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { CacheStore } from 'wirekit-ts/cache';
import { createCache, type RedisStore, redisStore } from 'wirekit-ts/cache';
import { median } from 'wirekit-ts/lab';
import { t } from 'wirekit-ts/schema';

export type ReadMechanism = 'bounded' | 'mget';

export interface ReadCostSpec {
  readonly redisUrl: string;
  readonly keys: number;
  readonly bytes: number;
  readonly reads: number;
  readonly read: ReadMechanism;
}

export interface ReadCostResult {
  readonly spec: ReadCostSpec;
  /** What Redis holds per key (STRLEN of the first): the envelope and the value. */
  readonly storedBytes: number;
  /** Calls per read of each command Redis ran for the reads (commandstats). */
  readonly commands: Record<string, number>;
  /** Microseconds Redis spent executing the reads' commands, per read (commandstats `usec`). */
  readonly redisMicros: number;
  /** Redis's whole CPU time per read (INFO cpu, user + system): parsing, replies and syscalls too. */
  readonly redisCpuMicros: number;
  /** The median time of one `get`/`getMany`, in microseconds. */
  readonly latencyMicros: number;
  /** This process's CPU time per read (user + system), in microseconds. */
  readonly clientCpuMicros: number;
}

/** Commands the worker itself sends around the timed reads; not part of a read. */
const measuring = new Set(['info', 'config|resetstat']);
/**
 * Commands a script runs are counted on their own as well as inside the script's time: when the
 * store reads through a script, only the script's own line counts, or its work would count twice.
 */
const scriptCalls = new Set(['eval', 'evalsha']);

export async function measureReadCost(spec: ReadCostSpec): Promise<ReadCostResult> {
  const store = redisStore({ url: spec.redisUrl });
  const cache = createCache({
    store: spec.read === 'mget' ? withoutLimit(store) : store,
    schema: t.bytes(),
    compression: 'none',
    // What is measured is the read, not the cache's timeout: a loaded machine must not turn it into a miss.
    timeoutMs: 30_000,
    breaker: false,
  });
  const client = (await store.client()) as Redis;
  try {
    const keys = Array.from({ length: spec.keys }, (_, i) => `read-cost:${spec.bytes}:${i}`);
    // The envelope and Avro's length take ~17 bytes: the value fills the rest of `bytes`.
    const payload = Math.max(0, spec.bytes - 17);
    await cache.setMany(keys.map((key) => ({ key, value: new Uint8Array(randomBytes(payload)) })));
    const storedBytes = await client.strlen(keys[0] as string);
    const read = spec.keys === 1 ? () => cache.get(keys[0] as string) : () => cache.getMany(keys);
    for (let i = 0; i < 300; i++) await read();

    await client.config('RESETSTAT');
    const cpuBefore = redisCpuSeconds(await client.info('cpu'));
    const clientBefore = process.cpuUsage();
    const latencies: number[] = [];
    for (let i = 0; i < spec.reads; i++) {
      const started = performance.now();
      const value = await read();
      latencies.push(performance.now() - started);
      if (value === undefined || (Array.isArray(value) && value.includes(undefined))) {
        throw new Error('a read missed: the measurement would not be of reads that hit');
      }
    }
    const clientCpu = process.cpuUsage(clientBefore);
    const cpuAfter = redisCpuSeconds(await client.info('cpu'));
    const stats = commandStats(await client.info('commandstats'));
    const viaScript = [...stats.keys()].some((name) => scriptCalls.has(name));
    let usec = 0;
    const commands: Record<string, number> = {};
    for (const [name, { calls, micros }] of stats) {
      if (measuring.has(name)) continue;
      commands[name] = calls / spec.reads;
      if (!viaScript || scriptCalls.has(name)) usec += micros;
    }
    return {
      spec,
      storedBytes,
      commands,
      redisMicros: usec / spec.reads,
      redisCpuMicros: ((cpuAfter - cpuBefore) * 1e6) / spec.reads,
      latencyMicros: median(latencies) * 1000,
      clientCpuMicros: (clientCpu.user + clientCpu.system) / spec.reads,
    };
  } finally {
    await cache.close();
  }
}

/** The store asked without a size limit, as a read before bounded reads was: one MGET. */
function withoutLimit(store: RedisStore): CacheStore {
  return {
    kind: store.kind,
    read: (keys, options) => store.read(keys, { withTtl: options?.withTtl }),
    write: (entries) => store.write(entries),
    delete: (keys) => store.delete(keys),
    close: () => store.close(),
  };
}

function redisCpuSeconds(info: string): number {
  const field = (name: string) => Number(new RegExp(`^${name}:([0-9.]+)`, 'm').exec(info)?.[1]);
  return field('used_cpu_user') + field('used_cpu_sys');
}

/** INFO commandstats as command → calls and microseconds. */
function commandStats(info: string): Map<string, { calls: number; micros: number }> {
  const stats = new Map<string, { calls: number; micros: number }>();
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/gm)) {
    stats.set(match[1] as string, { calls: Number(match[2]), micros: Number(match[3]) });
  }
  return stats;
}

if (process.argv[2] === '--worker') {
  const spec = JSON.parse(process.argv[3] as string) as ReadCostSpec;
  process.stdout.write(`${JSON.stringify(await measureReadCost(spec))}\n`);
}
