/**
 * descriptorFiles, what server reflection answers with: against protoc's
 * `--descriptor_set_out --include_imports` of the same `.proto` text (every file the same bytes,
 * the well-known files' language options aside: wirekit's copies leave them out), and the lookups
 * FileByFilename and FileContainingSymbol make.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createProtobufCodec, descriptorFiles } from '../../../src/codecs/protobuf/index.js';
import { t } from '../../../src/index.js';
import { toProto } from '../../../src/schema/export/proto.js';
import { wellKnownProtoFiles } from '../../../src/schema/proto/index.js';
import { Order, OrderService } from '../../fixtures/order-service.js';
import { codeOf } from '../../support/code-of.js';
import { protocDescriptorSet } from '../../support/protoc.js';
import { has, python, withTempDir } from '../../support/tools.js';

/** A FileDescriptorSet read only as far as its files' bytes. */
const setCodec = createProtobufCodec<{ file: Uint8Array[] }>({
  schema: t.object('FileDescriptorSet', { file: t.field(t.array(t.bytes()), { id: 1 }) }),
});
const nameCodec = createProtobufCodec<{ name?: string }>({
  schema: t.object('FileDescriptorProto', { name: t.field(t.optional(t.string()), { id: 1 }) }),
});

/** protoc's files of `text` (saved as `name`) and of everything it imports, by name. */
function protocFiles(name: string, text: string): Map<string, Uint8Array> {
  return withTempDir((dir) => {
    mkdirSync(join(dir, dirname(name)), { recursive: true });
    const set = protocDescriptorSet(dir, name, text, { includeImports: true });
    const files = setCodec.decode(new Uint8Array(readFileSync(set))).file;
    return new Map(files.map((file) => [nameCodec.decode(file).name ?? '', file]));
  });
}

/** A message's bytes without its top-level field `number` (FileDescriptorProto's options are 8). */
function withoutField(bytes: Uint8Array, number: number): Uint8Array {
  const kept: number[] = [];
  let at = 0;
  const varint = (): number => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = bytes[at++] as number;
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
  };
  while (at < bytes.length) {
    const start = at;
    const key = varint();
    const wire = key % 8;
    if (wire === 0) varint();
    else if (wire === 1) at += 8;
    else if (wire === 5) at += 4;
    else if (wire === 2) {
      const length = varint(); // read before `at` is: `at += varint()` would add to the old `at`
      at += length;
    } else throw new Error(`wire type ${wire} in a descriptor`);
    if (Math.floor(key / 8) !== number) kept.push(...bytes.subarray(start, at));
  }
  return Uint8Array.from(kept);
}

const hex = (bytes: Uint8Array | undefined) => Buffer.from(bytes ?? []).toString('hex');

/** Each of protoc's files against wirekit's of the same name: the same names, the same bytes. */
function expectProtocFiles(mine: ReadonlyMap<string, Uint8Array>, theirs: Map<string, Uint8Array>): void {
  expect([...mine.keys()].sort()).toEqual([...theirs.keys()].sort());
  for (const [name, bytes] of theirs) {
    const expected = name.startsWith('google/protobuf/') ? withoutField(bytes, 8) : bytes;
    expect(hex(mine.get(name)), name).toBe(hex(expected));
  }
}

const orderFile = 'orders/v1/order_service.proto';

describe.skipIf(!has('protoc'))('descriptorFiles against protoc --include_imports', () => {
  test('a service: its file (method options included) and the well-known file it imports', () => {
    const files = descriptorFiles({ [orderFile]: OrderService });
    expect([...files.files.keys()]).toEqual([orderFile, 'google/protobuf/timestamp.proto']);
    expectProtocFiles(files.files, protocFiles(orderFile, toProto(OrderService)));
  });

  test('every well-known file, and the ones they import (type.proto imports any.proto)', () => {
    const text = [
      'syntax = "proto3";',
      'package all.v1;',
      ...[...wellKnownProtoFiles.keys()].map((path) => `import "${path}";`),
      'message Uses { google.protobuf.Api api = 1; google.protobuf.Value value = 2; }',
      '',
    ].join('\n');
    const files = descriptorFiles({ 'all/v1/all.proto': text });
    expect(files.files.size).toBe(wellKnownProtoFiles.size + 1);
    expectProtocFiles(files.files, protocFiles('all/v1/all.proto', text));
  });
});

