/**
 * wirekit's Connect protocol handler at the byte level, over HTTP/1.1 with fetch: a format chosen
 * per call (`application/<codec>`, `application/connect+<codec>`), canonical ProtoJSON on the
 * wire, GET calls, Connect's JSON errors with wirekit's code in the details, and hostile input, each
 * answered with a status while the server goes on serving.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { messageSerializer, type RpcCodecName } from '../../../../src/boundaries/rpc/message-formats.js';
import { createConnectHandlerFactory } from '../../../../src/boundaries/rpc/server/connect-handler.js';
import { serveTestService, type TestServer } from './router.js';
import { bigId, GetOrder, Order, ShopService, Summary, sampleOrder, shopHandlers } from './shop-service.js';
import { concat, envelope, errorInfoOf, splitEnvelopes, text } from './wire.js';

let server: TestServer;
const shop = shopHandlers();
beforeAll(async () => {
  server = await serveTestService(ShopService, shop.handlers, [createConnectHandlerFactory], {
    httpVersion: '1.1',
    // Small enough to test without sending megabytes.
    readMaxBytes: 64 * 1024,
  });
});
afterAll(() => server.close());

const url = (method: string) => `${server.url}/shop.v1.ShopService/${method}`;
const endStreamFlag = 0b10;

async function post(
  method: string,
  contentType: string,
  body: Uint8Array | string,
  headers: Record<string, string> = {},
) {
  const response = await fetch(url(method), {
    method: 'POST',
    headers: { 'content-type': contentType, ...headers },
    body,
  });
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

/** A Connect JSON error body, and the ErrorInfo of its first detail if it has one. */
function connectError(bytes: Uint8Array) {
  const body = JSON.parse(text(bytes)) as {
    code: string;
    message?: string;
    details?: { type: string; value: string }[];
  };
  const [first] = body.details ?? [];
  return { ...body, info: first === undefined ? undefined : errorInfoOf(first) };
}

describe('formats per call', () => {
  test.each(['proto', 'json', 'msgpack', 'cbor', 'avro'] satisfies RpcCodecName[])(
    'unary application/%s is answered in kind',
    async (codec) => {
      const request = messageSerializer(GetOrder, codec).serialize({ id: bigId });
      const { response, bytes } = await post('GetOrder', `application/${codec}`, request);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(`application/${codec}`);
      expect(messageSerializer(Order, codec).parse(bytes)).toEqual(sampleOrder(bigId));
    },
  );

  test('application/json is canonical ProtoJSON: int64 as a string, bytes base64, the enum by name', async () => {
    const { response, bytes } = await post(
      'GetOrder',
      'application/json; charset=utf-8',
      `{"id":"${bigId}"}`,
    );
    expect(response.status).toBe(200);
    expect(JSON.parse(text(bytes))).toEqual({
      id: String(bigId),
      placedAt: '2026-12-07T08:00:00.123Z',
      blob: 'AAEC/w==',
      status: 'STATUS_SHIPPED',
    });
  });

  test.each(['msgpack', 'cbor', 'json'] satisfies RpcCodecName[])(
    'streaming application/connect+%s: enveloped messages in kind, then the end-of-stream message',
    async (codec) => {
      const orders = [1n, bigId].map((id) =>
        envelope(0, messageSerializer(Order, codec).serialize(sampleOrder(id))),
      );
      const { response, bytes } = await post('Upload', `application/connect+${codec}`, concat(...orders));
      expect(response.headers.get('content-type')).toBe(`application/connect+${codec}`);
      const [reply, end, ...rest] = splitEnvelopes(bytes);
      expect(rest).toEqual([]);
      expect(reply?.flags).toBe(0);
      expect(messageSerializer(Summary, codec).parse(reply?.data as Uint8Array)).toEqual({
        count: 2,
        idSum: bigId + 1n,
      });
      expect(end?.flags).toBe(endStreamFlag);
      expect(JSON.parse(text(end?.data as Uint8Array))).toEqual({});
    },
  );

  test('a codec the server does not speak, or does not offer, is a 415 before any handler', async () => {
    const runs = shop.runs();
    expect((await post('GetOrder', 'application/xml', '<id/>')).response.status).toBe(415);
    expect((await post('GetOrder', 'application/msgpack; charset=utf-8', '')).response.status).toBe(415);
    const narrow = await serveTestService(ShopService, shop.handlers, [createConnectHandlerFactory], {
      httpVersion: '1.1',
      codecs: ['proto', 'json'],
    });
    try {
      const response = await fetch(`${narrow.url}/shop.v1.ShopService/GetOrder`, {
        method: 'POST',
        headers: { 'content-type': 'application/cbor' },
        body: messageSerializer(GetOrder, 'cbor').serialize({ id: 1n }),
      });
      expect(response.status).toBe(415);
    } finally {
      await narrow.close();
    }
    expect(shop.runs()).toBe(runs);
  });
});

