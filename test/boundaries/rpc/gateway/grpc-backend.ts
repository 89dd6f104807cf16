/**
 * The internal side of the gateway tests: a @grpc/grpc-js server whose serializers are wirekit's
 * Protocol Buffers codecs (grpc-js takes them natively), and a grpc-js client call with the
 * gateway's `call` signature, so a REST request crosses a real gRPC hop. The server keeps every
 * request's bytes as they arrived, so a test can say what the hop carried. Small and local: a
 * general grpc-js peer lives elsewhere.
 */
import * as grpc from '@grpc/grpc-js';
import type { GatewayCall } from '../../../../src/boundaries/rpc/gateway/index.js';
import { createProtobufCodec } from '../../../../src/codecs/protobuf/index.js';
import type { MethodSchema, ServiceSchema } from '../../../../src/index.js';

/** A unary handler: the decoded request, the call's metadata; throws `{ code, details }` to fail. */
export type Handler = (request: never, metadata: grpc.Metadata) => unknown;

export interface GrpcBackend {
  readonly port: number;
  /** Each request's bytes as the server received them, with its method. */
  readonly received: { method: string; bytes: Buffer }[];
  readonly call: GatewayCall;
  close(): Promise<void>;
}

/** grpc-js copies from a Buffer: wrap the codec's view without copying. */
const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Rewrites a reply's bytes before they are sent (to send what no encoder would write). */
export type ReplyTamper = (method: string, bytes: Buffer) => Buffer;

export async function startGrpcBackend(
  service: ServiceSchema,
  handlers: Readonly<Record<string, Handler>>,
  tamper: ReplyTamper = (_method, bytes) => bytes,
): Promise<GrpcBackend> {
  const received: { method: string; bytes: Buffer }[] = [];
  const definition: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
  const implementation: grpc.UntypedServiceImplementation = {};
  const fullName = `${service.namespace}.${service.name}`;
  for (const [name, method] of Object.entries(service.methods) as [string, MethodSchema][]) {
    const input = createProtobufCodec({ schema: method.input });
    const output = createProtobufCodec({ schema: method.output });
    definition[name] = {
      path: `/${fullName}/${name}`,
      requestStream: false,
      responseStream: false,
      requestSerialize: (value: unknown) => asBuffer(input.encode(value)),
      requestDeserialize: (bytes: Buffer) => {
        received.push({ method: name, bytes: Buffer.from(bytes) });
        return input.decode(bytes);
      },
      responseSerialize: (value: unknown) => tamper(name, asBuffer(output.encode(value))),
      responseDeserialize: (bytes: Buffer) => output.decode(bytes),
    };
    const handler = handlers[name];
    implementation[name] = (
      call: grpc.ServerUnaryCall<unknown, unknown>,
      callback: grpc.sendUnaryData<unknown>,
    ) => {
      Promise.resolve()
        .then(() => {
          if (handler === undefined)
            throw { code: grpc.status.UNIMPLEMENTED, details: `${name} is not served` };
          return handler(call.request as never, call.metadata);
        })
        .then(
          (reply) => callback(null, reply),
          (error: grpc.ServiceError) => callback(error),
        );
    };
  }
  const server = new grpc.Server();
  server.addService(definition, implementation);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  const client = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const call: GatewayCall = (method, request, options) =>
    new Promise((resolve, reject) => {
      const described = definition[method] as grpc.MethodDefinition<unknown, unknown>;
      const metadata = new grpc.Metadata();
      for (const [key, value] of Object.entries(options.headers)) metadata.set(key, value);
      const deadline = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
      const pending = client.makeUnaryRequest(
        described.path,
        described.requestSerialize,
        described.responseDeserialize,
        request,
        metadata,
        { deadline },
        (error, reply) => (error ? reject(error) : resolve(reply)),
      );
      options.signal.addEventListener('abort', () => pending.cancel(), { once: true });
    });
  return {
    port,
    received,
    call,
    close: async () => {
      client.close();
      await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
    },
  };
}
