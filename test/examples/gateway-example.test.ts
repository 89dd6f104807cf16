/**
 * The gateway example runs: the internal gRPC service and the public JSON gateway start from one
 * schema, and REST calls cross the gRPC hop (a read with int64 as a string, a query whose reply is
 * one field, a create, a custom verb, and NOT_FOUND / FAILED_PRECONDITION / a bad path value as
 * 404 / 400 / 400). Runs the same entry point as `npm run example:gateway -- --demo`.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { freePorts } from '../support/servers/free-port.js';

const run = promisify(execFile);

test('npm run example:gateway -- --demo', async () => {
  const [port, internalPort] = await freePorts(2);
  const env = { ...process.env, PORT: String(port), INTERNAL_PORT: String(internalPort) };
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'examples/gateway/main.ts', '--demo'], {
    env,
    timeout: 60_000,
  });
  expect(stdout).toContain(`internal gRPC service (Protocol Buffers) on 127.0.0.1:${internalPort}`);
  const answers = stdout.split('\n').filter((line) => /^\d{3} /.test(line));
  expect(answers).toEqual([
    '200 GET /v1/orders/2',
    '200 GET /v1/orders?paid=false&limit=10',
    '200 POST /v1/orders',
    '200 POST /v1/orders/2:pay',
    '400 POST /v1/orders/2:pay',
    '404 GET /v1/orders/99',
    '400 GET /v1/orders/abc',
  ]);
  expect(stdout).toContain('"id":"2","customer":"Grace","totalCents":"9007199254740993"');
  expect(stdout).toContain('"grpcStatus":"NOT_FOUND","grpcCode":5');
  expect(stdout).toContain('"path":"id"');
}, 90_000);
