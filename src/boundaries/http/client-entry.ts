/** The client alone, for code that calls wirekit services without running Fastify. */
export { type CallOptions, type ClientOptions, createClient, type WirekitClient } from './client.js';
export { HttpError, HttpResponseError } from './wire-error.js';
