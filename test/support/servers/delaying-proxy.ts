/**
 * A TCP proxy on a free port of 127.0.0.1 that holds each connection for a while before it opens
 * the way to the real server: the client's connect succeeds at once, but nothing it sends reaches
 * the server, and nothing comes back, until the delay has passed (or ever, with `Infinity`). This
 * is how the tests make connecting slow, honestly, for a real client: a handshake or ready check
 * that takes that long, as over a distant or loaded network.
 */
import { connect, createServer, type Socket } from 'node:net';

export interface DelayingProxy {
  readonly port: number;
  /** redis://127.0.0.1:PORT, for a Redis behind it. */
  readonly url: string;
  close(): Promise<void>;
}

export async function startDelayingProxy(targetPort: number, delayMs: number): Promise<DelayingProxy> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = createServer((client) => {
    track(client);
    // Paused, what the client sends waits in the socket until the way is open.
    client.pause();
    if (!Number.isFinite(delayMs)) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      const upstream = connect(targetPort, '127.0.0.1');
      track(upstream);
      upstream.on('close', () => client.destroy());
      client.on('close', () => upstream.destroy());
      client.pipe(upstream).pipe(client);
      client.resume();
    }, delayMs);
    timers.add(timer);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no TCP port');
  return {
    port: address.port,
    url: `redis://127.0.0.1:${address.port}`,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
