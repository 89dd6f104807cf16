/**
 * The direct Connect unary path (direct-connect.ts) against Connect's unary handler
 * (connect-unary-handler.ts): the same calls, well-formed and hostile, sent over HTTP/2 to two
 * servers of the same service, one taking the direct path and one forced through Connect's router
 * (an interceptor does that: only Connect's path runs them), must be answered alike: the same HTTP
 * status, content type, encoding, handler headers and `trailer-` headers, and body, byte for byte
 * (a JSON error body compared parsed). Node's compatibility response, which every answer of
 * Connect's router is written through, tells which path answered.
 */

import {
  type ClientHttp2Session,
  constants,
  Http2ServerResponse,
  type IncomingHttpHeaders,
  type IncomingHttpStatusHeader,
} from 'node:http2';
import { setTimeout as sleep } from 'node:timers/promises';
import { gunzipSync, gzipSync } from 'node:zlib';
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  type MockInstance,
  test,
  vi,
} from 'vitest';
import { createRpcServer } from '../../../../src/boundaries/rpc/server/index.js';
import { createCodec } from '../../../../src/codecs/index.js';
import { openSession } from './grpc-wire.js';
import { bigId, GetOrder, orderService } from './order-service.js';
import { closePair, nothingSeen, type Pair, serverPair } from './server-pair.js';

interface Reply {
  readonly headers: IncomingHttpHeaders & IncomingHttpStatusHeader;
  readonly body: Buffer;
}

interface Call {
  readonly method?: 'POST' | 'GET';
  readonly path: string;
  readonly contentType?: string;
  readonly body?: Uint8Array;
  readonly headers?: Record<string, string>;
}

/** One Connect unary call over a bare node:http2 stream, answered whole. */
function connectCall(session: ClientHttp2Session, call: Call): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const stream = session.request({
      ':method': call.method ?? 'POST',
      ':path': call.path,
      ...(call.contentType === undefined ? {} : { 'content-type': call.contentType }),
      ...call.headers,
    });
    let headers: Reply['headers'] = {};
    const chunks: Buffer[] = [];
    stream.on('response', (h) => {
      headers = h;
    });
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('error', reject);
    // The answer is whole at the end of its body. Connect's router leaves the rest of a request it
    // refused unread, so the stream stays open while the client's upload is stalled: cancel it.
    stream.on('end', () => {
      resolve({ headers, body: Buffer.concat(chunks) });
      stream.close();
    });
    stream.end(call.body);
  });
}

/** What must match between the two paths: everything but transport details (the date). */
function outcome(reply: Reply) {
  const { headers } = reply;
  const encoded = headers['content-encoding'] === 'gzip';
  const plain = encoded ? gunzipSync(reply.body) : reply.body;
  const isError = headers[':status'] !== 200;
  return {
    status: headers[':status'],
    contentType: headers['content-type'],
    encoding: headers['content-encoding'],
    acceptEncoding: headers['accept-encoding'],
    length: headers['content-length'],
    servedBy: headers['x-served-by'],
    trailers: Object.entries(headers).filter(([name]) => name.startsWith('trailer-')),
    body: isError && plain.length > 0 ? JSON.parse(plain.toString()) : reply.body.toString('base64'),
  };
}

/**
 * The servers' ports that answered through Node's compatibility response (Connect's router), one
 * entry per answer, read as it is written (the stream forgets its session once closed).
 */
const routedPorts: (number | undefined)[] = [];
let routed: MockInstance | undefined;

beforeEach(() => {
  routedPorts.length = 0;
  const writeHead = Http2ServerResponse.prototype.writeHead;
  routed = vi.spyOn(Http2ServerResponse.prototype, 'writeHead').mockImplementation(function (
    this: Http2ServerResponse,
    ...args: Parameters<typeof writeHead>
  ) {
    routedPorts.push(this.stream.session?.socket.localPort);
    return writeHead.apply(this, args);
  });
});
afterEach(() => {
  routed?.mockRestore();
});

