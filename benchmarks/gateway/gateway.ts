/**
 * A bench:gateway gateway process (forked by run-case.ts, one per case): starts the hop it is told
 * to in front of the backend's port, then measures itself. `mark` answers the CPU time this
 * process spent since the previous mark (all its threads: user + system from process.cpuUsage),
 * which the main process turns into the hop's CPU per call.
 */
import { startGrpcHop } from './grpc-hop.js';
import { startGrpcJsHop } from './grpcjs-hop.js';
import { startJsonHop } from './json-hop.js';
import type { GatewayCommand, GatewayReply, Hop } from './protocol.js';
import type { RunningHop } from './running-hop.js';

const starters: Readonly<Record<Hop, (backendPort: number, connections: number) => Promise<RunningHop>>> = {
  'json-grpc': (port) => startGrpcHop(port),
  'json-grpc-identity': (port) => startGrpcHop(port, 'identity'),
  'json-grpcjs': startGrpcJsHop,
  'json-json': startJsonHop,
};

const send = (reply: GatewayReply) => process.send?.(reply);

let hop: RunningHop | undefined;
let markedCpu = process.cpuUsage();
let markedWall = performance.now();

async function handle(command: GatewayCommand): Promise<void> {
  if (command.type === 'start') {
    hop = await starters[command.hop](command.backendPort, command.connections);
    send({ type: 'ready', port: hop.port });
  } else {
    const cpu = process.cpuUsage(markedCpu);
    const now = performance.now();
    send({ type: 'window', cpuUs: cpu.user + cpu.system, wallMs: now - markedWall });
    markedCpu = process.cpuUsage();
    markedWall = now;
  }
}

process.on('message', (command: GatewayCommand) => {
  handle(command).catch((error: unknown) => {
    send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  });
});
process.once('SIGTERM', () => {
  void (hop?.close() ?? Promise.resolve()).finally(() => process.exit(0));
});
