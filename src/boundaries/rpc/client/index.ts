/**
 * `wirekit-ts/rpc/client`: the typed RPC client on Node, over gRPC (HTTP/2), Connect and gRPC-Web.
 * A page imports `wirekit-ts/rpc/web` instead (Connect and gRPC-Web over fetch).
 */

export { type RawErrorDetail, RpcError, type RpcFailureStatus } from '../rpc-error.js';
export { createRpcClient, type RpcCallOptions, type RpcClientOptions } from './client.js';
export {
  type ConnectTransportOptions,
  connectTransport,
  type GrpcTransportOptions,
  type GrpcWebTransportOptions,
  grpcTransport,
  grpcWebTransport,
  type NodeRpcTransport,
  type NodeTransportOptions,
} from './node-transports.js';
export type { RetryOptions } from './retry.js';
export type { HeaderValues, RpcClientProtocol, RpcTransport, TransportOptions } from './transport.js';
