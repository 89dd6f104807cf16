import protobuf from 'protobufjs';
import { describe, expect, test } from 'vitest';
import {
  codecOfContentType,
  contentTypeOf,
  MessageSerializers,
  protocolOfContentType,
  type RpcProtocol,
  rpcCodecNames,
} from '../../../src/boundaries/rpc/index.js';
import { WirekitError } from '../../../src/errors/index.js';
import { t } from '../../../src/index.js';
import { toProto } from '../../../src/schema/export/index.js';

const Order = t.object('Order', {
  id: t.int64(),
  sku: t.string({ minLength: 1 }),
  note: t.optional(t.string()),
});

describe('content types of each protocol', () => {
  test.each([
    ['grpc', 'application/grpc', 'proto', false],
    ['grpc', 'application/grpc+proto', 'proto', false],
    ['grpc', 'application/grpc+json', 'json', false],
    ['grpc', 'application/grpc+json; charset=utf-8', 'json', false],
    ['grpc', 'Application/GRPC+MsgPack', 'msgpack', false],
    ['grpc-web', 'application/grpc-web', 'proto', false],
    ['grpc-web', 'application/grpc-web+cbor', 'cbor', false],
    ['grpc-web', 'application/grpc-web-text', 'proto', true],
    ['grpc-web', 'application/grpc-web-text+avro', 'avro', true],
    ['connect-unary', 'application/proto', 'proto', false],
    ['connect-unary', 'application/json;charset=UTF-8', 'json', false],
    ['connect-unary', 'application/msgpack', 'msgpack', false],
    ['connect-stream', 'application/connect+json', 'json', false],
    ['connect-stream', 'application/connect+avro', 'avro', false],
  ] as const)('%s: %s is %s', (protocol, contentType, codec, text) => {
    expect(protocolOfContentType(contentType)).toBe(protocol);
    expect(codecOfContentType(protocol, contentType)).toEqual({ codec, text });
  });

  test.each([
    ['grpc', 'application/grpc+snappy'],
    ['grpc', 'application/grpc+proto; charset=utf-8'],
    ['grpc', 'application/grpcx'],
    ['grpc-web', 'application/grpc-web+xml'],
    ['connect-unary', 'application/grpc'],
    ['connect-unary', 'application/connect+proto'],
    ['connect-unary', 'application/x-www-form-urlencoded'],
    ['connect-unary', 'text/plain'],
    ['connect-unary', 'application/msgpack; charset=utf-8'],
    ['connect-stream', 'application/connect+flatbuffers'],
    ['connect-stream', 'application/connect'],
  ] as const)('%s refuses %s', (protocol, contentType) => {
    expect(codecOfContentType(protocol, contentType)).toBeUndefined();
  });

  test('each codec name round-trips through the content type a reply carries', () => {
    const protocols: RpcProtocol[] = ['grpc', 'grpc-web', 'connect-unary', 'connect-stream'];
    for (const protocol of protocols) {
      for (const codec of rpcCodecNames) {
        for (const text of protocol === 'grpc-web' ? [false, true] : [false]) {
          const contentType = contentTypeOf(protocol, codec, text);
          expect(protocolOfContentType(contentType)).toBe(protocol);
          expect(codecOfContentType(protocol, contentType)).toEqual({ codec, text });
        }
      }
    }
  });
});

describe('message serializers', () => {
  const serializers = new MessageSerializers<{ id: bigint; sku: string; note?: string }>(Order);
  const value = { id: 2n ** 60n + 1n, sku: 'A-1' };

  test('every codec reads back what it wrote', () => {
    for (const codec of rpcCodecNames) {
      const serializer = serializers.of(codec);
      expect(serializer.codec).toBe(codec);
      expect(serializer.parse(serializer.serialize(value))).toEqual(value);
      expect(serializers.of(codec)).toBe(serializer);
    }
  });

  test('proto is the bytes protobufjs reads for the message toProto declares', () => {
    const root = protobuf.parse(toProto(Order)).root;
    const type = root.lookupType('Order');
    const bytes = serializers.of('proto').serialize(value);
    const read = type.toObject(type.decode(bytes), { longs: String });
    expect(read).toEqual({ id: value.id.toString(), sku: 'A-1' });
  });

  test('json is canonical ProtoJSON: an int64 as a string', () => {
    const text = new TextDecoder().decode(serializers.of('json').serialize(value));
    expect(JSON.parse(text)).toEqual({ id: value.id.toString(), sku: 'A-1' });
  });

  test('the same value is refused alike by every codec', () => {
    for (const codec of rpcCodecNames) {
      expect(() => serializers.of(codec).serialize({ id: 1n, sku: '' }), codec).toThrow(WirekitError);
    }
  });

  test('an unknown key is skipped by default and refused with unknownKeys: reject, in ProtoJSON too', () => {
    const withExtra = new TextEncoder().encode('{"id":"1","sku":"A","extra":true}');
    expect(serializers.of('json').parse(withExtra)).toEqual({ id: 1n, sku: 'A' });
    const strict = new MessageSerializers(Order, { unknownKeys: 'reject' });
    expect(() => strict.of('json').parse(withExtra)).toThrow(
      expect.objectContaining({ code: 'WK_DECODE_SCHEMA_MISMATCH' }),
    );
  });
});
