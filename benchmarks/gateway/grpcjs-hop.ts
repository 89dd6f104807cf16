/**
 * The JSON → gRPC hop with another client under the same gateway: wirekit's rpcGateway calling the
 * backend through @grpc/grpc-js (one channel, its generic `makeUnaryRequest`), wirekit's Protocol
 * Buffers codecs as its serializers, the deadline and cancellation passed on. It separates the
 * RPC client's share of the hop from rpcGateway's: the same routes, bindings and ProtoJSON, only
 * the call differs. rpcGateway reads grpc-js's errors itself (their numeric `code`).
 */
import * as grpc from '@grpc/grpc-js';
import Fastify from 'fastify';
import { type GatewayCall, rpcGateway } from 'wirekit-ts/rpc/gateway';
import { messageCodecs, serviceName } from '../rpc/service.js';
import type { RunningHop } from './running-hop.js';
import { GatewayUserService } from './service.js';

// grpc-js copies the serializer's result: a view over wirekit's bytes, no copy here.
const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

interface UnaryMethod {
  readonly path: string;
  serialize(value: unknown): Buffer;
  deserialize(bytes: Buffer): unknown;
}

export async function startGrpcJsHop(backendPort: number): Promise<RunningHop> {
  const codecs = messageCodecs('proto');
  const methods: Readonly<Record<string, UnaryMethod>> = {
    GetUser: {
      path: `/${serviceName}/GetUser`,
      serialize: (value) => asBuffer(codecs.getUserRequest.encode(value as { id: number })),
      deserialize: (bytes) => codecs.user.decode(bytes),
    },
    ListUsers: {
      path: `/${serviceName}/ListUsers`,
      serialize: (value) => asBuffer(codecs.listUsersRequest.encode(value as { count: number })),
      deserialize: (bytes) => codecs.userList.decode(bytes),
    },
  };
  const client = new grpc.Client(`127.0.0.1:${backendPort}`, grpc.credentials.createInsecure());
  const call: GatewayCall<typeof GatewayUserService> = (name, request, options) =>
    new Promise((resolve, reject) => {
      const method = methods[name] as UnaryMethod;
      const deadline = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
      const pending = client.makeUnaryRequest(
        method.path,
        method.serialize,
        method.deserialize,
        request,
        grpc.Metadata.fromHttp2Headers(options.headers),
        { deadline },
        (error, reply) => (error ? reject(error) : resolve(reply)),
      );
      options.signal.addEventListener('abort', () => pending.cancel(), { once: true });
    });
  const app = Fastify({ logger: false });
  await app.register(rpcGateway(GatewayUserService, call, { timeoutMs: 5000 }));
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    port: Number(new URL(address).port),
    close: async () => {
      await app.close();
      client.close();
    },
  };
}
