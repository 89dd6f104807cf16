/**
 * An RPC server on Node's own HTTP stack: connect-node's adapter in front of wirekit's routes,
 * cleartext HTTP/2 for gRPC and HTTP/1.1 for browsers' protocols on the same port (one-port.ts),
 * unknown methods answered in the caller's protocol (unknown-method.ts), and every limit of
 * server-options.ts applied. `close()` stops accepting, lets calls in flight finish for a grace
 * period, then aborts their handlers' signals and drops the connections.
 */
import { createServer as createHttp1Server } from 'node:http';
import {
  createServer as createHttp2Server,
  type Http2Server,
  Http2ServerRequest,
  Http2ServerResponse,
  type Http2Session,
  type IncomingHttpHeaders,
  type ServerHttp2Stream,
} from 'node:http2';
import type { AddressInfo, Socket } from 'node:net';
import { createServer as createTlsServer, type TLSSocket, type TlsOptions } from 'node:tls';
import { importPeer } from '../../../util/optional-peer.js';
import { rpcCodecNames } from '../message-formats.js';
import { createConnectHandlerFactory } from './connect-handler.js';
import { loadConnect } from './connect-runtime.js';
import type { DirectPath, DirectPathOptions } from './direct-call.js';
import { createDirectConnect } from './direct-connect.js';
import { createDirectGrpc } from './direct-grpc.js';
import { createGrpcHandlerFactory } from './grpc-handler.js';
import { createOnePortServer } from './one-port.js';
import {
  defaultRpcProtocols,
  handlerOptionsOf,
  http2SettingsOf,
  type RpcServerOptions,
} from './server-options.js';
import { bindMethods, rpcRoutes } from './service-router.js';
import { answerUnknownMethod } from './unknown-method.js';

export interface RpcNodeServerOptions extends RpcServerOptions {
  /** The port to listen on (default 0: a free one, read back from `port`). */
  readonly port?: number;
  /** The address to listen on (default `127.0.0.1`; `0.0.0.0` or `::` to accept other hosts). */
  readonly host?: string;
  /** How long `close()` lets calls in flight finish before it cancels them (default 5,000 ms). */
  readonly shutdownTimeoutMs?: number;
  /**
   * Serve TLS (`https://`) instead of cleartext: the certificate and key (`cert`, `key`), and for
   * mutual TLS `ca` with `requestCert: true`. HTTP/2 and HTTP/1.1 still share the port, told apart
   * by ALPN. Any option of Node's `tls.createServer`.
   */
  readonly tls?: TlsOptions;
}

export interface RpcServer {
  readonly port: number;
  /** `http://host:port`, the base URL clients are given. */
  readonly url: string;
  close(): Promise<void>;
}

