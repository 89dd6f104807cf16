/**
 * wirekit's schema registry as an HTTP server speaking Confluent's REST API, so Confluent's
 * serializers, @kafkajs/confluent-schema-registry and wirekit's own client use it unchanged.
 *
 *   const server = await startRegistryServer({ port: 8081, store: fileStore('schemas.log') });
 *   console.log(server.url); // http://127.0.0.1:8081
 *
 * Plain node:http (node:https with `tls`): a dozen routes (routes.ts) do not need a framework, and
 * owning the request path means the limits are ours to set. Every request, however hostile, gets
 * an answer with a Confluent error body or a closed socket, never a crash: bodies are capped
 * (`maxBodyBytes`, 413) and read only where a route takes one, JSON that does not parse is a 400,
 * a path with broken percent-encoding a 400, an unknown path a 404 and a known one asked with the
 * wrong method a 405, each with `{"error_code", "message"}`. With `auth`, a request without valid
 * credentials is a 401 before anything else is looked at, and one its user's role does not allow
 * a 403. Slow clients are cut off by Node's own header and request timers (408), silent and idle
 * sockets by the idle and keep-alive timers, and sockets are capped in total and per client
 * address (connection-guard.ts). An error that is none of the registry's refusals is wirekit's
 * bug: a 500 that says nothing of its cause to the client, and `onInternalError` hears of it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { WirekitError } from '../../../errors/index.js';
import { registryMediaType } from './api.js';
import { allows, basicAuthenticator } from './basic-auth.js';
import { clusterErrorCodes, clusterRefusals } from './cluster-errors.js';
import { clusterRoutes, clusterView } from './cluster-routes.js';
import { guardConnections } from './connection-guard.js';
import { forwardedHeader, forwardToLeader } from './forwarding.js';
import { memoryStore } from './memory-store.js';
import { createSchemaRegistry, type SchemaRegistry } from './registry.js';
import { isRegistryError, moreRegistryErrorCodes, RegistryError, refusals } from './registry-error.js';
import { jsonBody, segmentsOf } from './request-reading.js';
import { accessOf, type Method, matchRoute, RawText, registryRoutes } from './routes.js';
import { type RegistryServerOptions, serverSettings } from './server-options.js';

export type { RegistryServerOptions } from './server-options.js';

export interface RegistryServer {
  /** `http://HOST:PORT` (`https://` with `tls`), with no trailing slash. */
  readonly url: string;
  readonly port: number;
  readonly registry: SchemaRegistry;
  /**
   * Stops listening, answers the requests under way (for up to 2 s, then cuts them off), closes
   * idle sockets, then the registry (its writes under way finish) and its store.
   */
  close(): Promise<void>;
}

/** How long close() waits for requests under way before cutting their sockets. */
const closeGraceMs = 2_000;
const methods: readonly string[] = ['GET', 'POST', 'PUT', 'DELETE'] satisfies Method[];

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

