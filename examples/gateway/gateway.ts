/**
 * The public gateway: REST and JSON (ProtoJSON) for browsers, curl and webhooks, each route made
 * from a method's `http` mapping, calling the internal service over gRPC in Protocol Buffers.
 */
import * as grpc from '@grpc/grpc-js';
import Fastify from 'fastify';
import { type GatewayCall, rpcGateway } from 'wirekit-ts/rpc/gateway';
import { grpcDefinition } from './grpc-codecs.js';
import { OrderService } from './schema.js';

export async function startGateway(port: number, internal: string) {
  const definition = grpcDefinition(OrderService);
  const client = new grpc.Client(internal, grpc.credentials.createInsecure());
  // The gateway's one dependency on the RPC library: a call by method name, with its deadline,
  // metadata and cancellation. Its errors carry the gRPC status the gateway answers with.
  const call: GatewayCall<typeof OrderService> = (method, request, { signal, timeoutMs, headers }) =>
    new Promise((resolve, reject) => {
      const { path, requestSerialize, responseDeserialize } = definition[method] as grpc.MethodDefinition<
        unknown,
        unknown
      >;
      const metadata = new grpc.Metadata();
      for (const [key, value] of Object.entries(headers)) metadata.set(key, value);
      const deadline = timeoutMs === undefined ? Infinity : Date.now() + timeoutMs;
      const pending = client.makeUnaryRequest(
        path,
        requestSerialize,
        responseDeserialize,
        request,
        metadata,
        { deadline },
        (error, reply) => (error ? reject(error) : resolve(reply)),
      );
      signal.addEventListener('abort', () => pending.cancel(), { once: true });
    });
  const app = Fastify({ logger: false });
  await app.register(rpcGateway(OrderService, call, { timeoutMs: 5000 }), { prefix: '/api' });
  const url = await app.listen({ host: '127.0.0.1', port });
  return {
    url,
    stop: async () => {
      await app.close();
      client.close();
    },
  };
}
