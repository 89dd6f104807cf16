/**
 * wirekit's schema registry as an HTTP server speaking Confluent's REST API, so Confluent's
 * serializers, @kafkajs/confluent-schema-registry and wirekit's own client use it unchanged.
 *
 *   const server = await startRegistryServer({ port: 8081, store: fileStore('schemas.log') });
 *   console.log(server.url); // http://127.0.0.1:8081
 *
 * Plain node:http: a dozen routes (routes.ts) do not need a framework, and owning the request
 * path means the limits are ours to set. Every request, however hostile, gets an answer with a
 * Confluent error body or a closed socket, never a crash: bodies are capped (`maxBodyBytes`, 413)
 * and read only where a route takes one, JSON that does not parse is a 400, a path with broken
 * percent-encoding a 400, an unknown path a 404 and a known one asked with the wrong method a 405,
 * each with `{"error_code", "message"}`. Slow clients are cut off by Node's own header and request
 * timers (408), idle keep-alive sockets by the keep-alive timer, and the number of sockets is capped.
 * An error that is none of the registry's refusals is wirekit's bug: a 500 that says nothing of its
 * cause to the client, and `onInternalError` hears of it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WirekitError } from '../../../errors/index.js';
import type { SchemaLimits } from '../compatibility/index.js';
import { type CompatibilityLevel, registryMediaType } from './api.js';
import { memoryStore } from './memory-store.js';
import type { ParsedCacheLimits } from './parsed-cache.js';
import { createSchemaRegistry, type SchemaRegistry } from './registry.js';
import { isRegistryError, moreRegistryErrorCodes, RegistryError } from './registry-error.js';
import { type Method, matchRoute, RawText, registryRoutes } from './routes.js';
import type { RegistryStore } from './store.js';

export interface RegistryServerOptions {
  /** 0 (the default) lets the OS pick a free port; `port` on the result says which. */
  readonly port?: number;
  readonly host?: string;
  /** Where the registry keeps its records (default: in memory, lost at exit). */
  readonly store?: RegistryStore;
  readonly defaultCompatibility?: CompatibilityLevel;
  /** Bounds on one schema (length, nodes, nesting); see SchemaRegistryOptions. */
  readonly schemaLimits?: SchemaLimits;
  /** How many parsed schemas are kept between checks; see SchemaRegistryOptions. */
  readonly parsedCache?: ParsedCacheLimits;
  /** The largest request body read (default 1 MiB); a larger one is answered 413. */
  readonly maxBodyBytes?: number;
  /** How long a client may take to send its request headers (default 10 s). */
  readonly headersTimeoutMs?: number;
  /** How long a client may take to send a whole request (default 30 s). */
  readonly requestTimeoutMs?: number;
  /** How long an idle keep-alive socket stays open (default 5 s). */
  readonly keepAliveTimeoutMs?: number;
  /** The most sockets open at once (default 1024); more are refused at connect. */
  readonly maxConnections?: number;
  /** Hears of errors that are wirekit's bugs (answered 500), e.g. to log them. */
  readonly onInternalError?: (error: unknown) => void;
}

export interface RegistryServer {
  /** `http://HOST:PORT`, with no trailing slash. */
  readonly url: string;
  readonly port: number;
  readonly registry: SchemaRegistry;
  /**
   * Stops listening, answers the requests under way (for up to 2 s, then cuts them off), closes
   * idle sockets, then the registry (its writes under way finish) and its store.
   */
  close(): Promise<void>;
}

const oneMiB = 1024 * 1024;
/** How long close() waits for requests under way before cutting their sockets. */
const closeGraceMs = 2_000;
const methods: readonly string[] = ['GET', 'POST', 'PUT', 'DELETE'] satisfies Method[];
/** The request media types Confluent reads as JSON (and no Content-Type at all). */
const jsonMediaTypes = new Set([
  registryMediaType,
  'application/vnd.schemaregistry+json',
  'application/json',
  'application/octet-stream',
]);

const plainError = (errorCode: number, message: string) => new RegistryError(errorCode, message);

