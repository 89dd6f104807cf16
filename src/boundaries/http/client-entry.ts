/**
 * The client alone, for code that calls wirekit services without running Fastify. It is handed the
 * formats it speaks (each from its own entry point, `wirekit-ts/json`, ...), or formats loaded on
 * first use (`lazyFormat`), for a page that should fetch a format's code only when a call needs it.
 */

export type { FormatEntry, LazyFormatEntry } from '../../codecs/core/format-entry.js';
export { lazyFormat, lazyFormats } from '../../codecs/load-codec.js';
export { type CallOptions, type ClientOptions, createClient, type WirekitClient } from './client.js';
export { HttpConnectionError } from './connection-error.js';
export {
  type EndpointInput,
  type EndpointOutput,
  type EndpointSpec,
  endpoint,
} from './endpoint.js';
export { HttpError, HttpResponseError } from './wire-error.js';
