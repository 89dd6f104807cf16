/**
 * `wirekit inspect redis://HOST:PORT/KEY` against a real redis-server: enveloped entries (written
 * with encodeEnveloped, as the cache writes them) and entries written before wirekit (the raw
 * libraries, read with --legacy), the key and its TTL, keys with slashes and databases, and every
 * way the read can fail: missing key, wrong type, too large, login refused, no server (the built
 * CLI in its own process, which must exit within a bounded time).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { encode as msgpackEncode } from '@msgpack/msgpack';
import { Redis } from 'ioredis';
import { compressSync } from 'snappy';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseRedisUrl } from '../../src/cli/commands/redis-key.js';
import { createCodec } from '../../src/codecs/registry.js';
import { encodeEnveloped, schemaFingerprint } from '../../src/envelope/index.js';
import { schemaToJson, toJsonValue } from '../../src/index.js';
import { Product, products } from '../../src/lab/datasets/index.js';
import { cli, fields } from '../support/cli.js';
import { hasRedis, type RedisServer, startRedis, startRedisCluster } from '../support/redis.js';
import { freePort } from '../support/tools.js';

const main = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const [item] = products(1, 3) as [ReturnType<typeof products>[number]];
const fingerprint = Buffer.from(schemaFingerprint(Product).subarray(0, 8)).toString('hex');

/** The JSON printed under "value:" in the labelled layout. */
function valueBlock(text: string): unknown {
  const lines = text.split('\n');
  const start = lines.indexOf('value:');
  expect(start, text).toBeGreaterThanOrEqual(0);
  const rest = lines.slice(start + 1);
  return JSON.parse(
    rest
      .slice(
        0,
        rest.findIndex((line) => /^[a-z][a-z ]*:( |$)/.test(line) || line === ''),
      )
      .join('\n'),
  );
}

describe('redis:// URLs', () => {
  test('the path is the key, or the database then the key; percent escapes decoded; the password hidden', () => {
    expect(parseRedisUrl('redis://127.0.0.1:6380/user%2F42')).toMatchObject({
      host: '127.0.0.1',
      port: 6380,
      db: 0,
      key: 'user/42',
      username: undefined,
      password: undefined,
    });
    expect(parseRedisUrl('redis://cache.internal/3/a:b?c#d')).toMatchObject({
      port: 6379,
      db: 3,
      key: 'a:b?c#d',
    });
    expect(parseRedisUrl('redis://h:1/42')).toMatchObject({ db: 0, key: '42' });
    expect(parseRedisUrl('redis://[::1]:7000/0/%E2%82%AC')).toMatchObject({
      host: '::1',
      port: 7000,
      key: '€',
    });
    const secret = parseRedisUrl('redis://app:p%40ss@h:1/k');
    expect(secret).toMatchObject({ username: 'app', password: 'p@ss', key: 'k' });
    expect(secret.display).toBe('redis://app:***@h:1/k');
    expect(parseRedisUrl('redis://:only@h:1/k')).toMatchObject({ username: undefined, password: 'only' });
    expect(parseRedisUrl('redis://:only@h:1/k').display).toBe('redis://:***@h:1/k');
  });

  test.each([
    ['redis://h:1', 'no key'],
    ['redis://h:1/', 'no key'],
    ['redis://h:1/0/', 'no key'],
    ['redis://h:1/a/b/c', 'more than a database and a key'],
    ['redis://h:1/db/key', 'database number'],
    ['redis://h:1/%E2%82', 'percent escape'],
    ['redis://h:99999/k', 'not a Redis URL'],
  ])('%s is a usage error (exit 2)', async (url, said) => {
    const { code, stderr } = await cli(['inspect', url]);
    expect(code).toBe(2);
    expect(stderr).toContain('WK_CLI_USAGE');
    expect(stderr).toContain(said);
  });
});

