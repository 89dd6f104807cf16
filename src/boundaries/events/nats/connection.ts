/**
 * How the NATS binding reaches its server: the client packages are optional peers, imported on first
 * use so `wirekit-ts/events` loads without them; a connection is either given (and stays the
 * caller's: the binding never closes it) or opened from `servers` with reconnects that never give up,
 * because a producer or consumer outlives a server restart. Errors of the client are classified
 * here by name (a connection may come from another copy of the client packages, so `instanceof`
 * could lie) into "try again" and "refused".
 */
import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import type { MsgHdrs, NatsConnection, NodeConnectionOptions } from '@nats-io/transport-node';
import { WirekitError } from '../../../errors/index.js';
import { importPeer } from '../../../util/optional-peer.js';
import type { NatsConnectionSource } from './connection-source.js';

type JetStreamModule = typeof import('@nats-io/jetstream');
type TransportModule = typeof import('@nats-io/transport-node');

/** Reconnects that never stop (a producer or consumer outlives a restart) and come quickly. */
const connectionDefaults: Partial<NodeConnectionOptions> = {
  maxReconnectAttempts: -1,
  reconnectTimeWait: 250,
  reconnectJitter: 100,
};

const loadJetStream = (): Promise<JetStreamModule> =>
  importPeer(() => import('@nats-io/jetstream'), 'the NATS binding', '@nats-io/jetstream');

const loadTransport = (): Promise<TransportModule> =>
  importPeer(() => import('@nats-io/transport-node'), 'the NATS binding', '@nats-io/transport-node');

export interface NatsSession {
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  readonly jetstream: JetStreamModule;
  /** A fresh, empty header set. */
  readonly headers: () => MsgHdrs;
  /** True when the binding opened the connection (and so closes it). */
  readonly owned: boolean;
}

/** Connects (or takes the given connection) and opens its JetStream contexts. */
export async function openSession(source: NatsConnectionSource, name: string): Promise<NatsSession> {
  const [jetstream, transport] = await Promise.all([loadJetStream(), loadTransport()]);
  let nc = source.connection as NatsConnection | undefined;
  const owned = nc === undefined;
  if (nc === undefined) {
    const { connect } = transport;
    const servers = source.servers === undefined ? undefined : [source.servers].flat();
    try {
      nc = await connect({
        name,
        ...connectionDefaults,
        ...(source.connectionOptions as Partial<NodeConnectionOptions> | undefined),
        servers,
      });
    } catch (error) {
      throw brokerError(`cannot connect to NATS at ${servers?.join(', ') ?? 'the default server'}`, error);
    }
  }
  try {
    const jsm = await jetstream.jetstreamManager(nc, { checkAPI: false });
    return { nc, js: jetstream.jetstream(nc), jsm, jetstream, headers: () => transport.headers(), owned };
  } catch (error) {
    if (owned) await nc.close().catch(() => undefined);
    throw brokerError('cannot open JetStream on the NATS connection', error);
  }
}

/** How long close waits for the server to take what is buffered (it may be away). */
const closeTimeoutMs = 5_000;

/**
 * Closes what the binding opened: drains its own connection (sending the acks still buffered),
 * flushes a given one; a server that does not answer within 5 s gets the connection closed.
 */
export async function closeSession(session: NatsSession): Promise<void> {
  const { nc } = session;
  if (nc.isClosed()) return;
  const settled = session.owned ? nc.drain() : nc.flush();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), closeTimeoutMs);
  });
  const outcome = await Promise.race([
    settled.then(
      () => 'done' as const,
      () => 'failed' as const,
    ),
    late,
  ]);
  clearTimeout(timer);
  if (session.owned && outcome !== 'done' && !nc.isClosed()) await nc.close().catch(() => undefined);
}

export function brokerError(message: string, cause?: unknown): WirekitError {
  const reason = cause instanceof Error ? `: ${cause.message}` : '';
  return new WirekitError('WK_EVENT_BROKER_UNAVAILABLE', `${message}${reason}`, { cause });
}

/**
 * True for failures that another attempt may cure: a timeout, a lost or reconnecting connection, no
 * responder (no stream listens yet, or JetStream is still starting after a restart), or a 503 from
 * the JetStream API. A closed connection, a refused publish (limits, a wrong expected stream) or a
 * bad argument is final.
 */
export function isRetriable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  switch (error.name) {
    case 'TimeoutError':
    case 'ConnectionError':
    case 'NoResponders':
    case 'JetStreamNotEnabled':
    case 'RequestError':
      return true;
    case 'JetStreamApiError':
      return (error as Error & { status?: number }).status === 503;
    default:
      return false;
  }
}

/** Calls listeners at the connection's next reconnect (each once); stopped by `stop`. */
export interface ReconnectWatch {
  /** Calls `listener` at the next reconnect; the function returned forgets it. */
  once(listener: () => void): () => void;
  stop(): void;
}

export function watchReconnects(
  nc: NatsConnection,
  onStatus?: (status: { type: string }) => void,
): ReconnectWatch {
  const listeners = new Set<() => void>();
  const statuses = nc.status();
  void (async () => {
    for await (const status of statuses) {
      onStatus?.(status);
      if (status.type !== 'reconnect') continue;
      const waiting = [...listeners];
      listeners.clear();
      for (const listener of waiting) listener();
    }
  })().catch(() => undefined);
  return {
    once(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop: () => (statuses as AsyncIterable<unknown> & { stop?: () => void }).stop?.(),
  };
}
