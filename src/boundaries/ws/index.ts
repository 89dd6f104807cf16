/** The WebSocket boundary: negotiated wire formats per connection (server half; see server.ts). */
export {
  closeCodes,
  type SocketConnection,
  type SocketFormat,
  type SocketPluginOptions,
  type SocketRoute,
  socketFormats,
  wirekitSockets,
} from './server.js';
