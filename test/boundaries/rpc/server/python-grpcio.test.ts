/**
 * wirekit's gRPC server called by Python's grpcio, with stubs grpc_tools.protoc generates from
 * the `.proto` toProto writes (test/support/peers/grpc_orders_client.py): every method kind, the
 * values that need care as protobuf's own json_format reads them, and errors as status codes.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRpcServer, type RpcServer } from '../../../../src/boundaries/rpc/server/index.js';
import { toProto } from '../../../../src/schema/export/index.js';
import { has, venvPython } from '../../../support/tools.js';
import { OrderService, orderService } from './order-service.js';

const peer = new URL('../../../support/peers/grpc_orders_client.py', import.meta.url).pathname;
const usable = has('venv:grpc_tools');

describe.skipIf(!usable)('wirekit gRPC server ← Python grpcio', () => {
  let server: RpcServer;
  let dir: string;

  beforeAll(async () => {
    server = await createRpcServer({ services: [orderService()] });
    dir = mkdtempSync(join(tmpdir(), 's42-rpc-server-python-'));
  });

  afterAll(async () => {
    await server?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  test('unary, the three streams and errors', async () => {
    const protoPath = join(dir, 'orders.proto');
    writeFileSync(protoPath, toProto(OrderService));
    // Asynchronous: the server runs in this process and must keep serving while Python calls it.
    const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(venvPython, [peer, protoPath, `127.0.0.1:${server.port}`]);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
      });
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const seen = JSON.parse(run.stdout);
    expect(seen.unary).toEqual({
      id: '9007199254740993',
      placedAt: '2026-12-07T08:00:00.123Z',
      payload: 'AAEC+v8=',
      total: '12345678901234567890.25',
      quantity: 3,
    });
    expect(seen.unaryHasNote).toBe(false);
    expect(seen.serverStream).toEqual(['9007199254740993', '9007199254740994', '9007199254740995']);
    expect(seen.clientStream).toEqual({ count: 3, ids: ['1', '9007199254740993', '3'] });
    expect(seen.bidi).toEqual(['echo a', 'echo (none)', 'echo c']);
    expect(seen.error).toEqual({ code: 'NOT_FOUND', details: 'no order: 42' });
    expect(seen.streamError).toEqual({ code: 'NOT_FOUND', details: 'gone' });
  }, 60_000);
});
