/**
 * bench:gateway's load generator, a process of its own (forked by run-case.ts): `connect` opens a
 * pool of HTTP/1.1 keep-alive connections to the gateway (undici's Pool, one request in flight on
 * each) and prepares the REST paths; each `run` keeps every connection busy for the seconds given
 * and answers what happened: calls, replies checked against the expected values (bench:rpc's
 * check.ts), latency percentiles, and this process's own CPU, which shows whether it had room.
 *
 * The replies are read as each hop writes them: JSON.parse for the hand-written hop; rpcGateway's
 * ProtoJSON decoded by the schema (Dates as timestamps, the enum by name), so that both
 * are compared with the same values.
 */
import { Pool } from 'undici';
import { createProtoJsonCodec } from 'wirekit-ts/protobuf';
import { ReplyCheck } from '../rpc/check.js';
import type { Window } from '../rpc/protocol.js';
import { benchUsers, smallIds } from '../rpc/service.js';
import type { LoadCommand, LoadReply, LoadTarget } from './protocol.js';
import { GatewayUserService, restPathOf } from './service.js';

const send = (reply: LoadReply) => process.send?.(reply);

interface Plan {
  /** The requests, in turn: a key naming what each asks for, and its path. */
  readonly requests: readonly { readonly key: string; readonly path: string }[];
  readonly check: ReplyCheck;
}

function planOf(target: LoadTarget): Plan {
  const users = benchUsers(target.users);
  const method = GatewayUserService.methods[target.workload === 'small' ? 'GetUser' : 'ListUsers'];
  const protoJson = createProtoJsonCodec({ schema: method.output });
  const decode =
    target.hop === 'json-json'
      ? (bytes: Buffer) => JSON.parse(bytes.toString('utf8')) as unknown
      : (bytes: Buffer) => protoJson.decode(bytes);
  if (target.workload === 'small') {
    const byId = new Map(users.map((user) => [String(user.id), user]));
    return {
      requests: users
        .slice(0, smallIds)
        .map((user) => ({ key: String(user.id), path: restPathOf.small(user.id) })),
      check: new ReplyCheck(decode, (key) => byId.get(key)),
    };
  }
  return {
    requests: [{ key: 'all', path: restPathOf.list(users.length) }],
    check: new ReplyCheck(decode, () => ({ users })),
  };
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number;
}

async function runWindow(pool: Pool, plan: Plan, concurrency: number, seconds: number): Promise<Window> {
  const latencies: number[] = [];
  let calls = 0;
  let verified = 0;
  let errors = 0;
  let bytes = 0;
  let firstError: string | undefined;
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const until = started + seconds * 1000;
  const worker = async () => {
    while (performance.now() < until) {
      const request = plan.requests[next++ % plan.requests.length] as Plan['requests'][number];
      const sent = performance.now();
      calls++;
      try {
        const response = await pool.request({ path: request.path, method: 'GET' });
        const reply = Buffer.from(await response.body.arrayBuffer());
        latencies.push(performance.now() - sent);
        bytes += reply.length;
        if (response.statusCode === 200 && plan.check.matches(request.key, reply)) verified++;
        else {
          errors++;
          firstError ??= `${request.path}: ${response.statusCode} ${reply.toString('utf8', 0, 200)}`;
        }
      } catch (error) {
        errors++;
        firstError ??= `${request.path}: ${(error as Error).message}`;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  latencies.sort((a, b) => a - b);
  return {
    calls,
    verified,
    errors,
    firstError,
    messages: calls,
    bytes,
    wallMs,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    cpuUs: used.user + used.system,
  };
}

let connected: { pool: Pool; plan: Plan; target: LoadTarget } | undefined;

async function handle(command: LoadCommand): Promise<void> {
  if (command.type === 'connect') {
    const { target } = command;
    const pool = new Pool(`http://127.0.0.1:${target.port}`, {
      connections: target.concurrency,
      pipelining: 1,
    });
    connected = { pool, plan: planOf(target), target };
    send({ type: 'connected' });
  } else {
    if (connected === undefined) throw new Error('run before connect');
    const { pool, plan, target } = connected;
    send({ type: 'ran', ...(await runWindow(pool, plan, target.concurrency, command.seconds)) });
  }
}

process.on('message', (command: LoadCommand) => {
  handle(command).catch((error: unknown) => {
    send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  });
});
process.once('SIGTERM', () => {
  void (connected?.pool.close() ?? Promise.resolve()).finally(() => process.exit(0));
});