describe.skipIf(!hasRedis())('wirekit inspect redis://', () => {
  let server: RedisServer;
  let client: Redis;
  let dir: string;
  let schemaPath: string;
  const url = (path: string) => `${server.url}/${path}`;

  beforeAll(async () => {
    server = await startRedis({ args: ['--databases', '4'] });
    client = new Redis({ port: server.port, lazyConnect: true });
    await client.connect();
    dir = await mkdtemp(`${tmpdir()}/wirekit-inspect-redis-`);
    schemaPath = `${dir}/product.schema.json`;
    await writeFile(schemaPath, JSON.stringify(schemaToJson(Product)));
  });
  afterAll(async () => {
    client?.disconnect();
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  test('an enveloped entry: the header, the key, the TTL left and the value', async () => {
    const codec = createCodec('msgpack', { schema: Product });
    const bytes = encodeEnveloped(codec, item, { compression: 'snappy' });
    await client.set('product:1', Buffer.from(bytes), 'EX', 100);
    const { code, text, stderr } = await cli(['inspect', url('product:1'), '--schema', schemaPath]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const shown = fields(text);
    expect(shown).toMatchObject({
      source: url('product:1'),
      key: 'product:1',
      detected: 'wirekit envelope',
      format: 'msgpack',
      compression: 'snappy',
      envelope: 'version 1',
      fingerprint: `${fingerprint} (matches ${schemaPath})`,
    });
    const left = Number(/^([0-9.]+) s left$/.exec(shown.ttl ?? '')?.[1]);
    expect(left).toBeGreaterThan(90);
    expect(left).toBeLessThanOrEqual(100);
    expect(shown.sizes).toBe(
      `total ${bytes.length} B, header 15 B, payload ${bytes.length - 15} B, decompressed ${codec.encode(item).length} B`,
    );
    expect(valueBlock(text)).toStrictEqual(toJsonValue(Product, item));

    const json = await cli(['inspect', url('product:1'), '--json']);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.text);
    expect(report).toMatchObject({
      key: 'product:1',
      detected: 'envelope',
      fingerprint,
      compression: 'snappy',
    });
    expect(report.ttl).toBeGreaterThan(90);
    expect(report.ttl).toBeLessThanOrEqual(100);
    expect(report.legacy).toBeUndefined();
  });

  test('a key without a TTL, a key with a slash, a key in another database', async () => {
    const codec = createCodec('json');
    await client.set('tenant/7', Buffer.from(encodeEnveloped(codec, { db: 0 })));
    await client.select(2);
    await client.set('tenant/7', Buffer.from(encodeEnveloped(codec, { db: 2 })), 'PX', 50_000);
    await client.select(0);
    const zero = await cli(['inspect', url('tenant%2F7'), '--json']);
    expect(zero.code).toBe(0);
    expect(JSON.parse(zero.text)).toMatchObject({ key: 'tenant/7', ttl: null, value: { db: 0 } });
    const text = await cli(['inspect', url('tenant%2F7')]);
    expect(fields(text.text).ttl).toBe('none (the key does not expire)');
    const two = await cli(['inspect', url('2/tenant%2F7'), '--json']);
    expect(two.code).toBe(0);
    expect(JSON.parse(two.text)).toMatchObject({ key: 'tenant/7', value: { db: 2 } });
    expect(JSON.parse(two.text).ttl).toBeGreaterThan(40);
    // Written without the escape, the slash would separate a database from the key.
    const unescaped = await cli(['inspect', url('tenant/7')]);
    expect(unescaped.code).toBe(2);
  });

  test("--legacy: the report's old and new pipelines, read by the reader that wrote them, with and without the schema", async () => {
    const oldBytes = compressSync(Buffer.from(msgpackEncode(JSON.parse(JSON.stringify(item)))));
    const newBytes = compressSync(JSON.stringify(item));
    await client.set('old', oldBytes, 'EX', 600);
    await client.set('new', newBytes);
    for (const [key, reader, stored, plain] of [
      ['old', 'msgpack+snappy', oldBytes, msgpackEncode(JSON.parse(JSON.stringify(item)))],
      ['new', 'json+snappy', newBytes, Buffer.from(JSON.stringify(item))],
    ] as const) {
      const args = ['inspect', url(key), '--legacy', 'json+snappy,msgpack+snappy', '--schema', schemaPath];
      const { code, text, stderr } = await cli(args);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(fields(text)).toMatchObject({
        key,
        detected: `no envelope: read by the legacy reader ${reader}`,
        format: reader.split('+')[0],
        compression: 'snappy',
        envelope: 'none',
        fingerprint: `none (${schemaPath} has ${fingerprint})`,
        sizes: `total ${stored.length} B, header 0 B, payload ${stored.length} B, decompressed ${plain.length} B`,
      });
      expect(valueBlock(text)).toStrictEqual(toJsonValue(Product, item));
      const json = JSON.parse((await cli([...args, '--json'])).text);
      expect(json).toMatchObject({ key, detected: 'legacy', legacy: reader, decoded: true });
      // Without the schema: what the old app read back (its Dates as text).
      const schemaless = JSON.parse(
        (await cli(['inspect', url(key), '--legacy', 'msgpack+snappy,json+snappy', '--json'])).text,
      );
      expect(schemaless).toMatchObject({ legacy: reader, value: JSON.parse(JSON.stringify(item)) });
    }
    // An enveloped entry is read as ever with --legacy.
    await client.set('both', Buffer.from(encodeEnveloped(createCodec('json'), [1])));
    expect(
      JSON.parse((await cli(['inspect', url('both'), '--legacy', 'msgpack', '--json'])).text),
    ).toMatchObject({
      detected: 'envelope',
      value: [1],
    });
  });

  test('--legacy readers that all fail: each says why, exit 1 (WK_CLI_INPUT)', async () => {
    await client.set('odd', Buffer.from([0xc1, 0x00]));
    const { code, stderr, text } = await cli([
      'inspect',
      url('odd'),
      '--legacy',
      'json,msgpack+snappy,msgpack',
    ]);
    expect(code).toBe(1);
    expect(text).toBe('');
    expect(stderr).toContain('WK_CLI_INPUT');
    expect(stderr).toContain('no legacy reader of --legacy read it');
    expect(stderr).toMatch(/json: WK_DECODE_MALFORMED/);
    expect(stderr).toMatch(/msgpack\+snappy: WK_COMPRESSION_FAILED/);
    expect(stderr).toMatch(/msgpack: WK_DECODE_MALFORMED/);
    for (const bad of [
      ['--legacy', 'cbor'],
      ['--legacy', 'json,json'],
      ['--legacy', 'json', '--format', 'json'],
    ]) {
      expect((await cli(['inspect', url('odd'), ...bad])).code).toBe(2);
    }
  });

  test('a missing key, a key that is no string, a value over the input limit: errors that say which', async () => {
    const missing = await cli(['inspect', url('nothing-here')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      `wirekit: WK_CLI_INPUT: ${url('nothing-here')}: no such key (database 0 of ${server.url}).\n`,
    );
    await client.rpush('a-list', 'x');
    const list = await cli(['inspect', url('a-list')]);
    expect(list.code).toBe(1);
    expect(list.stderr).toContain('holds a Redis list, not a string');
    await client.set('large', Buffer.alloc(5000, 0x20));
    const large = await cli(['inspect', url('large'), '--max-input-bytes', '4096']);
    expect(large.code).toBe(1);
    expect(large.stderr).toContain('WK_LIMIT_INPUT');
    await client.set('empty', '');
    const empty = await cli(['inspect', url('empty')]);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('is empty');
    const noDb = await cli(['inspect', url('9/k')]);
    expect(noDb.code).toBe(1);
    expect(noDb.stderr).toContain(`has no database 9`);
  });

  test('a server that asks for a password: the right one reads, the wrong one is refused, neither is shown', async () => {
    const locked = await startRedis({ args: ['--requirepass', 's3cret'] });
    try {
      const writer = new Redis({ port: locked.port, password: 's3cret' });
      await writer.set('k', Buffer.from(encodeEnveloped(createCodec('json'), 'hi')));
      writer.disconnect();
      const good = await cli(['inspect', `redis://:s3cret@127.0.0.1:${locked.port}/k`, '--json']);
      expect(good.code).toBe(0);
      expect(JSON.parse(good.text)).toMatchObject({
        source: `redis://:***@127.0.0.1:${locked.port}/k`,
        value: 'hi',
      });
      expect(good.text).not.toContain('s3cret');
      const bad = await cli(['inspect', `redis://default:nope@127.0.0.1:${locked.port}/k`]);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('WK_CLI_INPUT');
      expect(bad.stderr).toContain('WRONGPASS');
      expect(bad.stderr).not.toContain('nope');
      const none = await cli(['inspect', `redis://127.0.0.1:${locked.port}/k`]);
      expect(none.code).toBe(1);
      expect(none.stderr).toContain('NOAUTH');
    } finally {
      await locked.stop();
    }
  });

  test('a node of a Redis Cluster that does not hold the key says which node does', async () => {
    const cluster = await startRedisCluster();
    try {
      const [node] = cluster.nodes as [RedisServer];
      // Keys spread over the three nodes' slots: among twenty, some belong to another node.
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => cli(['inspect', `${node.url}/key-${i}`])),
      );
      const moved = answers.filter((answer) => answer.stderr.includes('MOVED'));
      expect(moved.length).toBeGreaterThan(0);
      for (const answer of moved) {
        expect(answer.code).toBe(1);
        expect(answer.stderr).toMatch(
          /WK_CLI_INPUT: .*: MOVED \d+ 127\.0\.0\.1:\d+ \(a Redis Cluster keeps this key on the node named: inspect that node\)/,
        );
      }
      // The others are simply missing there.
      for (const answer of answers.filter((a) => !a.stderr.includes('MOVED')))
        expect(answer.stderr).toContain('no such key');
    } finally {
      await cluster.stop();
    }
  });

  test('the built CLI: reads a key, and with no server exits 1 with a message, quickly and without retrying', async () => {
    expect(existsSync(main), 'dist/cli/main.js is missing: run npm run build').toBe(true);
    const run = (args: string[]) =>
      new Promise<{ code: number | null; stdout: string; stderr: string; ms: number }>((resolve, reject) => {
        const started = performance.now();
        const child = spawn(process.execPath, [main, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk) => (stdout += chunk));
        child.stderr.on('data', (chunk) => (stderr += chunk));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }));
      });
    await client.set('built', Buffer.from(encodeEnveloped(createCodec('json'), { ok: true })), 'EX', 30);
    const read = await run(['inspect', url('built'), '--json']);
    expect(read.stderr).toBe('');
    expect(read.code).toBe(0);
    expect(JSON.parse(read.stdout)).toMatchObject({ key: 'built', value: { ok: true } });
    const port = await freePort();
    const refused = await run(['inspect', `redis://127.0.0.1:${port}/k`]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(
      `wirekit: WK_CLI_INPUT: cannot connect to redis://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}\n`,
    );
    // One attempt and out: a process start and a refused connection, not a retry loop (which would
    // outlast the test's timeout).
    expect(refused.ms).toBeLessThan(10_000);
  });
});