/** Serves `options.services` on one port, gRPC over h2c and HTTP/1.1 beside it. */
export async function createRpcServer(options: RpcNodeServerOptions): Promise<RpcServer> {
  const [{ connectNodeAdapter }] = await Promise.all([
    importPeer(() => import('@connectrpc/connect-node'), 'createRpcServer', '@connectrpc/connect-node'),
    loadConnect(),
  ]);
  const shutdown = new AbortController();
  const methods = bindMethods(options.services);
  const protocols = options.protocols ?? defaultRpcProtocols;
  const handlerOptions = handlerOptionsOf(options, shutdown.signal);
  const routes = rpcRoutes(methods, {
    protocols,
    codecs: options.codecs,
    exposeErrors: options.exposeErrors,
    handlerOptions,
  });
  const handler = connectNodeAdapter({
    routes: (router) => {
      router.handlers.push(...routes);
    },
    fallback: answerUnknownMethod,
  });
  // gRPC's unary and server-streaming calls, and Connect's unary POSTs, skip Connect's pipeline
  // (direct-grpc.ts and direct-connect.ts say why), unless interceptors must run around them, which
  // only Connect's path does.
  const direct: DirectPath[] = [];
  if ((options.interceptors ?? []).length === 0) {
    const directOptions: DirectPathOptions = {
      codecs: options.codecs ?? rpcCodecNames,
      exposeErrors: options.exposeErrors,
      readMaxBytes: handlerOptions.readMaxBytes as number,
      writeMaxBytes: handlerOptions.writeMaxBytes as number,
      acceptCompression: handlerOptions.acceptCompression ?? [],
      compressMinBytes: handlerOptions.compressMinBytes as number,
      maxTimeoutMs: handlerOptions.maxTimeoutMs,
      shutdownSignal: shutdown.signal,
    };
    if (protocols.includes(createGrpcHandlerFactory)) direct.push(createDirectGrpc(methods, directOptions));
    if (protocols.includes(createConnectHandlerFactory)) {
      direct.push(createDirectConnect(methods, directOptions));
    }
  }
  const h1 = createHttp1Server(handler);
  // Streams are taken one by one rather than through the `request` event, so that a call the
  // direct path serves never gets Node's compatibility request and response (which would also
  // claim the stream's trailers); the others get them here as Node would make them.
  const h2 = createHttp2Server({ settings: http2SettingsOf(options) });
  h2.on(
    'stream',
    (stream: ServerHttp2Stream, headers: IncomingHttpHeaders, _flags: number, rawHeaders: string[]) => {
      for (const path of direct) if (path(stream, headers)) return;
      const request = new Http2ServerRequest(stream, headers, {}, rawHeaders);
      const response = new Http2ServerResponse(stream);
      if (headers.expect === '100-continue') response.writeContinue();
      handler(request, response);
    },
  );
  const front = options.tls === undefined ? createOnePortServer(h1, h2) : createTlsFront(options.tls, h1, h2);
  const sessions = new Set<Http2Session>();
  const sockets = new Set<Socket>();
  h2.on('session', (session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  front.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // HTTP/1.1 keeps connections alive between requests, and the http.Server, fed sockets rather
  // than listening itself, does not track them for closeIdleConnections(): count each
  // connection's requests in flight, so closing drops the idle ones at once and the others as
  // soon as their last answer is sent.
  let stopping = false;
  const inFlight = new Map<Socket, number>();
  h1.on('connection', (socket: Socket) => {
    inFlight.set(socket, 0);
    socket.once('close', () => inFlight.delete(socket));
  });
  h1.on('request', (request, response) => {
    const socket = request.socket;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    response.once('close', () => {
      const left = (inFlight.get(socket) ?? 1) - 1;
      inFlight.set(socket, left);
      if (stopping && left === 0) socket.destroy();
    });
  });

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    front.once('error', reject);
    front.listen(options.port ?? 0, host, () => {
      front.off('error', reject);
      resolve();
    });
  });
  const { port } = front.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  let closing: Promise<void> | undefined;
  const close = async () => {
    const closed = new Promise<void>((resolve) => front.close(() => resolve()));
    stopping = true;
    for (const session of sessions) session.close();
    for (const [socket, count] of inFlight) if (count === 0) socket.destroy();
    const drained = new Promise<void>((resolve) => {
      const check = () => (sockets.size === 0 ? resolve() : setTimeout(check, 20).unref());
      check();
    });
    // The grace timer holds the process open while calls finish (an unref'd one let a script that
    // awaits close() exit mid-way, with "unfinished top-level await", when only sockets were left).
    let graceTimer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      graceTimer = setTimeout(resolve, options.shutdownTimeoutMs ?? 5000);
    });
    await Promise.race([drained, grace]);
    clearTimeout(graceTimer);
    shutdown.abort();
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  return {
    port,
    url: `${options.tls === undefined ? 'http' : 'https'}://${urlHost}:${port}`,
    close: () => {
      closing ??= close();
      return closing;
    },
  };
}

/**
 * The TLS front: each connection is handed, once its handshake is done, to the HTTP/2 server if
 * ALPN chose `h2` and to the HTTP/1.1 server otherwise (a browser's fetch, curl without
 * --http2). The servers behind it are the cleartext ones: they read the TLS socket as any socket.
 */
function createTlsFront(tls: TlsOptions, h1: ReturnType<typeof createHttp1Server>, h2: Http2Server) {
  const front = createTlsServer({ ...tls, ALPNProtocols: ['h2', 'http/1.1'] });
  front.on('secureConnection', (socket: TLSSocket) => {
    (socket.alpnProtocol === 'h2' ? h2 : h1).emit('connection', socket);
  });
  return front;
}
