/**
 * `wirekit inspect --registry URL FILE`: Confluent-framed payloads read by their writer schema,
 * fetched from a registry over HTTP (the Confluent peer of the client tests): Avro written by
 * avsc under a schema wirekit never exported, into its own import or a reader's --schema; Avro
 * framed by @kafkajs/confluent-schema-registry; Protobuf with and without message indexes, field
 * by field or by --schema; a wirekit schema with --format; and every failure, with its exit code.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import avsc from 'avsc';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writeConfluentFrame } from '../../src/boundaries/events/framing.js';
import { registryClient } from '../../src/boundaries/events/registry/client.js';
import { createCodec } from '../../src/codecs/registry.js';
import { schemaToJson, t } from '../../src/index.js';
import { toProto } from '../../src/schema/export/proto.js';
import { type ConfluentPeer, startConfluentPeer } from '../boundaries/events/registry/confluent-peer.js';
import { cli, fields } from '../support/cli.js';

/** The JSON printed under a label on a line of its own ("value:"), parsed. */
function block(text: string, label: string): unknown {
  const lines = text.split('\n');
  const start = lines.indexOf(`${label}:`);
  expect(start, `no ${label} block in:\n${text}`).toBeGreaterThanOrEqual(0);
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((line) => /^[a-z][a-z ]*:( |$)/.test(line) || line === '');
  return JSON.parse(rest.slice(0, end === -1 ? undefined : end).join('\n'));
}

const paymentAvro = {
  type: 'record',
  name: 'Payment',
  namespace: 'shop',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'amount', type: { type: 'bytes', logicalType: 'decimal', precision: 9, scale: 2 } },
    { name: 'at', type: { type: 'long', logicalType: 'timestamp-millis' } },
    { name: 'method', type: { type: 'enum', name: 'Method', symbols: ['CARD', 'CASH'] } },
    { name: 'memo', type: ['null', 'string'], default: null },
  ],
};
const payment = {
  id: 'p-1',
  amount: Buffer.from([0x30, 0x39]), // 123.45
  at: 1_700_000_000_000,
  method: 'CASH',
  memo: 'thanks',
};
const paymentShown = {
  id: 'p-1',
  amount: '123.45',
  at: '2023-11-14T22:13:20.000Z',
  method: 'CASH',
  memo: 'thanks',
};

const Order = t.object('Order', { id: t.int64(), name: t.string(), tags: t.array(t.string()) });
const Line = t.object('Line', { sku: t.string(), qty: t.int32() });
const protoText = `${toProto(Order, { package: 'shop' })}\n${toProto(Line, { package: 'shop' }).replace(/^[\s\S]*?(?=message Line)/, '')}`;

let peer: ConfluentPeer;
let dir: string;
let avroId: number;
let protoId: number;
beforeAll(async () => {
  peer = await startConfluentPeer();
  dir = await mkdtemp(join(tmpdir(), 'wirekit-inspect-registry-'));
  const client = registryClient({ url: peer.url });
  avroId = await client.register('payments-value', { schema: JSON.stringify(paymentAvro) });
  await client.register('payments-copy', { schema: JSON.stringify(paymentAvro) });
  protoId = await client.register('orders-value', { schemaType: 'PROTOBUF', schema: protoText });
});
afterAll(async () => {
  await peer.close();
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, bytes: Uint8Array): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, bytes);
  return path;
}

const avroFrame = () =>
  writeConfluentFrame(avroId, avsc.Type.forSchema(paymentAvro as never).toBuffer(payment));

