/**
 * bench:gateway end to end on a tiny run (from build/, made by `pretest`): every hop answers every
 * call of both workloads with the expected values, their rows carry every figure and the table and
 * the ratio line are printed. No timing is asserted: the machine is shared.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { hops } from './cases.js';
import type { Row } from './report.js';
import { gatewayWorkloads } from './service.js';

const run = promisify(execFile);
const main = fileURLToPath(new URL('../../build/benchmarks/gateway/main.js', import.meta.url));

describe('npm run bench:gateway', () => {
  test('a tiny run: every hop answers every call with the expected values', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wirekit-gateway-bench-'));
    try {
      const json = join(dir, 'results.json');
      const args = ['--users', '20', '--seconds', '0.3', '--warmup-seconds', '0.1', '--repetitions', '1'];
      const { stdout } = await run(process.execPath, [main, ...args, '--json', json], { timeout: 150_000 });
      const results = JSON.parse(readFileSync(json, 'utf8')) as { rows: Row[]; failures: unknown[] };
      expect(results.failures).toEqual([]);
      expect(results.rows).toHaveLength(hops.length * gatewayWorkloads.length);
      for (const row of results.rows) {
        const name = `${row.workload} ${row.hop}`;
        expect(row.calls, name).toBeGreaterThan(0);
        expect(row.verified, `${name}: ${row.firstError}`).toBe(row.calls);
        expect(row.errors, name).toBe(0);
        expect(row.gatewayCpuUsPerCall, name).toBeGreaterThan(0);
        expect(row.backendCpuUsPerCall, name).toBeGreaterThan(0);
      }
      // A row per hop with every column filled, and checked equal to calls.
      const rowPattern = (label: string, ratio: string) =>
        new RegExp(
          `^\\| ${label} \\| [\\d,]+ \\|(?: [\\d,.]+ \\|){3} [\\d,.]+ \\| ${ratio} \\|(?: [\\d,.]+ \\|){2} (\\d[\\d,]*) / \\1 \\|$`,
          'm',
        );
      expect(stdout).toContain('**One user by id (GET /v1/users/{id} → GetUser)**');
      expect(stdout).toContain('**The users as one reply (GET /v1/users?count=N → ListUsers)**');
      expect(stdout).toMatch(
        rowPattern('JSON → gRPC \\(wirekit rpcGateway \\+ RPC client, proto\\)', '[\\d.]+×'),
      );
      expect(stdout).toMatch(
        rowPattern('JSON → gRPC \\(wirekit rpcGateway \\+ grpc-js client, proto\\)', '[\\d.]+×'),
      );
      expect(stdout).toMatch(
        rowPattern("JSON → gRPC, replies not compressed \\(acceptCompression: 'identity'\\)", '[\\d.]+×'),
      );
      expect(stdout).toMatch(rowPattern('JSON → JSON \\(Fastify route \\+ undici Pool\\)', '1\\.00×'));
      expect(stdout).toMatch(
        /^small: JSON → gRPC \(wirekit rpcGateway \+ RPC client, proto\) spends [\d.]+× the gateway CPU/m,
      );
      expect(stdout).toMatch(
        /^list: JSON → gRPC \(wirekit rpcGateway \+ grpc-js client, proto\) spends [\d.]+×/m,
      );
      expect(stdout).toMatch(/^node \S*main\.js --users 20 /m);
      expect(stdout).toMatch(/Node v\d+\.\d+\.\d+, \d+ CPUs .*load [\d. ]+ → [\d. ]+$/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
