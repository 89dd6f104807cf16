/**
 * What the registry server can be told, its defaults, and the rules checked before it listens.
 * The defaults are the safe choice: loopback only, short idle timers, connections capped per
 * client. Listening anywhere else without authentication is refused unless asked for by name
 * (`allowAnonymousRemote`), because whoever reaches an open registry can register, delete and
 * reconfigure every subject of every producer that trusts it.
 */
import { WirekitError } from '../../../errors/index.js';
import { isLoopback } from '../../../util/loopback.js';
import type { SchemaLimits } from '../compatibility/index.js';
import type { CompatibilityLevel } from './api.js';
import type { RegistryUser } from './basic-auth.js';
import type { ParsedCacheLimits } from './parsed-cache.js';
import type { RegistryStore } from './store.js';

export interface RegistryAuthOptions {
  /** Who may connect, each with a role: read, write (register) or admin (delete, levels, modes). */
  readonly users: readonly RegistryUser[];
  /** The realm a 401 names in its WWW-Authenticate header (default "schema-registry"). */
  readonly realm?: string;
}

/** PEM text or bytes, as node:https takes them. */
type Pem = string | Buffer;

export interface RegistryTlsOptions {
  readonly key: Pem;
  readonly cert: Pem;
  /** Certificate authorities that client certificates must chain to (with `requestCert`). */
  readonly ca?: Pem | readonly Pem[];
  /** Ask every client for a certificate signed by `ca`, and refuse the handshake without one. */
  readonly requestCert?: boolean;
}

export interface RegistryServerOptions {
  /** 0 (the default) lets the OS pick a free port; `port` on the result says which. */
  readonly port?: number;
  /** Default 127.0.0.1. Any address that is not loopback needs `auth` or `allowAnonymousRemote`. */
  readonly host?: string;
  /** Where the registry keeps its records (default: in memory, lost at exit). */
  readonly store?: RegistryStore;
  readonly defaultCompatibility?: CompatibilityLevel;
  /** Bounds on one schema (length, nodes, nesting); see SchemaRegistryOptions. */
  readonly schemaLimits?: SchemaLimits;
  /** How many parsed schemas are kept between checks; see SchemaRegistryOptions. */
  readonly parsedCache?: ParsedCacheLimits;
  /** Basic authentication; without it every request is served as if from an admin. */
  readonly auth?: RegistryAuthOptions;
  /** Serve HTTPS with this key and certificate (the URL is then https://). */
  readonly tls?: RegistryTlsOptions;
  /** Listen on a non-loopback host without `auth`: for a network that is itself closed. */
  readonly allowAnonymousRemote?: boolean;
  /** The largest request body read (default 1 MiB); a larger one is answered 413. */
  readonly maxBodyBytes?: number;
  /** How long a client may take to send its request headers (default 10 s). */
  readonly headersTimeoutMs?: number;
  /** How long a client may take to send a whole request (default 30 s). */
  readonly requestTimeoutMs?: number;
  /**
   * How long a connection may stay silent before its first request, TLS handshake included
   * (default 2 s): a socket opened only to hold a place is closed.
   */
  readonly idleTimeoutMs?: number;
  /** How long an idle keep-alive socket stays open between requests (default: idleTimeoutMs). */
  readonly keepAliveTimeoutMs?: number;
  /** The most sockets open at once (default 1024); more are refused at connect. */
  readonly maxConnections?: number;
  /** The most sockets one client address (an IPv6 /64) holds at once (default 64). */
  readonly maxConnectionsPerAddress?: number;
  /** Of maxConnections, the places kept for addresses that hold none yet (default 64). */
  readonly reservedConnections?: number;
  /** Hears of errors that are wirekit's bugs (answered 500), e.g. to log them. */
  readonly onInternalError?: (error: unknown) => void;
  /**
   * The URL the other registries sharing the store forward writes to (default: `url`). Give it when
   * they reach this one by another name than it listens on (`0.0.0.0`, a proxy, a container).
   */
  readonly advertisedUrl?: string;
  /**
   * How long a follower waits for a leader to forward a write to, while an election runs (default
   * 30 s; then 50004): longer than the store's session timeout, so a write survives a failover.
   */
  readonly forwardTimeoutMs?: number;
  /**
   * The certificate authorities an `https://` leader's certificate must chain to when a write is
   * forwarded to it (default: Node's trusted ones, with NODE_EXTRA_CA_CERTS): a cluster's own CA.
   */
  readonly leaderCa?: Pem | readonly Pem[];
}

export interface ServerSettings {
  readonly host: string;
  readonly maxBodyBytes: number;
  readonly requestTimeout: number;
  readonly headersTimeout: number;
  readonly idleTimeout: number;
  readonly keepAliveTimeout: number;
  readonly maxConnections: number;
  readonly perAddress: number;
  readonly reserved: number;
  readonly forwardTimeout: number;
}

function whole(name: string, value: number | undefined, fallback: number, least: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < least) {
    throw new WirekitError(
      'WK_OPTIONS_INVALID',
      `the registry server's ${name} must be a whole number of at least ${least} (got ${String(value)})`,
    );
  }
  return value;
}

/** The options with their defaults, checked; WK_OPTIONS_INVALID for any that cannot work. */
export function serverSettings(options: RegistryServerOptions): ServerSettings {
  const host = options.host ?? '127.0.0.1';
  if (options.auth === undefined && options.allowAnonymousRemote !== true && !isLoopback(host)) {
    throw new WirekitError(
      'WK_OPTIONS_INVALID',
      `the registry would listen on ${host}, which is not loopback, without authentication: whoever reaches it could register, delete and reconfigure schemas. Give it users (auth), or allowAnonymousRemote to serve it open on purpose.`,
    );
  }
  const requestTimeout = whole('requestTimeoutMs', options.requestTimeoutMs, 30_000, 1);
  const idleTimeout = whole('idleTimeoutMs', options.idleTimeoutMs, 2_000, 1);
  const maxConnections = whole('maxConnections', options.maxConnections, 1024, 1);
  const reserved = whole('reservedConnections', options.reservedConnections, 64, 0);
  if (reserved >= maxConnections) {
    throw new WirekitError(
      'WK_OPTIONS_INVALID',
      `the registry server's reservedConnections (${reserved}) must be fewer than maxConnections (${maxConnections})`,
    );
  }
  return {
    host,
    maxBodyBytes: whole('maxBodyBytes', options.maxBodyBytes, 1024 * 1024, 1),
    requestTimeout,
    // Node refuses a header timer longer than the request timer.
    headersTimeout: Math.min(whole('headersTimeoutMs', options.headersTimeoutMs, 10_000, 1), requestTimeout),
    idleTimeout,
    keepAliveTimeout: whole('keepAliveTimeoutMs', options.keepAliveTimeoutMs, idleTimeout, 1),
    maxConnections,
    perAddress: whole('maxConnectionsPerAddress', options.maxConnectionsPerAddress, 64, 1),
    reserved,
    forwardTimeout: whole('forwardTimeoutMs', options.forwardTimeoutMs, 30_000, 1),
  };
}
