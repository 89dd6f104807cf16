/**
 * The gRPC handler on the wire, over a bare node:http2 client: the format chosen per call by the
 * content type and answered in kind, an unknown codec refused, errors as status trailers with
 * wirekit's details, an expired deadline refused before the handler runs, gzip both ways.
 */
import type { ClientHttp2Session } from 'node:http2';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BadRequest, ErrorInfo } from '../../../../src/boundaries/rpc/index.js';
import { encodeGrpcMessage } from '../../../../src/boundaries/rpc/server/grpc-status.js';
import { createRpcServer, type RpcServer, rpcService } from '../../../../src/boundaries/rpc/server/index.js';
import { createCodec } from '../../../../src/codecs/index.js';
import { t } from '../../../../src/index.js';
import { frame, grpcCall, openSession, statusDetails } from './grpc-wire.js';
import {
  bigId,
  GetOrder,
  Order,
  OrderService,
  orderService,
  type Seen,
  sampleOrder,
} from './order-service.js';

const seen: Seen = { calls: [], contexts: [], aborted: [], timeouts: [] };
let server: RpcServer;
let session: ClientHttp2Session;

beforeAll(async () => {
  server = await createRpcServer({ services: [orderService(seen)] });
  session = openSession(server.url);
});

afterAll(async () => {
  session?.close();
  await server?.close();
});

const getOrder = '/orders.v1.OrderService/GetOrder';
const chat = '/orders.v1.OrderService/Chat';

describe('formats per call', () => {
  test.each(['msgpack', 'cbor', 'avro'] as const)(
    'application/grpc+%s is read and answered in kind',
    async (codec) => {
      const request = createCodec(codec, { schema: GetOrder });
      const reply = createCodec(codec, { schema: Order });
      const answer = await grpcCall(
        session,
        getOrder,
        `application/grpc+${codec}`,
        frame(request.encode({ id: bigId })),
      );
      expect(answer.headers['content-type']).toBe(`application/grpc+${codec}`);
      expect(answer.trailers['grpc-status']).toBe('0');
      expect(answer.messages.map((bytes) => reply.decode(bytes))).toEqual([sampleOrder(bigId)]);
      expect(seen.contexts.at(-1)?.codec).toBe(codec);
    },
  );

  test('application/grpc+json is canonical ProtoJSON both ways', async () => {
    const answer = await grpcCall(
      session,
      getOrder,
      'application/grpc+json',
      frame(Buffer.from(`{"id":"${bigId}"}`)),
    );
    expect(answer.headers['content-type']).toBe('application/grpc+json');
    expect(JSON.parse(Buffer.from(answer.messages[0] ?? []).toString())).toEqual({
      id: '9007199254740993',
      placedAt: '2026-12-07T08:00:00.123Z',
      payload: 'AAEC+v8=',
      total: '12345678901234567890.25',
      quantity: 3,
    });
  });

  test('application/grpc and +proto are Protocol Buffers, answered as application/grpc', async () => {
    const request = createCodec('protobuf', { schema: GetOrder });
    for (const contentType of ['application/grpc', 'application/grpc+proto']) {
      const answer = await grpcCall(session, getOrder, contentType, frame(request.encode({ id: 5n })));
      expect(answer.headers['content-type']).toBe('application/grpc');
      expect(
        createCodec('protobuf', { schema: Order }).decode(answer.messages[0] ?? new Uint8Array()),
      ).toEqual(sampleOrder(5n));
    }
  });

  test('a codec the server does not speak, or does not offer, is refused with 415 before any handler', async () => {
    const before = seen.calls.length;
    const unknown = await grpcCall(session, getOrder, 'application/grpc+yaml', frame(Buffer.from('id: 1')));
    expect(unknown.headers[':status']).toBe(415);
    const only = await createRpcServer({ services: [orderService(seen)], codecs: ['proto'] });
    const other = openSession(only.url);
    try {
      const refused = await grpcCall(
        other,
        getOrder,
        'application/grpc+msgpack',
        frame(new Uint8Array([0x80])),
      );
      expect(refused.headers[':status']).toBe(415);
    } finally {
      other.close();
      await only.close();
    }
    expect(seen.calls.length).toBe(before);
  });
});

