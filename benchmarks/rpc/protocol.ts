/**
 * What bench:rpc's main process says to its server and client processes over their IPC channels,
 * and what they answer (benchmarks/ws/child.ts carries it: a reply of type `failed` rejects).
 */
import type { BenchCodec, Workload } from './service.js';

/** How the client calls: gRPC or Connect over HTTP/2 (h2c), or a JSON POST over HTTP/1.1. */
export type CallProtocol = 'grpc' | 'connect' | 'http-json';

/** Which server a process runs (stacks/*.ts). */
export type StackKind =
  | 'grpcjs-static'
  | 'grpcjs-wirekit'
  | 'connect-es'
  | 'fastify-json'
  | 'wirekit'
  | 'http2-floor';

export type ServerCommand =
  | { readonly type: 'start'; readonly stack: StackKind; readonly codec: BenchCodec; readonly users: number }
  | { readonly type: 'mark' }
  | { readonly type: 'serialize'; readonly workload: Workload; readonly milliseconds: number };

export type ServerReply =
  | { readonly type: 'ready'; readonly port: number }
  /** CPU time (user + system) and wall time since the previous mark. */
  | { readonly type: 'window'; readonly cpuUs: number; readonly wallMs: number }
  /** The stack's own serializer alone on one reply of the workload (a stream: all its messages), mean CPU µs. */
  | { readonly type: 'serialized'; readonly us: number; readonly rounds: number }
  | { readonly type: 'failed'; readonly message: string };

export interface CallTarget {
  readonly port: number;
  readonly protocol: CallProtocol;
  readonly codec: BenchCodec;
  readonly workload: Workload;
  readonly users: number;
  /** Calls in flight at once, on one connection. */
  readonly concurrency: number;
}

export type ClientCommand =
  | { readonly type: 'connect'; readonly target: CallTarget }
  | { readonly type: 'run'; readonly seconds: number };

export interface Window {
  /** Calls completed in the window, and of them those whose every reply matched the expected values. */
  readonly calls: number;
  readonly verified: number;
  readonly errors: number;
  readonly firstError: string | undefined;
  /** Messages received (a unary call's one reply, a stream's every message). */
  readonly messages: number;
  /** Reply bytes received (message bytes, without framing). */
  readonly bytes: number;
  readonly wallMs: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** This client process's CPU time over the window. */
  readonly cpuUs: number;
}

export type ClientReply =
  | { readonly type: 'connected' }
  | ({ readonly type: 'ran' } & Window)
  | { readonly type: 'failed'; readonly message: string };
