/**
 * `wirekit inspect --registry` follows a writer schema's references, as a consumer must: a .proto
 * importing another subject's file is read message by message with the imported type's fields
 * named, and an Avro record naming another subject's type is read by the writer's schema with the
 * referenced one's defaults, both against wirekit's registry server with the references registered.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import avsc from 'avsc';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writeConfluentFrame } from '../../src/boundaries/events/framing.js';
import { registryClient } from '../../src/boundaries/events/registry/client.js';
import { type RegistryServer, startRegistryServer } from '../../src/boundaries/events/registry/server.js';
import { createCodec } from '../../src/codecs/registry.js';
import { t } from '../../src/index.js';
import { cli, fields } from '../support/cli.js';

const money = `syntax = "proto3";
package shop.common;
message Money { string currency = 1; int64 units = 2; }
`;
const order = `syntax = "proto3";
package shop.v1;
import "shop/money.proto";
message Order { string id = 1; shop.common.Money total = 2; }
`;
const address = {
  type: 'record',
  name: 'Address',
  namespace: 'shop',
  fields: [
    { name: 'city', type: 'string' },
    { name: 'zip', type: 'string', doc: 'The postal code.' },
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
// The same record with Address written inline: what avsc writes by (the bytes are the same).
const customerInline = { ...customer, fields: [customer.fields[0], { name: 'home', type: address }] };

let server: RegistryServer;
let dir: string;
let orderId: number;
let customerId: number;

beforeAll(async () => {
  server = await startRegistryServer({ port: 0 });
  dir = await mkdtemp(join(tmpdir(), 'wirekit-inspect-references-'));
  const client = registryClient({ url: server.url });
  await client.register('shop/money.proto', { schemaType: 'PROTOBUF', schema: money });
  orderId = await client.register('orders-value', {
    schemaType: 'PROTOBUF',
    schema: order,
    references: [{ name: 'shop/money.proto', subject: 'shop/money.proto', version: 1 }],
  });
  await client.register('shop.Address', { schema: JSON.stringify(address) });
  customerId = await client.register('customers-value', {
    schema: JSON.stringify(customer),
    references: [{ name: 'shop.Address', subject: 'shop.Address', version: 1 }],
  });
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function inspect(name: string, frame: Uint8Array) {
  const path = join(dir, name);
  await writeFile(path, frame);
  return cli(['inspect', '--registry', server.url, path]);
}

/** The JSON printed under "value:", parsed. */
function shownValue(text: string): unknown {
  const lines = text.split('\n');
  const rest = lines.slice(lines.indexOf('value:') + 1);
  const end = rest.findIndex((line) => /^[a-z][a-z ]*:( |$)/.test(line) || line === '');
  return JSON.parse(rest.slice(0, end === -1 ? undefined : end).join('\n'));
}

describe('inspect --registry follows references', () => {
  test("Protobuf: the imported message's fields are read by name through the referenced file", async () => {
    const Money = t.object('Money', { currency: t.string(), units: t.int64({ proto: 'int64' }) });
    const Order = t.object('Order', { id: t.string(), total: Money });
    const payload = createCodec('protobuf', { schema: Order }).encode({
      id: 'o-1',
      total: { currency: 'EUR', units: 1250n },
    });
    const result = await inspect('order.bin', writeConfluentFrame(orderId, payload, [0]));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const shown = fields(result.text);
    expect(shown['read by']).toBe("the registry's .proto, message shop.v1.Order");
    expect(shown.note).toBeUndefined();
    expect(shownValue(result.text)).toEqual({ id: 'o-1', total: { currency: 'EUR', units: 1250 } });
  });

  test("Avro: a record naming another subject's type is read by the writer's schema with its reference", async () => {
    const payload = avsc.Type.forSchema(customerInline as never).toBuffer({
      name: 'Ada',
      home: { city: 'Lyon', zip: '69001' },
    });
    const result = await inspect('customer.bin', writeConfluentFrame(customerId, payload));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const shown = fields(result.text);
    expect(shown['read by']).toBe("the writer's Avro schema, from the registry");
    expect(shown.note).toBeUndefined();
    expect(shownValue(result.text)).toEqual({ name: 'Ada', home: { city: 'Lyon', zip: '69001' } });
  });
});
