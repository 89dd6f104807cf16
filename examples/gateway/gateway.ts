/**
 * The public gateway: REST and JSON (ProtoJSON) for browsers, curl and webhooks, each route made
 * from a method's `http` mapping, calling the internal service over gRPC in Protocol Buffers
 * through wirekit's RPC client.
 */
import Fastify from 'fastify';
import { grpcTransport } from 'wirekit-ts/rpc/client';
import { gatewayCallOf, rpcGateway } from 'wirekit-ts/rpc/gateway';
import { OrderService } from './schema.js';

export async function startGateway(port: number, internalUrl: string) {
  const transport = grpcTransport({ baseUrl: internalUrl, codec: 'proto' });
  // The gateway's one dependency on the RPC client: a call by method name, with its deadline,
  // metadata and cancellation. A failed call's RpcError names the gRPC status the gateway answers
  // by; a reply's Protocol Buffers bytes are written as ProtoJSON without becoming a value first.
  const call = gatewayCallOf(OrderService, transport);
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