describe('GET for methods without side effects', () => {
  const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

  test('binary codecs as base64url in the query, ProtoJSON as text', async () => {
    const message = base64url(messageSerializer(GetOrder, 'msgpack').serialize({ id: bigId }));
    const response = await fetch(
      `${url('GetOrder')}?connect=v1&encoding=msgpack&base64=1&message=${message}`,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/msgpack');
    expect(messageSerializer(Order, 'msgpack').parse(new Uint8Array(await response.arrayBuffer()))).toEqual(
      sampleOrder(bigId),
    );
    const json = await fetch(
      `${url('GetOrder')}?connect=v1&encoding=json&message=${encodeURIComponent(`{"id":"7"}`)}`,
    );
    expect(((await json.json()) as { id: string }).id).toBe('7');
  });

  test('a compressed message, and methods with side effects refused', async () => {
    const message = base64url(gzipSync(messageSerializer(GetOrder, 'proto').serialize({ id: 5n })));
    const response = await fetch(
      `${url('GetOrder')}?connect=v1&encoding=proto&base64=1&compression=gzip&message=${message}`,
    );
    expect(
      messageSerializer<Order>(Order, 'proto').parse(new Uint8Array(await response.arrayBuffer())).id,
    ).toBe(5n);
    const placed = await fetch(`${url('PlaceOrder')}?connect=v1&encoding=json&message=%7B%7D`);
    expect(placed.status).toBe(405);
  });
});

test('requireConnectProtocolHeader: a call without Connect-Protocol-Version (or connect=v1) is invalid_argument', async () => {
  const strict = await serveTestService(ShopService, shop.handlers, [createConnectHandlerFactory], {
    httpVersion: '1.1',
    requireConnectProtocolHeader: true,
  });
  try {
    const call = (headers: Record<string, string>) =>
      fetch(`${strict.url}/shop.v1.ShopService/GetOrder`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: '{"id":"1"}',
      });
    const without = await call({});
    expect(without.status).toBe(400);
    expect(connectError(new Uint8Array(await without.arrayBuffer())).code).toBe('invalid_argument');
    expect((await call({ 'connect-protocol-version': '1' })).status).toBe(200);
    const get = (query: string) =>
      fetch(`${strict.url}/shop.v1.ShopService/GetOrder?encoding=json&message=%7B%7D${query}`);
    expect((await get('')).status).toBe(400);
    expect((await get('&connect=v1')).status).toBe(200);
  } finally {
    await strict.close();
  }
});

describe('errors as Connect JSON', () => {
  test('a validation error: 400 invalid_argument, wirekit code and path in ErrorInfo, issues in BadRequest', async () => {
    const { response, bytes } = await post('GetOrder', 'application/json', '{"id":"-1"}');
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/json');
    const error = connectError(bytes);
    expect(error.code).toBe('invalid_argument');
    expect(error.info).toEqual({
      reason: 'WK_VALIDATION_FAILED',
      domain: 'wirekit',
      metadata: { path: 'id' },
    });
    expect(error.details?.map((detail) => detail.type)).toEqual([
      'google.rpc.ErrorInfo',
      'google.rpc.BadRequest',
    ]);
  });

  test("an unexpected error is 500 internal without the handler's message", async () => {
    const { response, bytes } = await post('GetOrder', 'application/json', '{"id":"13"}');
    expect(response.status).toBe(500);
    expect(connectError(bytes)).toEqual({ code: 'internal', message: 'internal error', info: undefined });
  });

  test('a reply its own schema refuses is 500 internal with a fixed message', async () => {
    const order = messageSerializer(Order, 'proto').serialize({ ...sampleOrder(1n), note: 'bad reply' });
    const { response, bytes } = await post('PlaceOrder', 'application/proto', order);
    expect(response.status).toBe(500);
    expect(connectError(bytes)).toEqual({
      code: 'internal',
      message: 'internal error: the reply could not be encoded',
      info: undefined,
    });
  });

  test('a failed stream ends with the error in its end-of-stream message', async () => {
    const request = envelope(0, messageSerializer(GetOrder, 'msgpack').serialize({ id: -1n }));
    const { response, bytes } = await post('WatchOrders', 'application/connect+msgpack', request);
    expect(response.status).toBe(200);
    const [end] = splitEnvelopes(bytes);
    expect(end?.flags).toBe(endStreamFlag);
    const { error } = JSON.parse(text(end?.data as Uint8Array)) as {
      error: { code: string; details: { type: string; value: string }[] };
    };
    expect(error.code).toBe('invalid_argument');
    expect(errorInfoOf(error.details[0] as { type: string; value: string }).reason).toBe(
      'WK_VALIDATION_FAILED',
    );
  });
});

