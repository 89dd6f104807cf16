/**
 * wirekit's RPC routes in a Fastify app, beside its other routes and under its hooks: an
 * `onRequest` hook that checks a token applies to RPC calls as to any route. Connect's Fastify
 * plugin registers each method as a route; this plugin wraps it with what wirekit adds:
 *
 * - content-type parsers for wirekit's codecs (`application/grpc+msgpack`, `application/cbor`...),
 *   in this plugin's scope only, so Fastify passes those bodies through instead of answering 415
 *   (and the app's own parsers, JSON's included, are untouched outside it);
 * - a gRPC caller that a hook turns away (a 401, a 403, a 429) gets a gRPC status, which every
 *   gRPC client reads, rather than a bare HTTP error: the status follows gRPC's own mapping of
 *   HTTP statuses, and the message is the body's `message`, or the HTTP reason.
 *
 * Register it without `fastify-plugin`'s unwrapping: its parsers must stay in its scope. For gRPC
 * the app must speak HTTP/2: `fastify({ http2: true })` (h2c), or TLS with `allowHTTP1`.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { importPeer } from '../../../util/optional-peer.js';
import { type GrpcStatusName, grpcStatusCodes } from '../status-codes.js';
import { loadConnect } from './connect-runtime.js';
import { encodeGrpcMessage } from './grpc-status.js';
import { defaultRpcProtocols, handlerOptionsOf, type RpcServerOptions } from './server-options.js';
import { bindMethods, rpcRoutes } from './service-router.js';

export interface RpcFastifyOptions extends RpcServerOptions {
  /** How long Fastify's `close()` lets calls in flight finish before aborting their signals (default 5,000 ms). */
  readonly shutdownTimeoutMs?: number;
}

/** wirekit's content types that Connect's plugin has no parser for: its codecs beyond proto and JSON. */
const wirekitContentTypes =
  /^application\/(?:(?:grpc(?:-web(?:-text)?)?|connect)\+)?(?:msgpack|cbor|avro)(?:\s*;.*)?$/i;

/** gRPC's mapping of an HTTP status met where a gRPC answer was due (grpc/doc/http-grpc-status-mapping.md). */
function grpcStatusOfHttp(status: number): GrpcStatusName {
  switch (status) {
    case 400:
      return 'INTERNAL';
    case 401:
      return 'UNAUTHENTICATED';
    case 403:
      return 'PERMISSION_DENIED';
    case 404:
      return 'UNIMPLEMENTED';
    case 429:
    case 502:
    case 503:
    case 504:
      return 'UNAVAILABLE';
    default:
      return 'UNKNOWN';
  }
}

function messageOf(payload: unknown, fallback: string): string {
  if (typeof payload !== 'string') return fallback;
  try {
    const body = JSON.parse(payload) as { message?: unknown };
    return typeof body.message === 'string' ? body.message : fallback;
  } catch {
    return payload.length > 0 ? payload : fallback;
  }
}

/** An HTTP error reply to a gRPC call, rewritten as the gRPC status a gRPC client reads. */
async function answerGrpcInKind(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  const contentType = request.headers['content-type'] ?? '';
  if (reply.statusCode === 200 || !/^application\/grpc/i.test(contentType)) return payload;
  const status = grpcStatusOfHttp(reply.statusCode);
  const message = messageOf(payload, `HTTP ${reply.statusCode}`);
  reply.code(200);
  reply.removeHeader('content-length');
  reply.header(
    'content-type',
    contentType.toLowerCase().startsWith('application/grpc-web') ? contentType : 'application/grpc',
  );
  // A status in the trailers, after headers and no message: a whole gRPC answer every client reads.
  reply.trailer('grpc-status', async () => String(grpcStatusCodes[status]));
  reply.trailer('grpc-message', async () => encodeGrpcMessage(message));
  return '';
}

/** Serves `options.services` under this Fastify scope (its prefix, hooks and logger). */
export const rpcPlugin: FastifyPluginAsync<RpcFastifyOptions> = async (app, options) => {
  const [{ fastifyConnectPlugin }] = await Promise.all([
    importPeer(() => import('@connectrpc/connect-fastify'), 'rpcPlugin', '@connectrpc/connect-fastify'),
    loadConnect(),
  ]);
  const shutdown = new AbortController();
  app.addHook('preClose', async () => {
    setTimeout(() => shutdown.abort(), options.shutdownTimeoutMs ?? 5000).unref();
  });
  const routes = rpcRoutes(bindMethods(options.services), {
    protocols: options.protocols ?? defaultRpcProtocols,
    codecs: options.codecs,
    exposeErrors: options.exposeErrors,
    handlerOptions: handlerOptionsOf(options, shutdown.signal),
  });
  app.addContentTypeParser(wirekitContentTypes, (_request, _payload, done) => done(null, undefined));
  app.addHook('onSend', answerGrpcInKind);
  await app.register(fastifyConnectPlugin, {
    routes: (router) => {
      router.handlers.push(...routes);
    },
  });
};