describe('descriptorFiles lookups', () => {
  const Ping = t.object(
    'Ping',
    { at: t.timestamp(), body: t.json({ proto: 'struct' }) },
    { namespace: 'ping.v1' },
  );
  const Pinger = t.service('ping.v1.Pinger', { Ping: t.unary(Ping, Ping) });
  const files = descriptorFiles({ [orderFile]: OrderService, 'ping/v1/ping.proto': Pinger });
  const names = (found: Uint8Array[] | undefined) => found?.map((file) => nameCodec.decode(file).name);

  test('the services the given files declare, in order', () => {
    expect(files.services).toEqual(['orders.v1.OrderService', 'ping.v1.Pinger']);
  });

  test('FileContainingSymbol: the declaring file first, then its imports, each once', () => {
    for (const symbol of [
      'orders.v1.OrderService',
      'orders.v1.OrderService.GetOrder',
      'orders.v1.Order',
      'orders.v1.Order.id',
      'orders.v1.EventKind',
      '.orders.v1.Order',
    ]) {
      expect(names(files.fileContainingSymbol(symbol)), symbol).toEqual([
        orderFile,
        'google/protobuf/timestamp.proto',
      ]);
    }
    expect(names(files.fileContainingSymbol('ping.v1.Pinger.Ping'))).toEqual([
      'ping/v1/ping.proto',
      'google/protobuf/struct.proto',
      'google/protobuf/timestamp.proto',
    ]);
    expect(files.fileNameOfSymbol('google.protobuf.NullValue')).toBe('google/protobuf/struct.proto');
    expect(files.fileNameOfSymbol('google.protobuf.Struct.FieldsEntry')).toBe('google/protobuf/struct.proto');
    expect(files.fileContainingSymbol('orders.v1.Nope')).toBeUndefined();
    expect(files.fileContainingSymbol('orders.v1')).toBeUndefined();
  });

  test('isMessage: messages, nested ones and map entries, with or without the leading dot', () => {
    for (const name of ['orders.v1.Order', '.orders.v1.Order', 'google.protobuf.Struct.FieldsEntry']) {
      expect(files.isMessage(name), name).toBe(true);
    }
    for (const name of [
      'orders.v1.OrderService',
      'orders.v1.EventKind',
      'orders.v1.Order.id',
      'orders.v1.Nope',
    ]) {
      expect(files.isMessage(name), name).toBe(false);
    }
  });

  test('FileByFilename', () => {
    expect(names(files.fileByName('google/protobuf/timestamp.proto'))).toEqual([
      'google/protobuf/timestamp.proto',
    ]);
    expect(files.fileByName(orderFile)?.[0]).toBe(files.files.get(orderFile));
    expect(files.fileByName('google/protobuf/descriptor.proto')).toBeUndefined();
  });

  test('a .proto text may import a given file; refusals', () => {
    const shared = descriptorFiles({
      'shop/money.proto': 'syntax = "proto3";\npackage shop;\nmessage Money { int64 units = 1; }\n',
      'shop/cart.proto':
        'syntax = "proto3";\npackage shop;\nimport "shop/money.proto";\nmessage Cart { Money total = 1; }\n',
    });
    expect(names(shared.fileContainingSymbol('shop.Cart'))).toEqual(['shop/cart.proto', 'shop/money.proto']);
    expect(
      codeOf(() => descriptorFiles({ 'a.proto': 'syntax = "proto3";\nimport "elsewhere/b.proto";\n' })),
    ).toBe('WK_SCHEMA_INVALID');
    expect(() => descriptorFiles({ 'a.proto': [Order], 'b.proto': [Order] })).toThrow(
      /orders\.v1\.Order is declared by both a\.proto and b\.proto/,
    );
  });
});

/**
 * What a reflection client does with an answer (grpcio-reflection's descriptor database, grpcurl):
 * every file into one descriptor pool, then the service found by name with its methods' types.
 */
const pythonPool = `
import sys
from google.protobuf import descriptor_pb2, descriptor_pool
pool = descriptor_pool.DescriptorPool()
for path in sys.argv[2:]:
    pool.Add(descriptor_pb2.FileDescriptorProto.FromString(open(path, 'rb').read()))
service = pool.FindServiceByName(sys.argv[1])
for method in service.methods:
    level = method.GetOptions().idempotency_level
    fields = ','.join(f.name + ':' + (f.message_type.full_name if f.message_type else str(f.type)) for f in method.input_type.fields)
    print(method.name, method.input_type.full_name, method.output_type.full_name, level, fields)
`;

describe.skipIf(!has('python:google.protobuf'))('descriptorFiles read by Python protobuf', () => {
  test("FileContainingSymbol's answer builds a descriptor pool that finds the service", () => {
    const answer = descriptorFiles({ [orderFile]: OrderService }).fileContainingSymbol(
      'orders.v1.OrderService',
    );
    const printed = withTempDir((dir) => {
      const paths = (answer ?? []).map((file, index) => {
        const path = `${dir}/${index}.pb`;
        writeFileSync(path, file);
        return path;
      });
      return execFileSync(python, ['-c', pythonPool, 'orders.v1.OrderService', ...paths], {
        encoding: 'utf8',
        env: { ...process.env, PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION: 'python' },
      });
    });
    expect(printed.trim().split('\n')).toEqual([
      'GetOrder orders.v1.GetOrderRequest orders.v1.Order 1 id:9',
      'WatchOrders orders.v1.WatchRequest orders.v1.OrderEvent 0 since:google.protobuf.Timestamp',
      'Upload orders.v1.Line orders.v1.Summary 2 sku:9,quantity:17',
      'Chat orders.v1.Message orders.v1.Message 0 text:9',
    ]);
  });
});
