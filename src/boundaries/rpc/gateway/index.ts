/**
 * JSON at the edge: a service's REST mappings (google.api.http) served by Fastify, each calling the
 * RPC behind it. Loads no RPC library of its own: the call is the user's (wirekit's RPC client
 * through `gatewayCallOf`, a grpc-js client, a function).
 */
export type { GatewayError } from './call-failure.js';
export { gatewayCallOf } from './client-call.js';
export { type GatewayCall, type GatewayCallOptions, type RpcGatewayOptions, rpcGateway } from './gateway.js';
