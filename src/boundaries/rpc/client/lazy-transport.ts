/**
 * A transport whose protocol code is loaded on its first call. Connect-ES (and protobuf-es beneath
 * it) are optional peers of wirekit: the client's entries load without them, and the first call
 * of a client that needs them fails with WK_PEER_MISSING naming the package to install, as every
 * boundary of wirekit does for its optional peers.
 */
import type { RpcCodecName } from '../message-formats.js';
import type { RpcClientProtocol, RpcTransport } from './transport.js';

export function lazyTransport(
  protocol: RpcClientProtocol,
  codec: RpcCodecName,
  load: () => Promise<RpcTransport>,
): RpcTransport {
  let loading: Promise<RpcTransport> | undefined;
  const loaded = () => {
    loading ??= load();
    // A failed load (a missing peer) is not kept: installing the peer must not need a new client.
    loading.catch(() => {
      loading = undefined;
    });
    return loading;
  };
  return {
    protocol,
    codec,
    unary: async (call, request) => (await loaded()).unary(call, request),
    stream: async (call, requests) => (await loaded()).stream(call, requests),
  };
}
