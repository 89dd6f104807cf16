/**
 * Health checking (`grpc.health.v1.Health`): the service load balancers, Kubernetes' gRPC probes
 * and `grpc_health_probe` ask whether a server, or one of its services, is serving. The server's
 * code says so with `setStatus`; Check and List answer with the statuses now, and each Watch
 * stream is told of every change.
 *
 * The rules are gRPC's health checking protocol (grpc/doc/health-checking.md) as grpc-go's server
 * keeps them: `''` names the server as a whole and starts SERVING; Check of a service with no
 * status is NOT_FOUND, where Watch sends SERVICE_UNKNOWN and keeps the stream open, sending the
 * status once one is set; a watcher that falls behind is sent the latest status, not every one in
 * between (a watcher holds one pending status, never a queue).
 */
import { describeValue, WirekitError } from '../../errors/index.js';
import type { CallContext, ServiceHandlers } from '../../schema/index.js';
import {
  type HealthCheckRequest,
  type HealthCheckResponse,
  type HealthListResponse,
  HealthService,
  type ServingStatus,
} from './health-messages.js';
import { RpcError } from './rpc-error.js';
import type { ServiceImplementation } from './service-implementation.js';

/** What a server may say of a service (SERVICE_UNKNOWN is Watch's word for "no status"). */
export type HealthStatus = Exclude<ServingStatus, 'SERVICE_UNKNOWN'>;

export interface HealthOptions {
  /** The statuses to start with, by service name (default `{ '': 'SERVING' }`). */
  readonly statuses?: Readonly<Record<string, HealthStatus>>;
  /**
   * The most services List answers for; past it, List is RESOURCE_EXHAUSTED, as the protocol
   * allows (default 100, grpc-go's bound): one reply must stay a small message.
   */
  readonly maxListed?: number;
}

export interface Health extends ServiceImplementation<typeof HealthService> {
  /** Sets a service's status (`''`: the server's own) and tells every watcher of it. */
  setStatus(service: string, status: HealthStatus): void;
  /** A service's status now; undefined when it has none. */
  statusOf(service: string): HealthStatus | undefined;
  /**
   * Every service NOT_SERVING, and later `setStatus` calls ignored: for a server that is
   * draining before it stops, so that balancers send new calls elsewhere (grpc-go's Shutdown).
   */
  shutdown(): void;
}

const healthStatuses: readonly HealthStatus[] = ['UNKNOWN', 'SERVING', 'NOT_SERVING'];

function checkStatus(service: unknown, status: unknown): void {
  if (typeof service !== 'string') {
    throw new WirekitError(
      'WK_OPTIONS_INVALID',
      `health: a service name must be a string, got ${describeValue(service)}.`,
    );
  }
  if (!healthStatuses.includes(status as HealthStatus)) {
    throw new WirekitError(
      'WK_OPTIONS_INVALID',
      `health: the status of ${JSON.stringify(service)} must be one of ${healthStatuses.join(', ')}, got ${describeValue(status)}.`,
    );
  }
}

/** One Watch stream: the status it has yet to send, and how to wake it when that changes. */
interface Watcher {
  latest: ServingStatus;
  wake: (() => void) | undefined;
}

/** A health service and the statuses it answers with (see the module's comment for the rules). */
export function createHealth(options: HealthOptions = {}): Health {
  const maxListed = options.maxListed ?? 100;
  const statuses = new Map<string, HealthStatus>(Object.entries(options.statuses ?? { '': 'SERVING' }));
  for (const [service, status] of statuses) checkStatus(service, status);
  const watchers = new Map<string, Set<Watcher>>();
  let shutDown = false;

  const update = (service: string, status: HealthStatus): void => {
    statuses.set(service, status);
    for (const watcher of watchers.get(service) ?? []) {
      watcher.latest = status;
      watcher.wake?.();
    }
  };

  const handlers: ServiceHandlers<typeof HealthService> = {
    async Check({ service }: HealthCheckRequest): Promise<HealthCheckResponse> {
      const status = statuses.get(service);
      if (status === undefined) throw new RpcError('NOT_FOUND', `no health status for service ${service}`);
      return { status };
    },

    async List(): Promise<HealthListResponse> {
      if (statuses.size > maxListed) {
        throw new RpcError(
          'RESOURCE_EXHAUSTED',
          `${statuses.size} services have a health status, more than the ${maxListed} List answers for`,
        );
      }
      return { statuses: Object.fromEntries([...statuses].map(([name, status]) => [name, { status }])) };
    },

    async *Watch({ service }: HealthCheckRequest, { signal }: CallContext) {
      const watcher: Watcher = { latest: statuses.get(service) ?? 'SERVICE_UNKNOWN', wake: undefined };
      const watching = watchers.get(service) ?? new Set<Watcher>();
      watchers.set(service, watching);
      watching.add(watcher);
      try {
        let sent: ServingStatus | undefined;
        while (!signal.aborted) {
          if (watcher.latest !== sent) {
            sent = watcher.latest;
            yield { status: sent };
            continue;
          }
          await changeOrAbort(watcher, signal);
        }
      } finally {
        watching.delete(watcher);
        if (watching.size === 0) watchers.delete(service);
      }
    },
  };

  return {
    service: HealthService,
    handlers,
    setStatus(service, status) {
      checkStatus(service, status);
      if (!shutDown) update(service, status);
    },
    statusOf: (service) => statuses.get(service),
    shutdown() {
      shutDown = true;
      for (const service of statuses.keys()) update(service, 'NOT_SERVING');
    },
  };
}

/** Resolves when the watcher's status is set or the call ends, whichever comes first. */
function changeOrAbort(watcher: Watcher, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      watcher.wake = undefined;
      signal.removeEventListener('abort', done);
      resolve();
    };
    watcher.wake = done;
    signal.addEventListener('abort', done);
  });
}
