/**
 * toProto of services, judged by protoc: the file compiles, and its descriptor set (read by Python's
 * descriptor_pb2) holds each service with its methods' names, request and reply types, streaming
 * flags and idempotency levels as declared, and each message once however many methods name it.
 * The refusals are in proto-services.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { t } from '../../../src/index.js';
import { toProto } from '../../../src/schema/export/proto.js';
import { OrderService } from '../../fixtures/order-service.js';
import { describeProtoFile, protocDescriptorSet } from '../../support/protoc.js';
import { has, withTempDir } from '../../support/tools.js';

/** protoc's reading of the exported text (which it must accept), the file's part of it. */
function compiled(proto: string) {
  return withTempDir((dir) =>
    describeProtoFile(
      protocDescriptorSet(dir, 'service.proto', proto, { includeImports: true }),
      'service.proto',
    ),
  );
}

describe.skipIf(!has('protoc') || !has('python:google.protobuf'))(
  'toProto of services: protoc reads them',
  () => {
    test('one method of each kind: types, streaming flags, idempotency and deprecation', () => {
      const file = compiled(toProto(OrderService));
      expect(file.package).toBe('orders.v1');
      expect(file.messages).toEqual([
        'GetOrderRequest',
        'Order',
        'WatchRequest',
        'OrderEvent',
        'Line',
        'Summary',
        'Message',
      ]);
      expect(file.services).toEqual([
        {
          name: 'OrderService',
          method: [
            {
              name: 'GetOrder',
              inputType: '.orders.v1.GetOrderRequest',
              outputType: '.orders.v1.Order',
              options: { idempotencyLevel: 'NO_SIDE_EFFECTS' },
            },
            {
              name: 'WatchOrders',
              inputType: '.orders.v1.WatchRequest',
              outputType: '.orders.v1.OrderEvent',
              serverStreaming: true,
            },
            {
              name: 'Upload',
              inputType: '.orders.v1.Line',
              outputType: '.orders.v1.Summary',
              clientStreaming: true,
              options: { idempotencyLevel: 'IDEMPOTENT' },
            },
            {
              name: 'Chat',
              inputType: '.orders.v1.Message',
              outputType: '.orders.v1.Message',
              clientStreaming: true,
              serverStreaming: true,
              options: { deprecated: true },
            },
          ],
        },
      ]);
    });

    test('shared, nested and well-known messages; two services and a listed type in one file', () => {
      const ns = { namespace: 'shop.v1' };
      const Item = t.object('Item', { sku: t.string() }, { namespace: 'shop.v1.Cart' });
      const Cart = t.object('Cart', { items: t.array(Item) }, ns);
      const Empty = t.object('Empty', {}, { namespace: 'google.protobuf' });
      const Carts = t.service(
        'shop.v1.Carts',
        {
          Get: t.unary(Empty, Cart),
          Put: t.unary(Cart, Empty, { idempotency: 'IDEMPOTENT' }),
          Add: t.clientStream(Item, Cart),
        },
        { deprecated: true, doc: 'Carts of a shop.' },
      );
      const Audit = t.service('shop.v1.Audit', { Follow: t.serverStream(Empty, Cart) });
      const Unused = t.enum('Currency', ['eur', 'usd'], ns);
      const proto = toProto([Carts, Audit, Unused]);
      const file = compiled(proto);
      expect(file.package).toBe('shop.v1');
      expect(file.messages).toEqual(['Cart']);
      expect(file.dependencies).toEqual(['google/protobuf/empty.proto']);
      expect(proto).toMatch(/enum Currency \{/);
      expect(file.services).toEqual([
        {
          name: 'Carts',
          options: { deprecated: true },
          method: [
            { name: 'Get', inputType: '.google.protobuf.Empty', outputType: '.shop.v1.Cart' },
            {
              name: 'Put',
              inputType: '.shop.v1.Cart',
              outputType: '.google.protobuf.Empty',
              options: { idempotencyLevel: 'IDEMPOTENT' },
            },
            {
              name: 'Add',
              inputType: '.shop.v1.Cart.Item',
              outputType: '.shop.v1.Cart',
              clientStreaming: true,
            },
          ],
        },
        {
          name: 'Audit',
          method: [
            {
              name: 'Follow',
              inputType: '.google.protobuf.Empty',
              outputType: '.shop.v1.Cart',
              serverStreaming: true,
            },
          ],
        },
      ]);
    });

    test('a method named like its message: the type is written from the root, which protoc resolves', () => {
      const Ping = t.object('Ping', { at: t.timestamp() }, { namespace: 'health.v2' });
      const Empty = t.object('Empty', {}, { namespace: 'google.protobuf' });
      const proto = toProto(
        t.service('health.v2.Pinger', { Ping: t.unary(Ping, Ping), google: t.unary(Empty, Ping) }),
      );
      expect(proto).toMatch(/rpc Ping\(\.health\.v2\.Ping\) returns \(\.health\.v2\.Ping\);/);
      expect(proto).toMatch(/rpc google\(\.google\.protobuf\.Empty\) returns \(\.health\.v2\.Ping\);/);
      expect(compiled(proto).services).toEqual([
        {
          name: 'Pinger',
          method: [
            { name: 'Ping', inputType: '.health.v2.Ping', outputType: '.health.v2.Ping' },
            { name: 'google', inputType: '.google.protobuf.Empty', outputType: '.health.v2.Ping' },
          ],
        },
      ]);
    });

    test('messages of no package take the service’s', () => {
      const Ping = t.object('Ping', { at: t.timestamp() });
      const file = compiled(toProto(t.service('health.v2.Pinger', { Ping: t.unary(Ping, Ping) })));
      expect(file.package).toBe('health.v2');
      expect(file.services).toEqual([
        {
          name: 'Pinger',
          method: [{ name: 'Ping', inputType: '.health.v2.Ping', outputType: '.health.v2.Ping' }],
        },
      ]);
    });
  },
);