function send(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = body instanceof RawText ? body.text : JSON.stringify(body);
  response.writeHead(status, {
    'content-type': registryMediaType,
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  response.end(text);
}

/** The decoded path segments of a request target (`/subjects/a%2Fb/versions` → subjects, a/b, versions). */
function segmentsOf(target: string): string[] {
  const end = target.search(/[?#]/);
  const path = end === -1 ? target : target.slice(0, end);
  if (!path.startsWith('/'))
    throw plainError(moreRegistryErrorCodes.badRequest, 'Bad Request: the path must start with /');
  const segments = path.slice(1).split('/');
  if (segments.at(-1) === '') segments.pop();
  try {
    return segments.map((segment) => decodeURIComponent(segment));
  } catch {
    throw plainError(
      moreRegistryErrorCodes.badRequest,
      'Bad Request: the path has malformed percent-encoding',
    );
  }
}

/** The request's body as JSON, read to at most `limit` bytes (413 past it, 400 when it does not parse). */
async function jsonBody(request: IncomingMessage, limit: number): Promise<unknown> {
  const mediaType = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== undefined && mediaType !== '' && !jsonMediaTypes.has(mediaType)) {
    throw plainError(
      moreRegistryErrorCodes.unsupportedMediaType,
      `Unsupported Media Type: ${mediaType.slice(0, 100)}`,
    );
  }
  const tooLarge = () =>
    plainError(
      moreRegistryErrorCodes.bodyTooLarge,
      `Payload Too Large: the body is larger than ${limit} bytes`,
    );
  const declared = Number(request.headers['content-length']);
  if (declared > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of request as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) throw tooLarge();
      chunks.push(chunk);
    }
  } catch (cause) {
    if (isRegistryError(cause)) throw cause;
    // The client went away or a timer cut it off mid-body: nobody is left to answer.
    throw plainError(moreRegistryErrorCodes.badRequest, 'Bad Request: the body was not sent whole');
  }
  const text = Buffer.concat(chunks, size).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (cause) {
    const why = cause instanceof Error ? cause.message.slice(0, 200) : 'unreadable';
    throw plainError(moreRegistryErrorCodes.badRequest, `Bad Request: the body is not JSON (${why})`);
  }
}

export async function startRegistryServer(options: RegistryServerOptions = {}): Promise<RegistryServer> {
  const registry = await createSchemaRegistry({
    store: options.store ?? memoryStore(),
    ...(options.defaultCompatibility === undefined
      ? {}
      : { defaultCompatibility: options.defaultCompatibility }),
    ...(options.schemaLimits === undefined ? {} : { schemaLimits: options.schemaLimits }),
    ...(options.parsedCache === undefined ? {} : { parsedCache: options.parsedCache }),
  });
  const routes = registryRoutes(registry);
  const maxBodyBytes = options.maxBodyBytes ?? oneMiB;
  const requestTimeout = options.requestTimeoutMs ?? 30_000;
  // Node refuses a header timer longer than the request timer.
  const headersTimeout = Math.min(options.headersTimeoutMs ?? 10_000, requestTimeout);
  const onInternalError = options.onInternalError ?? (() => {});

  const answer = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const segments = segmentsOf(request.url ?? '/');
    const match = matchRoute(routes, segments);
    if (match === undefined) throw plainError(moreRegistryErrorCodes.routeNotFound, 'HTTP 404 Not Found');
    // HEAD is GET without the body (Node leaves it out), as Confluent's server answers it.
    const method = request.method === 'HEAD' ? 'GET' : (request.method ?? 'GET');
    const handler = methods.includes(method) ? match.route.methods[method as Method] : undefined;
    if (handler === undefined) {
      const allowed = Object.keys(match.route.methods).join(', ');
      send(response, 405, { error_code: 405, message: 'HTTP 405 Method Not Allowed' }, { allow: allowed });
      return;
    }
    const takesBody = method === 'POST' || method === 'PUT';
    const body = takesBody ? await jsonBody(request, maxBodyBytes) : undefined;
    const query = new URLSearchParams((request.url ?? '').split('?')[1]?.split('#')[0] ?? '');
    send(response, 200, await handler({ params: match.params, query, body }));
  };

  const server = createServer(
    {
      requestTimeout,
      headersTimeout,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 5_000,
      // How often Node looks for requests past their timers: often enough to honour short ones.
      connectionsCheckingInterval: Math.max(50, Math.min(headersTimeout, requestTimeout) / 4),
    },
    (request, response) => {
      answer(request, response).catch((error: unknown) => {
        if (response.headersSent) {
          response.destroy();
          return;
        }
        if (!isRegistryError(error)) onInternalError(error);
        const refusal = isRegistryError(error)
          ? error
          : plainError(moreRegistryErrorCodes.internal, 'Internal Server Error');
        // A body left unread (refused before or while reading it) is not worth waiting for.
        const unread = !request.complete;
        send(
          response,
          refusal.status,
          { error_code: refusal.errorCode, message: refusal.message },
          unread ? { connection: 'close' } : {},
        );
      });
    },
  );
  server.maxConnections = options.maxConnections ?? 1024;

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch(async (cause: unknown) => {
    await registry.close();
    const why = cause instanceof Error ? cause.message : String(cause);
    throw new WirekitError(
      'WK_REGISTRY_UNAVAILABLE',
      `the registry cannot listen on ${host}:${options.port ?? 0}: ${why}`,
      {
        cause,
      },
    );
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  return {
    url: `http://${urlHost}:${port}`,
    port,
    registry,
    async close() {
      // Requests under way get a moment to be answered; idle keep-alive sockets go at once.
      await new Promise<void>((resolve) => {
        const cutOff = setTimeout(() => server.closeAllConnections(), closeGraceMs);
        server.close(() => {
          clearTimeout(cutOff);
          resolve();
        });
        server.closeIdleConnections();
      });
      await registry.close();
    },
  };
}
