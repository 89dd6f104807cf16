/**
 * `wirekit-ts/rpc/web`: the typed RPC client in a browser, over Connect and gRPC-Web on the page's
 * `fetch` (browsers cannot speak gRPC's HTTP/2 trailers). It imports no Node module: a bundler
 * takes it as it is. Requests of a client or bidi stream are sent once their iterable ends (see
 * fetch-client.ts); replies stream as they arrive.
 */
import { createConnectProtocolTransport } from './connect-transport.js';
import { fetchHttpClient } from './fetch-client.js';
import { createGrpcWebProtocolTransport } from './grpc-web-transport.js';
import { protocolConfig, type RpcTransport, type TransportOptions } from './transport.js';
import { webGzip } from './web-gzip.js';

export { createRpcClient, type RpcCallOptions, type RpcClientOptions } from './client.js';
export type { RetryOptions } from './retry.js';
export { type RawErrorDetail, RpcError, type RpcFailureStatus } from './rpc-error.js';
export type { HeaderValues, RpcClientProtocol, RpcTransport, TransportOptions } from './transport.js';

export interface WebTransportOptions extends TransportOptions {
  /** The fetch to call (default: the page's): for credentials, a proxy, or a test. */
  readonly fetch?: typeof fetch;
}

export interface WebConnectTransportOptions extends WebTransportOptions {
  /** Call methods marked NO_SIDE_EFFECTS with GET, which the browser's cache may keep. */
  readonly useHttpGet?: boolean;
}

export interface WebGrpcWebTransportOptions extends WebTransportOptions {
  /** Send and read the body as base64 (`application/grpc-web-text`). */
  readonly text?: boolean;
}

const configOf = (options: WebTransportOptions) =>
  protocolConfig(options, fetchHttpClient(options.fetch ?? ((input, init) => fetch(input, init))), webGzip);

/** The Connect protocol in `codec` (default proto, which a page should prefer: see docs/rpc.md). */
export function connectTransport(options: WebConnectTransportOptions): RpcTransport {
  return createConnectProtocolTransport({
    ...configOf(options),
    useHttpGet: options.useHttpGet === true,
    setUserAgent: false,
  });
}

/** gRPC-Web in `codec` (default proto), binary or base64 text. */
export function grpcWebTransport(options: WebGrpcWebTransportOptions): RpcTransport {
  return createGrpcWebProtocolTransport({ ...configOf(options), text: options.text === true, setUserAgent: false });
}
