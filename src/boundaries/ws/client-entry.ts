/**
 * The WebSocket client alone, for a browser page or a Node service that does not run Fastify: no
 * Node module and no format it is not handed (`wirekit-ts/msgpack`'s `msgpackFormat`, …).
 */

export type { FormatEntry } from '../../codecs/core/format-entry.js';
export {
  createSocketClient,
  type ReconnectOptions,
  type SocketClient,
  type SocketClientEvent,
  type SocketClientOptions,
  type SocketClientStats,
  type WebSocketConstructor,
  type WebSocketLike,
} from './client.js';
export { closeCodes, type SocketFormat, socketFormats } from './frames.js';
