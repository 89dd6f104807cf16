/**
 * The clients of the WebSocket benchmark: raw `ws` sockets in one process of their own (forked by
 * main.ts), so the server's process holds nothing but the server. They count messages and payload
 * bytes and decode nothing: the benchmark measures the server, and the cheaper each client is, the
 * later the client process becomes the limit on a small machine. Their own CPU time is reported
 * too, so a run can tell which side ran out first.
 *
 *   node build/benchmarks/ws/clients.js   (forked by main.ts)
 */
import WebSocket from 'ws';
import type { ClientCommand, ClientReply } from './protocol.js';

const send = (reply: ClientReply) => process.send?.(reply);

const sockets: WebSocket[] = [];
let received = 0;
let bytes = 0;
let closed = 0;

function open(url: string, protocol: string | undefined): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    // Compression off (the server does not offer it either) and UTF-8 checks off: the client's
    // work per message is a frame parse and two additions.
    const socket = new WebSocket(url, protocol === undefined ? [] : [protocol], {
      perMessageDeflate: false,
      skipUTF8Validation: true,
    });
    socket.once('open', () => {
      socket.on('error', () => {});
      resolve(socket);
    });
    socket.once('error', reject);
    socket.on('message', (data: Buffer) => {
      received++;
      bytes += data.length;
    });
    socket.on('close', () => closed++);
  });
}

/** Opens `count` sockets, 100 at a time (a thousand at once overflows the server's accept backlog). */
async function connect(url: string, protocol: string | undefined, count: number): Promise<void> {
  while (sockets.length < count) {
    const batch = Math.min(100, count - sockets.length);
    sockets.push(...(await Promise.all(Array.from({ length: batch }, () => open(url, protocol)))));
  }
}

let mark = { cpu: process.cpuUsage(), received: 0, bytes: 0 };

process.on('message', (command: ClientCommand) => {
  if (command.type === 'connect') {
    connect(command.url, command.protocol, command.count).then(
      () => send({ type: 'connected', open: sockets.length, protocol: sockets[0]?.protocol ?? '' }),
      (error: Error) =>
        send({ type: 'failed', message: `${error.message} (after ${sockets.length} sockets)` }),
    );
    return;
  }
  const cpu = process.cpuUsage();
  send({
    type: 'window',
    received: received - mark.received,
    bytes: bytes - mark.bytes,
    closed,
    cpuUs: cpu.user - mark.cpu.user + (cpu.system - mark.cpu.system),
  });
  mark = { cpu, received, bytes };
});

process.on('disconnect', () => {
  for (const socket of sockets) socket.terminate();
  process.exit(0);
});
