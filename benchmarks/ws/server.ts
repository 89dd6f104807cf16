/**
 * The server of the WebSocket benchmark, a process of its own (forked by main.ts with an IPC
 * channel) so that what it measures of itself — CPU time, event-loop delay — is the server's alone:
 * the clients run in another process. It serves the tick on `/ws` through the wirekit plugin (every
 * format) and on `/native` as JSON.stringify text through @fastify/websocket alone, the library
 * beneath, so the two differ only by wirekit. One tick is encoded per broadcast and sent to every
 * open connection, at the rate the runner asks for.
 *
 *   node build/benchmarks/ws/server.js   (forked by main.ts; replies `ready` with its port)
 */
// The '/native' route's `websocket: true` option is typed by @fastify/websocket's augmentation.
import type {} from '@fastify/websocket';
import Fastify from 'fastify';
import { wirekitSockets } from 'wirekit-ts/ws';
import type { WebSocket } from 'ws';
import { Tick, tickSource } from '../../examples/ws/tick.js';
import { loopDelayHistogram } from '../loop-cost.js';
import type { ServerCommand, ServerReply } from './protocol.js';

const send = (reply: ServerReply) => process.send?.(reply);

const app = Fastify({ logger: false });
await app.register(wirekitSockets);

// The bench's clients send nothing; the iterable is drained so that a stray frame is not held.
const route = app.wirekitSocket({
  url: '/ws',
  receive: Tick,
  send: Tick,
  handler: async (connection) => {
    for await (const _ of connection.messages);
  },
});

const natives = new Set<WebSocket>();
let nativeSent = 0;
app.get('/native', { websocket: true }, (socket) => {
  natives.add(socket);
  socket.on('close', () => natives.delete(socket));
});

/** Sends one tick to every open connection of both routes (a case uses one route only). */
function broadcast(tick: Tick): void {
  if (route.stats.open > 0) route.broadcast(tick);
  if (natives.size === 0) return;
  const text = JSON.stringify(tick);
  for (const socket of natives) socket.send(text);
  nativeSent += natives.size;
}

const next = tickSource();
let pacer: NodeJS.Timeout | undefined;
let missedTicks = 0;

/**
 * Broadcasts `perClient` ticks a second from a timer: every 1000/perClient ms, or every 1 ms with
 * as many ticks as are due. A loop that comes back late sends what it owes, up to 50 ms of it;
 * older ticks are counted as missed, so a server that cannot keep up shows it.
 */
function setRate(perClient: number): void {
  clearInterval(pacer);
  if (perClient <= 0) return;
  const started = performance.now();
  const maxBurst = Math.max(1, Math.ceil(perClient * 0.05));
  let done = 0;
  pacer = setInterval(
    () => {
      const due = Math.floor(((performance.now() - started) * perClient) / 1000);
      const burst = Math.min(due - done, maxBurst);
      missedTicks += due - done - burst;
      done = due;
      for (let i = 0; i < burst; i++) broadcast(next());
    },
    Math.max(1, Math.floor(1000 / perClient)),
  );
}

const histogram = loopDelayHistogram();
histogram.enable();
let mark = { wall: performance.now(), cpu: process.cpuUsage(), sent: 0, dropped: 0, missedTicks: 0 };

function window(): ServerReply {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const sent = route.stats.sent + nativeSent;
  const dropped = route.stats.dropped;
  const reply: ServerReply = {
    type: 'window',
    wallMs: wall - mark.wall,
    cpuUs: cpu.user - mark.cpu.user + (cpu.system - mark.cpu.system),
    sent: sent - mark.sent,
    dropped: dropped - mark.dropped,
    missedTicks: missedTicks - mark.missedTicks,
    open: route.stats.open + natives.size,
    loopP99Ms: histogram.percentile(99) / 1e6,
    loopMaxMs: histogram.max / 1e6,
  };
  histogram.reset();
  mark = { wall, cpu, sent, dropped, missedTicks };
  return reply;
}

process.on('message', (command: ServerCommand) => {
  if (command.type === 'rate') {
    setRate(command.perClient);
    send({ type: 'rate', perClient: command.perClient });
  } else send(window());
});

const stop = () => {
  clearInterval(pacer);
  void app.close().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('disconnect', stop);

const address = await app.listen({ host: '127.0.0.1', port: 0 });
send({ type: 'ready', port: Number(new URL(address).port) });
