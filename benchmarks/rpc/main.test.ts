/**
 * bench:rpc end to end on a tiny run (from build/, made by `pretest`): every case answers every
 * call with the expected values, its rows have the table's shape, and only wirekit's own server may
 * be left out (when `wirekit-ts/rpc/server` is not built yet), with the reason. Then the check the
 * client relies on: a reply is compared with the expected values, not counted.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { entries } from './cases.js';
import { ReplyCheck } from './check.js';
import type { Row } from './report.js';
import { benchUsers, messageCodecs } from './service.js';

const run = promisify(execFile);
const main = fileURLToPath(new URL('../../build/benchmarks/rpc/main.js', import.meta.url));

describe('npm run bench:rpc', () => {
  test('a tiny run: every case answers every call with the expected values', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wirekit-rpc-bench-'));
    try {
      const json = join(dir, 'results.json');
      const args = ['--users', '20', '--seconds', '0.2', '--warmup-seconds', '0.1', '--repetitions', '1'];
      const { stdout } = await run(process.execPath, [main, ...args, '--json', json], { timeout: 200_000 });
      const results = JSON.parse(readFileSync(json, 'utf8')) as {
        rows: Row[];
        leftOut: { id: string; reason: string }[];
        failures: unknown[];
      };
      expect(results.failures).toEqual([]);
      for (const { id, reason } of results.leftOut) {
        expect(entries.find((entry) => entry.id === id)?.stack).toBe('wirekit');
        expect(reason).toMatch(/wirekit-ts\/rpc\/server/);
        expect(stdout).toContain(`(${id}): ${reason}`);
      }
      const ran = entries.filter((entry) => !results.leftOut.some((out) => out.id === entry.id));
      expect(ran.map((entry) => entry.id)).toEqual(
        expect.arrayContaining(['grpcjs-static', 'connect-es-grpc']),
      );
      for (const entry of ran) {
        for (const workload of entry.workloads) {
          const row = results.rows.find((r) => r.id === entry.id && r.workload === workload);
          expect(row, `${workload} ${entry.id}`).toBeDefined();
          if (row === undefined) continue;
          expect(row.calls, `${workload} ${entry.id}`).toBeGreaterThan(0);
          expect(row.verified, `${workload} ${entry.id}: ${row.firstError}`).toBe(row.calls);
          expect(row.errors).toBe(0);
          expect(row.serverCpuUsPerCall).toBeGreaterThan(0);
          expect(row.serializeUsPerMessage).toBeGreaterThan(0);
        }
      }
      expect(results.rows).toHaveLength(ran.reduce((count, entry) => count + entry.workloads.length, 0));
      // One table per workload, a row per case with every column filled.
      const rowPattern = (label: string, rest: string) =>
        new RegExp(
          `^\\| ${label} \\| ${rest} \\| [\\d,]+ \\| [\\d,]+ \\| [\\d.]+× \\| (?:[\\d.]+×|–) \\|(?: [\\d,.]+ \\|){5} (\\d[\\d,]*) / \\1 \\|$`,
          'm',
        );
      expect(stdout).toContain('**Small unary call (GetUser: one user by id)**');
      expect(stdout).toContain('**The users as a server stream, one message each (StreamUsers)**');
      expect(stdout).toMatch(rowPattern('grpc-js \\+ protobufjs static code', 'gRPC \\| proto'));
      expect(stdout).toMatch(rowPattern('Connect-ES \\+ protobuf-es', 'Connect \\| proto'));
      expect(stdout).toMatch(rowPattern('plain Fastify JSON \\(HTTP/1.1\\)', 'HTTP/1.1 POST \\| json'));
      expect(stdout).toMatch(rowPattern('wirekit codecs on grpc-js', 'gRPC \\| msgpack'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);

  test('a reply is checked against the expected values, whatever its bytes', () => {
    const users = benchUsers(3);
    const codec = messageCodecs('proto').userList;
    const check = new ReplyCheck(
      (bytes) => codec.decode(bytes),
      () => ({ users }),
    );
    const right = Buffer.from(codec.encode({ users }));
    expect(check.matches('all', right)).toBe(true);
    // Another user's score: the same length, other values.
    const changed = users.map((user, i) => (i === 1 ? { ...user, score: user.score / 2 } : user));
    expect(check.matches('all', Buffer.from(codec.encode({ users: changed })))).toBe(false);
    expect(check.matches('all', right.subarray(0, right.length - 3))).toBe(false);
    // Other bytes holding the same values pass (another format here): a reply is decoded, not compared.
    const msgpack = messageCodecs('msgpack').userList;
    const viaMsgpack = new ReplyCheck(
      (bytes) => msgpack.decode(bytes),
      () => ({ users }),
    );
    expect(viaMsgpack.matches('all', Buffer.from(msgpack.encode({ users })))).toBe(true);
    expect(viaMsgpack.matches('all', Buffer.from(msgpack.encode({ users: users.slice(0, 2) })))).toBe(false);
  });
});
