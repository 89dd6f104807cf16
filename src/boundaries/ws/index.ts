/**
 * The WebSocket boundary: one wire format per connection, negotiated with `Sec-WebSocket-Protocol`.
 * The server half (a Fastify plugin over @fastify/websocket) is here; the client, which bundles
 * for a browser, is `wirekit-ts/ws/client`.
 */
export type { DebugFrameOptions, FrameLogEntry } from './debug-frames.js';
export { closeCodes, frameKindOf, isSocketFormat, type SocketFormat, socketFormats } from './frames.js';
export {
  type SocketConnection,
  type SocketPluginOptions,
  type SocketRoute,
  type SocketRouteHandle,
  type SocketRouteStats,
  wirekitSockets,
} from './server.js';
