/**
 * A bench:rpc server process (forked by run-case.ts, one per case): starts the stack it is told
 * to, then measures itself. `mark` answers the CPU time this process spent since the previous mark
 * (all its threads: user + system from process.cpuUsage), which the main process turns into CPU
 * per call; `serialize` times the stack's serializer alone on one reply, in CPU time, in this same
 * process after the load, so that the protocol's share of the CPU per call can be read off.
 */
import type { ServerCommand, ServerReply, StackKind } from './protocol.js';
import { startConnectEs } from './stacks/connect-es.js';
import { startFastifyJson } from './stacks/fastify-json.js';
import { startGrpcJsStatic, startGrpcJsWirekit } from './stacks/grpcjs.js';
import { startHttp2Floor } from './stacks/http2-floor.js';
import type { RunningStack, StackOptions } from './stacks/stack.js';
import { startWirekitServer } from './stacks/wirekit-server.js';

const starters: Readonly<Record<StackKind, (options: StackOptions) => Promise<RunningStack>>> = {
  'grpcjs-static': startGrpcJsStatic,
  'grpcjs-wirekit': startGrpcJsWirekit,
  'connect-es': startConnectEs,
  'fastify-json': startFastifyJson,
  wirekit: startWirekitServer,
  'http2-floor': startHttp2Floor,
};

const send = (reply: ServerReply) => process.send?.(reply);

let stack: RunningStack | undefined;
let markedCpu = process.cpuUsage();
let markedWall = performance.now();

/**
 * The serializer's CPU time per reply, not its wall time: on a shared machine a round's wall time
 * includes the time other processes held the core, which the CPU per call it is set beside does not.
 * Rounds run in batches that double (process.cpuUsage is a system call, read once a batch, so it
 * does not weigh on a reply of a microsecond) until `milliseconds` of CPU are spent, at least five
 * rounds; the answer is their mean.
 */
function timeSerializer(running: RunningStack, command: Extract<ServerCommand, { type: 'serialize' }>) {
  const cpuOf = (since?: NodeJS.CpuUsage) => {
    const used = process.cpuUsage(since);
    return used.user + used.system;
  };
  running.serializeOnce(command.workload);
  const started = process.cpuUsage();
  let rounds = 0;
  for (let batch = 1; rounds < 5 || cpuOf(started) < command.milliseconds * 1000; batch *= 2) {
    for (let i = 0; i < batch; i++) running.serializeOnce(command.workload);
    rounds += batch;
  }
  return { us: cpuOf(started) / rounds, rounds };
}

async function handle(command: ServerCommand): Promise<void> {
  if (command.type === 'start') {
    stack = await starters[command.stack]({ codec: command.codec, users: command.users });
    send({ type: 'ready', port: stack.port });
  } else if (command.type === 'mark') {
    const cpu = process.cpuUsage(markedCpu);
    const now = performance.now();
    send({ type: 'window', cpuUs: cpu.user + cpu.system, wallMs: now - markedWall });
    markedCpu = process.cpuUsage();
    markedWall = now;
  } else {
    if (stack === undefined) throw new Error('serialize before start');
    send({ type: 'serialized', ...timeSerializer(stack, command) });
  }
}

process.on('message', (command: ServerCommand) => {
  handle(command).catch((error: unknown) => {
    send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  });
});
process.once('SIGTERM', () => {
  void (stack?.close() ?? Promise.resolve()).finally(() => process.exit(0));
});
