/**
 * The two hops bench:gateway compares, each in front of the backend bench:rpc has for its wire:
 * wirekit's own RPC server in Protocol Buffers behind the gRPC hops, plain Fastify JSON behind the
 * JSON one. The JSON → JSON hop is the baseline of the ratio. The other gRPC hops differ from the
 * first in one thing each: the client asks for replies as they are (the JSON hop compresses nothing
 * either), or the RPC client is grpc-js's, which tells the client's share of the hop.
 */

import type { StackKind } from '../rpc/protocol.js';
import type { BenchCodec } from '../rpc/service.js';
import type { Hop } from './protocol.js';

export interface HopEntry {
  /** The name --hops takes. */
  readonly id: Hop;
  readonly label: string;
  /** The backend, one of bench:rpc's server stacks, and the format it speaks. */
  readonly backend: StackKind;
  readonly codec: BenchCodec;
}

export const hops: readonly HopEntry[] = [
  {
    id: 'json-grpc',
    label: 'JSON → gRPC (wirekit rpcGateway + RPC client, proto)',
    backend: 'wirekit',
    codec: 'proto',
  },
  {
    id: 'json-grpc-identity',
    label: "JSON → gRPC, replies not compressed (acceptCompression: 'identity')",
    backend: 'wirekit',
    codec: 'proto',
  },
  {
    id: 'json-grpcjs',
    label: 'JSON → gRPC (wirekit rpcGateway + grpc-js client, proto)',
    backend: 'wirekit',
    codec: 'proto',
  },
  {
    id: 'json-json',
    label: 'JSON → JSON (Fastify route + undici Pool)',
    backend: 'fastify-json',
    codec: 'json',
  },
];

export const baselineHop: Hop = 'json-json';
