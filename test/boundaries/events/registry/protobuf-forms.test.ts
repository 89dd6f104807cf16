/**
 * The two forms of a Protobuf schema the registry server takes and gives, as Confluent's does:
 * `.proto` text, and a base64 FileDescriptorProto (what Confluent's ProtobufSerializer registers,
 * and what its deserializer asks for with `?format=serialized`). The descriptors are protoc's.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createProtobufCodec } from '../../../../src/codecs/protobuf/index.js';
import { t } from '../../../../src/schema/index.js';
import { has, withTempDir } from '../../../support/tools.js';
import { registryPerTest, subjectPath } from './http.js';

const api = registryPerTest();

const orderProto = `syntax = "proto3";
package shop.v1;
import "google/protobuf/timestamp.proto";
message Order {
  message Line {
    string sku = 1;
    map<string, int32> tags = 2;
    message Note { string text = 1; }
    repeated Note notes = 3;
  }
  string id = 1;
  repeated Line lines = 2;
  google.protobuf.Timestamp placed = 3;
  optional string coupon = 4;
  oneof pay { string card = 5; string iban = 6; }
}
`;

const setCodec = createProtobufCodec<{ file: Uint8Array[] }>({
  schema: t.object('FileDescriptorSet', { file: t.field(t.array(t.bytes()), { id: 1 }) }),
});

/** protoc's FileDescriptorProto of the text, as a file named `name`. */
function protocDescriptor(text: string, name: string): Buffer {
  return withTempDir((dir) => {
    writeFileSync(join(dir, name), text);
    const out = join(dir, 'out.pb');
    execFileSync('protoc', [`-I${dir}`, '-I/usr/include', `--descriptor_set_out=${out}`, name], {
      stdio: 'pipe',
    });
    return Buffer.from(setCodec.decode(new Uint8Array(readFileSync(out))).file.at(-1) as Uint8Array);
  });
}

describe.skipIf(!has('protoc'))('Protobuf schemas as base64 FileDescriptorProtos', () => {
  test('a registered descriptor is taken; read as .proto text, and as itself with format=serialized', async () => {
    const base64 = protocDescriptor(orderProto, 'order.proto').toString('base64');
    const registered = await api('POST', subjectPath('orders-value', '/versions'), {
      schemaType: 'PROTOBUF',
      schema: base64,
    });
    expect(registered.body).toEqual({ id: 1 });

    const text = (await api('GET', '/schemas/ids/1')).body as { schema: string; schemaType: string };
    expect(text.schemaType).toBe('PROTOBUF');
    expect(text.schema).toContain('message Order {');
    expect(text.schema).toContain('map<string, int32> tags = 2;');
    // The text compiles to the same descriptor, and registers again as the same schema.
    expect(protocDescriptor(text.schema, 'order.proto').toString('base64')).toBe(base64);

    for (const path of [
      '/schemas/ids/1?format=serialized',
      subjectPath('orders-value', '/versions/1?format=serialized'),
    ]) {
      expect((await api('GET', path)).body).toMatchObject({ schema: base64 });
    }
    expect((await api('GET', '/schemas/ids/1/schema?format=serialized')).text).toBe(base64);
    expect((await api('GET', subjectPath('orders-value', '/versions/latest/schema'))).text).toBe(text.schema);
    // Registering the same descriptor again is the same version.
    const again = await api('POST', subjectPath('orders-value', '/versions'), {
      schemaType: 'PROTOBUF',
      schema: base64,
    });
    expect(again.body).toEqual({ id: 1 });
  });

  test('a .proto text is given with format=serialized as the descriptor protoc makes of it', async () => {
    await api('POST', subjectPath('orders-value', '/versions'), {
      schemaType: 'PROTOBUF',
      schema: orderProto,
    });
    // Confluent names the file `default` (its clients rename it to the reference's name anyway).
    const expected = protocDescriptor(orderProto, 'default').toString('base64');
    expect((await api('GET', '/schemas/ids/1?format=serialized')).body).toMatchObject({ schema: expected });
    expect((await api('GET', '/schemas/ids/1')).body).toMatchObject({ schema: orderProto });
  });

  test('a base64 text that is not a descriptor is refused (42201)', async () => {
    const reply = await api('POST', subjectPath('orders-value', '/versions'), {
      schemaType: 'PROTOBUF',
      schema: Buffer.from('not a descriptor at all').toString('base64'),
    });
    expect(reply.status).toBe(422);
    expect((reply.body as { error_code: number }).error_code).toBe(42201);
  });

  test('format=serialized leaves an Avro schema as it is', async () => {
    const avro = JSON.stringify({ type: 'record', name: 'A', fields: [{ name: 'x', type: 'int' }] });
    await api('POST', subjectPath('a-value', '/versions'), { schema: avro });
    expect((await api('GET', '/schemas/ids/1?format=serialized')).body).toEqual({ schema: avro });
  });
});
