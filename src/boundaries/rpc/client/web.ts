/**
 * `wirekit-ts/rpc/web`: the typed RPC client in a browser, over Connect and gRPC-Web on the page's
 * `fetch` (browsers cannot speak gRPC's HTTP/2 trailers). It imports no Node module: a bundler
 * takes it as it is. Requests of a client or bidi stream are sent once their iterable ends (see
 * fetch-client.ts); replies stream as they arrive.
 */
import { importPeer } from '../../../util/optional-peer.js';
import { fetchHttpClient } from './fetch-client.js';
import { lazyTransport } from './lazy-transport.js';
import { protocolConfig } from './protocol-config.js';
import type { RpcTransport, TransportOptions } from './transport.js';

export { type RawErrorDetail, RpcError, type RpcFailureStatus } from '../rpc-error.js';
export { createRpcClient, type RpcCallOptions, type RpcClientOptions } from './client.js';
export type { RetryOptions } from './retry.js';
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

/** The options resolved, with the page's fetch and gzip (Connect's code, loaded with the protocol). */
async function configOf(user: string, options: WebTransportOptions) {
  const { webGzip } = await importPeer(() => import('./web-gzip.js'), user, '@connectrpc/connect');
  const fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
  return protocolConfig(options, fetchHttpClient(fetchFn), webGzip);
}

/** The Connect protocol in `codec` (default proto, which a page should prefer: see docs/rpc.md). */
export function connectTransport(options: WebConnectTransportOptions): RpcTransport {
  return lazyTransport('connect', options.codec ?? 'proto', async () => {
    const user = 'connectTransport';
    const [{ createConnectProtocolTransport }, config] = await Promise.all([
      importPeer(() => import('./connect-transport.js'), user, '@connectrpc/connect'),
      configOf(user, options),
    ]);
    return createConnectProtocolTransport({
      ...config,
      useHttpGet: options.useHttpGet === true,
      setUserAgent: false,
    });
  });
}

/** gRPC-Web in `codec` (default proto), binary or base64 text. */
export function grpcWebTransport(options: WebGrpcWebTransportOptions): RpcTransport {
  return lazyTransport('grpc-web', options.codec ?? 'proto', async () => {
    const user = 'grpcWebTransport';
    const [{ createGrpcWebProtocolTransport }, config] = await Promise.all([
      importPeer(() => import('./grpc-web-transport.js'), user, '@connectrpc/connect'),
      configOf(user, options),
    ]);
    return createGrpcWebProtocolTransport({ ...config, text: options.text === true, setUserAgent: false });
  });
}
