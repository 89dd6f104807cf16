/**
 * The transports on Node: gRPC over HTTP/2, and Connect and gRPC-Web over HTTP/1.1 or HTTP/2, each
 * on connect-node's HTTP client (`createNodeHttpClient`: one HTTP/2 connection per transport, kept
 * and pinged by its session manager) with gzip from Node's zlib (connect-node's, which caps a
 * reply's decompressed size at the read limit). connect-node and the protocol's code are loaded
 * on the first call (lazy-transport.ts).
 */
import { importPeer } from '../../../util/optional-peer.js';
import { lazyTransport } from './lazy-transport.js';
import type { RpcTransport, TransportOptions } from './transport.js';

/** A transport on Node, which holds a connection until closed (or idle for 15 minutes). */
export interface NodeRpcTransport extends RpcTransport {
  /** Closes the transport's HTTP/2 connection; calls in flight fail with CANCELLED. */
  close(): void;
}

/** connect-node's HTTP/2 session options (`Http2SessionOptions`), by shape. */
export interface Http2Options {
  /** Ping the server this often while the connection is in use (ms; default: never). */
  readonly pingIntervalMs?: number;
  /** Ping an idle connection too (default false). */
  readonly pingIdleConnection?: boolean;
  /** How long a ping may wait for its answer before the connection is closed (ms; default 15,000). */
  readonly pingTimeoutMs?: number;
  /** Close the connection after this long without a call (ms; default 15 minutes). */
  readonly idleConnectionTimeoutMs?: number;
}

/** What an `https://` transport trusts and presents: Node's TLS options, by the names tls.connect takes. */
export interface ClientTlsOptions {
  /** The certificate authorities to trust, PEM (default: Node's bundled roots). */
  readonly ca?: string | Buffer | readonly (string | Buffer)[];
  /** A client certificate and its key, PEM, for servers that ask for one (mutual TLS). */
  readonly cert?: string | Buffer;
  readonly key?: string | Buffer;
  /** The name the server's certificate must carry, when it is not the URL's host. */
  readonly servername?: string;
}

export interface NodeTransportOptions extends TransportOptions {
  /** HTTP/2 keepalive pings and the idle timeout of the transport's connection. */
  readonly http2?: Http2Options;
  /** TLS for an `https://` base URL: the authorities trusted and a client certificate. */
  readonly tls?: ClientTlsOptions;
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

/** connect-node's HTTP client and gzip, and the way to close the connection once it is open. */
async function nodeClient(user: string, options: NodeTransportOptions, httpVersion: '1.1' | '2') {
  const node = await importPeer(() => import('@connectrpc/connect-node'), user, '@connectrpc/connect-node');
  const gzip = node.compressionGzip;
  const tls = options.tls as (ClientTlsOptions & { ca?: string | Buffer | (string | Buffer)[] }) | undefined;
  if (httpVersion === '1.1') {
    return { httpClient: node.createNodeHttpClient({ httpVersion: '1.1', nodeOptions: { ...tls } }), gzip };
  }
  const session = new node.Http2SessionManager(options.baseUrl, options.http2, { ...tls });
  const httpClient = node.createNodeHttpClient({ httpVersion: '2', sessionProvider: () => session });
  return { httpClient, gzip, session };
}

/** A lazily built transport with a close() that closes its connection if one was opened. */
function nodeTransport(
  user: string,
  protocol: RpcTransport['protocol'],
  options: NodeTransportOptions,
  httpVersion: '1.1' | '2',
  build: (client: Awaited<ReturnType<typeof nodeClient>>) => Promise<RpcTransport>,
): NodeRpcTransport {
  let client: Awaited<ReturnType<typeof nodeClient>> | undefined;
  let closed = false;
  const transport = lazyTransport(protocol, options.codec ?? 'proto', async () => {
    client = await nodeClient(user, options, httpVersion);
    if (closed) client.session?.abort();
    return build(client);
  });
  return {
    ...transport,
    close: () => {
      closed = true;
      client?.session?.abort();
    },
  };
}

const protocolCode = <T>(user: string, load: () => Promise<T>) =>
  importPeer(load, user, '@connectrpc/connect');

/** gRPC over HTTP/2 (h2c for `http://`, TLS for `https://`), in `codec` (default proto). */
export function grpcTransport(options: GrpcTransportOptions): NodeRpcTransport {
  return nodeTransport('grpcTransport', 'grpc', options, '2', async ({ httpClient, gzip, session }) => {
    const [{ createGrpcProtocolTransport }, { withDirectUnary }, { protocolConfig }] = await Promise.all([
      protocolCode('grpcTransport', () => import('./grpc-transport.js')),
      protocolCode('grpcTransport', () => import('./direct-grpc-transport.js')),
      import('./protocol-config.js'),
    ]);
    const config = protocolConfig(options, httpClient, gzip);
    const transport = createGrpcProtocolTransport(config);
    // Unary calls skip Connect's call runner (direct-grpc-transport.ts says why).
    return session === undefined ? transport : withDirectUnary(transport, config, session);
  });
}

/** The Connect protocol, in `codec` (default proto; `json` is ProtoJSON). */
export function connectTransport(options: ConnectTransportOptions): NodeRpcTransport {
  const httpVersion = options.httpVersion ?? '1.1';
  return nodeTransport('connectTransport', 'connect', options, httpVersion, async ({ httpClient, gzip }) => {
    const [{ createConnectProtocolTransport }, { protocolConfig }] = await Promise.all([
      protocolCode('connectTransport', () => import('./connect-transport.js')),
      import('./protocol-config.js'),
    ]);
    return createConnectProtocolTransport({
      ...protocolConfig(options, httpClient, gzip),
      useHttpGet: options.useHttpGet === true,
      setUserAgent: true,
    });
  });
}

/** gRPC-Web, in `codec` (default proto), binary or base64 text. */
export function grpcWebTransport(options: GrpcWebTransportOptions): NodeRpcTransport {
  const httpVersion = options.httpVersion ?? '1.1';
  return nodeTransport('grpcWebTransport', 'grpc-web', options, httpVersion, async ({ httpClient, gzip }) => {
    const [{ createGrpcWebProtocolTransport }, { protocolConfig }] = await Promise.all([
      protocolCode('grpcWebTransport', () => import('./grpc-web-transport.js')),
      import('./protocol-config.js'),
    ]);
    return createGrpcWebProtocolTransport({
      ...protocolConfig(options, httpClient, gzip),
      text: options.text === true,
      setUserAgent: true,
    });
  });
}
