/**
 * `wirekit inspect kafka://BOOTSTRAP/TOPIC/PARTITION/OFFSET` against a real Kafka broker (4.1.1
 * from its jars, ../../benchmarks/kafka-server.ts), records produced with kafkajs directly: one record's
 * topic, partition, offset, timestamp, key and headers, its value inspected as any payload or,
 * with --registry, by its writer schema (from wirekit's registry server); earliest and latest; and every way there is no record
 * (an offset past the end, an unknown topic or partition, a tombstone, no broker), each an error
 * within a bounded time that leaves no topic created and no consumer group behind.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import { type Admin, Kafka, logLevel, type Producer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RegistryServer, startRegistryServer } from '../../src/boundaries/events/registry/server.js';
import { parseKafkaUrl } from '../../src/cli/commands/kafka-record.js';
import { createCodec } from '../../src/codecs/registry.js';
import { encodeEnveloped } from '../../src/envelope/index.js';
import { t } from '../../src/index.js';
import { cli, fields } from '../support/cli.js';
import { hasKafka, type KafkaBroker, startKafka } from '../support/kafka.js';

/** The JSON printed under a label on a line of its own ("value:"), parsed. */
function block(text: string, label: string): unknown {
  const lines = text.split('\n');
  const start = lines.indexOf(`${label}:`);
  expect(start, `no ${label} block in:\n${text}`).toBeGreaterThanOrEqual(0);
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((line) => /^[a-z][a-z ]*:( |$)/.test(line) || line === '');
  return JSON.parse(rest.slice(0, end === -1 ? undefined : end).join('\n'));
}

describe('kafka:// URLs', () => {
  test('brokers, topic, partition and offset; earliest and latest', () => {
    expect(parseKafkaUrl('kafka://127.0.0.1:9093/orders/2/41')).toEqual({
      brokers: ['127.0.0.1:9093'],
      topic: 'orders',
      partition: 2,
      offset: 41n,
      display: 'kafka://127.0.0.1:9093/orders/2/41',
    });
    expect(parseKafkaUrl('kafka://a:1,b,[::1]:3/t.x_y-z/0/latest')).toMatchObject({
      brokers: ['a:1', 'b:9092', '[::1]:3'],
      topic: 't.x_y-z',
      offset: 'latest',
    });
    expect(parseKafkaUrl('kafka://h/t/0/earliest').offset).toBe('earliest');
    expect(parseKafkaUrl('kafka://h/t/0/9223372036854775807').offset).toBe(2n ** 63n - 1n);
  });

  test.each([
    'kafka://h/t/0',
    'kafka://h/t/0/1/2',
    'kafka://h//0/1',
    'kafka://h/t/x/1',
    'kafka://h/t/0/-1',
    'kafka://h/t/0/9223372036854775808',
    'kafka://h/t/0/next',
    'kafka://h/bad%20topic/0/1',
    'kafka://h/%E2/0/1',
    'kafka://user:pw@h/t/0/1',
    'kafka:///t/0/1',
  ])('%s is a usage error', async (url) => {
    expect(() => parseKafkaUrl(url)).toThrow(expect.objectContaining({ code: 'WK_CLI_USAGE' }));
    expect((await cli(['inspect', url])).code).toBe(2);
  });
});

