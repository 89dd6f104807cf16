/**
 * Confluent's Python serializers (confluent-kafka 2.16: ProtobufSerializer, ProtobufDeserializer,
 * AvroSerializer, AvroDeserializer) through `wirekit registry serve`, a real process on a free
 * port, on bytes (no broker: the framing and the registry calls are the serializers' own).
 *
 * The .proto imports google/protobuf/timestamp.proto (built in on both sides) and a file of its own
 * (which the serializer registers under its own subject and names in `references`), and holds a
 * nested message, so that events carry message indexes other than [0]. Python registers base64
 * FileDescriptorProtos and reads schemas back with `?format=serialized`; wirekit's event codec reads
 * what Python wrote, and Python reads what wirekit wrote (a .proto text wirekit registered, served
 * to Python as a descriptor).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { eventCodec } from '../../../../src/boundaries/events/index.js';
import { toProto } from '../../../../src/schema/export/index.js';
import { t } from '../../../../src/schema/index.js';
import { type Running, serve, stopServers } from '../../../cli/registry-process.js';
import { has, venvPython } from '../../../support/tools.js';

const peer = new URL('../../../support/peers/confluent_protobuf.py', import.meta.url).pathname;

// The same package as the file that imports it: wirekit's event codec registers and compares the
// reader's toProto, which writes one package per file.
const money = `syntax = "proto3";
package shop.v1;
message Money { string currency = 1; int64 units = 2; }
`;
const order = `syntax = "proto3";
package shop.v1;
import "google/protobuf/timestamp.proto";
import "shop/money.proto";
message Line {
  string sku = 1;
  Money price = 2;
  int32 quantity = 3;
}
message Order {
  string id = 1;
  repeated Line lines = 2;
  google.protobuf.Timestamp placed = 3;
  Money total = 4;
}
`;
// A third file, importing the second: its references reach the first through the second's.
const batch = `syntax = "proto3";
package shop.v1;
import "shop/order.proto";
message Batch {
  message Entry { string key = 1; Line line = 2; }
  repeated Entry entries = 1;
}
`;

interface Answer {
  readonly frame?: string;
  readonly value?: unknown;
  readonly error?: string;
}

let registry: Running;
let descriptorSet: string;
let dir: string;

/** Runs the Python peer on the requests; its answers, one per request. */
function python(mode: 'produce' | 'consume', requests: readonly object[], set = descriptorSet): Answer[] {
  const run = spawnSync(venvPython, [peer, mode, registry.url, set, JSON.stringify(requests)], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (run.status !== 0) throw new Error(`python ${mode} failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as Answer[];
}

// wirekit's readers, written with its builders: toProto prints each as one file of package shop.v1,
// and the event codec checks the writer's file against it (field numbers and types) before reading.
const scope = { namespace: 'shop.v1' } as const;
const Money = t.object('Money', { currency: t.string(), units: t.int64({ proto: 'int64' }) }, scope);
const Line = t.object(
  'Line',
  { sku: t.string(), price: Money, quantity: t.int32({ proto: 'int32' }) },
  scope,
);
const Order = t.object(
  'Order',
  { id: t.string(), lines: t.array(Line), placed: t.timestamp(), total: Money },
  scope,
);

const usable = has('protoc') && has('venv:confluent_kafka.schema_registry.protobuf');

describe.skipIf(!usable)("Confluent's Python serializers through wirekit registry serve", () => {
  beforeAll(async () => {
    registry = await serve(['--port', '0']);
    dir = mkdtempSync(join(tmpdir(), 'wirekit-confluent-'));
    mkdirSync(join(dir, 'shop'));
    writeFileSync(join(dir, 'shop/money.proto'), money);
    writeFileSync(join(dir, 'shop/order.proto'), order);
    writeFileSync(join(dir, 'shop/batch.proto'), batch);
    descriptorSet = join(dir, 'set.pb');
    const compiled = spawnSync(
      'protoc',
      [
        `-I${dir}`,
        '-I/usr/include',
        '--include_imports',
        `--descriptor_set_out=${descriptorSet}`,
        'shop/batch.proto',
      ],
      { encoding: 'utf8' },
    );
    if (compiled.status !== 0) throw new Error(compiled.stderr);
  });
  afterAll(() => {
    stopServers();
    rmSync(dir, { recursive: true, force: true });
  });

  const placed = '2026-12-07T02:00:00.250Z';
  const pythonOrder = {
    id: 'o-1',
    lines: [
      { sku: 'a', price: { currency: 'EUR', units: '3' }, quantity: 2 },
      { sku: 'b', price: { currency: 'EUR', units: '5' }, quantity: 1 },
    ],
    placed,
    total: { currency: 'EUR', units: '11' },
  };

  test('Python registers its file and its import as references, and wirekit reads its events by their message indexes', async () => {
    const [orderFrame, lineFrame, entryFrame] = python('produce', [
      { topic: 'py-orders', protobuf: 'shop.v1.Order', value: pythonOrder },
      { topic: 'py-lines', protobuf: 'shop.v1.Line', value: pythonOrder.lines[0] },
      {
        topic: 'py-entries',
        protobuf: 'shop.v1.Batch.Entry',
        value: { key: 'k', line: pythonOrder.lines[1] },
      },
    ]);
    for (const answer of [orderFrame, lineFrame, entryFrame]) expect(answer?.error).toBeUndefined();

    // The registry holds the import under its own subject, and the files that use it name it.
    const subjects = await (await fetch(`${registry.url}/subjects`)).json();
    expect(subjects).toEqual([
      'py-entries-value',
      'py-lines-value',
      'py-orders-value',
      'shop/money.proto',
      'shop/order.proto',
    ]);
    const latest = await fetch(`${registry.url}/subjects/py-orders-value/versions/latest`);
    const version = (await latest.json()) as { references: unknown; schema: string };
    expect(version.references).toEqual([
      { name: 'shop/money.proto', subject: 'shop/money.proto', version: 1 },
    ]);
    expect(version.schema).toContain('message Order {');

    // Message indexes after the 5-byte header: Line is [0] (the single byte 0), Order is [1]
    // (count 1, then 1: zigzag varints 2, 2), Batch.Entry is [0, 0] of its file (4, 0, 0).
    const bytesOf = (answer: Answer | undefined) => Buffer.from(answer?.frame as string, 'hex');
    expect(bytesOf(lineFrame)[5]).toBe(0);
    expect([...bytesOf(orderFrame).subarray(5, 7)]).toEqual([2, 2]);
    expect([...bytesOf(entryFrame).subarray(5, 8)]).toEqual([4, 0, 0]);

    const orders = eventCodec({
      schema: Order,
      registry: registry.url,
      subject: 'py-orders-value',
      format: 'protobuf',
    });
    const { value } = await orders.decode(bytesOf(orderFrame));
    expect(value).toMatchObject({
      id: 'o-1',
      lines: [
        { sku: 'a', price: { currency: 'EUR', units: 3n }, quantity: 2 },
        { sku: 'b', price: { currency: 'EUR', units: 5n }, quantity: 1 },
      ],
      total: { currency: 'EUR', units: 11n },
    });
    expect((value as { placed: Date }).placed.toISOString()).toBe(placed);

    // The Line event is message [0] of the same file: the Order reader refuses it by its index
    // rather than misreading it.
    await expect(orders.decode(bytesOf(lineFrame))).rejects.toThrow(/message \[0\]/);
  });

  test('Python deserializes what wirekit wrote, reading the schema as a descriptor (format=serialized)', async () => {
    // wirekit registers toProto of its schema (one package, a nested message, a Timestamp import);
    // Python's message class comes from protoc's reading of the same text.
    const Item = t.object(
      'Item',
      { sku: t.string(), quantity: t.int32({ proto: 'int32' }) },
      { namespace: 'shop.v2' },
    );
    const Shipment = t.object(
      'Shipment',
      { id: t.string(), items: t.array(Item), sent: t.timestamp() },
      { namespace: 'shop.v2' },
    );
    const text = toProto(Shipment);
    writeFileSync(join(dir, 'shipment.proto'), text);
    const set = join(dir, 'shipment.pb');
    const compiled = spawnSync(
      'protoc',
      [`-I${dir}`, '-I/usr/include', '--include_imports', `--descriptor_set_out=${set}`, 'shipment.proto'],
      { encoding: 'utf8' },
    );
    expect(compiled.stderr).toBe('');
    const codec = eventCodec({
      schema: Shipment,
      registry: registry.url,
      subject: 'wk-shipments-value',
      format: 'protobuf',
    });
    const frame = await codec.encode({
      id: 's-1',
      items: [
        { sku: 'c', quantity: 3 },
        { sku: 'd', quantity: 1 },
      ],
      sent: new Date(placed),
    });
    const [answer] = python(
      'consume',
      [{ topic: 'wk-shipments', protobuf: 'shop.v2.Shipment', frame: Buffer.from(frame).toString('hex') }],
      set,
    );
    expect(answer?.error).toBeUndefined();
    expect(answer?.value).toEqual({
      id: 's-1',
      items: [
        { sku: 'c', quantity: 3 },
        { sku: 'd', quantity: 1 },
      ],
      sent: placed,
    });
  });

  test("Python's deserializer reads Python's events back through the registry's descriptors, nested ones too", () => {
    const entry = { key: 'k', line: pythonOrder.lines[1] };
    const [orderFrame, entryFrame] = python('produce', [
      { topic: 'py-orders', protobuf: 'shop.v1.Order', value: pythonOrder },
      { topic: 'py-entries', protobuf: 'shop.v1.Batch.Entry', value: entry },
    ]);
    const answers = python('consume', [
      { topic: 'py-orders', protobuf: 'shop.v1.Order', frame: orderFrame?.frame },
      { topic: 'py-entries', protobuf: 'shop.v1.Batch.Entry', frame: entryFrame?.frame },
    ]);
    expect(answers).toEqual([{ value: pythonOrder }, { value: entry }]);
  });

  const avroSchema = {
    type: 'record',
    name: 'Reading',
    namespace: 'sensors',
    fields: [
      { name: 'sensor_id', type: 'string' },
      { name: 'celsius', type: 'double' },
      { name: 'at', type: { type: 'long', logicalType: 'timestamp-millis' } },
    ],
  };
  const Reading = t.object(
    'Reading',
    { sensor_id: t.string(), celsius: t.float64(), at: t.timestamp() },
    { namespace: 'sensors' },
  );

  test('Avro both ways: AvroSerializer to wirekit, wirekit to AvroDeserializer', async () => {
    const [produced] = python('produce', [
      {
        topic: 'py-readings',
        avro: JSON.stringify(avroSchema),
        value: { sensor_id: 's-1', celsius: 21.5, at: 1_765_072_800_000 },
      },
    ]);
    expect(produced?.error).toBeUndefined();
    const codec = eventCodec({ schema: Reading, registry: registry.url, subject: 'wk-readings-value' });
    const read = await codec.decode(Buffer.from(produced?.frame as string, 'hex'));
    expect(read.value).toEqual({ sensor_id: 's-1', celsius: 21.5, at: new Date(1_765_072_800_000) });

    const frame = await codec.encode({ sensor_id: 's-2', celsius: -3.25, at: new Date(1_765_072_800_500) });
    const [answer] = python('consume', [
      { topic: 'wk-readings', avro: null, frame: Buffer.from(frame).toString('hex') },
    ]);
    expect(answer?.error).toBeUndefined();
    expect(answer?.value).toEqual({
      sensor_id: 's-2',
      celsius: -3.25,
      at: '2025-12-07 02:00:00.500000+00:00',
    });
  });
  // A record whose field's type another subject defines: AvroSerializer registers the schema with
  // `references`, and wirekit's event codec fetches them to read the writer schema.
  const address = {
    type: 'record',
    name: 'Address',
    namespace: 'shop',
    fields: [
      { name: 'city', type: 'string' },
      { name: 'zip', type: 'string' },
    ],
  };
  const customer = {
    type: 'record',
    name: 'Customer',
    namespace: 'shop',
    fields: [
      { name: 'name', type: 'string' },
      { name: 'home', type: 'shop.Address' },
    ],
  };
  const addressRef = [{ name: 'shop.Address', subject: 'shop.Address', version: 1 }];
  const Address = t.object('Address', { city: t.string(), zip: t.string() }, { namespace: 'shop' });
  const Customer = t.object('Customer', { name: t.string(), home: Address }, { namespace: 'shop' });

  test('Avro with references both ways: AvroSerializer registers them and wirekit reads; wirekit writes and AvroDeserializer reads with them', async () => {
    const registered = await fetch(`${registry.url}/subjects/shop.Address/versions`, {
      method: 'POST',
      headers: { 'content-type': 'application/vnd.schemaregistry.v1+json' },
      body: JSON.stringify({ schema: JSON.stringify(address) }),
    });
    expect(registered.status).toBe(200);
    const value = { name: 'Ada', home: { city: 'Lyon', zip: '69001' } };
    const [produced] = python('produce', [
      { topic: 'py-customers', avro: JSON.stringify(customer), references: addressRef, value },
    ]);
    expect(produced?.error).toBeUndefined();
    const frame = Buffer.from(produced?.frame as string, 'hex');
    const writerId = frame.readUInt32BE(1);
    const writer = (await (await fetch(`${registry.url}/schemas/ids/${writerId}`)).json()) as object;
    expect(writer).toMatchObject({ references: addressRef });

    const codec = eventCodec({ schema: Customer, registry: registry.url, subject: 'wk-customers-value' });
    expect((await codec.decode(frame)).value).toEqual(value);

    const written = await codec.encode({ name: 'Grace', home: { city: 'Arlington', zip: '22201' } });
    const [answer] = python('consume', [
      {
        topic: 'wk-customers',
        avro: JSON.stringify(customer),
        references: addressRef,
        frame: Buffer.from(written).toString('hex'),
      },
    ]);
    expect(answer?.error).toBeUndefined();
    expect(answer?.value).toEqual({ name: 'Grace', home: { city: 'Arlington', zip: '22201' } });
  });
});
