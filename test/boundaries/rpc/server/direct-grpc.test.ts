/**
 * The direct gRPC path (direct-grpc.ts) against Connect's gRPC handler (grpc-handler.ts): the same
 * calls, well-formed and hostile, sent to two servers of the same service, one taking the direct
 * path and one forced through Connect's router (an interceptor does that: only Connect's path runs
 * them), must be answered alike: the same content type, messages, status, message and error
 * details, byte for byte where the protocol fixes the bytes.
 */
import type { IncomingHttpHeaders } from 'node:http2';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createCodec } from '../../../../src/codecs/index.js';
import { frame, type GrpcReply, grpcCall, statusDetails } from './grpc-wire.js';
import { bigId, GetOrder } from './order-service.js';
import { closePair, nothingSeen, type Pair, serverPair } from './server-pair.js';

/** What must match between the two paths: everything but transport details (date, lengths). */
function outcome(reply: GrpcReply) {
  const pick = (headers: IncomingHttpHeaders) => ({
    status: headers['grpc-status'],
    message: headers['grpc-message'],
    details: statusDetails(headers),
  });
  return {
    contentType: reply.headers['content-type'],
    encoding: reply.headers['grpc-encoding'],
    messages: reply.messages.map((bytes) => Buffer.from(bytes).toString('base64')),
    compressed: reply.compressed,
    ...pick(reply.trailers),
  };
}

const getOrder = '/orders.v1.OrderService/GetOrder';
const watchOrders = '/orders.v1.OrderService/WatchOrders';
const request = (value: { id: bigint; failWith?: string }, codec: 'protobuf' | 'msgpack' = 'protobuf') =>
  createCodec(codec, { schema: GetOrder }).encode(value);

interface Case {
  readonly name: string;
  readonly path: string;
  readonly contentType?: string;
  readonly body: Uint8Array;
  readonly headers?: Record<string, string>;
  /** The status both paths must answer. */
  readonly status: string;
}

const twoGiB = Buffer.from([0, 0x80, 0, 0, 0]);
const cases: readonly Case[] = [
  { name: 'a unary call', path: getOrder, body: frame(request({ id: bigId })), status: '0' },
  {
    name: 'a unary call in MessagePack',
    path: getOrder,
    contentType: 'application/grpc+msgpack',
    body: frame(request({ id: bigId }, 'msgpack')),
    status: '0',
  },
  {
    name: 'a unary call in ProtoJSON',
    path: getOrder,
    contentType: 'application/grpc+json',
    body: frame(Buffer.from(JSON.stringify({ id: '7' }))),
    status: '0',
  },
  { name: 'a server stream', path: watchOrders, body: frame(request({ id: 3n })), status: '0' },
  {
    name: 'a server stream failing midway',
    path: watchOrders,
    body: frame(request({ id: 5n, failWith: 'midway' })),
    status: '5',
  },
  {
    name: "a handler's WirekitError",
    path: getOrder,
    body: frame(request({ id: 1n, failWith: 'wirekit' })),
    status: '5',
  },
  {
    name: "a handler's plain Error",
    path: getOrder,
    body: frame(request({ id: 1n, failWith: 'plain' })),
    status: '13',
  },
  {
    name: "a handler's validation error",
    path: getOrder,
    body: frame(request({ id: 1n, failWith: 'invalid' })),
    status: '3',
  },
  {
    name: 'a reply its own schema refuses',
    path: getOrder,
    body: frame(request({ id: 1n, failWith: 'bad-reply' })),
    status: '13',
  },
  { name: 'malformed bytes', path: getOrder, body: frame(Buffer.from([0x0a, 0xff])), status: '3' },
  {
    name: 'a length prefix past the end of the body',
    path: getOrder,
    body: Buffer.concat([Buffer.from([0, 0, 0, 0, 50]), Buffer.from([1, 2, 3])]),
    status: '3',
  },
  { name: 'a frame claiming 2 GiB', path: getOrder, body: twoGiB, status: '8' },
  {
    name: 'a 3 MB request, many DATA frames long',
    path: getOrder,
    body: frame(request({ id: 1n, failWith: 'x'.repeat(3_000_000) })),
    status: '0',
  },
  {
    name: 'a whole message and part of a second frame',
    path: getOrder,
    body: Buffer.concat([frame(request({ id: 1n })), Buffer.from([0, 0, 0, 0, 9, 1])]),
    status: '3',
  },
  { name: 'no request message', path: getOrder, body: new Uint8Array(0), status: '12' },
  {
    name: 'a second request message on a unary call',
    path: getOrder,
    body: Buffer.concat([frame(request({ id: 1n })), frame(request({ id: 2n }))]),
    status: '12',
  },
  {
    name: 'a compressed flag without grpc-encoding',
    path: getOrder,
    body: frame(gzipSync(request({ id: 1n })), true),
    status: '13',
  },
  {
    name: 'an encoding the server does not know',
    path: getOrder,
    body: frame(request({ id: 1n }), true),
    headers: { 'grpc-encoding': 'snappy' },
    status: '12',
  },
  {
    name: 'a gzip request, a gzip reply asked for',
    path: watchOrders,
    body: frame(gzipSync(request({ id: 2n })), true),
    headers: { 'grpc-encoding': 'gzip', 'grpc-accept-encoding': 'gzip' },
    status: '0',
  },
  {
    name: 'a gzip bomb',
    path: getOrder,
    body: frame(gzipSync(Buffer.alloc(8 * 2 ** 20)), true),
    headers: { 'grpc-encoding': 'gzip' },
    status: '8',
  },
  {
    name: 'a deadline already passed',
    path: getOrder,
    body: frame(request({ id: 1n })),
    headers: { 'grpc-timeout': '0n' },
    status: '4',
  },
  {
    name: 'a deadline that is not one',
    path: getOrder,
    body: frame(request({ id: 1n })),
    headers: { 'grpc-timeout': 'soon' },
    status: '3',
  },
];

