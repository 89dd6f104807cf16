/**
 * The cases of bench:rpc: one entry per server stack, protocol and format, each run on the
 * workloads it has (small unary, the list as one reply, the list as a stream). Adding a server is
 * an entry here and a starter in stacks/. The entries on wirekit's own server need its entry point
 * (`wirekit-ts/rpc/server`); without it they are left out with the reason, and the rest runs.
 */
import type { CallProtocol, StackKind } from './protocol.js';
import type { BenchCodec, Workload } from './service.js';
import { workloads } from './service.js';

export interface StackEntry {
  /** The name --cases takes. */
  readonly id: string;
  readonly label: string;
  readonly stack: StackKind;
  readonly protocol: CallProtocol;
  readonly codec: BenchCodec;
  readonly workloads: readonly Workload[];
}

const unaryOnly: readonly Workload[] = ['small', 'list'];

export const entries: readonly StackEntry[] = [
  {
    id: 'grpcjs-static',
    label: 'grpc-js + protobufjs static code',
    stack: 'grpcjs-static',
    protocol: 'grpc',
    codec: 'proto',
    workloads,
  },
  {
    id: 'connect-es-grpc',
    label: 'Connect-ES + protobuf-es',
    stack: 'connect-es',
    protocol: 'grpc',
    codec: 'proto',
    workloads,
  },
  {
    id: 'connect-es-connect',
    label: 'Connect-ES + protobuf-es',
    stack: 'connect-es',
    protocol: 'connect',
    codec: 'proto',
    workloads,
  },
  {
    id: 'fastify-json',
    label: 'plain Fastify JSON (HTTP/1.1)',
    stack: 'fastify-json',
    protocol: 'http-json',
    codec: 'json',
    workloads: unaryOnly,
  },
  {
    id: 'http2-floor',
    label: 'node:http2 floor: replies encoded in advance',
    stack: 'http2-floor',
    protocol: 'grpc',
    codec: 'proto',
    workloads,
  },
  {
    id: 'grpcjs-wirekit-proto',
    label: 'wirekit codecs on grpc-js',
    stack: 'grpcjs-wirekit',
    protocol: 'grpc',
    codec: 'proto',
    workloads,
  },
  {
    id: 'grpcjs-wirekit-msgpack',
    label: 'wirekit codecs on grpc-js',
    stack: 'grpcjs-wirekit',
    protocol: 'grpc',
    codec: 'msgpack',
    workloads,
  },
  {
    id: 'wirekit-grpc-proto',
    label: 'wirekit server',
    stack: 'wirekit',
    protocol: 'grpc',
    codec: 'proto',
    workloads,
  },
  {
    id: 'wirekit-grpc-msgpack',
    label: 'wirekit server',
    stack: 'wirekit',
    protocol: 'grpc',
    codec: 'msgpack',
    workloads,
  },
  {
    id: 'wirekit-connect-proto',
    label: 'wirekit server',
    stack: 'wirekit',
    protocol: 'connect',
    codec: 'proto',
    workloads,
  },
  {
    id: 'wirekit-connect-msgpack',
    label: 'wirekit server',
    stack: 'wirekit',
    protocol: 'connect',
    codec: 'msgpack',
    workloads,
  },
];

/** The row the ratios are taken against: the common Node stack, and Connect-ES on the same protocol. */
export const baselineId = 'grpcjs-static';
export function connectBaselineOf(entry: StackEntry): string | undefined {
  if (entry.protocol === 'grpc') return 'connect-es-grpc';
  if (entry.protocol === 'connect') return 'connect-es-connect';
  return undefined;
}