describe('deadlines and hostile input: a status each, and the server serves the next call', () => {
  const good = () =>
    post('GetOrder', 'application/msgpack', messageSerializer(GetOrder, 'msgpack').serialize({ id: 1n }));

  test('connect-timeout-ms: 0 is deadline_exceeded (504) and the handler never runs, unary and streaming', async () => {
    const runs = shop.runs();
    const unary = await post('GetOrder', 'application/json', '{"id":"1"}', { 'connect-timeout-ms': '0' });
    expect(unary.response.status).toBe(504);
    expect(connectError(unary.bytes).code).toBe('deadline_exceeded');
    const orders = envelope(0, messageSerializer(Order, 'proto').serialize(sampleOrder(1n)));
    const stream = await post('Upload', 'application/connect+proto', orders, { 'connect-timeout-ms': '0' });
    const [end] = splitEnvelopes(stream.bytes);
    expect((JSON.parse(text(end?.data as Uint8Array)) as { error: { code: string } }).error.code).toBe(
      'deadline_exceeded',
    );
    expect(shop.runs()).toBe(runs);
    expect((await good()).response.status).toBe(200);
  });

  test('bad MessagePack is invalid_argument with the decoder code, not internal', async () => {
    const runs = shop.runs();
    const { response, bytes } = await post('GetOrder', 'application/msgpack', new Uint8Array([0xc1]));
    expect(response.status).toBe(400);
    const error = connectError(bytes);
    expect(error.code).toBe('invalid_argument');
    expect(error.info?.reason).toMatch(/^WK_DECODE_/);
    expect(shop.runs()).toBe(runs);
    expect((await good()).response.status).toBe(200);
  });

  test('a truncated envelope, a frame claiming 2 GiB, an unknown compression', async () => {
    const order = messageSerializer(Order, 'proto').serialize(sampleOrder(1n));
    const truncated = await post('Upload', 'application/connect+proto', envelope(0, order).subarray(0, 9));
    const [truncatedEnd] = splitEnvelopes(truncated.bytes);
    expect(JSON.parse(text(truncatedEnd?.data as Uint8Array)).error.code).toBe('invalid_argument');

    const huge = await post('Upload', 'application/connect+proto', envelope(0, order, 2 ** 31));
    const [hugeEnd] = splitEnvelopes(huge.bytes);
    expect(JSON.parse(text(hugeEnd?.data as Uint8Array)).error.code).toBe('resource_exhausted');

    const snappy = await post('GetOrder', 'application/proto', order, { 'content-encoding': 'snappy' });
    expect(snappy.response.status).toBe(501);
    expect(connectError(snappy.bytes).code).toBe('unimplemented');
    expect((await good()).response.status).toBe(200);
  });

  test('a unary body past the read limit is resource_exhausted (429)', async () => {
    const { response, bytes } = await post(
      'GetOrder',
      'application/json',
      `{"id":"1",${' '.repeat(70_000)}}`,
    );
    expect(response.status).toBe(429);
    expect(connectError(bytes).code).toBe('resource_exhausted');
    expect((await good()).response.status).toBe(200);
  });

  test('a compressed body that inflates past the read limit is resource_exhausted', async () => {
    const bomb = gzipSync(new Uint8Array(16 * 1024 * 1024));
    const { response, bytes } = await post('GetOrder', 'application/proto', bomb, {
      'content-encoding': 'gzip',
    });
    expect(response.status).toBe(429);
    expect(connectError(bytes).code).toBe('resource_exhausted');
    expect((await good()).response.status).toBe(200);
  });
});