describe.skipIf(!hasKafka())('wirekit inspect kafka:// against a real broker', () => {
  let broker: KafkaBroker;
  let kafka: Kafka;
  let producer: Producer;
  let admin: Admin;
  let registry: RegistryServer;
  const topic = 'inspect-events';
  const at = new Date('2024-05-01T10:00:00.000Z').getTime();
  const Reading = t.object('Reading', { sensor: t.string(), celsius: t.float64() });
  let avroOffset = '';
  let schemaId = 0;

  beforeAll(async () => {
    broker = await startKafka();
    registry = await startRegistryServer();
    kafka = new Kafka({ brokers: [broker.bootstrap], logLevel: logLevel.NOTHING, clientId: 'inspect-test' });
    admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 2 }], waitForLeaders: true });
    producer = kafka.producer();
    await producer.connect();
    const theirs = new SchemaRegistry({ host: registry.url });
    const avro = { type: 'record', name: 'Click', fields: [{ name: 'url', type: 'string' }] };
    schemaId = (
      await theirs.register(
        { type: SchemaType.AVRO, schema: JSON.stringify(avro) },
        { subject: `${topic}-value` },
      )
    ).id;
    const framed = await theirs.encode(schemaId, { url: 'https://example.com/a' });
    const [first] = await producer.send({
      topic,
      messages: [
        {
          partition: 0,
          key: 'k-json',
          value: '{"hello":"world","n":1}',
          timestamp: String(at),
          headers: { trace: 'abc', raw: Buffer.from([0xff, 0x00]) },
        },
        {
          partition: 0,
          key: Buffer.from([0xff, 0x00]),
          value: Buffer.from(
            encodeEnveloped(createCodec('msgpack', { schema: Reading }), { sensor: 's1', celsius: 21.5 }),
          ),
          timestamp: String(at + 1),
        },
        { partition: 0, key: 'click', value: framed, timestamp: String(at + 2) },
        { partition: 0, key: 'gone', value: null, timestamp: String(at + 3) },
      ],
    });
    avroOffset = String(BigInt(first?.baseOffset ?? '0') + 2n);
  }, 180_000);

  afterAll(async () => {
    await producer?.disconnect();
    await admin?.disconnect();
    await registry?.close();
    await broker?.stop();
  }, 60_000);

  const url = (partition: number, offset: string) =>
    `kafka://${broker.bootstrap}/${topic}/${partition}/${offset}`;

  test('one record: where it sits, its timestamp, key and headers, and its value inspected', async () => {
    const result = await cli(['inspect', url(0, '0')]);
    expect(result.stderr).toBe('');
    expect(result.code, result.stderr).toBe(0);
    const shown = fields(result.text);
    expect(shown.source).toBe(url(0, '0'));
    expect(shown.record).toBe(`topic ${topic}, partition 0, offset 0`);
    expect(shown.timestamp).toBe(`2024-05-01T10:00:00.000Z (${at})`);
    expect(shown.key).toBe('"k-json"');
    expect(shown.headers).toBe('trace="abc", raw=base64 /wA= (not UTF-8 text)');
    expect(shown.format).toBe('json');
    expect(block(result.text, 'value')).toEqual({ hello: 'world', n: 1 });
  }, 60_000);

  test('--json carries the record; an enveloped value describes itself; a binary key is base64', async () => {
    const result = await cli(['inspect', url(0, '1'), '--json']);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.text);
    expect(report.record).toEqual({
      topic,
      partition: 0,
      offset: '1',
      timestamp: '2024-05-01T10:00:00.001Z',
      timestampMs: at + 1,
      key: { base64: '/wA=' },
      headers: [],
    });
    expect(report).toMatchObject({ detected: 'envelope', format: 'msgpack', decoded: true });
    expect(report.value).toEqual({ sensor: 's1', celsius: 21.5 });
  }, 60_000);

  test('--registry reads a Confluent-framed value by its writer schema', async () => {
    const result = await cli(['inspect', url(0, avroOffset), '--registry', registry.url]);
    expect(result.stderr).toBe('');
    expect(result.code, result.stderr).toBe(0);
    const shown = fields(result.text);
    expect(shown.record).toBe(`topic ${topic}, partition 0, offset ${avroOffset}`);
    expect(shown.key).toBe('"click"');
    expect(shown.schema).toBe(`id ${schemaId}, AVRO, ${topic}-value version 1`);
    expect(block(result.text, 'value')).toEqual({ url: 'https://example.com/a' });
  }, 60_000);

  test('earliest and latest', async () => {
    const first = await cli(['inspect', url(0, 'earliest'), '--json']);
    expect(JSON.parse(first.text).record.offset).toBe('0');
    // The last record of partition 0 is the tombstone.
    const last = await cli(['inspect', url(0, 'latest')]);
    expect(last.code).toBe(1);
    expect(last.stderr).toMatch(/^wirekit: WK_CLI_INPUT: .*tombstone.*"gone"/);
  }, 60_000);

  test('an offset past the end is an error at once, naming the offsets there are', async () => {
    const started = Date.now();
    const result = await cli(['inspect', url(0, '99')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^wirekit: WK_CLI_INPUT: .*offset 99 is past the end of partition 0 of inspect-events, whose records are at offsets 0 to 3/,
    );
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 60_000);

  test('an empty partition, an unknown partition, an unknown topic (not created by asking)', async () => {
    const empty = await cli(['inspect', url(1, '0')]);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/partition 1 of inspect-events holds no records/);
    const partition = await cli(['inspect', url(7, '0')]);
    expect(partition.code).toBe(1);
    expect(partition.stderr).toMatch(/has partitions 0 to 1, not 7/);
    const missing = await cli(['inspect', `kafka://${broker.bootstrap}/no-such-topic/0/0`]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^wirekit: WK_CLI_INPUT: .*no topic no-such-topic/);
    expect(await admin.listTopics()).not.toContain('no-such-topic');
  }, 60_000);

  test('no consumer group is left behind', async () => {
    await cli(['inspect', url(0, '0')]);
    const { groups } = await admin.listGroups();
    expect(groups.filter((group) => group.groupId.startsWith('wirekit-inspect-'))).toEqual([]);
  }, 60_000);

  test('a value larger than --max-input-bytes is WK_LIMIT_INPUT', async () => {
    const result = await cli(['inspect', url(0, '0'), '--max-input-bytes', '8']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^wirekit: WK_LIMIT_INPUT: /);
  }, 60_000);

  test('the built CLI, in its own process, prints the record and exits (nothing of kafkajs keeps it alive)', async () => {
    const main = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
    if (!existsSync(main)) throw new Error('dist/cli/main.js is missing: npm run build first (pretest does)');
    const started = performance.now();
    const { code, stdout, stderr } = await new Promise<{
      code: number | null;
      stdout: string;
      stderr: string;
    }>((resolve, reject) => {
      const child = spawn(process.execPath, [main, 'inspect', url(0, '0'), '--json'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      child.stderr.on('data', (chunk) => (err += chunk));
      child.on('error', reject);
      child.on('close', (exit) => resolve({ code: exit, stdout: out, stderr: err }));
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({
      record: { offset: '0', key: { utf8: 'k-json' } },
      value: { hello: 'world' },
    });
    expect(performance.now() - started).toBeLessThan(20_000);
  }, 60_000);

  test('no broker at the address: WK_EVENT_BROKER_UNAVAILABLE within the deadline', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer();
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const started = Date.now();
    const result = await cli(['inspect', `kafka://127.0.0.1:${port}/${topic}/0/0`]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^wirekit: WK_EVENT_BROKER_UNAVAILABLE: /);
    expect(Date.now() - started).toBeLessThan(25_000);
  }, 60_000);
});