describe('errors', () => {
  const info = createCodec('protobuf', { schema: ErrorInfo });
  const badRequest = createCodec('protobuf', { schema: BadRequest });

  test('a value out of its range is INVALID_ARGUMENT with its path in ErrorInfo', async () => {
    // Written by a schema without the rule, so the bytes carry quantity 0 where Order wants >= 1.
    const LooseOrder = t.object('Order', {
      id: t.int64(),
      placedAt: t.timestamp(),
      payload: t.bytes(),
      total: t.decimal(),
      note: t.optional(t.string()),
      quantity: t.int32(),
    });
    // MessagePack: wirekit's protobuf decoder names the byte offset of a range error but not yet
    // its path (a gap of the codec, not of the server).
    const loose = createCodec('msgpack', { schema: LooseOrder });
    const before = seen.calls.length;
    const answer = await grpcCall(
      session,
      getOrder.replace('GetOrder', 'Upload'),
      'application/grpc+msgpack',
      frame(loose.encode({ ...sampleOrder(1n), quantity: 0 })),
    );
    expect(answer.trailers['grpc-status']).toBe('3');
    const status = statusDetails(answer.trailers);
    expect(status?.code).toBe(3);
    const [errorInfo] = status?.details ?? [];
    expect(errorInfo?.typeUrl).toBe('type.googleapis.com/google.rpc.ErrorInfo');
    expect(info.decode(errorInfo?.value ?? new Uint8Array())).toEqual({
      reason: 'WK_DECODE_SCHEMA_MISMATCH',
      domain: 'wirekit',
      metadata: expect.objectContaining({ path: 'quantity' }),
    });
    // The client stream's handler ran, and its loop over the requests failed on the first one.
    expect(seen.calls.length).toBe(before + 1);
  });

  test("a handler's ValidationError is INVALID_ARGUMENT with every issue's path in BadRequest", async () => {
    const request = createCodec('protobuf', { schema: GetOrder });
    const answer = await grpcCall(
      session,
      getOrder,
      'application/grpc',
      frame(request.encode({ id: 1n, failWith: 'invalid' })),
    );
    expect(answer.trailers['grpc-status']).toBe('3');
    const [errorInfo, violations] = statusDetails(answer.trailers)?.details ?? [];
    expect(info.decode(errorInfo?.value ?? new Uint8Array()).reason).toBe('WK_VALIDATION_FAILED');
    expect(violations?.typeUrl).toBe('type.googleapis.com/google.rpc.BadRequest');
    const fields = badRequest
      .decode(violations?.value ?? new Uint8Array())
      .fieldViolations.map((v) => v.field);
    expect(fields).toEqual(['count', 'ids[1]']);
  });

  test("malformed bytes are INVALID_ARGUMENT with wirekit's decode code, not INTERNAL", async () => {
    const answer = await grpcCall(
      session,
      getOrder,
      'application/grpc+msgpack',
      frame(new Uint8Array([0xc1])),
    );
    expect(answer.trailers['grpc-status']).toBe('3');
    expect(info.decode(statusDetails(answer.trailers)?.details[0]?.value ?? new Uint8Array()).reason).toMatch(
      /^WK_DECODE_/,
    );
  });

  test('a thrown plain Error is INTERNAL without its message; exposeErrors sends it', async () => {
    const request = createCodec('protobuf', { schema: GetOrder });
    const body = frame(request.encode({ id: 1n, failWith: 'plain' }));
    const hidden = await grpcCall(session, getOrder, 'application/grpc', body);
    expect([hidden.trailers['grpc-status'], hidden.trailers['grpc-message']]).toEqual([
      '13',
      'internal error',
    ]);
    expect(JSON.stringify(hidden.trailers)).not.toContain('secret');

    const open = await createRpcServer({ services: [orderService()], exposeErrors: true });
    const other = openSession(open.url);
    try {
      const exposed = await grpcCall(other, getOrder, 'application/grpc', body);
      expect(exposed.trailers['grpc-message']).toBe('secret: the database at db.internal:5432 refused');
    } finally {
      other.close();
      await open.close();
    }
  });

  test('grpc-message escapes only what the gRPC spec asks: % and bytes outside printable ASCII', async () => {
    const request = createCodec('protobuf', { schema: GetOrder });
    const body = frame(request.encode({ id: 1n, failWith: 'wirekit' }));
    const answer = await grpcCall(session, getOrder, 'application/grpc', body);
    // Connect's own encoding would send "no order%3A 42", which grpc-js's decodeURI leaves as is.
    expect([answer.trailers['grpc-status'], answer.trailers['grpc-message']]).toEqual(['5', 'no order: 42']);
    expect(encodeGrpcMessage('100% sûr: a/b?c=d')).toBe('100%25 s%C3%BBr: a/b?c=d');
    expect(decodeURI(encodeGrpcMessage('100% sûr: a/b?c=d'))).toBe('100% sûr: a/b?c=d');
  });

  test('a deadline of 0 is DEADLINE_EXCEEDED and the handler does not run', async () => {
    const request = createCodec('protobuf', { schema: GetOrder });
    const before = seen.calls.length;
    for (const path of [getOrder, chat]) {
      const answer = await grpcCall(session, path, 'application/grpc', frame(request.encode({ id: 1n })), {
        'grpc-timeout': '0n',
      });
      expect(answer.trailers['grpc-status']).toBe('4');
    }
    expect(seen.calls.length).toBe(before);
  });
});

