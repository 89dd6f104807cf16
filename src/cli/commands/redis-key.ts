/**
 * The Redis source of `wirekit inspect redis://[user:pass@]host:port[/db]/KEY`: one key's bytes and
 * the time it has left. ioredis is loaded only when such a source is given, so the CLI runs without
 * it otherwise.
 *
 * The URL's path is the key, or the database number and then the key. Each is percent-decoded, so
 * a key holding a slash is written with %2F (`redis://127.0.0.1:6379/user%2F42` is the key
 * `user/42` in database 0, `redis://127.0.0.1:6379/2/user%2F42` the same key in database 2); a key
 * of digits alone is a key, never a database. Everything else in the key (`?`, `#`, `:`, dots) is
 * taken as it is written.
 *
 * The connection gives up at once: no retries, no queue of commands waiting for a connection, a
 * connect timeout and a command timeout, so an unreachable server is an error within seconds, not
 * a hang. The key is read with GETRANGE up to one byte past the input limit, so a value larger
 * than the limit is refused without being transferred whole.
 */
import type { Redis } from 'ioredis';
import { WirekitError } from '../../errors/index.js';
import { inputTooLarge } from '../../util/input-limit.js';
import { hasScheme, splitSourceUrl } from '../source-url.js';
import { usageError } from '../usage.js';

export interface RedisKeySource {
  readonly host: string;
  readonly port: number;
  readonly username: string | undefined;
  readonly password: string | undefined;
  readonly db: number;
  readonly key: string;
  /** The URL as given, with any password replaced by ***: what output shows. */
  readonly display: string;
}

export interface RedisKeyValue {
  readonly bytes: Uint8Array;
  /** Milliseconds until the key expires; undefined when it does not. */
  readonly ttlMs: number | undefined;
}

const scheme = 'redis://';
const defaultPort = 6379;
/** How long connecting, and then each command, may take before inspect gives up. */
export const redisTimeoutMs = 5000;

export function isRedisUrl(source: string): boolean {
  return hasScheme(source, scheme);
}

export function parseRedisUrl(source: string): RedisKeySource {
  const { authority, segments } = splitSourceUrl(source, scheme);
  const form = 'redis://[user:pass@]host:port[/db]/KEY (a slash in the key as %2F)';
  let url: URL;
  try {
    url = new URL(`${scheme}${authority}`);
  } catch {
    throw usageError(`${source} is not a Redis URL: ${form}.`);
  }
  if (url.hostname === '') throw usageError(`${source} names no host: ${form}.`);
  if (segments.length === 0 || segments.length > 2 || segments.at(-1) === '')
    throw usageError(
      `${source} names ${segments.length > 2 ? 'more than a database and a key' : 'no key'}: ${form}.`,
    );
  const [first, second] = segments as [string, string | undefined];
  if (second !== undefined && !/^[0-9]{1,5}$/.test(first))
    throw usageError(
      `${source}: the path before the key is the database number, not ${JSON.stringify(first)}: ${form}.`,
    );
  const password = url.password === '' ? undefined : decoded(url.password, source);
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port === '' ? defaultPort : Number(url.port),
    username: url.username === '' ? undefined : decoded(url.username, source),
    password,
    db: second === undefined ? 0 : Number(first),
    key: decoded(second ?? first, source),
    display: masked(source, authority),
  };
}

/** `source` with the password of its authority (between the first ':' and the last '@') as ***. */
function masked(source: string, authority: string): string {
  const at = authority.lastIndexOf('@');
  const colon = authority.indexOf(':');
  if (at === -1 || colon === -1 || colon > at) return source;
  return `${scheme}${authority.slice(0, colon)}:***${source.slice(scheme.length + at)}`;
}

function decoded(text: string, source: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw usageError(`${source} has a malformed percent escape in ${JSON.stringify(text)}.`);
  }
}

/**
 * The key's bytes (at most `maxBytes`, else WK_LIMIT_INPUT) and TTL. A server that cannot be
 * reached or refuses the login, a missing key and a key of another type than a string are
 * WK_CLI_INPUT errors that say which.
 */
export async function readRedisKey(source: RedisKeySource, maxBytes: number): Promise<RedisKeyValue> {
  const Client = await loadIoredis();
  const where = `redis://${source.host.includes(':') ? `[${source.host}]` : source.host}:${source.port}`;
  const client = new Client({
    host: source.host,
    port: source.port,
    username: source.username,
    password: source.password,
    lazyConnect: true,
    connectTimeout: redisTimeoutMs,
    commandTimeout: redisTimeoutMs,
    // One attempt: inspect is a one-off read, and a retry loop would hang it on a dead server.
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
  });
  // ioredis reports why a connection failed as an 'error' event (the rejection says only that it
  // closed); keeping the last one also stops ioredis printing it as unhandled.
  let lastError: Error | undefined;
  client.on('error', (error: Error) => {
    lastError = error;
  });
  try {
    try {
      await client.connect();
    } catch (cause) {
      throw failed(`cannot connect to ${where}: ${(lastError ?? (cause as Error)).message}`, cause);
    }
    // SELECT by hand: given as an option, a database the server does not have is only reported as
    // an event, and the reads would go to database 0.
    if (source.db !== 0) {
      try {
        await client.select(source.db);
      } catch (cause) {
        throw failed(`${where} has no database ${source.db}: ${(cause as Error).message}`, cause);
      }
    }
    let results: [Error | null, unknown][] | null;
    try {
      results = await client
        .multi()
        .type(source.key)
        .pttl(source.key)
        .getrangeBuffer(source.key, 0, maxBytes)
        .exec();
    } catch (cause) {
      // A command refused while queued (a Cluster's MOVED) aborts the transaction; ioredis keeps why.
      const why = (cause as { previousErrors?: Error[] }).previousErrors?.[0] ?? (cause as Error);
      throw failed(`${where} did not read ${source.display}: ${why.message}${clusterAdvice(why)}`, cause);
    }
    const [type, ttl, value] = (results ?? []).map(([error, result]) => (error === null ? result : error));
    if (type instanceof Error)
      throw failed(`${where} did not read ${source.display}: ${type.message}${clusterAdvice(type)}`, type);
    if (type === 'none') throw failed(`${source.display}: no such key (database ${source.db} of ${where}).`);
    if (type !== 'string')
      throw failed(
        `${source.display} holds a Redis ${String(type)}, not a string: cache values are strings.`,
      );
    if (!(value instanceof Uint8Array))
      throw failed(`${where} did not return the value of ${source.display}: ${String(value)}`);
    if (value.length > maxBytes) throw inputTooLarge(source.display, maxBytes);
    return {
      bytes: new Uint8Array(value.buffer, value.byteOffset, value.byteLength),
      ttlMs: typeof ttl === 'number' && ttl >= 0 ? ttl : undefined,
    };
  } finally {
    client.disconnect();
  }
}

/** What to do about a node of a Redis Cluster that answers MOVED (or ASK) for a key in another node's slots. */
function clusterAdvice(error: Error): string {
  return /^(MOVED|ASK) /.test(error.message)
    ? ' (a Redis Cluster keeps this key on the node named: inspect that node)'
    : '';
}

async function loadIoredis(): Promise<typeof Redis> {
  try {
    return (await import('ioredis')).Redis;
  } catch (cause) {
    throw failed('reading from Redis needs the ioredis package: npm install ioredis', cause);
  }
}

function failed(message: string, cause?: unknown): WirekitError {
  return new WirekitError('WK_CLI_INPUT', message, cause === undefined ? undefined : { cause });
}
