/**
 * The HTTP boundary: a Fastify plugin that serves one route in every format by content
 * negotiation, and a fetch client that speaks to it.
 */

export { arrowIpcStream, recordBatches } from '../../codecs/arrow/batch-stream.js';
export { type CallOptions, type ClientOptions, createClient, type WirekitClient } from './client.js';
export { HttpConnectionError } from './connection-error.js';
export {
  type ReplyRoute,
  type RouteParts,
  type StreamRoute,
  type TypedRequest,
  wirekitRoute,
} from './define-route.js';
export {
  type EndpointInput,
  type EndpointOutput,
  type EndpointSpec,
  endpoint,
} from './endpoint.js';
export type { WirekitRouteSpec } from './route.js';
export { type WirekitCompressionOptions, type WirekitPluginOptions, wirekit } from './server.js';
export type { RowSource } from './stream-reply.js';
export { HttpError, HttpReplyError, HttpResponseError } from './wire-error.js';
