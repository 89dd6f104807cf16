/**
 * bench:events end to end on a tiny run: the built orchestrator (dist/, built by `pretest`) starts
 * its own Kafka broker, runs three formats at two low rates in fresh producer and consumer
 * processes, and stops the broker. What is checked is what must hold whatever the machine's speed:
 * every step's produced events were all consumed, the counts add up from the steps to the topic to
 * the handler's tally, the handler found every amount intact, bytes on the broker are the payload
 * plus Kafka's record overhead, the binary format's events are smaller, the report has a row per
 * format, and no broker or log directory is left behind. Not timing.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { hasKafka } from '../../test/support/kafka.js';
import type { CeilingResult } from './ceiling.js';
import type { LagRun } from './lag-report.js';
import type { EventsRun } from './report.js';
import { prepareTopic, type TopicAdmin } from './topic.js';

const run = promisify(execFile);
const main = fileURLToPath(new URL('../../build/benchmarks/events/main.js', import.meta.url));

function portIsClosed(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

/** Lines prepareTopic wrote to stderr, one per case's topic: every mode prepares its topics there. */
const preparedTopics = (stderr: string): string[] =>
  stderr.split('\n').filter((line) => /^ {2}topic \S+ served after [\d.]+ s \(\d+ checks?\)$/.test(line));

/**
 * A broker that names no leader for the first `leaderAfter` metadata reads, then refuses the end
 * offset for the next `offsetsAfter` reads (what a partition chosen but not yet hosted answers).
 */
const notHosted = () =>
  Object.assign(new Error('This server does not host this topic-partition'), {
    name: 'KafkaJSProtocolError',
    retriable: true,
  });

function slowBroker(leaderAfter: number, offsetsAfter: number) {
  const calls = { created: 0, metadata: 0, offsets: 0 };
  const admin = {
    // As the real broker answered at load 30: kafkajs's own wait for leaders gives up on a topic
    // the metadata does not know yet.
    createTopics: async (options: { waitForLeaders?: boolean }) => {
      calls.created++;
      if (options.waitForLeaders === true && calls.metadata < leaderAfter) throw notHosted();
      return true;
    },
    fetchTopicMetadata: async () => {
      calls.metadata++;
      const leader = calls.metadata > leaderAfter ? 1 : -1;
      return { topics: [{ name: 't', partitions: [{ partitionId: 0, leader }] }] };
    },
    fetchTopicOffsets: async () => {
      calls.offsets++;
      if (calls.offsets <= offsetsAfter) throw notHosted();
      return [{ partition: 0, offset: '0', high: '0', low: '0' }];
    },
  } as unknown as TopicAdmin;
  return { admin, calls };
}

describe('prepareTopic', () => {
  test('waits past a leader-less metadata and a refused end offset, and returns once both are there', async () => {
    const { admin, calls } = slowBroker(2, 2);
    const lines: string[] = [];
    const prepared = await prepareTopic(admin, 't', { pollMs: 1, log: (line) => lines.push(line) });
    expect(calls.created).toBe(1);
    // Two checks without a leader, two with a leader and no end offset, the fifth finds both.
    expect(prepared.checks).toBe(5);
    expect(calls.offsets).toBe(3);
    expect(lines).toEqual([expect.stringMatching(/^ {2}topic t served after [\d.]+ s \(5 checks\)\n$/)]);
  });

  test('gives up after its timeout, naming what it waited for and what the last check found', async () => {
    const noLeader = slowBroker(Number.POSITIVE_INFINITY, 0);
    await expect(prepareTopic(noLeader.admin, 't', { timeoutMs: 30, pollMs: 5 })).rejects.toThrow(
      /^topic t not ready after 0\.0 s \(\d+ checks\): waited for 1 partition\(s\) with a leader and a readable end offset; last check: 0 of 1 partition\(s\) with a leader in the metadata$/,
    );
    const notHosted = slowBroker(0, Number.POSITIVE_INFINITY);
    await expect(prepareTopic(notHosted.admin, 't', { timeoutMs: 30, pollMs: 5 })).rejects.toThrow(
      /last check: KafkaJSProtocolError: This server does not host this topic-partition$/,
    );
  });
});

