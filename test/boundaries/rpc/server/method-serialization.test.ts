import { describe, expect, test } from 'vitest';
import {
  codecOfContentType,
  type RpcCodecName,
  type RpcProtocol,
  rpcCodecNames,
} from '../../../../src/boundaries/rpc/message-formats.js';
import { offeredContentTypes } from '../../../../src/boundaries/rpc/server/method-serialization.js';

/** Content types of every protocol's shape, with and without a charset, in odd cases, and strangers. */
function candidates(): string[] {
  const names = [...rpcCodecNames, 'xml', 'protobuf', ''];
  const bases = names.flatMap((name) => [
    `application/${name}`,
    `application/connect+${name}`,
    `application/grpc+${name}`,
    `application/grpc-web+${name}`,
    `application/grpc-web-text+${name}`,
  ]);
  const plain = [...bases, 'application/grpc', 'application/grpc-web', 'application/grpc-web-text'];
  return plain.flatMap((type) => [
    type,
    `${type}; charset=utf-8`,
    `${type};charset=UTF8`,
    type.toUpperCase(),
  ]);
}

describe('the content types a server offers, as the regular expression Connect negotiates with', () => {
  test.each([
    ['connect-unary', ['proto', 'json', 'msgpack']],
    ['connect-stream', ['json', 'cbor']],
    ['grpc-web', ['proto', 'avro']],
    ['grpc-web', ['json']],
    ['grpc', [...rpcCodecNames]],
  ] satisfies [RpcProtocol, RpcCodecName[]][])(
    '%s offering %j accepts exactly what codecOfContentType reads as offered',
    (protocol, codecs) => {
      const offered = offeredContentTypes(protocol, codecs);
      for (const type of candidates()) {
        const codec = codecOfContentType(protocol, type)?.codec;
        const expected = codec !== undefined && (codecs as readonly RpcCodecName[]).includes(codec);
        expect([type, offered.test(type)]).toEqual([type, expected]);
      }
    },
  );
});
