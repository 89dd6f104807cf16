/**
 * The public gateway: REST and JSON (ProtoJSON) for browsers, curl and webhooks, each route made
 * from a method's `http` mapping, calling the internal service over gRPC in Protocol Buffers
 * through wirekit's RPC client.
 */
import Fastify from 'fastify';
import { createRpcClient, grpcTransport } from 'wirekit-ts/rpc/client';
import { type GatewayCall, rpcGateway } from 'wirekit-ts/rpc/gateway';
import { OrderService } from './schema.js';

export async function startGateway(port: number, internalUrl: string) {
  const transport = grpcTransport({ baseUrl: internalUrl, codec: 'proto' });
  const client = createRpcClient(OrderService, transport);
  // The gateway's one dependency on the RPC client: a call by method name, with its deadline,
  // metadata and cancellation. A failed call's RpcError names the gRPC status the gateway answers by.
  const call: GatewayCall<typeof OrderService> = (method, request, options) =>
    (client[method] as (request: unknown, options: object) => Promise<unknown>)(request, options);
  const app = Fastify({ logger: false });
  await app.register(rpcGateway(OrderService, call, { timeoutMs: 5000 }), { prefix: '/api' });
  const url = await app.listen({ host: '127.0.0.1', port });
  return {
    url,
    stop: async () => {
      await app.close();
      transport.close();
    },
  };
}
