/**
 * Two servers of the same order service for the direct paths' tests: `direct`, whose calls take
 * the direct paths on node:http2, and `connect`, forced through Connect's router by an interceptor
 * (only Connect's path runs interceptors), each with an HTTP/2 session open to it. A test sends
 * the same call to both and requires the same answer.
 */
import type { ClientHttp2Session } from 'node:http2';
import {
  createRpcServer,
  type RpcServer,
  type RpcServerOptions,
} from '../../../../src/boundaries/rpc/server/index.js';
import { openSession } from './grpc-wire.js';
import { orderService, type Seen } from './order-service.js';

export interface Pair {
  readonly direct: RpcServer;
  readonly connect: RpcServer;
  readonly sessions: { direct: ClientHttp2Session; connect: ClientHttp2Session };
  /** Calls that went through Connect's router on the `connect` server. */
  readonly intercepted: () => number;
}

/** What each server's handlers saw, for a test that reads their contexts. */
export interface PairSeen {
  readonly direct?: Seen;
  readonly connect?: Seen;
}

export async function serverPair(
  options: Omit<RpcServerOptions, 'services'> = {},
  seen: PairSeen = {},
): Promise<Pair> {
  let intercepted = 0;
  const direct = await createRpcServer({ ...options, services: [orderService(seen.direct)] });
  const connect = await createRpcServer({
    ...options,
    services: [orderService(seen.connect)],
    interceptors: [
      (next) => (request) => {
        intercepted++;
        return next(request);
      },
    ],
  });
  return {
    direct,
    connect,
    sessions: { direct: openSession(direct.url), connect: openSession(connect.url) },
    intercepted: () => intercepted,
  };
}

export async function closePair(pair: Pair | undefined): Promise<void> {
  if (pair === undefined) return;
  pair.sessions.direct.close();
  pair.sessions.connect.close();
  await Promise.all([pair.direct.close(), pair.connect.close()]);
}

/** What a test's handlers will have seen: nothing yet. */
export const nothingSeen = (): Seen => ({ calls: [], contexts: [], aborted: [], timeouts: [] });
