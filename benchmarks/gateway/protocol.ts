/**
 * What bench:gateway's main process says to its gateway and load-generator processes over their
 * IPC channels, and what they answer (benchmarks/ws/child.ts carries it: a reply of type `failed`
 * rejects). The backend process is bench:rpc's server process, spoken to in its own protocol.
 */
import type { Window } from '../rpc/protocol.js';
import type { GatewayWorkload } from './service.js';

/**
 * The hop measured: wirekit's rpcGateway calling over gRPC through wirekit's RPC client (replies
 * gzipped past 1 KiB, the client's default, or as they are) or through grpc-js, or a hand-written
 * JSON forward.
 */
export type Hop = 'json-grpc' | 'json-grpc-identity' | 'json-grpcjs' | 'json-json';

export type GatewayCommand =
  | {
      readonly type: 'start';
      readonly hop: Hop;
      readonly backendPort: number;
      /** Connections to the backend where the hop has a pool of them (HTTP/1.1). */
      readonly connections: number;
    }
  | { readonly type: 'mark' };

export type GatewayReply =
  | { readonly type: 'ready'; readonly port: number }
  /** CPU time (user + system) and wall time since the previous mark. */
  | { readonly type: 'window'; readonly cpuUs: number; readonly wallMs: number }
  | { readonly type: 'failed'; readonly message: string };

export interface LoadTarget {
  readonly port: number;
  readonly hop: Hop;
  readonly workload: GatewayWorkload;
  /** Users in a list reply. */
  readonly users: number;
  /** Connections to the gateway, one request in flight on each. */
  readonly concurrency: number;
}

export type LoadCommand =
  | { readonly type: 'connect'; readonly target: LoadTarget }
  | { readonly type: 'run'; readonly seconds: number };

export type LoadReply =
  | { readonly type: 'connected' }
  | ({ readonly type: 'ran' } & Window)
  | { readonly type: 'failed'; readonly message: string };
