/**
 * A small service router for testing wirekit's protocol handler factories before the real one
 * (service-router.ts, another part of issue 34) is merged: each method of a wirekit service,
 * described for Connect by `describeServices`, is served by `createUniversalMethodHandler` with
 * the factories under test, its plain wirekit handler adapted to Connect's implementation shape
 * (requests are wirekit values; replies boxed with `boxReply`), on `connectNodeAdapter` over
 * node:http (HTTP/1.1) or node:http2 (h2c) on a free port.
 */
import { createServer as createHttp1Server, type Server } from 'node:http';
import { createServer as createHttp2Server, type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { DescMethod } from '@bufbuild/protobuf';
import { createMethodImplSpec, type HandlerContext } from '@connectrpc/connect';
import {
  createUniversalMethodHandler,
  type ProtocolHandlerFactory,
  type UniversalHandlerOptions,
  validateUniversalHandlerOptions,
} from '@connectrpc/connect/protocol';
import { compressionBrotli, compressionGzip, connectNodeAdapter } from '@connectrpc/connect-node';
import {
  MessageSerializers,
  type RpcCodecName,
  rpcCodecNames,
} from '../../../../src/boundaries/rpc/message-formats.js';
import { loadConnect } from '../../../../src/boundaries/rpc/server/connect-runtime.js';
import {
  boxReply,
  type MethodSerializers,
  type WirekitHandlerOptions,
} from '../../../../src/boundaries/rpc/server/handler-options.js';
import { defaultMessageMaxBytes } from '../../../../src/boundaries/rpc/server/method-serialization.js';
import { describeServices } from '../../../../src/boundaries/rpc/service-descriptor.js';
import type { MethodSchema, ServiceSchema } from '../../../../src/schema/index.js';

/** A method's plain handler: wirekit values in and out, as unary, stream or async generator. */
// biome-ignore lint/suspicious/noExplicitAny: the test handlers are typed by their own modules.
export type PlainHandler = (request: any, context: HandlerContext) => any;

export interface TestServer {
  readonly url: string;
  close(): Promise<void>;
}

export interface TestServerOptions extends Partial<UniversalHandlerOptions> {
  readonly httpVersion: '1.1' | '2';
  readonly codecs?: readonly RpcCodecName[];
}

export type FactoryMaker = (options: WirekitHandlerOptions) => ProtocolHandlerFactory;

export async function serveTestService(
  service: ServiceSchema,
  handlers: Readonly<Record<string, PlainHandler>>,
  factories: readonly FactoryMaker[],
  { httpVersion, codecs = rpcCodecNames, ...handlerOptions }: TestServerOptions,
): Promise<TestServer> {
  // wirekit's factories take Connect's modules from the runtime the server's entry loads first.
  await loadConnect();
  const [described] = describeServices([service]);
  if (described === undefined) throw new Error('no service described');
  const schemas = service.methods as Readonly<Record<string, MethodSchema>>;
  const serializers = new Map<DescMethod, MethodSerializers>(
    described.methods.map((method) => {
      const schema = schemas[method.name] as MethodSchema;
      return [
        method,
        { input: new MessageSerializers(schema.input), output: new MessageSerializers(schema.output) },
      ];
    }),
  );
  // The limits a real server sets (4 MiB each way), where Connect's own default is 4 GiB.
  const options: WirekitHandlerOptions = {
    ...validateUniversalHandlerOptions({
      acceptCompression: [compressionGzip, compressionBrotli],
      readMaxBytes: defaultMessageMaxBytes,
      writeMaxBytes: defaultMessageMaxBytes,
      ...handlerOptions,
    }),
    codecs,
    serializersOf: (method) => serializers.get(method) as MethodSerializers,
  };
  const made = factories.map((make) => make(options));
  const listener = connectNodeAdapter({
    routes(router) {
      for (const method of described.methods) {
        const handler = handlers[method.name];
        if (handler === undefined) throw new Error(`no handler for ${method.name}`);
        const spec = createMethodImplSpec(method, adapt(method, handler) as never);
        router.handlers.push(createUniversalMethodHandler(spec, made));
      }
    },
  });
  const server: Server | Http2Server =
    httpVersion === '2' ? createHttp2Server(listener) : createHttp1Server(listener);
  // HTTP/2 sessions stay open after server.close(): keep them to end them with the server.
  const sessions = new Set<{ destroy(): void }>();
  server.on('session', (session: { destroy(): void; once(event: 'close', f: () => void): void }) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        for (const session of sessions) session.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A plain handler as Connect's implementation of `method`: replies boxed, streams mapped. */
function adapt(method: DescMethod, handler: PlainHandler): PlainHandler {
  switch (method.methodKind) {
    case 'unary':
    case 'client_streaming':
      return async (request, context) => boxReply(method, await handler(request, context));
    case 'server_streaming':
    case 'bidi_streaming':
      return async function* replies(request, context) {
        for await (const reply of handler(request, context)) yield boxReply(method, reply);
      };
  }
}
