/**
 * The enveloped bodies gRPC, gRPC-Web and Connect streams share (a flag byte, a 4-byte length, the
 * message), written and read with Connect's transforms: framing, compression and the size limits
 * are Connect's, the messages wirekit's.
 */
import { Code, ConnectError } from '@connectrpc/connect';
import {
  type Compression,
  limitSerialization,
  pipe,
  type Serialization,
  transformCompressEnvelope,
  transformJoinEnvelopes,
  transformSerializeEnvelope,
} from '@connectrpc/connect/protocol';
import type { MessageSerializer } from '../message-formats.js';
import type { BoxedRequest, ProtocolTransportConfig } from './protocol-config.js';

/** The request body: each request serialized, enveloped, compressed past the threshold, joined. */
export function envelopedBody(
  requests: AsyncIterable<BoxedRequest>,
  serialization: Serialization<BoxedRequest>,
  config: ProtocolTransportConfig,
): AsyncIterable<Uint8Array> {
  return pipe(
    requests,
    transformSerializeEnvelope(serialization),
    transformCompressEnvelope(config.sendCompression, config.compressMinBytes),
    transformJoinEnvelopes(),
    { propagateDownStreamError: true },
  );
}

/** The response's compression, from its encoding header: one this client offered, or an error. */
export function responseCompression(
  encoding: string | null,
  accepted: readonly Compression[],
): Compression | null {
  if (encoding === null || encoding.toLowerCase() === 'identity') return null;
  const compression = accepted.find((candidate) => candidate.name === encoding);
  if (compression === undefined) {
    throw new ConnectError(
      `the reply is compressed with "${encoding}", which was not offered`,
      Code.Internal,
    );
  }
  return compression;
}

/** The one item of a unary reply, refusing a second. */
export async function onlyItem<T>(items: AsyncIterable<T>): Promise<T | undefined> {
  let found: T | undefined;
  let seen = false;
  for await (const item of items) {
    if (seen) {
      throw new ConnectError('protocol error: more than one reply to a unary call', Code.Unimplemented);
    }
    found = item;
    seen = true;
  }
  return found;
}

/** One request as the iterable an enveloped body reads. */
export async function* oneRequest(request: BoxedRequest): AsyncIterable<BoxedRequest> {
  yield request;
}

/** The request side of a call in Connect's Serialization shape, with the write limit. */
export function requestSerialization(
  serializer: MessageSerializer<unknown>,
  config: ProtocolTransportConfig,
): Serialization<BoxedRequest> {
  return limitSerialization<BoxedRequest>(
    {
      // Connect's envelope code keeps the bytes only until they are framed: a view is enough.
      serialize: (boxed) => serializer.serialize(boxed.value) as Uint8Array<ArrayBuffer>,
      parse: () => {
        throw new TypeError('a client never parses its own requests');
      },
    },
    config,
  );
}

/** The reply side of a call in Connect's Serialization shape, with the read limit. */
export function replySerialization(
  serializer: MessageSerializer<unknown>,
  config: ProtocolTransportConfig,
): Serialization<unknown> {
  return limitSerialization<unknown>(
    {
      serialize: () => {
        throw new TypeError('a client never serializes replies');
      },
      parse: (bytes) => serializer.parse(bytes),
    },
    config,
  );
}
