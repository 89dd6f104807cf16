/**
 * wirekit's reflection and health services against the generic gRPC tools that use them: grpcurl
 * (through reflection alone, no `.proto`: list, describe, calls with ProtoJSON on its command line,
 * health checks), and gRPC's own Python clients (grpcio-reflection's descriptor database and a
 * DescriptorPool built from it, grpcio-health-checking's Check and Watch). The services are hosted
 * on grpc-js (test/support/servers/grpc-js.ts); each grpcurl and Python call is a child process
 * with a timeout.
 */
import { execFile, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHealth, type ReflectionVersion, serverReflection } from '../../../src/boundaries/rpc/index.js';
import { bigId, ShopService, shopHandlers } from '../../fixtures/shop-service.js';
import { type GrpcJsServer, serveOnGrpcJs } from '../../support/servers/grpc-js.js';
import { grpcurlPath, has, venvPython } from '../../support/tools.js';

const peer = new URL('../../support/peers/grpc_reflection_health.py', import.meta.url).pathname;
/** A child's limit: far above what any call takes, so a hung peer fails the test instead of stalling it. */
const childTimeoutMs = 30_000;

const health = createHealth();
/** The ids GetOrder was called with, as its handler received them. */
const asked: bigint[] = [];
const servers = new Map<string, GrpcJsServer>();

/** A server of the shop service and health, with reflection in `versions`. */
function serve(versions: readonly ReflectionVersion[]): Promise<GrpcJsServer> {
  return serveOnGrpcJs([
    {
      service: ShopService,
      handlers: {
        ...shopHandlers,
        async GetOrder(request: { id: bigint }, context: { signal: AbortSignal }) {
          asked.push(request.id);
          return shopHandlers.GetOrder(request, context);
        },
      },
    },
    health,
    ...serverReflection([ShopService, health.service], { versions }),
  ]);
}

interface Outcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * grpcurl against a server, with reflection (its default when given no `.proto`): `command` is
 * what follows the address (`list`, `describe X`, a method), `data` the request as ProtoJSON.
 */
