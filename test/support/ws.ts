/**
 * What the WebSocket tests share: a handler that echoes every message, and the ws:// base of an
 * app listening on a free loopback port.
 */
import type { FastifyInstance } from 'fastify';
import type { SocketConnection } from '../../src/boundaries/ws/index.js';

/** Sends every message back as it came. */
export async function echo<T>(connection: SocketConnection<T, T>): Promise<void> {
  for await (const message of connection.messages) connection.send(message);
}

/** Starts `app` on 127.0.0.1 (`port` 0: a free one) and returns its `ws://host:port` base. */
export async function listenSockets(app: FastifyInstance, port = 0): Promise<string> {
  return (await app.listen({ port, host: '127.0.0.1' })).replace(/^http/, 'ws');
}
