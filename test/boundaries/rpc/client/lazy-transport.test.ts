/**
 * A transport whose protocol code loads on its first call: a load that fails (an optional peer
 * missing) fails the call with WK_PEER_MISSING and is tried again on the next call, so installing
 * the peer needs no new client; a load that succeeds happens once.
 */
import { expect, test } from 'vitest';
import { lazyTransport } from '../../../../src/boundaries/rpc/client/lazy-transport.js';
import type { RpcTransport, TransportCall } from '../../../../src/boundaries/rpc/client/transport.js';
import { importPeer } from '../../../../src/util/optional-peer.js';

test('a failed load fails the call with what to install, and is tried again next time', async () => {
  let loads = 0;
  let installed = false;
  const inner: RpcTransport = {
    protocol: 'connect',
    codec: 'proto',
    unary: async (_call, request) => ({ header: new Headers(), message: request, trailer: new Headers() }),
    stream: async () => {
      throw new Error('unused');
    },
  };
  const transport = lazyTransport('connect', 'proto', () => {
    loads += 1;
    return importPeer(
      async () => {
        if (!installed) throw new Error("Cannot find package '@connectrpc/connect'");
        return inner;
      },
      'connectTransport',
      '@connectrpc/connect',
    );
  });
  const call = {} as TransportCall;
  await expect(transport.unary(call, 1)).rejects.toMatchObject({
    code: 'WK_PEER_MISSING',
    message: 'connectTransport needs the @connectrpc/connect package (npm install @connectrpc/connect)',
  });
  installed = true;
  expect((await transport.unary(call, 2)).message).toBe(2);
  expect((await transport.unary(call, 3)).message).toBe(3);
  expect(loads).toBe(2);
});
