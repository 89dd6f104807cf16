/**
 * The services schemaFromProto reads (proto-services.ts): each rpc with its request and response
 * schemas, streaming flags, idempotency level and deprecation, from the file's text. The same
 * services from a descriptor set are compared with these in from-descriptor-set.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { schemaFromProto } from '../../../src/codecs/protobuf/index.js';
import { isWirekitError } from '../../../src/errors/index.js';
import { type ObjectSchema, t } from '../../../src/schema/index.js';

const common = `syntax = "proto3";
package common.v1;
message Page { uint32 size = 1; string token = 2; }
`;

const text = `syntax = "proto3";
package shop.v1;
import "common.proto";

message Order { int64 id = 1; }
message Orders { repeated Order orders = 1; }

service OrderService {
  option deprecated = true;
  rpc List (common.v1.Page) returns (Orders) { option idempotency_level = NO_SIDE_EFFECTS; }
  rpc Put (Order) returns (Order) { option idempotency_level = IDEMPOTENT; option deprecated = true; }
  rpc Stream (stream Order) returns (stream Order);
}
service Empty {}
`;

const imports = (path: string) => (path === 'common.proto' ? common : undefined);

describe('schemaFromProto reads services', () => {
  test('each rpc: its messages as schemas, streaming, idempotency and deprecation', () => {
    const { types, services } = schemaFromProto(text, { imports });
    expect(services.map((s) => [s.name, s.deprecated, s.methods.length])).toEqual([
      ['shop.v1.OrderService', true, 3],
      ['shop.v1.Empty', false, 0],
    ]);
    const [list, put, stream] = services[0]?.methods ?? [];
    expect(list).toMatchObject({
      name: 'List',
      input: { name: 'common.v1.Page' },
      output: { name: 'shop.v1.Orders' },
      clientStreaming: false,
      serverStreaming: false,
      idempotencyLevel: 'NO_SIDE_EFFECTS',
      deprecated: false,
    });
    expect(put).toMatchObject({ idempotencyLevel: 'IDEMPOTENT', deprecated: true });
    expect(stream).toMatchObject({
      clientStreaming: true,
      serverStreaming: true,
      idempotencyLevel: 'IDEMPOTENCY_UNKNOWN',
    });
    // The file's own messages are the very schemas of `types`; a message of an imported file is
    // mapped the same way, with its full name.
    expect(list?.output.schema).toBe(types.get('shop.v1.Orders'));
    expect(put?.input.schema).toBe(types.get('shop.v1.Order'));
    expect(list?.input.schema).toMatchObject({ kind: 'object', name: 'Page', namespace: 'common.v1' });
    expect(list?.input.schema.fields.map((f) => [f.name, f.id])).toEqual([
      ['size', 1],
      ['token', 2],
    ]);
  });

  test('each service as t.service declares it, ready for toProto and --to ts', () => {
    const { types, services } = schemaFromProto(text, { imports });
    const Order = types.get('shop.v1.Order') as ObjectSchema;
    const Orders = types.get('shop.v1.Orders') as ObjectSchema;
    const Page = services[0]?.methods[0]?.input.schema as ObjectSchema;
    expect(services[0]?.schema).toEqual(
      t.service(
        'shop.v1.OrderService',
        {
          List: t.unary(Page, Orders, { idempotency: 'NO_SIDE_EFFECTS' }),
          Put: t.unary(Order, Order, { idempotency: 'IDEMPOTENT', deprecated: true }),
          Stream: t.bidiStream(Order, Order),
        },
        { deprecated: true },
      ),
    );
    expect(services[0]?.schema.methods.Put?.input).toBe(Order);
    expect(services[1]?.schema).toEqual(t.service('shop.v1.Empty', {}));
  });

  test('a file without services has none', () => {
    expect(schemaFromProto(common).services).toEqual([]);
  });

  test('an idempotency level protoc would refuse is refused, not read as unknown', () => {
    const bad = `syntax = "proto3"; message M {} service S { rpc Get (M) returns (M) { option idempotency_level = CACHEABLE; } }`;
    try {
      schemaFromProto(bad);
      expect.unreachable();
    } catch (error) {
      expect(isWirekitError(error)).toBe(true);
      expect((error as Error).message).toMatch(
        /rpc S\.Get: idempotency_level must be one of IDEMPOTENCY_UNKNOWN, NO_SIDE_EFFECTS, IDEMPOTENT/,
      );
    }
  });
});