describe.skipIf(!hasKafka())('npm run bench:events', () => {
  test('a tiny run: every step consumed what it produced, counts add up, bytes and report are consistent', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wirekit-events-bench-'));
    try {
      const json = join(dir, 'run.json');
      const rates = [300, 600];
      const { stdout, stderr } = await run(
        process.execPath,
        [
          main,
          '--formats',
          'plain-json,json,avro',
          '--rates',
          rates.join(','),
          '--step-seconds',
          '1',
          '--warmup-seconds',
          '1',
          '--repetitions',
          '1',
          '--pool',
          '300',
          '--json',
          json,
        ],
        { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, timeout: 240_000 },
      );
      const result = JSON.parse(readFileSync(json, 'utf8')) as EventsRun;
      expect(result.failures).toEqual([]);
      expect(result.results.map((r) => r.format).sort()).toEqual(['avro', 'json', 'plain-json']);
      expect(preparedTopics(stderr)).toHaveLength(3);

      for (const r of result.results) {
        expect(r.steps.length, `${r.format}: at least the first step ran`).toBeGreaterThanOrEqual(1);
        r.steps.forEach((step, i) => {
          expect(step.rate).toBe(rates[i]);
          // The producer sends exactly rate × seconds events per step, all acknowledged.
          expect(step.producer.events).toBe(step.rate * 1);
          expect(step.produced, `${r.format} ${step.rate}/s: on the topic`).toBe(step.producer.events);
          expect(step.consumed, `${r.format} ${step.rate}/s: consumed = produced`).toBe(step.produced);
          expect(step.drainSeconds).toBeGreaterThanOrEqual(0);
          expect(step.lagMax).toBeGreaterThanOrEqual(step.lagEnd);
          expect(step.processCpuUs).toBeGreaterThan(0);
          expect(step.samples.length).toBeGreaterThanOrEqual(2);
        });
        const stepped = r.steps.reduce((sum, step) => sum + step.produced, 0);
        expect(r.totalEvents, `${r.format}: the topic holds the warm-up and the steps`).toBe(
          r.warmup.events + stepped,
        );
        // The handler saw every event once, and every event's amounts added up.
        expect(r.tally.events).toBe(r.totalEvents);
        expect(r.tally.mismatches).toBe(0);
        expect(r.consumerErrors).toBe(0);
        expect(r.tally.items).toBeGreaterThanOrEqual(r.tally.events);
        // On the broker: the payload plus a record's few bytes and the batches' headers.
        expect(r.brokerBytesPerEvent).toBeGreaterThan(r.payloadBytes.mean);
        expect(r.brokerBytesPerEvent).toBeLessThan(r.payloadBytes.mean + 80);
        expect(r.calibration.decodeUs).toBeGreaterThan(0);
        expect(r.calibration.handleUs).toBeGreaterThan(0);
      }
      const bytes = (format: string) =>
        result.results.find((r) => r.format === format)?.payloadBytes.mean ?? Number.NaN;
      expect(bytes('avro')).toBeLessThan(bytes('json') / 2);
      // wirekit's JSON carries the envelope's header on top of the same JSON text.
      expect(bytes('json')).toBeGreaterThan(bytes('plain-json'));

      for (const heading of ['| format | consumer | payload', '| format | 300/s', '| format | rate/s']) {
        const start = stdout.split('\n').findIndex((line) => line.startsWith(heading));
        expect(start, heading).toBeGreaterThanOrEqual(0);
        const rows = stdout
          .split('\n')
          .slice(start + 2)
          .filter((_, i, lines) => lines.slice(0, i + 1).every((line) => line.startsWith('|')));
        expect(rows.length, heading).toBeGreaterThanOrEqual(3);
      }
      expect(await portIsClosed(Number(result.kafka.bootstrap.split(':')[1]))).toBe(true);
      expect(existsSync(result.kafka.logDir)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);

  test('--mode ceiling: each format drained by both consumers on both shapes, every event handled once, a table per shape', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wirekit-events-ceiling-'));
    try {
      const json = join(dir, 'ceiling.json');
      const { stdout, stderr } = await run(
        process.execPath,
        [
          main,
          '--mode',
          'ceiling',
          '--formats',
          'plain-json,avro',
          '--shapes',
          'order,document',
          '--events',
          '10000',
          '--repetitions',
          '1',
          '--json',
          json,
        ],
        { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, timeout: 240_000 },
      );
      const results = JSON.parse(readFileSync(json, 'utf8')) as CeilingResult[];
      expect(results.map((r) => `${r.shape} ${r.format} ${r.consumer}`).sort()).toEqual([
        'document avro kafkajs',
        'document avro wirekit',
        'document plain-json kafkajs',
        'order avro kafkajs',
        'order avro wirekit',
        'order plain-json kafkajs',
      ]);
      expect(preparedTopics(stderr)).toHaveLength(6);
      for (const r of results) {
        // The case itself fails unless the handler saw every event once with its amounts intact;
        // a tenth as many documents as orders.
        expect(r.events).toBe(r.shape === 'order' ? 10_000 : 1000);
        expect(r.perSecond).toBeGreaterThan(0);
        expect(r.processCpuUs).toBeGreaterThan(0);
      }
      const lines = stdout.split('\n');
      for (const shape of ['order', 'document']) {
        const title = lines.findIndex((line) => line.startsWith(`## Consumer ceiling, ${shape} events:`));
        expect(title, shape).toBeGreaterThanOrEqual(0);
        expect(lines[title + 2]).toMatch(/^\| format \| wirekit consumer/);
        expect(lines[title + 4]).toMatch(/^\| wirekit avro .*\| \d+ % \|/);
        expect(lines[title + 5]).toMatch(/^\| plain JSON on kafkajs/);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);

  test('--mode lag: every format through a short peak on both shapes, every event handled once, a table row and a chart each', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wirekit-events-lag-'));
    try {
      const json = join(dir, 'lag.json');
      const html = join(dir, 'lag.html');
      const { stdout, stderr } = await run(
        process.execPath,
        [
          main,
          '--mode',
          'lag',
          '--formats',
          'plain-json,json,avro',
          '--shapes',
          'order,document',
          '--lag-rates',
          'order=300/1200,document=100/400',
          '--base-seconds',
          '1',
          '--peak-seconds',
          '2',
          '--catch-up-seconds',
          '20',
          '--pool',
          '200',
          '--json',
          json,
          '--html',
          html,
        ],
        { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, timeout: 280_000 },
      );
      const lag = JSON.parse(readFileSync(json, 'utf8')) as LagRun;
      expect(lag.results.map((r) => `${r.shape} ${r.format}`).sort()).toEqual([
        'document avro',
        'document json',
        'document plain-json',
        'order avro',
        'order json',
        'order plain-json',
      ]);
      expect(preparedTopics(stderr)).toHaveLength(6);
      for (const r of lag.results) {
        const name = `${r.shape} ${r.format}`;
        // The case fails unless the handler's tally holds every event once, intact; the counts say so too.
        expect(r.handled, name).toBe(r.produced);
        // Warm-up (1 s) + base (1 s) + peak (2 s) + at least a second of base after it.
        expect(r.produced, name).toBeGreaterThanOrEqual(r.baseRate * 3 + r.peakRate * 2);
        expect(r.points.length, name).toBeGreaterThan(8);
        expect(r.points.some((p) => p.t < 0) && r.points.some((p) => p.t > r.peakSeconds), name).toBe(true);
        expect(r.maxLagSeconds, name).toBeGreaterThanOrEqual(0);
        // At these rates every consumer keeps up: it catches up within the catch-up window.
        expect(Number.isFinite(r.catchUpSeconds), name).toBe(true);
      }
      expect(
        lag.results.find((r) => r.shape === 'document' && r.format === 'plain-json')?.payloadBytes.mean,
      ).toBeGreaterThan(7_000);
      const lines = stdout.split('\n');
      const start = lines.findIndex((line) => line.startsWith('| shape | format |'));
      expect(start).toBeGreaterThanOrEqual(0);
      const rows = lines.slice(start + 2, start + 8);
      expect(rows).toHaveLength(6);
      for (const row of rows) expect(row).toMatch(/^\| (order|document) \| .* \| yes \([\d,]+\) \|$/);
      // One lag chart per shape in the HTML page, its lines one per format.
      const page = readFileSync(html, 'utf8');
      expect(page.match(/data-chart="lines"/g)).toHaveLength(2);
      const data = JSON.parse(
        /<script type="application\/json" id="lab-run">(.*?)<\/script>/s.exec(page)?.[1] ?? '{}',
      ) as { lines: { series: unknown[] }[] };
      for (const chart of data.lines) expect(chart.series).toHaveLength(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
