/**
 * The declared inspection surface of the WebSocket boundary: the formats a connection can speak,
 * by which `wirekit inspect` reads a subprotocol name as a format. index.ts also loads the server
 * half and so @fastify/websocket, an optional peer the CLI must not need; this entry loads neither.
 * Tools outside the boundaries import this entry (or index.ts), never the boundary's other files.
 */
export { isSocketFormat, socketFormats } from './frames.js';
