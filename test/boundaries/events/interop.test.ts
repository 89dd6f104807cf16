/**
 * Interop with the other stacks' own code, through wirekit's registry:
 * - Confluent's Python client (confluent-kafka's consumer and producer, its AvroSerializer and
 *   AvroDeserializer, which decode with fastavro) over a real Kafka broker: Python reads the events
 *   wirekit's producer wrote, and wirekit's consumer reads the events Python wrote with an Avro
 *   schema of its own (another namespace, another field order, a field wirekit's schema lacks),
 *   by resolution.
 * - @kafkajs/confluent-schema-registry 3.9.0 (no broker needed: the frames are the point): it
 *   decodes wirekit's framed Avro and wirekit decodes its output. Its Protobuf serializer writes no
 *   message indexes after the id; wirekit reads such payloads with `protobufMessageIndexes: false`
 *   (and, with the default, refuses them or reads the wrong bytes: the test shows which).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventCodec } from '../../../src/boundaries/events/event-codec.js';
import { kafkaConsumer, kafkaProducer } from '../../../src/boundaries/events/kafka/index.js';
import { registryClient } from '../../../src/boundaries/events/registry/client.js';
import { type RegistryServer, startRegistryServer } from '../../../src/boundaries/events/registry/server.js';
import type { ReceivedEvent } from '../../../src/boundaries/events/transport.js';
import { type Infer, t } from '../../../src/schema/index.js';
import { hasKafka, type KafkaBroker, startKafka } from '../../support/kafka.js';
import { has, venvPython } from '../../support/tools.js';

const peers = new URL('../../support/peers/', import.meta.url).pathname;
const quiet = 0; // kafkajs's logLevel.NOTHING

const Status = t.enum('Status', ['PLACED', 'PAID', 'SHIPPED']);
const Line = t.object('Line', { sku: t.string(), qty: t.int32(), price: t.float64() });
const Order = t.object(
  'Order',
  {
    id: t.string(),
    customer: t.int64({ as: 'number' }),
    status: Status,
    lines: t.array(Line),
    tags: t.map(t.string(), t.string()),
    note: t.optional(t.string()),
  },
  { namespace: 'shop' },
);
type Order = Infer<typeof Order>;

const orders: Order[] = Array.from({ length: 40 }, (_, i) => ({
  id: `o-${i}`,
  customer: 2 ** 40 + i,
  status: (['PLACED', 'PAID', 'SHIPPED'] as const)[i % 3] as Order['status'],
  lines: Array.from({ length: 1 + (i % 4) }, (_, k) => ({ sku: `s${k}`, qty: k + 1, price: 9.5 * (k + 1) })),
  tags: { source: i % 2 === 0 ? 'web' : 'app', ünïcode: 'ok' },
  ...(i % 5 === 0 ? {} : { note: `note ${i}` }),
}));

function runPython(args: readonly string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      venvPython,
      args,
      { timeout: 120_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${args[0]}: ${error.message}\n${stderr}`));
        else resolve(stdout);
      },
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

const python = has('venv:confluent_kafka') && has('venv:fastavro');

describe.skipIf(!hasKafka() || !python)(
  "Confluent's Python client over Kafka, through wirekit's registry",
  () => {
    let broker: KafkaBroker;
    let registry: RegistryServer;

    beforeAll(async () => {
      [broker, registry] = await Promise.all([startKafka(), startRegistryServer()]);
    }, 120_000);
    afterAll(async () => {
      await broker?.stop();
      await registry?.close();
    });

    it('reads the events wirekit produced (AvroDeserializer, fastavro)', async () => {
      const client = registryClient({ url: registry.url });
      const codec = eventCodec({ schema: Order, registry: client, subject: 'to-python-value' });
      const producer = await kafkaProducer({
        brokers: [broker.bootstrap],
        topic: 'to-python',
        codec,
        logLevel: quiet,
      });
      await producer.send(orders.map((value) => ({ key: value.id, value })));
      await producer.close();

      const out = await runPython([
        join(peers, 'confluent_consume.py'),
        broker.bootstrap,
        registry.url,
        'to-python',
        String(orders.length),
      ]);
      const read = out
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { key: string; schemaId: number; value: Record<string, unknown> });
      expect(read).toHaveLength(orders.length);
      const byId = new Map(read.map((event) => [event.key, event]));
      for (const order of orders) {
        const event = byId.get(order.id);
        expect(event?.schemaId).toBe(1);
        // Avro's view of the same value: maps are objects, an absent optional is null.
        expect(event?.value).toEqual({ ...order, note: order.note ?? null });
      }
    }, 120_000);

    it("reads the events Python produced with its own Avro schema, by resolution into wirekit's", async () => {
      // Python's writer schema: another namespace is fine (records match by unqualified name), the
      // fields come in another order, `channel` is unknown to wirekit's reader, `note` is absent.
      const pythonSchema = {
        type: 'record',
        name: 'Order',
        namespace: 'legacy.python',
        fields: [
          { name: 'channel', type: 'string' },
          {
            name: 'lines',
            type: {
              type: 'array',
              items: {
                type: 'record',
                name: 'Line',
                fields: [
                  { name: 'price', type: 'double' },
                  { name: 'qty', type: 'int' },
                  { name: 'sku', type: 'string' },
                ],
              },
            },
          },
          { name: 'id', type: 'string' },
          { name: 'customer', type: 'long' },
          { name: 'status', type: { type: 'enum', name: 'Status', symbols: ['PLACED', 'PAID', 'SHIPPED'] } },
          { name: 'tags', type: { type: 'map', values: 'string' } },
        ],
      };
      const sent = orders.map(({ note: _, ...order }) => order);
      const dir = mkdtempSync(join(tmpdir(), 'wirekit-python-'));
      try {
        const file = join(dir, 'order.avsc');
        writeFileSync(file, JSON.stringify(pythonSchema));
        const input = sent
          .map((value) => JSON.stringify({ key: value.id, value: { ...value, channel: 'py' } }))
          .join('\n');
        const out = await runPython(
          [join(peers, 'confluent_produce.py'), broker.bootstrap, registry.url, 'from-python', file],
          input,
        );
        expect(JSON.parse(out)).toEqual({ sent: sent.length });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }

      const received: ReceivedEvent<Order>[] = [];
      const consumer = await kafkaConsumer({
        brokers: [broker.bootstrap],
        groupId: 'wirekit-reads-python',
        topic: 'from-python',
        fromBeginning: true,
        codec: eventCodec({ schema: Order, registry: registryClient({ url: registry.url }) }),
        handler: async (events) => {
          received.push(...events);
        },
        logLevel: quiet,
      });
      const deadline = Date.now() + 60_000;
      while (received.length < sent.length && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      await consumer.stop();

      expect(received).toHaveLength(sent.length);
      expect(consumer.stats.deadLettered).toBe(0);
      const byId = new Map(received.map((event) => [event.value.id, event]));
      for (const order of sent) {
        expect(byId.get(order.id)?.value).toEqual(order);
        expect(Buffer.from(byId.get(order.id)?.key ?? []).toString()).toBe(order.id);
      }
      // Python registered its own schema under TOPIC-value (Confluent's TopicNameStrategy).
      expect(await registryClient({ url: registry.url }).versions('from-python-value')).toEqual([1]);
    }, 120_000);
  },
);

describe('@kafkajs/confluent-schema-registry 3.9.0 and wirekit, frame for frame', () => {
  let registry: RegistryServer;
  beforeAll(async () => {
    registry = await startRegistryServer();
  });
  afterAll(async () => {
    await registry?.close();
  });

  it("decodes wirekit's framed Avro, and wirekit decodes its output", async () => {
    const theirs = new SchemaRegistry({ host: registry.url });
    const ours = eventCodec({
      schema: Order,
      registry: registryClient({ url: registry.url }),
      subject: 'orders-value',
    });
    for (const order of orders.slice(0, 10)) {
      const framed = await ours.encode(order);
      // avsc (beneath the library) has no int64-as-number concern here: the values fit 2^53.
      expect(await theirs.decode(Buffer.from(framed))).toEqual({ ...order, note: order.note ?? null });
    }
    const id = await theirs.getLatestSchemaId('orders-value');
    for (const order of orders.slice(10, 20)) {
      const framed = await theirs.encode(id, { ...order, note: order.note ?? null });
      const decoded = await ours.decode(new Uint8Array(framed));
      expect(decoded).toEqual({ value: order, schemaId: id });
    }
  });

  it('reads its Protobuf payloads, which carry no message indexes, with protobufMessageIndexes: false', async () => {
    // wirekit's int32 is Protobuf's sint32 (docs/mapping/protobuf.md); the peer's file says so too.
    const Reading = t.object('Reading', { sensor: t.string(), celsius: t.float64(), count: t.int32() });
    const proto = (countType: string) =>
      `syntax = "proto3";\n\nmessage Reading {\n  string sensor = 1;\n  double celsius = 2;\n  ${countType} count = 3;\n}\n`;
    const theirs = new SchemaRegistry({ host: registry.url });
    const { id } = await theirs.register(
      { type: SchemaType.PROTOBUF, schema: proto('sint32') },
      { subject: 'readings-value' },
    );
    const value = { sensor: 'boiler-1', celsius: 71.5, count: -3 };
    const framed = new Uint8Array(await theirs.encode(id, value));
    // Straight after the id comes the message itself (field 1's tag, 0x0a), no index bytes.
    expect(framed[5]).toBe(0x0a);

    const client = registryClient({ url: registry.url });
    const lenient = eventCodec({
      schema: Reading,
      format: 'protobuf',
      registry: client,
      protobufMessageIndexes: false,
    });
    expect(await lenient.decode(framed)).toEqual({ value, schemaId: id });
    // Read as Confluent frames them, 0x0a is taken as a message-index count (zigzag 5) and the
    // rest misparses: a typed error, never a wrong value.
    const strict = eventCodec({ schema: Reading, format: 'protobuf', registry: client });
    await expect(strict.decode(framed)).rejects.toMatchObject({ name: 'WirekitError' });

    // A writer whose field keeps its number but not its encoding (int32, a plain varint) would be
    // misread by the reader's sint32 (3 comes out as -2): it is refused, once per schema id.
    const other = await theirs.register(
      { type: SchemaType.PROTOBUF, schema: proto('int32') },
      { subject: 'other-value' },
    );
    const misfit = new Uint8Array(await theirs.encode(other.id, { ...value, count: 3 }));
    await expect(lenient.decode(misfit)).rejects.toMatchObject({ code: 'WK_DECODE_SCHEMA_MISMATCH' });
  });
});
