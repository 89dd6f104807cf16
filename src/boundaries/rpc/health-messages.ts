/**
 * gRPC's health checking protocol as wirekit schemas: `grpc.health.v1.Health` with `Check`, `List`
 * and `Watch`, as grpc-proto's health.proto declares them (the version grpc-health-check 2.1.0 and
 * grpcio-health-checking 1.85 ship). Names, numbers and the status enum's values are the
 * protocol's; load balancers, Kubernetes' gRPC probes and `grpc_health_probe` read these bytes.
 */
import { type Infer, t } from '../../schema/index.js';

const healthPackage = 'grpc.health.v1';

export const HealthCheckRequest = t.object(
  'HealthCheckRequest',
  {
    /** The service asked about by its full name; `''` asks about the server as a whole. */
    service: t.string(),
  },
  { namespace: healthPackage },
);
export type HealthCheckRequest = Infer<typeof HealthCheckRequest>;

/**
 * A service's status. `SERVICE_UNKNOWN` is only ever sent by Watch, for a service the server has no
 * status for (yet); Check answers NOT_FOUND for one instead.
 */
export const ServingStatus = t.enum(
  'ServingStatus',
  ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'],
  {
    // Nested in HealthCheckResponse, as the protocol declares it (.grpc.health.v1.HealthCheckResponse.ServingStatus).
    namespace: `${healthPackage}.HealthCheckResponse`,
    numbers: [0, 1, 2, 3],
  },
);
export type ServingStatus = Infer<typeof ServingStatus>;

export const HealthCheckResponse = t.object(
  'HealthCheckResponse',
  { status: ServingStatus },
  { namespace: healthPackage },
);
export type HealthCheckResponse = Infer<typeof HealthCheckResponse>;

const HealthListRequest = t.object('HealthListRequest', {}, { namespace: healthPackage });

export const HealthListResponse = t.object(
  'HealthListResponse',
  {
    /** Every service the server has a status for, by name (`''` among them). */
    statuses: t.map(t.string(), HealthCheckResponse),
  },
  { namespace: healthPackage },
);
export type HealthListResponse = Infer<typeof HealthListResponse>;

/** `grpc.health.v1.Health`. */
export const HealthService = t.service(`${healthPackage}.Health`, {
  /** The status of one service now; NOT_FOUND for a service the server has no status for. */
  Check: t.unary(HealthCheckRequest, HealthCheckResponse),
  /** Every service's status now; RESOURCE_EXHAUSTED when there are more than the server lists. */
  List: t.unary(HealthListRequest, HealthListResponse),
  /** The status now, then each change, until the client cancels. */
  Watch: t.serverStream(HealthCheckRequest, HealthCheckResponse),
});
