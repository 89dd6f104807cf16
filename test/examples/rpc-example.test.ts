/**
 * The RPC example runs as the README shows: `npm run example:rpc -- --port P` serves the order
 * service with reflection and health, and three independent gRPC peers call it as its printed
 * instructions say: grpcurl through reflection alone (list, describe, a unary call in ProtoJSON
 * with an int64 past 2^53, Health/Check), grpc-js with proto-loader and Python grpcio with stubs
 * from the `.proto` that `--write-proto` writes. `--demo` calls it with wirekit's own client over
 * gRPC and Connect in three formats.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort } from '../support/servers/free-port.js';
import { grpcurlPath, has, venvPython } from '../support/tools.js';

const run = promisify(execFile);
const hasPeers = has('grpcurl') && has('venv:grpc_tools');

describe.skipIf(!hasPeers)('npm run example:rpc', () => {
  let child: ChildProcess;
  let target = '';
  let dir = '';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 's42-rpc-example-'));
    const port = await freePort();
    child = spawn(process.execPath, ['--import', 'tsx', 'examples/rpc/main.ts', '--port', String(port)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      let seen = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.includes('Ctrl-C to stop')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`the example exited with ${code}: ${seen}`)));
    });
    target = `127.0.0.1:${port}`;
    await run(process.execPath, [
      '--import',
      'tsx',
      'examples/rpc/main.ts',
      '--write-proto',
      join(dir, 'OrderService.proto'),
    ]);
  }, 60_000);

  afterAll(() => {
    child?.kill('SIGINT');
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  const grpcurl = async (...args: string[]) =>
    (await run(grpcurlPath, ['-plaintext', '-max-time', '20', ...args], { timeout: 30_000 })).stdout;

  test('grpcurl through reflection: list, describe, a unary call and the health check', async () => {
    const services = (await grpcurl(target, 'list')).split('\n').filter(Boolean).sort();
    expect(services).toEqual([
      'grpc.health.v1.Health',
      'grpc.reflection.v1.ServerReflection',
      'grpc.reflection.v1alpha.ServerReflection',
      'shop.v1.OrderService',
    ]);
    expect(await grpcurl(target, 'describe', 'shop.v1.OrderService')).toContain(
      'rpc GetOrder ( .shop.v1.GetOrderRequest ) returns ( .shop.v1.Order )',
    );
    const order = JSON.parse(await grpcurl('-d', '{"id":"2"}', target, 'shop.v1.OrderService/GetOrder'));
    expect(order).toMatchObject({ id: '2', customer: 'Grace', totalCents: '9007199254740993' });
    const health = JSON.parse(
      await grpcurl('-d', '{"service":"shop.v1.OrderService"}', target, 'grpc.health.v1.Health/Check'),
    );
    expect(health).toEqual({ status: 'SERVING' });
  }, 60_000);

  test('grpc-js with proto-loader, from the .proto --write-proto writes', async () => {
    const definition = protoLoader.loadSync(join(dir, 'OrderService.proto'), {
      longs: String,
      keepCase: true,
    });
    const loaded = grpc.loadPackageDefinition(definition) as unknown as {
      shop: { v1: { OrderService: grpc.ServiceClientConstructor } };
    };
    const client = new loaded.shop.v1.OrderService(target, grpc.credentials.createInsecure());
    try {
      const call = (id: string) =>
        new Promise<{ customer?: string; total_cents?: string }>((resolve, reject) =>
          (
            client as unknown as Record<string, grpc.requestCallback<unknown> & ((...a: unknown[]) => void)>
          ).GetOrder?.({ id }, (error: unknown, reply: unknown) =>
            error ? reject(error) : resolve(reply as never),
          ),
        );
      expect(await call('2')).toMatchObject({ customer: 'Grace', total_cents: '9007199254740993' });
      await expect(call('99')).rejects.toMatchObject({ code: grpc.status.NOT_FOUND });
    } finally {
      client.close();
    }
  }, 60_000);

  test('Python grpcio with stubs grpcio-tools generates', async () => {
    await run(venvPython, [
      '-m',
      'grpc_tools.protoc',
      '-I',
      dir,
      `--python_out=${dir}`,
      `--grpc_python_out=${dir}`,
      'OrderService.proto',
    ]);
    const script = [
      'import sys, grpc',
      `sys.path.insert(0, ${JSON.stringify(dir)})`,
      'import OrderService_pb2 as pb, OrderService_pb2_grpc as rpc',
      `stub = rpc.OrderServiceStub(grpc.insecure_channel(${JSON.stringify(target)}))`,
      'order = stub.GetOrder(pb.GetOrderRequest(id=2), timeout=20)',
      'print(order.customer, order.total_cents)',
      'try:',
      '    stub.GetOrder(pb.GetOrderRequest(id=99), timeout=20)',
      'except grpc.RpcError as error:',
      '    print(error.code().name)',
    ].join('\n');
    const { stdout } = await run(venvPython, ['-c', script], { timeout: 60_000 });
    expect(stdout.split('\n').filter(Boolean)).toEqual(['Grace 9007199254740993', 'NOT_FOUND']);
  }, 90_000);
});

test('npm run example:rpc -- --demo: wirekit client over gRPC and Connect in three formats', async () => {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', 'examples/rpc/main.ts', '--demo', '--port', '0'],
    {
      timeout: 60_000,
    },
  );
  const lines = stdout.split('\n').filter((line) => line.includes('->'));
  expect(lines).toEqual([
    'gRPC, Protocol Buffers: GetOrder 2 -> Grace, total_cents 9007199254740993 (exact past 2^53)',
    'gRPC, Protocol Buffers: GetOrder 99 -> NOT_FOUND',
    'Connect, MessagePack: GetOrder 2 -> Grace, total_cents 9007199254740993 (exact past 2^53)',
    'Connect, MessagePack: GetOrder 99 -> NOT_FOUND',
    'Connect, ProtoJSON: GetOrder 2 -> Grace, total_cents 9007199254740993 (exact past 2^53)',
    'Connect, ProtoJSON: GetOrder 99 -> NOT_FOUND',
  ]);
}, 90_000);
