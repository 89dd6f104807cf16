/**
 * bench:rpc's load generator, a process of its own (forked by run-case.ts): `connect` opens one
 * connection to the server and prepares the requests; each `run` keeps `concurrency` calls in flight
 * for the seconds given and answers what happened: calls, replies checked against the expected
 * values (check.ts), latency percentiles, and this process's own CPU, which shows whether the
 * client had room to spare.
 */

import { ReplyCheck } from './check.js';
import type { CallTarget, ClientCommand, ClientReply, Window } from './protocol.js';
import { type BenchUser, benchUsers, messageCodecs, methodOf, serviceName, smallIds } from './service.js';
import { openTransport, type Transport } from './transports.js';

const send = (reply: ClientReply) => process.send?.(reply);

interface Plan {
  readonly method: string;
  readonly streaming: boolean;
  /** The requests, in turn: a key naming what each asks for, and its bytes. */
  readonly requests: readonly { readonly key: string; readonly bytes: Uint8Array }[];
  readonly check: ReplyCheck;
}

function planOf(target: CallTarget): Plan {
  const users = benchUsers(target.users);
  const codecs = target.codec === 'json' ? undefined : messageCodecs(target.codec);
  const encode = (value: { id: number } | { count: number }, small: boolean): Uint8Array => {
    if (codecs === undefined) return Buffer.from(JSON.stringify(value));
    return small
      ? codecs.getUserRequest.encode(value as { id: number }).slice()
      : codecs.listUsersRequest.encode(value as { count: number }).slice();
  };
  const decodeWith =
    (codec: { decode(bytes: Uint8Array): unknown } | undefined) =>
    (bytes: Buffer): unknown =>
      codec === undefined ? JSON.parse(bytes.toString('utf8')) : codec.decode(bytes);
  const method = `${serviceName}/${methodOf[target.workload]}`;
  if (target.workload === 'small') {
    const byId = new Map(users.map((user) => [String(user.id), user]));
    return {
      method,
      streaming: false,
      requests: users
        .slice(0, smallIds)
        .map((user) => ({ key: String(user.id), bytes: encode({ id: user.id }, true) })),
      check: new ReplyCheck(decodeWith(codecs?.user), (key) => byId.get(key)),
    };
  }
  const request = [{ key: 'all', bytes: encode({ count: users.length }, false) }];
  if (target.workload === 'list') {
    return {
      method,
      streaming: false,
      requests: request,
      check: new ReplyCheck(decodeWith(codecs?.userList), () => ({ users })),
    };
  }
  return {
    method,
    streaming: true,
    requests: request,
    check: new ReplyCheck(decodeWith(codecs?.user), (key) => users[Number(key)] as BenchUser),
  };
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number;
}

async function runWindow(
  transport: Transport,
  plan: Plan,
  target: CallTarget,
  seconds: number,
): Promise<Window> {
  const latencies: number[] = [];
  let calls = 0;
  let verified = 0;
  let errors = 0;
  let messages = 0;
  let bytes = 0;
  let firstError: string | undefined;
  let next = 0;
  const expectedMessages = plan.streaming ? target.users : 1;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const until = started + seconds * 1000;
  const worker = async () => {
    while (performance.now() < until) {
      const request = plan.requests[next++ % plan.requests.length] as Plan['requests'][number];
      const sent = performance.now();
      calls++;
      try {
        const replies = await transport.call(plan.method, request.bytes, plan.streaming);
        latencies.push(performance.now() - sent);
        messages += replies.length;
        let right = replies.length === expectedMessages;
        for (let i = 0; i < replies.length; i++) {
          const reply = replies[i] as Buffer;
          bytes += reply.length;
          if (right && !plan.check.matches(plan.streaming ? String(i) : request.key, reply)) right = false;
        }
        if (right) verified++;
        else {
          errors++;
          firstError ??= `${replies.length} replies, not the ${expectedMessages} expected values`;
        }
      } catch (error) {
        errors++;
        firstError ??= (error as Error).message;
      }
    }
  };
  await Promise.all(Array.from({ length: target.concurrency }, worker));
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  latencies.sort((a, b) => a - b);
  return {
    calls,
    verified,
    errors,
    firstError,
    messages,
    bytes,
    wallMs,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    cpuUs: used.user + used.system,
  };
}

let connected: { transport: Transport; plan: Plan; target: CallTarget } | undefined;

async function handle(command: ClientCommand): Promise<void> {
  if (command.type === 'connect') {
    const { target } = command;
    connected = {
      transport: openTransport(target.port, target.protocol, target.codec, target.concurrency),
      plan: planOf(target),
      target,
    };
    send({ type: 'connected' });
  } else {
    if (connected === undefined) throw new Error('run before connect');
    send({
      type: 'ran',
      ...(await runWindow(connected.transport, connected.plan, connected.target, command.seconds)),
    });
  }
}

process.on('message', (command: ClientCommand) => {
  handle(command).catch((error: unknown) => {
    send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  });
});
process.once('SIGTERM', () => {
  void (connected?.transport.close() ?? Promise.resolve()).finally(() => process.exit(0));
});
