/**
 * The leader of three `wirekit registry serve` processes on one Kafka topic (a real broker, Apache
 * Kafka 4.1.1) killed with SIGKILL while clients keep registering schemas through every node: a
 * new leader is elected (the time it took is printed, and bounded generously), no id is handed to
 * two schemas, every registration a node acknowledged is there afterwards with the id it was
 * acknowledged with, on every surviving node and on a node started afterwards.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { type Running, serve, stopServers } from '../../../cli/registry-process.js';
import { hasKafka, type KafkaBroker, startKafka } from '../../../support/kafka.js';
import { call, subjectPath, userSchema } from './http.js';

interface View {
  url: string;
  leader: string | null;
  role: string;
}

const sessionTimeoutMs = 6_000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function viewOf(url: string): Promise<View | undefined> {
  try {
    const reply = await call(url, 'GET', '/v1/metadata/id');
    return reply.status === 200 ? (reply.body as View) : undefined;
  } catch {
    return undefined;
  }
}

/** Polls until every node names the same leader, one of them; that leader's URL. */
async function agreedLeader(urls: readonly string[], ms: number): Promise<string> {
  const deadline = Date.now() + ms;
  for (;;) {
    const views = await Promise.all(urls.map(viewOf));
    const leader = views[0]?.leader;
    const agreed = views.every((view) => view !== undefined && view.leader === leader);
    if (agreed && typeof leader === 'string' && urls.includes(leader)) return leader;
    if (Date.now() > deadline) throw new Error(`no agreed leader within ${ms} ms: ${JSON.stringify(views)}`);
    await pause(50);
  }
}

describe.runIf(hasKafka() || process.env.CI === 'true')('a registry cluster losing its leader', () => {
  let broker: KafkaBroker;
  beforeAll(async () => {
    broker = await startKafka();
  }, 180_000);
  afterEach(stopServers);
  afterAll(async () => {
    await broker?.stop();
  });

  const start = (topic: string) =>
    serve([
      '--port',
      '0',
      '--store',
      `kafka:${broker.bootstrap}/${topic}`,
      '--kafka-session-timeout',
      String(sessionTimeoutMs),
    ]);

  test('SIGKILL of the leader mid-stream: a new leader, no id twice, nothing acknowledged lost', async () => {
    const topic = '_schemas_failover';
    const nodes: Running[] = [];
    // One at a time: each joins the group the others formed.
    for (let index = 0; index < 3; index += 1) nodes.push(await start(topic));
    const urls = nodes.map((node) => node.url);
    const firstLeader = await agreedLeader(urls, 60_000);
    const leaderNode = nodes.find((node) => node.url === firstLeader) as Running;
    const survivors = urls.filter((url) => url !== firstLeader);

    /** subject → the id its registration was acknowledged with. */
    const acknowledged = new Map<string, number>();
    const refusedWhileFailingOver: number[] = [];
    let killedAt = 0;
    /** When the first registration sent after the kill was acknowledged. */
    let resumedAt = 0;
    let stopWriting = false;
    let next = 0;
    // Three clients, each registering new schemas in turn through every live node, trying a
    // refused or cut-off registration again (as a producer's serializer would) until it lands.
    const client = async (which: number) => {
      while (!stopWriting) {
        const index = next;
        next += 1;
        const subject = `stream-${index}`;
        const schema = userSchema({ name: `f${index}`, type: 'int', default: 0 });
        const sentAfterKill = killedAt !== 0;
        for (let attempt = 0; ; attempt += 1) {
          const live = killedAt === 0 ? urls : survivors;
          const url = live[(index + attempt + which) % live.length] as string;
          const reply = await call(url, 'POST', subjectPath(subject, '/versions'), { schema }).catch(
            () => undefined,
          );
          if (reply?.status === 200) {
            acknowledged.set(subject, (reply.body as { id: number }).id);
            if (sentAfterKill && resumedAt === 0) resumedAt = Date.now();
            break;
          }
          if (killedAt !== 0) refusedWhileFailingOver.push(reply?.status ?? 0);
          await pause(50);
        }
      }
    };
    const clients = [0, 1, 2].map(client);

    while (acknowledged.size < 30) await pause(20);
    killedAt = Date.now();
    leaderNode.child.kill('SIGKILL');
    const newLeader = await agreedLeader(survivors, 60_000);
    const electedMs = Date.now() - killedAt;
    const countAtElection = acknowledged.size;
    while (acknowledged.size < countAtElection + 30) await pause(20);
    const writesBackMs = Date.now() - killedAt;
    stopWriting = true;
    await Promise.all(clients);

    process.stderr.write(
      `registry failover: session timeout ${sessionTimeoutMs} ms; new leader agreed by both survivors ${electedMs} ms after SIGKILL, first registration sent after the kill acknowledged after ${resumedAt - killedAt} ms; ${acknowledged.size} registrations acknowledged, ${refusedWhileFailingOver.length} tries refused or cut off during the failover\n`,
    );
    expect(survivors).toContain(newLeader);
    // Generous: the session timeout, a rebalance, and a slow machine.
    expect(electedMs).toBeLessThan(sessionTimeoutMs + 30_000);
    expect(writesBackMs).toBeLessThan(120_000);

    // No id was handed to two schemas: every subject has a schema of its own, so ids differ.
    const ids = [...acknowledged.values()];
    expect(new Set(ids).size).toBe(ids.length);

    // Every acknowledged registration is there, with its id, on every survivor and on a new node.
    const late = await start(topic);
    for (const url of [...survivors, late.url]) {
      const subjects = (await call(url, 'GET', '/subjects')).body as string[];
      expect(subjects.length).toBeGreaterThanOrEqual(acknowledged.size);
      for (const [subject, id] of acknowledged) {
        const read = await call(url, 'GET', subjectPath(subject, '/versions'));
        expect(read.body, `${subject} on ${url}`).toEqual([1]);
        const version = await call(url, 'GET', subjectPath(subject, '/versions/1'));
        expect((version.body as { id: number }).id, `${subject} on ${url}`).toBe(id);
      }
    }
    // The new node follows the new leader, which kept its place when the new node joined.
    expect(await agreedLeader([...survivors, late.url], 30_000)).toBe(newLeader);
  }, 300_000);
});
