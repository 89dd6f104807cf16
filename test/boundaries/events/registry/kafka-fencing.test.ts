/**
 * A replaced leader cannot write (a real broker, Apache Kafka 4.1.1). The leader's process stops
 * after it chose an id and before its write reaches Kafka (pausing-leader.ts blocks its event loop,
 * as a long GC pause would) for longer than its session: the other registry takes the lead and
 * registers a schema, and then the old leader wakes up and sends its write. The lease on its own
 * clock was checked before the pause, so only Kafka can stop that write: the new leader claimed the
 * cluster's transactional id, and the broker refuses the old producer's epoch. The old leader
 * answers as a registry that no longer leads (the registration goes to the new leader), no id is
 * handed to two schemas, and every acknowledged registration reads the same on both registries.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { serve, stopServers } from '../../../cli/registry-process.js';
import { hasKafka, type KafkaBroker, startKafka } from '../../../support/kafka.js';
import { call, type Reply, subjectPath, userSchema } from './http.js';

const sessionTimeoutMs = 6_000;
const script = fileURLToPath(new URL('./pausing-leader.ts', import.meta.url));
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function roleOf(url: string): Promise<{ leader: string | null; role: string } | undefined> {
  const reply = await call(url, 'GET', '/v1/metadata/id').catch(() => undefined);
  return reply?.status === 200 ? (reply.body as { leader: string | null; role: string }) : undefined;
}

async function until(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await pause(50);
  }
}

describe.runIf(hasKafka() || process.env.CI === 'true')('a replaced registry leader', () => {
  let broker: KafkaBroker;
  let child: ChildProcess | undefined;
  let dir = '';
  beforeAll(async () => {
    broker = await startKafka();
    dir = mkdtempSync(join(tmpdir(), 'wirekit-fencing-'));
  }, 180_000);
  afterEach(() => {
    stopServers();
    child?.kill('SIGKILL');
  });
  afterAll(async () => {
    await broker?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('wakes from a pause longer than its session: Kafka refuses its write, and no id is issued twice', async () => {
    const topic = '_schemas_fencing';
    const release = join(dir, 'release');
    const old = spawn(
      process.execPath,
      ['--import', 'tsx', script, broker.bootstrap, topic, String(sessionTimeoutMs), release],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = old;
    let stdout = '';
    let stderr = '';
    old.stdout?.on('data', (chunk) => (stdout += chunk));
    old.stderr?.on('data', (chunk) => (stderr += chunk));
    await until(async () => stdout.includes('\n'), 30_000, `the pausing leader's URL (${stderr})`);
    const oldUrl = stdout.split('\n')[0] as string;
    await until(async () => (await roleOf(oldUrl))?.role === 'leader', 60_000, 'the first leader');
    const next = await serve([
      '--port',
      '0',
      '--store',
      `kafka:${broker.bootstrap}/${topic}`,
      '--kafka-session-timeout',
      String(sessionTimeoutMs),
    ]);
    await until(async () => (await roleOf(next.url))?.leader === oldUrl, 60_000, 'the follower');
    const first = await call(next.url, 'POST', subjectPath('first', '/versions'), { schema: userSchema() });
    expect(first.body).toEqual({ id: 1 });

    // The old leader takes a registration, chooses id 2 for it, and stops before writing it.
    const pausedSchema = userSchema({ name: 'paused', type: 'int', default: 0 });
    const pausedReply: Promise<Reply> = call(oldUrl, 'POST', subjectPath('paused', '/versions'), {
      schema: pausedSchema,
    });
    await until(async () => stdout.includes('paused\n'), 30_000, 'the pause');
    // Its session runs out; the other registry leads, and hands out the next id.
    await until(async () => (await roleOf(next.url))?.role === 'leader', 60_000, 'the new leader');
    const taken = userSchema({ name: 'taken', type: 'int', default: 0 });
    const takenReply = await call(next.url, 'POST', subjectPath('taken', '/versions'), { schema: taken });
    expect(takenReply.status).toBe(200);
    const takenId = (takenReply.body as { id: number }).id;
    expect(takenId).toBe(2);

    // The old leader wakes and sends the write it prepared before the pause.
    writeFileSync(release, '');
    const reply = await pausedReply;
    await until(async () => /append (refused|done)/.test(stdout), 30_000, 'the old write');
    expect(stdout).toContain('append refused 50004');
    expect(stdout).not.toContain('append done');
    // The registration was not lost either: it went to the new leader, which gave it an id of its own.
    expect(reply.status, reply.text).toBe(200);
    const pausedId = (reply.body as { id: number }).id;
    expect(pausedId).not.toBe(takenId);

    // The old registry steps down and follows; both read every acknowledged registration alike.
    await until(async () => (await roleOf(oldUrl))?.leader === next.url, 60_000, 'the old leader following');
    expect((await roleOf(oldUrl))?.role).toBe('follower');
    const acknowledged: [string, number, string][] = [
      ['first', 1, userSchema()],
      ['taken', takenId, taken],
      ['paused', pausedId, pausedSchema],
    ];
    for (const url of [oldUrl, next.url]) {
      for (const [subject, id, schema] of acknowledged) {
        const read = await call(url, 'GET', subjectPath(subject, '/versions'));
        expect(read.body, `${subject} on ${url}`).toEqual([1]);
        expect((await call(url, 'GET', subjectPath(subject, '/versions/1'))).body).toMatchObject({ id });
        expect((await call(url, 'GET', `/schemas/ids/${id}`)).body).toMatchObject({ schema });
      }
    }
  }, 240_000);
});
