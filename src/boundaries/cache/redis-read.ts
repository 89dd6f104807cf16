/**
 * The Redis store's reads. Without a size limit a batch is an MGET (and a PTTL per key when TTLs
 * are asked for). With one (`maxBytes`, which the cache always gives) it is one Lua script per
 * group of keys: for each key the script asks STRLEN first and sends the value only when it fits,
 * else only its size. The script runs atomically, so the size and the value are of one version of
 * the key, and it is one round trip, as MGET was. A 200 MiB value under a key thus costs its size
 * as a number, not 200 MiB of network and heap: reading it whole and refusing it afterwards took
 * 1-1.8 s and grew a client from 91 to 491 MB resident, or, with the cache's default 250 ms
 * timeout, missed while the transfer went on.
 *
 * The price is Redis CPU: values pass through Lua on their way out, about 4 µs per single-key read
 * of a 1 KB value and 10 µs of a 6 KB one, where an MGET costs 0.3 µs (INFO commandstats). A MULTI
 * of STRLEN and GETRANGE 0..limit per key would cost Redis less, but still sends up to `limit`
 * bytes of a value too large, and an ioredis transaction of 20 keys cost the client several times
 * the script's whole round trip.
 *
 * The script is sent by its SHA1 (EVALSHA), and in full (EVAL, which caches it on the server) the
 * first time a server answers NOSCRIPT; a Cluster's pipelines retry a failed group on its own,
 * which takes the same path. Its keys are one group's, so in a Cluster they share one hash slot.
 */
import { createHash } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';
import type { GroupCommands } from './redis-batches.js';
import type { ReadOptions, StoredValue } from './store.js';

/**
 * KEYS: the keys. ARGV[1]: the largest value to send, in bytes; ARGV[2]: '1' to add each key's
 * PTTL. Per key: its value, or its size (an integer) when larger than ARGV[1], or nil when it holds
 * no string (missing, or another type: what MGET answers); then its PTTL when asked.
 */
export const boundedReadScript = `local limit = tonumber(ARGV[1])
local withTtl = ARGV[2] == '1'
local out = {}
for _, key in ipairs(KEYS) do
  local size = redis.pcall('STRLEN', key)
  if type(size) ~= 'number' then
    out[#out + 1] = false
  elseif size > limit then
    out[#out + 1] = size
  else
    out[#out + 1] = redis.call('GET', key)
  end
  if withTtl then
    out[#out + 1] = redis.call('PTTL', key)
  end
end
return out
`;

const boundedReadSha = createHash('sha1').update(boundedReadScript).digest('hex');

/** The read's commands for `keys`; each group's answers go into `found` at the keys' indexes. */
export function readCommands(
  keys: readonly string[],
  options: ReadOptions,
  found: (StoredValue | undefined)[],
): GroupCommands {
  const withTtl = options.withTtl === true;
  const limit = sizeLimit(options.maxBytes);
  return limit === undefined
    ? mgetCommands(keys, withTtl, found)
    : boundedCommands(keys, withTtl, limit, options.onOversized, found);
}

/** `maxBytes` as the script's argument; undefined for no limit. */
function sizeLimit(maxBytes: number | undefined): number | undefined {
  if (maxBytes === undefined || maxBytes === Number.POSITIVE_INFINITY) return undefined;
  if (!(maxBytes >= 0)) throw new RangeError(`redisStore: maxBytes must be ≥ 0, got ${maxBytes}`);
  return Math.floor(maxBytes);
}

function mgetCommands(
  keys: readonly string[],
  withTtl: boolean,
  found: (StoredValue | undefined)[],
): GroupCommands {
  const keysOf = (group: readonly number[]) => group.map((i) => keys[i] as string);
  return {
    count: (group) => (withTtl ? 1 + group.length : 1),
    queue(pipeline, group) {
      const groupKeys = keysOf(group);
      pipeline.mgetBuffer(groupKeys);
      if (withTtl) for (const key of groupKeys) pipeline.pttl(key);
    },
    take(results, group) {
      const values = results[0]?.[1] as unknown[];
      for (let j = 0; j < group.length; j++) {
        found[group[j] as number] = stored(values[j], withTtl ? results[1 + j]?.[1] : undefined);
      }
    },
    async direct(client, group) {
      const groupKeys = keysOf(group);
      if (!withTtl) {
        const values = await client.mgetBuffer(groupKeys);
        for (let j = 0; j < group.length; j++) found[group[j] as number] = stored(values[j]);
        return;
      }
      const [values, ...ttls] = await Promise.all([
        client.mgetBuffer(groupKeys),
        ...groupKeys.map((key) => client.pttl(key)),
      ]);
      for (let j = 0; j < group.length; j++) found[group[j] as number] = stored(values[j], ttls[j]);
    },
  };
}

function boundedCommands(
  keys: readonly string[],
  withTtl: boolean,
  limit: number,
  onOversized: ReadOptions['onOversized'],
  found: (StoredValue | undefined)[],
): GroupCommands {
  const argumentsOf = (group: readonly number[]) => [
    group.length,
    ...group.map((i) => keys[i] as string),
    limit,
    withTtl ? '1' : '0',
  ];
  const take = (reply: unknown, group: readonly number[]) => {
    const step = withTtl ? 2 : 1;
    if (!Array.isArray(reply) || reply.length !== group.length * step) {
      throw new Error('the bounded read script answered an unexpected reply');
    }
    for (let j = 0; j < group.length; j++) {
      const index = group[j] as number;
      const value: unknown = reply[j * step];
      if (typeof value === 'number') {
        found[index] = undefined;
        onOversized?.(index, value);
      } else {
        found[index] = stored(value, withTtl ? reply[j * step + 1] : undefined);
      }
    }
  };
  return {
    count: () => 1,
    queue(pipeline, group) {
      pipeline.callBuffer('evalsha', [boundedReadSha, ...argumentsOf(group)]);
    },
    take(results, group) {
      take(results[0]?.[1], group);
    },
    async direct(client, group) {
      take(await evalBoundedRead(client, argumentsOf(group)), group);
    },
  };
}

async function evalBoundedRead(client: Redis | Cluster, args: (string | number)[]): Promise<unknown> {
  try {
    return await client.callBuffer('evalsha', [boundedReadSha, ...args]);
  } catch (error) {
    if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
    return client.callBuffer('eval', [boundedReadScript, ...args]);
  }
}

export function stored(value: unknown, ttl?: unknown): StoredValue | undefined {
  if (!(value instanceof Uint8Array)) return undefined;
  const bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (ttl === undefined || ttl === -1) return { bytes };
  // -2: the key expired between the MGET and its PTTL: a miss, as a read a moment later would be.
  if (typeof ttl !== 'number' || ttl < 0) return undefined;
  return { bytes, ttlMs: ttl };
}
