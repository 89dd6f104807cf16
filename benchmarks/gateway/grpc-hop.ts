/**
 * The JSON → gRPC hop: wirekit's rpcGateway on Fastify, each REST route made from the method's
 * `http` mapping, calling the backend over gRPC in Protocol Buffers through wirekit's RPC client
 * (`gatewayCallOf`: one HTTP/2 connection, calls multiplexed on it, replies written as ProtoJSON
 * from their bytes), as examples/gateway/gateway.ts does.
 */
import Fastify from 'fastify';
import { grpcTransport } from 'wirekit-ts/rpc/client';
import { gatewayCallOf, rpcGateway } from 'wirekit-ts/rpc/gateway';
import type { RunningHop } from './running-hop.js';
import { GatewayUserService } from './service.js';

export async function startGrpcHop(
  backendPort: number,
  acceptCompression: 'gzip' | 'identity' = 'gzip',
): Promise<RunningHop> {
  const transport = grpcTransport({
    baseUrl: `http://127.0.0.1:${backendPort}`,
    codec: 'proto',
    acceptCompression,
  });
  const call = gatewayCallOf(GatewayUserService, transport);
  const app = Fastify({ logger: false });
  await app.register(rpcGateway(GatewayUserService, call, { timeoutMs: 5000 }));
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    port: Number(new URL(address).port),
    close: async () => {
      await app.close();
      transport.close();
    },
  };
}