describe('Avro', () => {
  test("a schema wirekit never exported: the header names id, type and subjects; the value is read by the writer's schema", async () => {
    const path = await file('payment.bin', avroFrame());
    const result = await cli(['inspect', '--registry', peer.url, path]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const shown = fields(result.text);
    expect(shown.source).toBe(path);
    expect(shown.registry).toBe(peer.url);
    expect(shown.framing).toBe(`Confluent wire format (magic byte 0, schema id ${avroId})`);
    expect(shown.schema).toBe(`id ${avroId}, AVRO, payments-value version 1, payments-copy version 1`);
    expect(shown.sizes).toMatch(/^total \d+ B, header 5 B, payload \d+ B$/);
    expect(block(result.text, 'value')).toEqual(paymentShown);
  });

  test('--json prints one object', async () => {
    const path = await file('payment-json.bin', avroFrame());
    const result = await cli(['inspect', '--registry', peer.url, path, '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.text)).toEqual({
      source: path,
      registry: peer.url,
      framing: 'confluent',
      schemaId: avroId,
      schemaType: 'AVRO',
      subjects: [
        { subject: 'payments-value', version: 1 },
        { subject: 'payments-copy', version: 1 },
      ],
      messageIndexes: null,
      sizes: { total: avroFrame().length, header: 5, payload: avroFrame().length - 5 },
      readBy: "the writer's Avro schema, from the registry",
      decoded: true,
      value: paymentShown,
    });
  });

  test('standard input, and a reader --schema that the writer resolves into (defaults filled, fields dropped)', async () => {
    const Reader = t.object(
      'Payment',
      {
        id: t.string(),
        method: t.enum('Method', ['CARD', 'CASH']),
        currency: t.field(t.string(), { default: 'EUR' }),
      },
      { namespace: 'shop' },
    );
    const schemaPath = join(dir, 'reader.schema.json');
    await writeFile(schemaPath, JSON.stringify(schemaToJson(Reader)));
    const result = await cli(['inspect', '--registry', peer.url, '-', '--schema', schemaPath], avroFrame());
    expect(result.code).toBe(0);
    expect(fields(result.text)['read by']).toBe(`${schemaPath}, resolved from the writer's Avro schema`);
    expect(block(result.text, 'value')).toEqual({ id: 'p-1', method: 'CASH', currency: 'EUR' });
  });

  test('a frame written by @kafkajs/confluent-schema-registry reads back', async () => {
    const registry = new SchemaRegistry({ host: peer.url });
    const schema = {
      type: 'record',
      name: 'Click',
      fields: [
        { name: 'url', type: 'string' },
        { name: 'n', type: 'int' },
      ],
    };
    const { id } = await registry.register(
      { type: SchemaType.AVRO, schema: JSON.stringify(schema) },
      { subject: 'clicks-value' },
    );
    const bytes = await registry.encode(id, { url: 'https://example.com/', n: 3 });
    const result = await cli(['inspect', '--registry', peer.url, await file('click.bin', bytes)]);
    expect(result.code).toBe(0);
    expect(fields(result.text).schema).toBe(`id ${id}, AVRO, clicks-value version 1`);
    expect(block(result.text, 'value')).toEqual({ url: 'https://example.com/', n: 3 });
  });

  test('--hex dumps the payload after the header', async () => {
    const frame = avroFrame();
    const result = await cli(['inspect', '--registry', peer.url, await file('hex.bin', frame), '--hex']);
    expect(result.code).toBe(0);
    expect(fields(result.text).hex).toBe(`${frame.length - 5} bytes of the payload`);
    expect(result.text).toContain(
      Buffer.from(frame.subarray(5, 13))
        .toString('hex')
        .replace(/(..)(?!$)/g, '$1 '),
    );
  });

  test('bytes that do not match the writer schema: the error, its code, and the writer schema shown', async () => {
    const result = await cli([
      'inspect',
      '--registry',
      peer.url,
      await file('short.bin', avroFrame().subarray(0, 9)),
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^wirekit: WK_DECODE_TRUNCATED: /);
    expect(fields(result.text).schema).toContain(`id ${avroId}, AVRO`);
    expect(result.text).toContain('writer schema:');
    expect(result.text).toContain('"name":"Payment"');
  });
});

describe('Protobuf', () => {
  const order = { id: 42n, name: 'Ada', tags: ['a', 'b'] };
  const payload = () => createCodec('protobuf', { schema: Order }).encode(order);

  test("Confluent's frame (message indexes [0]): the message named, the fields by number", async () => {
    const path = await file('order.bin', writeConfluentFrame(protoId, payload(), [0]));
    const result = await cli(['inspect', '--registry', peer.url, path]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const shown = fields(result.text);
    expect(shown.schema).toBe(`id ${protoId}, PROTOBUF, orders-value version 1`);
    expect(shown.message).toBe('shop.Order (message indexes [0])');
    expect(shown.sizes).toMatch(/header 6 B/);
    // id is a sint64 (wirekit's export): the wire holds its zigzag form, 2 × 42.
    expect(block(result.text, 'value')).toEqual({ '1': 84, '2': 'Ada', '3': ['a', 'b'] });
  });

  test('message indexes [1] name the second message', async () => {
    const line = createCodec('protobuf', { schema: Line }).encode({ sku: 'X-1', qty: 7 });
    const result = await cli([
      'inspect',
      '--registry',
      peer.url,
      await file('line.bin', writeConfluentFrame(protoId, line, [1])),
    ]);
    expect(result.code).toBe(0);
    expect(fields(result.text).message).toBe('shop.Line (message indexes [1])');
    expect(block(result.text, 'value')).toEqual({ '1': 'X-1', '2': 14 });
  });

  test('a frame without message indexes (as kafkajs writes it) is read too, and said to be', async () => {
    const result = await cli([
      'inspect',
      '--registry',
      peer.url,
      await file('bare.bin', writeConfluentFrame(protoId, payload())),
      '--json',
    ]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.text);
    expect(report).toMatchObject({ messageIndexes: null, message: 'shop.Order', sizes: { header: 5 } });
    expect(report.note).toMatch(/no message indexes/);
    expect(report.value).toEqual({ '1': 84, '2': 'Ada', '3': ['a', 'b'] });
  });

  test('--schema decodes by a wirekit schema instead', async () => {
    const schemaPath = join(dir, 'order.schema.json');
    await writeFile(schemaPath, JSON.stringify(schemaToJson(Order)));
    const path = await file('order2.bin', writeConfluentFrame(protoId, payload(), [0]));
    const result = await cli(['inspect', '--registry', peer.url, path, '--schema', schemaPath]);
    expect(result.code).toBe(0);
    expect(block(result.text, 'value')).toEqual({ id: '42', name: 'Ada', tags: ['a', 'b'] });
  });

  test('malformed Protobuf bytes are WK_DECODE_* with exit 1', async () => {
    const path = await file('bad.bin', writeConfluentFrame(protoId, Uint8Array.of(0x0a, 0x10, 0x41), [0]));
    const result = await cli(['inspect', '--registry', peer.url, path]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^wirekit: WK_DECODE_TRUNCATED: /);
  });
});

describe('a wirekit schema', () => {
  test('decodes in the format --format names; without --format it is a usage error', async () => {
    const Note = t.object('Note', { text: t.string(), stars: t.uint8() });
    const id = await registryClient({ url: peer.url }).register('notes-value', {
      schemaType: 'WIREKIT',
      schema: JSON.stringify(schemaToJson(Note)),
    });
    const bytes = createCodec('msgpack', { schema: Note }).encode({ text: 'hi', stars: 5 });
    const path = await file('note.bin', writeConfluentFrame(id, bytes));
    const result = await cli(['inspect', '--registry', peer.url, path, '--format', 'msgpack']);
    expect(result.code).toBe(0);
    expect(fields(result.text).schema).toBe(`id ${id}, WIREKIT, notes-value version 1`);
    expect(block(result.text, 'value')).toEqual({ text: 'hi', stars: 5 });
    const bare = await cli(['inspect', '--registry', peer.url, path]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/^wirekit: WK_CLI_USAGE: .*--format/);
  });

  test('--format that contradicts the registry is a usage error', async () => {
    const result = await cli([
      'inspect',
      '--registry',
      peer.url,
      await file('contra.bin', avroFrame()),
      '--format',
      'protobuf',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/says schema \d+ is AVRO/);
  });
});

describe('failures', () => {
  test('input that is not Confluent-framed is WK_EVENT_FRAME_INVALID, exit 1', async () => {
    const result = await cli([
      'inspect',
      '--registry',
      peer.url,
      await file('plain.json', Buffer.from('{"a":1}')),
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^wirekit: WK_EVENT_FRAME_INVALID: .*magic byte/);
  });

  test('an id the registry never issued is WK_REGISTRY_NOT_FOUND, exit 1, with what was read shown', async () => {
    const result = await cli([
      'inspect',
      '--registry',
      peer.url,
      await file('unknown.bin', writeConfluentFrame(987_654, Uint8Array.of(2, 0x41))),
      '--json',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^wirekit: WK_REGISTRY_NOT_FOUND: /);
    expect(JSON.parse(result.text)).toMatchObject({
      schemaId: 987_654,
      schemaType: null,
      decoded: false,
      error: { code: 'WK_REGISTRY_NOT_FOUND' },
    });
  });

  test('a registry that is not there is WK_REGISTRY_UNAVAILABLE, exit 1, within seconds', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer();
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const started = Date.now();
    const result = await cli([
      'inspect',
      '--registry',
      `http://127.0.0.1:${port}`,
      await file('down.bin', avroFrame()),
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^wirekit: WK_REGISTRY_UNAVAILABLE: .*ECONNREFUSED/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  test('credentials in the registry URL are sent, never shown', async () => {
    const url = new URL(peer.url);
    url.username = 'reader';
    url.password = 's3cret';
    const result = await cli([
      'inspect',
      '--registry',
      url.href,
      await file('auth.bin', avroFrame()),
      '--json',
    ]);
    expect(result.code).toBe(0);
    expect(result.text).not.toContain('s3cret');
    expect(JSON.parse(result.text).registry).toBe(peer.url);
    expect(peer.seen.at(-1)?.headers.authorization).toBe(
      `Basic ${Buffer.from('reader:s3cret').toString('base64')}`,
    );
  });

  test.each([
    [['--registry', 'not a url'], /--registry: /],
    [['--registry', 'ftp://x/'], /--registry: /],
    [['--legacy', 'json'], /--legacy does not apply with --registry/],
    [['--compress', 'gzip'], /--compress does not apply/],
    [['--sequence'], /--sequence does not apply/],
  ])('%j is a usage error (exit 2)', async (flags, message) => {
    const args = flags.includes('--registry') ? flags : ['--registry', peer.url, ...flags];
    const result = await cli(['inspect', ...args, await file('usage.bin', avroFrame())]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  test('a redis:// source with --registry is a usage error', async () => {
    const result = await cli(['inspect', '--registry', peer.url, 'redis://127.0.0.1:1/k']);
    expect(result.code).toBe(2);
  });
});
