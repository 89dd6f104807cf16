/**
 * The Redis store's reads: an MGET without a size limit; with one (which a cache always gives), a
 * pipelined `GETRANGE key 0 maxBytes` per key, so a value too large is refused having sent at most
 * maxBytes + 1 bytes, then an EXISTS (or a PTTL per key) to tell a missing key from an empty value.
 * GETRANGE replaced a Lua script that cost Redis 10-25 times an MGET; a MULTI would bound what is
 * sent no better and costs the client more than a pipeline. The rules and the figures:
 * docs/cache.md ("Redis: redisStore") and docs/benchmarks.md ("Cache reads: what Redis pays").
 */
import type { GroupCommands, PipelineResults } from './redis-batches.js';
import type { ReadOptions, StoredValue } from './store.js';

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

/**
 * `maxBytes` as GETRANGE's last index; undefined for no limit. Past 2^53 it is no limit in effect
 * (Redis holds no string that long), but stays a whole number Redis takes as an index.
 */
function sizeLimit(maxBytes: number | undefined): number | undefined {
  if (maxBytes === undefined || maxBytes === Number.POSITIVE_INFINITY) return undefined;
  if (!(maxBytes >= 0)) throw new RangeError(`redisStore: maxBytes must be ≥ 0, got ${maxBytes}`);
  return Math.min(Math.floor(maxBytes), Number.MAX_SAFE_INTEGER - 1);
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
  /** Keys answered "" that the group's answers do not tell missing from empty: asked again in finish. */
  const unsure: number[] = [];
  /** Keys whose answer ran past the limit: their real size is asked in finish. */
  const oversized: number[] = [];
  const commandsOf = (group: readonly number[]): Command[] => {
    const groupKeys = group.map((i) => keys[i] as string);
    const reads: Command[] = groupKeys.map((key) => ['getrange', key, 0, limit]);
    if (withTtl) return [...reads, ...groupKeys.map((key): Command => ['pttl', key])];
    return group.length > 1 ? [...reads, ['exists', ...groupKeys]] : reads;
  };
  const take = (results: PipelineResults, group: readonly number[]) => {
    const count = group.length;
    const empty: number[] = [];
    /** Keys that hold something: EXISTS counts them (a key asked twice, twice). */
    let held = 0;
    for (let j = 0; j < count; j++) {
      const index = group[j] as number;
      const [error, value] = results[j] ?? [null, undefined];
      found[index] = undefined;
      if (error !== null || !(value instanceof Uint8Array)) {
        held++; // WRONGTYPE: a key of another type, a miss as MGET's nil was
      } else if (value.length > limit) {
        held++;
        oversized.push(index);
      } else if (withTtl) {
        found[index] = stored(value, results[count + j]?.[1]); // an empty "" with PTTL -2 is no key
      } else if (value.length > 0) {
        held++;
        found[index] = stored(value);
      } else {
        empty.push(index);
      }
    }
    if (empty.length === 0) return;
    // GETRANGE answers "" for no key and for an empty value alike. When EXISTS counts no more
    // keys than answered something, every "" was no key: the common miss costs nothing more.
    const existing = count > 1 ? results[count]?.[1] : undefined;
    if (existing !== held) unsure.push(...empty);
  };
  return {
    count: (group) => group.length + (withTtl ? group.length : group.length > 1 ? 1 : 0),
    queue(pipeline, group) {
      for (const [name, ...args] of commandsOf(group)) pipeline.callBuffer(name, ...args);
    },
    take,
    async direct(client, group) {
      const results = await Promise.all(
        commandsOf(group).map(([name, ...args]) =>
          client.callBuffer(name, ...args).then(
            (value): PipelineResults[number] => [null, value],
            (error: Error): PipelineResults[number] => [error, undefined],
          ),
        ),
      );
      const failed = results.find(([error]) => error !== null && !isWrongType(error));
      if (failed !== undefined) throw failed[0];
      take(results, group);
    },
    answers: isWrongType,
    async finish(client) {
      if (unsure.length === 0 && oversized.length === 0) return;
      await Promise.all([
        ...unsure.map(async (index) => {
          // Between the GETRANGE and this EXISTS the key may have been written: then it reads as
          // an empty value, a miss like the one it was a moment before.
          if ((await client.exists(keys[index] as string)) > 0) found[index] = { bytes: new Uint8Array(0) };
        }),
        ...oversized.map(async (index) => {
          const size = await client.strlen(keys[index] as string).catch((error: Error) => {
            if (isWrongType(error)) return 0;
            throw error;
          });
          // The value may have changed since its GETRANGE: it was larger than the limit then.
          onOversized?.(index, Math.max(size, limit + 1));
        }),
      ]);
    },
  };
}

/** One command as ioredis's callBuffer takes it: its name, then its arguments. */
type Command = [name: string, ...args: (string | number)[]];

/** A key holding a list, a hash or another non-string: a miss, as MGET answers nil for it. */
function isWrongType(error: Error): boolean {
  return error.message.startsWith('WRONGTYPE');
}

export function stored(value: unknown, ttl?: unknown): StoredValue | undefined {
  if (!(value instanceof Uint8Array)) return undefined;
  const bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (ttl === undefined || ttl === -1) return { bytes };
  // -2: the key expired between the MGET and its PTTL: a miss, as a read a moment later would be.
  if (typeof ttl !== 'number' || ttl < 0) return undefined;
  return { bytes, ttlMs: ttl };
}
