/**
 * grpcurl (Go's grpc-go underneath) against wirekit's gRPC server, given the `.proto` toProto
 * writes: a unary call in ProtoJSON with an int64 above 2^53 exact, a server stream, an error, and
 * an unknown method read as UNIMPLEMENTED rather than a broken stream. Reflection is tested with
 * the reflection service itself.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRpcServer, type RpcServer } from '../../../../src/boundaries/rpc/server/index.js';
import { toProto } from '../../../../src/schema/export/index.js';
import { grpcurlPath, has } from '../../../support/tools.js';
import { OrderService, orderService } from './order-service.js';

const run = promisify(execFile);

describe.skipIf(!has('grpcurl'))('wirekit gRPC server ← grpcurl', () => {
  let server: RpcServer;
  let dir: string;

  beforeAll(async () => {
    server = await createRpcServer({ services: [orderService()] });
    dir = mkdtempSync(join(tmpdir(), 's42-rpc-server-grpcurl-'));
    writeFileSync(join(dir, 'orders.proto'), toProto(OrderService));
  });

  afterAll(async () => {
    await server?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  async function grpcurl(data: string, method: string) {
    const args = [
      '-plaintext',
      '-import-path',
      dir,
      '-import-path',
      '/usr/include',
      '-proto',
      'orders.proto',
    ];
    try {
      const { stdout } = await run(grpcurlPath, [...args, '-d', data, `127.0.0.1:${server.port}`, method], {
        timeout: 20_000,
      });
      return { ok: true, out: stdout };
    } catch (error) {
      const failed = error as { stdout?: string; stderr?: string };
      return { ok: false, out: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
    }
  }

  test('a unary call in ProtoJSON, an int64 above 2^53 exact', async () => {
    const answer = await grpcurl('{"id": "9007199254740993"}', 'orders.v1.OrderService/GetOrder');
    expect(answer.ok).toBe(true);
    expect(JSON.parse(answer.out)).toEqual({
      id: '9007199254740993',
      placedAt: '2026-12-07T08:00:00.123Z',
      payload: 'AAEC+v8=',
      total: '12345678901234567890.25',
      quantity: 3,
    });
  }, 30_000);

  test('a server stream, an error and an unknown method', async () => {
    const stream = await grpcurl('{"id": "2"}', 'orders.v1.OrderService/WatchOrders');
    expect(stream.ok).toBe(true);
    expect(stream.out.match(/"id": "\d+"/g)).toEqual([
      '"id": "9007199254740993"',
      '"id": "9007199254740994"',
    ]);

    const failed = await grpcurl('{"id": "1", "failWith": "wirekit"}', 'orders.v1.OrderService/GetOrder');
    expect(failed.ok).toBe(false);
    expect(failed.out).toContain('Code: NotFound');
    expect(failed.out).toContain('Message: no order: 42');

    // A method the .proto declares but this server does not serve: the unknown-method answer.
    writeFileSync(
      join(dir, 'orders.proto'),
      toProto(OrderService).replace(
        /(service OrderService \{)/,
        '$1\n  rpc Missing(.orders.v1.GetOrder) returns (Order);',
      ),
    );
    const missing = await grpcurl('{}', 'orders.v1.OrderService/Missing');
    expect(missing.ok).toBe(false);
    expect(missing.out).toContain('Code: Unimplemented');
  }, 60_000);
});