const getOrder = '/orders.v1.OrderService/GetOrder';
const request = (value: { id: bigint; failWith?: string }, codec: 'protobuf' | 'msgpack' = 'protobuf') =>
  createCodec(codec, { schema: GetOrder }).encode(value);

interface Case extends Call {
  readonly name: string;
  /** The HTTP status both paths must answer. */
  readonly status: number;
  /** Whether the direct server answers it itself (false: it leaves it to Connect's router). */
  readonly direct?: boolean;
}

const proto = 'application/proto';
const cases: readonly Case[] = [
  {
    name: 'a call in Protocol Buffers',
    path: getOrder,
    contentType: proto,
    body: request({ id: bigId }),
    status: 200,
  },
  {
    name: 'a call in MessagePack',
    path: getOrder,
    contentType: 'application/msgpack',
    body: request({ id: bigId }, 'msgpack'),
    status: 200,
  },
  {
    name: 'a call in ProtoJSON',
    path: getOrder,
    contentType: 'application/json',
    body: Buffer.from(JSON.stringify({ id: '7' })),
    status: 200,
  },
  {
    name: 'a call in ProtoJSON with a charset',
    path: getOrder,
    contentType: 'application/json; charset=utf-8',
    body: Buffer.from(JSON.stringify({ id: '7' })),
    status: 200,
  },
  { name: 'an empty body (the default request)', path: getOrder, contentType: proto, status: 200 },
  {
    name: 'a content-length that matches',
    path: getOrder,
    contentType: proto,
    body: request({ id: 9n }),
    headers: { 'content-length': String(request({ id: 9n }).length) },
    status: 200,
  },
  {
    name: 'a 3 MB request, many DATA frames long',
    path: getOrder,
    contentType: proto,
    body: request({ id: 1n, failWith: 'x'.repeat(3_000_000) }),
    status: 200,
  },
  {
    name: "a handler's WirekitError",
    path: getOrder,
    contentType: proto,
    body: request({ id: 1n, failWith: 'wirekit' }),
    status: 404,
  },
  {
    name: "a handler's plain Error",
    path: getOrder,
    contentType: proto,
    body: request({ id: 1n, failWith: 'plain' }),
    status: 500,
  },
  {
    name: "a handler's validation error",
    path: getOrder,
    contentType: 'application/json',
    body: Buffer.from(JSON.stringify({ id: '1', failWith: 'invalid' })),
    status: 400,
  },
  {
    name: 'a reply its own schema refuses',
    path: getOrder,
    contentType: proto,
    body: request({ id: 1n, failWith: 'bad-reply' }),
    status: 500,
  },
  {
    name: "a handler's response trailers",
    path: getOrder,
    contentType: proto,
    body: request({ id: 1n, failWith: 'trailers' }),
    status: 200,
  },
  {
    name: 'a header HTTP/2 forbids, set by the handler (dropped)',
    path: getOrder,
    contentType: proto,
    body: request({ id: 1n, failWith: 'bad-header' }),
    status: 200,
  },
  {
    name: 'a trailer HTTP/2 forbids, set by the handler (dropped)',
    path: getOrder,
    contentType: proto,
    body: request({ id: 1n, failWith: 'bad-trailer' }),
    status: 200,
  },
  {
    name: 'malformed bytes',
    path: getOrder,
    contentType: proto,
    body: Buffer.from([0x0a, 0xff]),
    status: 400,
  },
  {
    name: 'malformed JSON',
    path: getOrder,
    contentType: 'application/json',
    body: Buffer.from('{"id": '),
    status: 400,
  },
  {
    name: 'a gzip request',
    path: getOrder,
    contentType: proto,
    body: gzipSync(request({ id: 2n })),
    headers: { 'content-encoding': 'gzip' },
    status: 200,
  },
  {
    name: 'an encoding the server does not know',
    path: getOrder,
    contentType: proto,
    body: request({ id: 1n }),
    headers: { 'content-encoding': 'snappy' },
    status: 501,
  },
  {
    name: 'a gzip bomb',
    path: getOrder,
    contentType: proto,
    body: gzipSync(Buffer.alloc(8 * 2 ** 20)),
    headers: { 'content-encoding': 'gzip' },
    status: 429,
  },
  {
    name: 'corrupt gzip',
    path: getOrder,
    contentType: proto,
    body: Buffer.from('not gzip at all'),
    headers: { 'content-encoding': 'gzip' },
    status: 400,
  },
  {
    name: 'a deadline already passed',
    path: getOrder,
    contentType: proto,
    body: request({ id: 1n }),
    headers: { 'connect-timeout-ms': '0' },
    status: 504,
  },
  {
    name: 'a deadline that is not one',
    path: getOrder,
    contentType: proto,
    body: request({ id: 1n }),
    headers: { 'connect-timeout-ms': 'soon' },
    status: 400,
  },
  {
    name: 'a deadline the handler meets',
    path: getOrder,
    contentType: proto,
    body: request({ id: 1n }),
    headers: { 'connect-timeout-ms': '60000' },
    status: 200,
  },
  {
    name: 'a deadline that passes while the handler runs (it returns its reply)',
    path: getOrder,
    contentType: proto,
    body: request({ id: 1n, failWith: 'slow' }),
    headers: { 'connect-timeout-ms': '50' },
    status: 200,
  },
  {
    name: 'a Connect-Protocol-Version other than 1 (not required by createRpcServer)',
    path: getOrder,
    contentType: proto,
    body: request({ id: 1n }),
    headers: { 'connect-protocol-version': '2' },
    status: 200,
  },
  // Left to Connect's router on both servers.
  {
    name: 'a content type naming no codec',
    path: getOrder,
    contentType: 'application/xml',
    body: request({ id: 1n }),
    status: 415,
    direct: false,
  },
  {
    name: 'a GET of a NO_SIDE_EFFECTS method',
    method: 'GET',
    path: `${getOrder}?connect=v1&encoding=json&message=${encodeURIComponent('{"id":"5"}')}`,
    status: 200,
    direct: false,
  },
  {
    name: 'a unary call of a streaming method',
    path: '/orders.v1.OrderService/WatchOrders',
    contentType: proto,
    body: request({ id: 1n }),
    status: 415,
    direct: false,
  },
];

