/**
 * The health service's handlers, called as a server calls them: Check and List answer with the
 * statuses now, Watch streams each change until the call's signal aborts. The peers (grpcurl,
 * Python's grpc_health client) are in reflection-interop.test.ts.
 */
import { describe, expect, test } from 'vitest';
import {
  createHealth,
  type HealthCheckResponse,
  HealthService,
  RpcError,
  rpcStatusOf,
} from '../../../src/boundaries/rpc/index.js';
import { createProtobufCodec } from '../../../src/codecs/protobuf/index.js';
import { WirekitError } from '../../../src/errors/index.js';

const context = () => {
  const controller = new AbortController();
  return { controller, context: { signal: controller.signal } };
};

/** What a promise settled with: its value, or the status a server would answer for its error. */
async function outcome<T>(promise: Promise<T>): Promise<T | { status: string; message: string }> {
  try {
    return await promise;
  } catch (error) {
    const { status, message } = rpcStatusOf(error);
    return { status, message };
  }
}

describe('Check and List', () => {
  test("the server as a whole ('') is SERVING from the start; statuses as set", async () => {
    const health = createHealth();
    const { context: ctx } = context();
    expect(health.service).toBe(HealthService);
    expect(await health.handlers.Check({ service: '' }, ctx)).toEqual({ status: 'SERVING' });
    health.setStatus('orders.v1.OrderService', 'NOT_SERVING');
    expect(await health.handlers.Check({ service: 'orders.v1.OrderService' }, ctx)).toEqual({
      status: 'NOT_SERVING',
    });
    expect(health.statusOf('orders.v1.OrderService')).toBe('NOT_SERVING');
    expect(await health.handlers.List({}, ctx)).toEqual({
      statuses: { '': { status: 'SERVING' }, 'orders.v1.OrderService': { status: 'NOT_SERVING' } },
    });
  });

  test('a service with no status is NOT_FOUND for Check', async () => {
    const health = createHealth({ statuses: { 'a.B': 'SERVING' } });
    const { context: ctx } = context();
    expect(await outcome(health.handlers.Check({ service: 'a.C' }, ctx))).toEqual({
      status: 'NOT_FOUND',
      message: 'no health status for service a.C',
    });
    // Statuses given replace the default: '' is unknown here.
    expect(await outcome(health.handlers.Check({ service: '' }, ctx))).toMatchObject({ status: 'NOT_FOUND' });
  });

  test('List past maxListed is RESOURCE_EXHAUSTED', async () => {
    const health = createHealth({ maxListed: 2 });
    const { context: ctx } = context();
    health.setStatus('a', 'SERVING');
    expect(Object.keys((await health.handlers.List({}, ctx)).statuses ?? {})).toEqual(['', 'a']);
    health.setStatus('b', 'SERVING');
    expect(await outcome(health.handlers.List({}, ctx))).toMatchObject({ status: 'RESOURCE_EXHAUSTED' });
  });

  test('shutdown: every service NOT_SERVING, later statuses ignored', async () => {
    const health = createHealth();
    health.setStatus('a', 'SERVING');
    health.shutdown();
    health.setStatus('a', 'SERVING');
    expect([health.statusOf(''), health.statusOf('a')]).toEqual(['NOT_SERVING', 'NOT_SERVING']);
  });

  test('a status outside the three a server may set is refused', () => {
    const health = createHealth();
    for (const status of ['SERVICE_UNKNOWN', 'serving', 1]) {
      expect(() => health.setStatus('a', status as never)).toThrow(
        expect.objectContaining({ code: 'WK_OPTIONS_INVALID' }),
      );
    }
    expect(() => createHealth({ statuses: { a: 'up' as never } })).toThrow(WirekitError);
  });
});

describe('Watch', () => {
  test('the status now, then each change; the latest only when the watcher lags; ends on abort', async () => {
    const health = createHealth();
    const { controller, context: ctx } = context();
    const stream = health.handlers.Watch({ service: 'orders.v1.OrderService' }, ctx)[Symbol.asyncIterator]();
    expect((await stream.next()).value).toEqual({ status: 'SERVICE_UNKNOWN' });

    const next = stream.next();
    health.setStatus('orders.v1.OrderService', 'SERVING');
    expect((await next).value).toEqual({ status: 'SERVING' });

    // Three changes before the watcher reads: it is sent the last one, once.
    health.setStatus('orders.v1.OrderService', 'NOT_SERVING');
    health.setStatus('orders.v1.OrderService', 'UNKNOWN');
    health.setStatus('orders.v1.OrderService', 'NOT_SERVING');
    expect((await stream.next()).value).toEqual({ status: 'NOT_SERVING' });

    // The same status again is no change; aborting the call ends the stream.
    const waiting = stream.next();
    health.setStatus('orders.v1.OrderService', 'NOT_SERVING');
    controller.abort();
    expect(await waiting).toEqual({ done: true, value: undefined });
  });

  test('several watchers of one service each see the change; another service is not woken', async () => {
    const health = createHealth();
    const { controller, context: ctx } = context();
    const first = health.handlers.Watch({ service: '' }, ctx)[Symbol.asyncIterator]();
    const second = health.handlers.Watch({ service: '' }, ctx)[Symbol.asyncIterator]();
    const other = health.handlers.Watch({ service: 'x' }, ctx)[Symbol.asyncIterator]();
    await Promise.all([first.next(), second.next(), other.next()]);
    const pending = [first.next(), second.next()];
    const otherPending = other.next();
    health.setStatus('', 'NOT_SERVING');
    expect((await Promise.all(pending)).map((r) => r.value)).toEqual([
      { status: 'NOT_SERVING' },
      { status: 'NOT_SERVING' },
    ]);
    controller.abort();
    expect(await otherPending).toEqual({ done: true, value: undefined });
  });
});

describe('on the wire', () => {
  test("a response's bytes: status 1 as the enum's protocol number", () => {
    const codec = createProtobufCodec<HealthCheckResponse>({ schema: HealthService.methods.Check.output });
    expect(Buffer.from(codec.encode({ status: 'NOT_SERVING' })).toString('hex')).toBe('0802');
    expect(codec.decode(Uint8Array.from([0x08, 0x03]))).toEqual({ status: 'SERVICE_UNKNOWN' });
  });
});

describe('RpcError', () => {
  test('answers with the status it names, its message and details', () => {
    const error = new RpcError('PERMISSION_DENIED', 'not your order');
    expect([error.status, error.statusCode, error.code]).toEqual(['PERMISSION_DENIED', 7, 'WK_RPC_STATUS']);
    expect(error).toBeInstanceOf(WirekitError);
    expect(rpcStatusOf(error)).toEqual({
      status: 'PERMISSION_DENIED',
      code: 7,
      message: 'not your order',
      details: [],
    });
  });

  test("a call's RpcError let through a handler answers with its status and details, not its code's", () => {
    // As a client makes it from a wirekit server's answer: the ErrorInfo names a wirekit code.
    const info = { reason: 'WK_REGISTRY_NOT_FOUND', domain: 'wirekit', metadata: { path: 'id' } };
    const received = new RpcError({
      status: 'FAILED_PRECONDITION',
      message: 'upstream: no schema 7',
      details: [{ type: 'google.rpc.ErrorInfo', value: info }],
    });
    expect([received.code, received.at]).toEqual(['WK_REGISTRY_NOT_FOUND', 'id']);
    expect(rpcStatusOf(received)).toEqual({
      status: 'FAILED_PRECONDITION',
      code: 9,
      message: 'upstream: no schema 7',
      details: [{ type: 'google.rpc.ErrorInfo', value: info }],
    });
  });
});
