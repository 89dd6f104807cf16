/**
 * Connect-ES, loaded on first use. Connect is an optional peer of wirekit: the `wirekit-ts/rpc/server`
 * entry must load without it (a user who serves no RPC installs no Connect), so no module of the
 * server imports Connect's values at load time. `createRpcServer` and `rpcPlugin` await
 * `loadConnect()` before anything else; the synchronous code they then run (the protocol handler
 * factories, the router, the error mapping) takes Connect's modules from `connectRuntime()`. The
 * modules are imported as ES modules, so they are the very instances connect-node and
 * connect-fastify import (ConnectError, the routers' handlers).
 */
import type * as Connect from '@connectrpc/connect';
import type * as ConnectProtocol from '@connectrpc/connect/protocol';
import type * as ConnectProtocolConnect from '@connectrpc/connect/protocol-connect';
import type * as ConnectGrpc from '@connectrpc/connect/protocol-grpc';
import type * as ConnectGrpcWeb from '@connectrpc/connect/protocol-grpc-web';
import { WirekitError } from '../../../errors/index.js';
import { importPeer } from '../../../util/optional-peer.js';
import type * as ServiceDescriptor from '../service-descriptor.js';

export interface ConnectRuntime {
  readonly connect: typeof Connect;
  readonly protocol: typeof ConnectProtocol;
  readonly grpc: typeof ConnectGrpc;
  readonly connectProtocol: typeof ConnectProtocolConnect;
  readonly grpcWeb: typeof ConnectGrpcWeb;
  /** wirekit's services as Connect's descriptors (needs @bufbuild/protobuf, Connect's own peer). */
  readonly describeServices: typeof ServiceDescriptor.describeServices;
}

let loading: Promise<ConnectRuntime> | undefined;
let loaded: ConnectRuntime | undefined;

/** Loads Connect's modules once; a missing package is WK_PEER_MISSING naming it. */
export function loadConnect(): Promise<ConnectRuntime> {
  loading ??= importPeer(
    async () => {
      const [connect, protocol, grpc, connectProtocol, grpcWeb, { describeServices }] = await Promise.all([
        import('@connectrpc/connect'),
        import('@connectrpc/connect/protocol'),
        import('@connectrpc/connect/protocol-grpc'),
        import('@connectrpc/connect/protocol-connect'),
        import('@connectrpc/connect/protocol-grpc-web'),
        import('../service-descriptor.js'),
      ]);
      loaded = { connect, protocol, grpc, connectProtocol, grpcWeb, describeServices };
      return loaded;
    },
    'The RPC server',
    '@connectrpc/connect',
  ).catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** Connect's modules, once `loadConnect()` has settled (every public entry of the server awaits it). */
export function connectRuntime(): ConnectRuntime {
  if (loaded === undefined) {
    throw new WirekitError(
      'WK_OPTIONS_INVALID',
      'Connect is not loaded yet: await loadConnect() before building RPC handlers (createRpcServer and rpcPlugin do).',
    );
  }
  return loaded;
}