describe('the direct gRPC path answers as Connect’s gRPC handler does', () => {
  let pair: Pair | undefined;
  beforeAll(async () => {
    pair = await serverPair();
  });
  afterAll(() => closePair(pair));

  test.each(cases)('$name', async ({ path, contentType = 'application/grpc', body, headers, status }) => {
    const { sessions, intercepted } = pair as Pair;
    const before = intercepted();
    const [direct, connect] = await Promise.all([
      grpcCall(sessions.direct, path, contentType, body, headers),
      grpcCall(sessions.connect, path, contentType, body, headers),
    ]);
    expect(outcome(direct)).toEqual(outcome(connect));
    expect(outcome(direct).status).toBe(status);
    // The second server's answer did come through Connect's router, where it runs at all.
    if (status === '0') expect(intercepted()).toBe(before + 1);
  });
});

describe('limits set on the server hold alike on both paths', () => {
  let pair: Pair | undefined;
  beforeAll(async () => {
    pair = await serverPair({ readMaxBytes: 16, writeMaxBytes: 40 });
  });
  afterAll(() => closePair(pair));

  test.each([
    ['a request over readMaxBytes', frame(request({ id: 1n, failWith: 'x'.repeat(40) })), '8'],
    ['a reply over writeMaxBytes', frame(request({ id: 1n })), '8'],
  ] as const)('%s', async (_name, body, status) => {
    const { sessions } = pair as Pair;
    const [direct, connect] = await Promise.all([
      grpcCall(sessions.direct, getOrder, 'application/grpc', body),
      grpcCall(sessions.connect, getOrder, 'application/grpc', body),
    ]);
    expect(outcome(direct)).toEqual(outcome(connect));
    expect(outcome(direct).status).toBe(status);
  });
});

describe('headers and trailers HTTP/2 forbids, set by a handler', () => {
  let pair: Pair | undefined;
  beforeAll(async () => {
    pair = await serverPair();
  });
  afterAll(() => closePair(pair));

  // node:http2 throws on `connection`; as a trailer it threw inside its own event and stopped the
  // process. Both paths drop it, as Node's compatibility response drops such a header.
  test('in the metadata of a ConnectError a handler throws: dropped alike on both paths', async () => {
    const { sessions } = pair as Pair;
    const body = frame(request({ id: 1n, failWith: 'bad-metadata' }));
    const [direct, connect] = await Promise.all([
      grpcCall(sessions.direct, getOrder, 'application/grpc', body),
      grpcCall(sessions.connect, getOrder, 'application/grpc', body),
    ]);
    expect(outcome(direct)).toEqual(outcome(connect));
    expect(outcome(direct).status).toBe('7');
    for (const reply of [direct, connect]) {
      expect(reply.trailers.connection).toBeUndefined();
      expect(reply.trailers['x-reason']).toBe('quota');
    }
  });

  test.each(['bad-header', 'bad-trailer'])('%s: dropped alike on both paths', async (failWith) => {
    const { sessions } = pair as Pair;
    const body = frame(request({ id: 1n, failWith }));
    const [direct, connect] = await Promise.all([
      grpcCall(sessions.direct, getOrder, 'application/grpc', body),
      grpcCall(sessions.connect, getOrder, 'application/grpc', body),
    ]);
    expect(outcome(direct)).toEqual(outcome(connect));
    expect(outcome(direct).status).toBe('0');
    for (const reply of [direct, connect]) {
      expect(reply.headers.connection).toBeUndefined();
      expect(reply.trailers.connection).toBeUndefined();
      expect(reply.headers['x-served-by']).toBe('wirekit');
    }
  });
});

describe("the handler's signal once a call is over", () => {
  // Connect aborts the signal after every call, so a handler's clean-up on 'abort' runs; the
  // direct path does the same, for a signal read during the call or after it.
  test.each([
    ['a unary call', getOrder],
    ['a server stream', watchOrders],
  ] as const)('%s: aborted on both paths, after a reply', async (_name, path) => {
    const seen = { direct: nothingSeen(), connect: nothingSeen() };
    const pair = await serverPair({}, seen);
    const sessions = [pair.sessions.direct, pair.sessions.connect] as const;
    try {
      const body = frame(request({ id: 2n }));
      const replies = await Promise.all(
        sessions.map((session) => grpcCall(session, path, 'application/grpc', body)),
      );
      for (const reply of replies) expect(outcome(reply).status).toBe('0');
      for (const handlers of [seen.direct, seen.connect]) {
        expect(handlers.contexts).toHaveLength(1);
        expect(handlers.contexts[0]?.signal.aborted).toBe(true);
      }
    } finally {
      await closePair(pair);
    }
  });
});
