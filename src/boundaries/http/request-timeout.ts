/**
 * Slow clients: a request body sent a byte at a time is held for as long as the client keeps
 * sending, unless the server has a request timeout. Fastify's default `requestTimeout` is 0 (none),
 * and Fastify assigns it to the Node server after creating it, overriding Node's own default of
 * five minutes, so an app made with `Fastify()` has none. The plugin warns about that once per
 * server, at registration, rather than setting a timeout itself: the timeout is the whole server's
 * (every route's, not only wirekit's), and one set after the server exists is only checked every
 * `connectionsCheckingInterval` (30 s by default), which only the server's constructor takes.
 */
import type { FastifyInstance } from 'fastify';

/** What the warning recommends (docs/http.md): Fastify's option and Node's, checked every second. */
const recommendedTimeouts =
  'Fastify({ requestTimeout: 10_000, http: { requestTimeout: 10_000, connectionsCheckingInterval: 1000 } })';

// Servers warned about already: the plugin may be registered in several contexts of one app.
const warned = new WeakSet<object>();

/** Logs a warning through `app.log` when `app`'s server has no request timeout (once per server). */
export function warnWithoutRequestTimeout(app: FastifyInstance): void {
  // HTTP/2 sessions are bounded by Fastify's http2SessionTimeout instead.
  if (app.initialConfig.http2 === true) return;
  const server = app.server as { requestTimeout?: unknown } | undefined;
  if (server === undefined || warned.has(server)) return;
  // The server's own value is the one Node applies (an app may set it after Fastify did).
  // (Fastify's initialConfig holds requestTimeout, though its type does not declare it.)
  const configured = (app.initialConfig as { readonly requestTimeout?: number }).requestTimeout ?? 0;
  const timeout = typeof server.requestTimeout === 'number' ? server.requestTimeout : configured;
  if (timeout > 0) return;
  warned.add(server);
  app.log.warn(
    { requestTimeout: timeout },
    'wirekit: this server has no request timeout, so a client that sends a request body slowly holds ' +
      `its connection for as long as it likes. Set one, e.g. ${recommendedTimeouts}.`,
  );
}