function grpcurl(server: string, command: string[], data?: string): Promise<Outcome> {
  const address = servers.get(server)?.address as string;
  const flags = ['-plaintext', '-use-reflection', ...(data === undefined ? [] : ['-d', data])];
  return new Promise((resolve) => {
    execFile(
      grpcurlPath,
      [...flags, address, ...command],
      { timeout: childTimeoutMs },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** grpcurl's output of several messages: JSON objects one after another. */
const messagesOf = (stdout: string): Record<string, unknown>[] =>
  JSON.parse(`[${stdout.trim().replace(/}\s*{/g, '},{')}]`);

const usable = has('grpcurl') && has('venv:grpc_reflection') && has('venv:grpc_health');

beforeAll(async () => {
  for (const [name, versions] of [
    ['both', ['v1', 'v1alpha']],
    ['v1', ['v1']],
    ['v1alpha', ['v1alpha']],
  ] as const) {
    servers.set(name, await serve(versions));
  }
});

afterAll(async () => {
  for (const server of servers.values()) await server.close();
});

describe.skipIf(!has('grpcurl'))('grpcurl through reflection', () => {
  test('list: the services served, the reflection and health services among them', async () => {
    const { stdout, code } = await grpcurl('both', ['list']);
    expect(code).toBe(0);
    expect(stdout.trim().split('\n')).toEqual([
      'grpc.health.v1.Health',
      'grpc.reflection.v1.ServerReflection',
      'grpc.reflection.v1alpha.ServerReflection',
      'shop.v1.OrderService',
    ]);
  });

  test('v1 alone and v1alpha alone each serve grpcurl (it falls back to v1alpha)', async () => {
    for (const version of ['v1', 'v1alpha'] as const) {
      const { stdout, code, stderr } = await grpcurl(version, ['list']);
      expect(code, stderr).toBe(0);
      expect(stdout).toContain(`grpc.reflection.${version}.ServerReflection`);
      expect(stdout).toContain('shop.v1.OrderService');
    }
    const unary = await grpcurl('v1alpha', ['shop.v1.OrderService/GetOrder'], '{"id":"7"}');
    expect(unary.code, unary.stderr).toBe(0);
    expect(JSON.parse(unary.stdout)).toMatchObject({ id: '7' });
  });

  test('describe a service: its methods, streaming kinds and options', async () => {
    const { stdout, code } = await grpcurl('both', ['describe', 'shop.v1.OrderService']);
    expect(code).toBe(0);
    expect(stdout).toContain('rpc Chat ( stream .shop.v1.Line ) returns ( stream .shop.v1.Line );');
    expect(stdout).toContain('rpc GetOrder ( .shop.v1.GetOrderRequest ) returns ( .shop.v1.Order ) {');
    expect(stdout).toContain('option idempotency_level = NO_SIDE_EFFECTS;');
    expect(stdout).toContain('rpc WatchOrders ( .shop.v1.WatchRequest ) returns ( stream .shop.v1.Order );');
  });

  test('describe a message: its fields, the imported Timestamp resolved', async () => {
    const order = await grpcurl('both', ['describe', 'shop.v1.Order']);
    expect(order.code).toBe(0);
    for (const line of [
      'int64 id = 1;',
      '.google.protobuf.Timestamp placedAt = 2;',
      'optional string note = 4;',
      'repeated .shop.v1.Line lines = 5;',
    ]) {
      expect(order.stdout).toContain(line);
    }
    const timestamp = await grpcurl('both', ['describe', 'google.protobuf.Timestamp']);
    expect(timestamp.stdout).toContain('int64 seconds = 1;');
  });

  test('a unary call with ProtoJSON: an int64 past 2^53 exact both ways', async () => {
    const { stdout, code, stderr } = await grpcurl(
      'both',
      ['shop.v1.OrderService/GetOrder'],
      `{"id":"${bigId}"}`,
    );
    expect(code, stderr).toBe(0);
    expect(asked).toContain(bigId);
    expect(JSON.parse(stdout)).toEqual({
      id: '9007199254740993',
      placedAt: '2026-12-07T08:30:00.123Z',
      total: '1234.50',
      lines: [{ sku: 'sku-9007199254740993', quantity: 2 }],
    });
  });

  test('a server stream', async () => {
    const { stdout, code } = await grpcurl(
      'both',
      ['shop.v1.OrderService/WatchOrders'],
      '{"fromId":"41","count":3}',
    );
    expect(code).toBe(0);
    expect(messagesOf(stdout).map((order) => [order.id, order.note])).toEqual([
      ['41', undefined],
      ['42', 'gift'],
      ['43', undefined],
    ]);
  });

  test('grpc.health.v1.Health/Check: SERVING, and NOT_FOUND for a service with no status', async () => {
    const serving = await grpcurl('both', ['grpc.health.v1.Health/Check']);
    expect(JSON.parse(serving.stdout)).toEqual({ status: 'SERVING' });
    const unknown = await grpcurl('both', ['grpc.health.v1.Health/Check'], '{"service":"nope.Nope"}');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('Code: NotFound');
    expect(unknown.stderr).toContain('no health status for service nope.Nope');
  });
});

describe.skipIf(!usable)("gRPC's Python clients", () => {
  test('grpcio-reflection: a DescriptorPool from the server finds the service and its messages', async () => {
    const address = servers.get('both') as GrpcJsServer;
    const output = await new Promise<string>((resolve, reject) =>
      execFile(
        venvPython,
        [peer, 'reflection', String(address.port)],
        { timeout: childTimeoutMs },
        (error, stdout, stderr) => (error === null ? resolve(stdout) : reject(new Error(stderr))),
      ),
    );
    const found = JSON.parse(output);
    expect(found.services).toEqual([
      'grpc.health.v1.Health',
      'grpc.reflection.v1.ServerReflection',
      'grpc.reflection.v1alpha.ServerReflection',
      'shop.v1.OrderService',
    ]);
    expect(found.file).toBe('shop/v1/OrderService.proto');
    expect(found.methods).toEqual([
      ['GetOrder', 'shop.v1.GetOrderRequest', 'shop.v1.Order', false, false],
      ['WatchOrders', 'shop.v1.WatchRequest', 'shop.v1.Order', false, true],
      ['Upload', 'shop.v1.Line', 'shop.v1.Summary', true, false],
      ['Chat', 'shop.v1.Line', 'shop.v1.Line', true, true],
    ]);
    // Types by FieldDescriptor's numbers: 3 int64, 11 message, 9 string.
    expect(found.fields).toEqual([
      ['id', 1, 3, null],
      ['placedAt', 2, 11, 'google.protobuf.Timestamp'],
      ['total', 3, 9, null],
      ['note', 4, 9, null],
      ['lines', 5, 11, 'shop.v1.Line'],
    ]);
    expect(found.extensionNumbers).toEqual([]);
    expect(found.unknownTypeMissing).toBe(true);
    expect(found.symbolMissing).toBe(true);
    // The messages and services wirekit describes its reflection and health services with are
    // those of the .proto files grpcio is built from, field for field.
    expect(found.differences).toEqual({});
    expect(found.sameAsGrpcio).toEqual({ v1alpha: true, health: true });
  });

  test('grpcio-health-checking: Check, and a Watch that sees the status change', async () => {
    const address = servers.get('both') as GrpcJsServer;
    const child = spawn(venvPython, [peer, 'health', String(address.port)], { timeout: childTimeoutMs });
    const stderr: string[] = [];
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const next = async () => {
      const line = await lines.next();
      if (line.done === true) throw new Error(`the peer stopped: ${stderr.join('')}`);
      return JSON.parse(line.value);
    };
    expect(await next()).toEqual({ check: 'SERVING', unknown: 'NOT_FOUND' });
    expect(await next()).toEqual({ watch: 'SERVICE_UNKNOWN' });
    health.setStatus('shop.v1.OrderService', 'NOT_SERVING');
    child.stdin.write('\n');
    expect(await next()).toEqual({ watch: 'NOT_SERVING' });
    const [exitCode] = await new Promise<[number | null]>((resolve) =>
      child.exitCode === null ? child.once('exit', (code) => resolve([code])) : resolve([child.exitCode]),
    );
    expect(exitCode, stderr.join('')).toBe(0);
  });
});
