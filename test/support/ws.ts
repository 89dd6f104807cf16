/**
 * What the WebSocket tests share: a handler that echoes every message, the ws:// base of an app
 * listening on a free loopback port, and a bare server that is no wirekit server.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { type WebSocket, WebSocketServer } from 'ws';
import type { SocketConnection } from '../../src/boundaries/ws/index.js';

/** Sends every message back as it came. */
export async function echo<T>(connection: SocketConnection<T, T>): Promise<void> {
  for await (const message of connection.messages) connection.send(message);
}

/** Starts `app` on 127.0.0.1 (`port` 0: a free one) and returns its `ws://host:port` base. */
export async function listenSockets(app: FastifyInstance, port = 0): Promise<string> {
  return (await app.listen({ port, host: '127.0.0.1' })).replace(/^http/, 'ws');
}

/**
 * A bare `ws` server on a free loopback port that is no wirekit server: it selects what
 * `handleProtocols` returns and does what `onConnection` does, for the client's hostile-server tests.
 */
export async function rawSocketServer(
  handleProtocols: (offered: Set<string>) => string | false,
  onConnection: (socket: WebSocket) => void,
): Promise<{ url: string; upgrades: () => number; close: () => Promise<void> }> {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1', handleProtocols });
  let upgrades = 0;
  server.on('connection', (socket) => {
    upgrades++;
    onConnection(socket);
  });
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    upgrades: () => upgrades,
    close: async () => {
      // ws's close waits for its clients; a hostile server's may never leave, so cut them.
      for (const client of server.clients) client.terminate();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