/** Sends `call` to both servers, requires the same answer, and which path each took. */
async function expectAlike(pair: Pair, call: Call, status: number, direct: boolean) {
  const before = pair.intercepted();
  const [onDirect, onConnect] = await Promise.all([
    connectCall(pair.sessions.direct, call),
    connectCall(pair.sessions.connect, call),
  ]);
  expect(outcome(onDirect)).toEqual(outcome(onConnect));
  expect(onDirect.headers[':status']).toBe(status);
  // The second server's answer came through Connect's router (where the handler runs at all).
  if (status === 200 && call.method !== 'GET') expect(pair.intercepted()).toBe(before + 1);
  // The first server's came through it only for what the direct path leaves to the router.
  const ports = routedPorts;
  expect(ports.filter((port) => port === pair.connect.port)).toHaveLength(1);
  expect(ports.filter((port) => port === pair.direct.port)).toHaveLength(direct ? 0 : 1);
}

describe('the direct Connect unary path answers as Connect’s unary handler does', () => {
  let pair: Pair | undefined;
  beforeAll(async () => {
    pair = await serverPair();
  });
  afterAll(() => closePair(pair));

  test.each(cases)('$name', async ({ name: _name, status, direct = true, ...call }) => {
    await expectAlike(pair as Pair, call, status, direct);
  });
});

describe('compressed replies, from compressMinBytes', () => {
  let pair: Pair | undefined;
  beforeAll(async () => {
    pair = await serverPair({ compressMinBytes: 1 });
  });
  afterAll(() => closePair(pair));

  test.each([
    ['a gzip request, a gzip reply asked for', request({ id: 2n }), 200],
    ['an error body, gzip asked for', request({ id: 2n, failWith: 'wirekit' }), 404],
  ] as const)('%s', async (_name, body, status) => {
    const call = {
      path: getOrder,
      contentType: proto,
      body: gzipSync(body),
      headers: { 'content-encoding': 'gzip', 'accept-encoding': 'gzip' },
    };
    await expectAlike(pair as Pair, call, status, true);
  });
});