export async function startRegistryServer(options: RegistryServerOptions = {}): Promise<RegistryServer> {
  const settings = serverSettings(options);
  const authenticate = options.auth === undefined ? undefined : basicAuthenticator(options.auth.users);
  const realm = (options.auth?.realm ?? 'schema-registry').replace(/["\\\r\n]/g, '');
  const store = options.store ?? memoryStore();
  const { shared } = store;
  const registry = await createSchemaRegistry({
    store,
    ...(options.defaultCompatibility === undefined
      ? {}
      : { defaultCompatibility: options.defaultCompatibility }),
    ...(options.schemaLimits === undefined ? {} : { schemaLimits: options.schemaLimits }),
    ...(options.parsedCache === undefined ? {} : { parsedCache: options.parsedCache }),
  });
  // Known once listening; the routes that show it are never asked before.
  let ownUrl = '';
  const routes = [
    ...clusterRoutes(() => clusterView(shared, ownUrl), shared?.clusterId ?? 'wirekit-registry'),
    ...registryRoutes(registry),
  ];
  const { host, requestTimeout, headersTimeout } = settings;
  const onInternalError = options.onInternalError ?? (() => {});

  const answer = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    // Who asks is settled first: without valid credentials, not even a 404 says what exists.
    const user = authenticate?.(request.headers.authorization);
    if (authenticate !== undefined && user === undefined) {
      throw plainError(moreRegistryErrorCodes.unauthorized, 'Unauthorized');
    }
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
    const needs = accessOf(match.route, method as Method);
    if (user !== undefined && !allows(user.role, needs)) {
      throw refusals.forbidden(user.username, `it needs the ${needs} role, and the user has ${user.role}`);
    }
    const takesBody = method === 'POST' || method === 'PUT';
    const body = takesBody ? await jsonBody(request, settings.maxBodyBytes) : undefined;
    const query = new URLSearchParams((request.url ?? '').split('?')[1]?.split('#')[0] ?? '');
    if (shared !== undefined && needs !== 'read') {
      // Writes go to the leader; one forwarded here is answered here or refused, never sent on.
      if (request.headers[forwardedHeader] !== undefined) {
        if (shared.leader()?.self !== true)
          throw clusterRefusals.unknownLeader('this registry does not lead');
      } else {
        const deadline = Date.now() + settings.forwardTimeout;
        for (;;) {
          const forwarded = await forwardToLeader(
            shared,
            {
              method,
              target: request.url ?? '/',
              authorization: request.headers.authorization,
              body: body === undefined ? undefined : JSON.stringify(body),
            },
            Math.max(1, deadline - Date.now()),
            options.leaderCa,
          );
          if (forwarded !== undefined) {
            response.writeHead(forwarded.status, {
              'content-type': forwarded.contentType,
              'content-length': String(Buffer.byteLength(forwarded.text)),
            });
            response.end(forwarded.text);
            return;
          }
          try {
            send(response, 200, await handler({ params: match.params, query, body, user }));
            return;
          } catch (error) {
            // This registry stopped leading between the look and the write (Kafka fenced it as a
            // replaced leader, or an election began): nothing was written, so the write goes to
            // whichever registry leads now, as if it had been sent there.
            const replaced = isRegistryError(error) && error.errorCode === clusterErrorCodes.unknownLeader;
            if (!replaced || Date.now() >= deadline) throw error;
          }
        }
      }
    } else if (shared !== undefined) {
      // A follower answers reads once it applied everything acknowledged before them.
      await shared.caughtUp();
    }
    send(response, 200, await handler({ params: match.params, query, body, user }));
  };

  const onRequest = (request: IncomingMessage, response: ServerResponse) => {
    // A request is under way: the idle timer stops, Node's request timer takes over.
    request.socket.setTimeout(0);
    answer(request, response).catch((error: unknown) => {
      if (response.headersSent) {
        response.destroy();
        return;
      }
      if (!isRegistryError(error)) onInternalError(error);
      const refusal = isRegistryError(error)
        ? error
        : plainError(moreRegistryErrorCodes.internal, 'Internal Server Error');
      const headers: Record<string, string> = {};
      if (refusal.errorCode === moreRegistryErrorCodes.unauthorized) {
        headers['www-authenticate'] = `Basic realm="${realm}", charset="UTF-8"`;
      }
      // A body left unread (refused before or while reading it) is not worth waiting for.
      if (!request.complete) headers.connection = 'close';
      send(response, refusal.status, { error_code: refusal.errorCode, message: refusal.message }, headers);
    });
  };

  const httpOptions = {
    requestTimeout,
    headersTimeout,
    keepAliveTimeout: settings.keepAliveTimeout,
    // How often Node looks for requests past their timers: often enough to honour short ones.
    connectionsCheckingInterval: Math.max(50, Math.min(headersTimeout, requestTimeout) / 4),
  };
  const { tls } = options;
  const server: Server =
    tls === undefined
      ? createServer(httpOptions, onRequest)
      : createHttpsServer(
          {
            ...httpOptions,
            key: tls.key,
            cert: tls.cert,
            ...(tls.ca === undefined ? {} : { ca: tls.ca as string | Buffer | (string | Buffer)[] }),
            requestCert: tls.requestCert === true,
            rejectUnauthorized: tls.requestCert === true,
            // A client that connects and never finishes its handshake is idle too.
            handshakeTimeout: settings.idleTimeout,
          },
          onRequest,
        );
  server.maxConnections = settings.maxConnections;
  guardConnections(server, {
    max: settings.maxConnections,
    perAddress: settings.perAddress,
    reserved: settings.reserved,
  });
  // A connection that sends nothing before its first request is closed (Node's own handler
  // destroys a socket whose timer fires with no request under way to hear it).
  server.on(tls === undefined ? 'connection' : 'secureConnection', (socket: Socket) => {
    socket.setTimeout(settings.idleTimeout);
  });

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
      { cause },
    );
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const url = `${tls === undefined ? 'http' : 'https'}://${urlHost}:${port}`;
  ownUrl = options.advertisedUrl ?? url;
  if (shared !== undefined) {
    // Only now can the others reach it: it joins the election with the URL they forward to.
    await shared.join(ownUrl).catch(async (cause: unknown) => {
      await new Promise((resolve) => server.close(resolve));
      await registry.close();
      throw cause;
    });
  }

  return {
    url,
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
