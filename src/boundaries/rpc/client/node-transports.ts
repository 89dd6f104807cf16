/**
 * The transports on Node: gRPC over HTTP/2, and Connect and gRPC-Web over HTTP/1.1 or HTTP/2, each
 * on connect-node's HTTP client (`createNodeHttpClient`: one HTTP/2 connection per transport, kept
 * and pinged by its session manager) with gzip from Node's zlib (connect-node's, which caps a
 * reply's decompressed size at the read limit).
 */

import type { UniversalClientFn } from '@connectrpc/connect/protocol';
import {
  compressionGzip,
  createNodeHttpClient,
  Http2SessionManager,
  type Http2SessionOptions,
} from '@connectrpc/connect-node';
import { createConnectProtocolTransport } from './connect-transport.js';
import { createGrpcProtocolTransport } from './grpc-transport.js';
import { createGrpcWebProtocolTransport } from './grpc-web-transport.js';
import { protocolConfig, type RpcTransport, type TransportOptions } from './transport.js';

/** A transport on Node, which holds a connection until closed (or idle for 15 minutes). */
export interface NodeRpcTransport extends RpcTransport {
  /** Closes the transport's HTTP/2 connection; calls in flight fail with CANCELLED. */
  close(): void;
}

export interface NodeTransportOptions extends TransportOptions {
  /** HTTP/2 keepalive pings and the idle timeout of the transport's connection. */
  readonly http2?: Http2SessionOptions;
}

export interface GrpcTransportOptions extends NodeTransportOptions {}

export interface ConnectTransportOptions extends NodeTransportOptions {
  /** `'1.1'` (default: any server) or `'2'` (h2c or TLS HTTP/2; needed for bidi streams). */
  readonly httpVersion?: '1.1' | '2';
  /** Call methods marked NO_SIDE_EFFECTS with GET, which HTTP caches may keep (default false). */
  readonly useHttpGet?: boolean;
}

export interface GrpcWebTransportOptions extends NodeTransportOptions {
  /** `'1.1'` (default) or `'2'`. */
  readonly httpVersion?: '1.1' | '2';
  /** Send and read the body as base64 (`application/grpc-web-text`), for proxies that need text. */
  readonly text?: boolean;
}

function nodeClient(options: NodeTransportOptions, httpVersion: '1.1' | '2') {
  if (httpVersion === '1.1') {
    return { httpClient: createNodeHttpClient({ httpVersion: '1.1' }), close: () => {} };
  }
  const session = new Http2SessionManager(options.baseUrl, options.http2);
  const httpClient: UniversalClientFn = createNodeHttpClient({
    httpVersion: '2',
    sessionProvider: () => session,
  });
  return { httpClient, close: () => session.abort() };
}

/** gRPC over HTTP/2 (h2c for `http://`, TLS for `https://`), in `codec` (default proto). */
export function grpcTransport(options: GrpcTransportOptions): NodeRpcTransport {
  const { httpClient, close } = nodeClient(options, '2');
  return { ...createGrpcProtocolTransport(protocolConfig(options, httpClient, compressionGzip)), close };
}

/** The Connect protocol, in `codec` (default proto; `json` is ProtoJSON). */
export function connectTransport(options: ConnectTransportOptions): NodeRpcTransport {
  const { httpClient, close } = nodeClient(options, options.httpVersion ?? '1.1');
  const config = protocolConfig(options, httpClient, compressionGzip);
  const transport = createConnectProtocolTransport({
    ...config,
    useHttpGet: options.useHttpGet === true,
    setUserAgent: true,
  });
  return { ...transport, close };
}

/** gRPC-Web, in `codec` (default proto), binary or base64 text. */
export function grpcWebTransport(options: GrpcWebTransportOptions): NodeRpcTransport {
  const { httpClient, close } = nodeClient(options, options.httpVersion ?? '1.1');
  const config = protocolConfig(options, httpClient, compressionGzip);
  const transport = createGrpcWebProtocolTransport({
    ...config,
    text: options.text === true,
    setUserAgent: true,
  });
  return { ...transport, close };
}