describe('exposeErrors holds alike on both paths', () => {
  let pair: Pair | undefined;
  beforeAll(async () => {
    pair = await serverPair({ exposeErrors: true });
  });
  afterAll(() => closePair(pair));

  test("a handler's plain Error, its message sent", async () => {
    const call = { path: getOrder, contentType: proto, body: request({ id: 1n, failWith: 'plain' }) };
    await expectAlike(pair as Pair, call, 500, true);
  });
});

describe('limits set on the server hold alike on both paths', () => {
  let pair: Pair | undefined;
  beforeAll(async () => {
    pair = await serverPair({ readMaxBytes: 16, writeMaxBytes: 40 });
  });
  afterAll(() => closePair(pair));

  const tooLong = request({ id: 1n, failWith: 'x'.repeat(40) });
  test.each([
    ['a content-length over readMaxBytes', tooLong, { 'content-length': String(tooLong.length) }],
    ['no content-length, and more bytes than readMaxBytes', tooLong, {}],
    ['a 1 MB body past readMaxBytes', request({ id: 1n, failWith: 'x'.repeat(1_000_000) }), {}],
    ['a reply over writeMaxBytes', request({ id: 1n }), {}],
  ] as const)('%s', async (_name, body, headers) => {
    await expectAlike(pair as Pair, { path: getOrder, contentType: proto, body, headers }, 429, true);
  });
});

describe("the handler's signal on the direct path", () => {
  const slowCall = (session: ClientHttp2Session) =>
    session.request({ ':method': 'POST', ':path': getOrder, 'content-type': proto });

  test("a client's reset aborts it", async () => {
    const seen = nothingSeen();
    const server = await createRpcServer({ services: [orderService(seen)] });
    const session = openSession(server.url);
    try {
      const stream = slowCall(session);
      stream.on('error', () => undefined);
      stream.end(request({ id: 1n, failWith: 'slow' }));
      while (seen.calls.length === 0) await sleep(10);
      expect(seen.contexts[0]?.protocol).toBe('connect');
      stream.close(constants.NGHTTP2_CANCEL);
      while (seen.aborted.length === 0) await sleep(10);
      expect(seen.aborted).toEqual(['GetOrder']);
      expect(routedPorts).toEqual([]);
    } finally {
      session.destroy();
      await server.close();
    }
  });

  test('close() aborts a call still running after the grace period', async () => {
    const seen = nothingSeen();
    const server = await createRpcServer({ services: [orderService(seen)], shutdownTimeoutMs: 200 });
    const session = openSession(server.url);
    const stream = slowCall(session);
    stream.on('error', () => undefined);
    stream.end(request({ id: 1n, failWith: 'slow' }));
    while (seen.calls.length === 0) await sleep(10);
    await server.close();
    expect(seen.aborted).toEqual(['GetOrder']);
    expect(routedPorts).toEqual([]);
    session.destroy();
  });
});

describe("the handler's signal once a call is over", () => {
  // Connect aborts the signal after every call, so a handler's clean-up on 'abort' runs; the
  // direct path does the same.
  test('aborted on both paths, after a reply', async () => {
    const seen = { direct: nothingSeen(), connect: nothingSeen() };
    const pair = await serverPair({}, seen);
    const sessions = [pair.sessions.direct, pair.sessions.connect] as const;
    try {
      const call = { path: getOrder, contentType: 'application/proto', body: request({ id: 2n }) };
      const replies = await Promise.all(sessions.map((session) => connectCall(session, call)));
      for (const reply of replies) expect(reply.headers[':status']).toBe(200);
      for (const handlers of [seen.direct, seen.connect]) {
        expect(handlers.contexts).toHaveLength(1);
        expect(handlers.contexts[0]?.signal.aborted).toBe(true);
      }
    } finally {
      await closePair(pair);
    }
  });
});