describe('compression', () => {
  test('gzip both ways: a compressed request is read and a large reply comes back compressed', async () => {
    const codec = createCodec('protobuf', { schema: Order });
    const note = 'a note long enough to pass the 1 KiB compression threshold. '.repeat(40);
    const answer = await grpcCall(
      session,
      chat,
      'application/grpc',
      frame(gzipSync(codec.encode({ ...sampleOrder(2n), note })), true),
      { 'grpc-encoding': 'gzip', 'grpc-accept-encoding': 'gzip' },
    );
    expect(answer.trailers['grpc-status']).toBe('0');
    expect(answer.headers['grpc-encoding']).toBe('gzip');
    expect(answer.compressed).toEqual([true]);
    expect(codec.decode(answer.messages[0] ?? new Uint8Array()).note).toBe(`echo ${note}`);
  });

  test('an encoding the server does not know is UNIMPLEMENTED, naming the ones it accepts', async () => {
    const answer = await grpcCall(session, getOrder, 'application/grpc', frame(new Uint8Array([1]), true), {
      'grpc-encoding': 'snappy',
    });
    expect(answer.trailers['grpc-status']).toBe('12');
    expect(answer.trailers['grpc-accept-encoding']).toBe('gzip,br');
  });
});

describe('limits and bindings', () => {
  test('readMaxBytes and writeMaxBytes bound each message: RESOURCE_EXHAUSTED either way', async () => {
    const small = await createRpcServer({ services: [orderService()], readMaxBytes: 64, writeMaxBytes: 32 });
    const other = openSession(small.url);
    try {
      const codec = createCodec('protobuf', { schema: GetOrder });
      const large = await grpcCall(
        other,
        getOrder,
        'application/grpc',
        frame(codec.encode({ id: 1n, failWith: 'x'.repeat(100) })),
      );
      expect(large.trailers['grpc-status']).toBe('8');
      // The request fits; the reply (an Order of ~60 bytes) does not.
      const reply = await grpcCall(other, getOrder, 'application/grpc', frame(codec.encode({ id: 1n })));
      expect(reply.trailers['grpc-status']).toBe('8');
      expect(reply.messages).toEqual([]);
    } finally {
      other.close();
      await small.close();
    }
  });

  test('a limit that is not a positive number is refused when the server is made', async () => {
    await expect(createRpcServer({ services: [orderService()], readMaxBytes: 0 })).rejects.toMatchObject({
      code: 'WK_OPTIONS_INVALID',
    });
    await expect(
      createRpcServer({ services: [orderService()], maxConcurrentStreams: 1.5 }),
    ).rejects.toMatchObject({ code: 'WK_OPTIONS_INVALID' });
  });

  test('rpcService refuses a service with a method left without a handler', () => {
    const handlers = { GetOrder: async () => sampleOrder(1n) } as never;
    expect(() => rpcService(OrderService, handlers)).toThrow(
      expect.objectContaining({ code: 'WK_OPTIONS_INVALID' }),
    );
  });
});
