/**
 * The reflection handlers answer each kind of request from wirekit's descriptor files, called as a
 * server calls them (an async iterable of requests in, replies out), and their replies are bytes of
 * the protocol's messages. The peers (grpcurl, Python's reflection client) are in
 * reflection-interop.test.ts.
 */
import { describe, expect, test } from 'vitest';
import {
  HealthService,
  reflectionHandlers,
  ServerReflection,
  type ServerReflectionRequest,
  type ServerReflectionResponse,
  ServerReflectionV1Alpha,
  serverReflection,
  serviceFiles,
} from '../../../src/boundaries/rpc/index.js';
import { createProtobufCodec } from '../../../src/codecs/protobuf/index.js';
import { t } from '../../../src/index.js';
import { OrderService } from '../../fixtures/order-service.js';

const context = { signal: new AbortController().signal };

/** The replies of one reflection stream that sends `requests`, in order. */
async function ask(
  handlers: ReturnType<typeof reflectionHandlers>,
  requests: ServerReflectionRequest[],
): Promise<ServerReflectionResponse[]> {
  async function* sent() {
    yield* requests;
  }
  const replies: ServerReflectionResponse[] = [];
  for await (const reply of handlers.ServerReflectionInfo(sent(), context)) {
    replies.push(reply as ServerReflectionResponse);
  }
  return replies;
}

/** A FileDescriptorProto read only as far as its name. */
const nameCodec = createProtobufCodec<{ name?: string }>({
  schema: t.object('FileDescriptorProto', { name: t.field(t.optional(t.string()), { id: 1 }) }),
});
const namesOf = (reply: ServerReflectionResponse | undefined) =>
  reply?.file_descriptor_response?.file_descriptor_proto.map((file) => nameCodec.decode(file).name);

const files = serviceFiles([OrderService, HealthService, ServerReflection]);
const handlers = reflectionHandlers(files);
const host = 'localhost:50051';

describe('reflection handlers', () => {
  test('ListServices: every service of the files, each reply echoing its request and host', async () => {
    const request = { host, list_services: '*' };
    const [reply] = await ask(handlers, [request]);
    expect(reply).toEqual({
      valid_host: host,
      original_request: request,
      list_services_response: {
        service: [
          { name: 'orders.v1.OrderService' },
          { name: 'grpc.health.v1.Health' },
          { name: 'grpc.reflection.v1.ServerReflection' },
        ],
      },
    });
  });

  test('FileContainingSymbol: the declaring file, then its imports', async () => {
    const symbols = [
      'orders.v1.OrderService',
      'orders.v1.OrderService.GetOrder',
      'orders.v1.Order',
      '.orders.v1.Order',
      'orders.v1.Order.placedAt',
    ];
    const replies = await ask(
      handlers,
      symbols.map((symbol) => ({ host, file_containing_symbol: symbol })),
    );
    for (const reply of replies) {
      expect(namesOf(reply), reply.original_request.file_containing_symbol).toEqual([
        'orders/v1/OrderService.proto',
        'google/protobuf/timestamp.proto',
      ]);
    }
    const [health] = await ask(handlers, [
      { host, file_containing_symbol: 'grpc.health.v1.HealthCheckResponse.ServingStatus' },
    ]);
    expect(namesOf(health)).toEqual(['grpc/health/v1/Health.proto']);
  });

  test('FileByFilename, a well-known file included', async () => {
    const [orders, timestamp] = await ask(handlers, [
      { host, file_by_filename: 'orders/v1/OrderService.proto' },
      { host, file_by_filename: 'google/protobuf/timestamp.proto' },
    ]);
    expect(namesOf(orders)).toEqual(['orders/v1/OrderService.proto', 'google/protobuf/timestamp.proto']);
    expect(orders?.file_descriptor_response?.file_descriptor_proto[0]).toBe(
      files.files.get('orders/v1/OrderService.proto'),
    );
    expect(namesOf(timestamp)).toEqual(['google/protobuf/timestamp.proto']);
  });

  test('what is not here: NOT_FOUND error responses, and the stream goes on', async () => {
    const replies = await ask(handlers, [
      { host, file_by_filename: 'orders/v1/orders.proto' },
      { host, file_containing_symbol: 'orders.v1.Nope' },
      { host, file_containing_extension: { containing_type: 'orders.v1.Order', extension_number: 100 } },
      { host, all_extension_numbers_of_type: 'orders.v1.OrderService' },
      { host, all_extension_numbers_of_type: 'orders.v1.Nope' },
      { host, list_services: '' },
    ]);
    expect(replies.map((reply) => reply.error_response)).toEqual([
      { error_code: 5, error_message: 'no file named orders/v1/orders.proto' },
      { error_code: 5, error_message: 'no symbol orders.v1.Nope' },
      { error_code: 5, error_message: 'no extension 100 of orders.v1.Order' },
      { error_code: 5, error_message: 'no message type orders.v1.OrderService' },
      { error_code: 5, error_message: 'no message type orders.v1.Nope' },
      undefined,
    ]);
    expect(replies[5]?.list_services_response?.service).toHaveLength(3);
  });

  test('AllExtensionNumbersOfType of a message: none, since wirekit declares no extensions', async () => {
    const [reply] = await ask(handlers, [{ host, all_extension_numbers_of_type: 'orders.v1.Order' }]);
    expect(reply?.all_extension_numbers_response).toEqual({
      base_type_name: 'orders.v1.Order',
      extension_number: [],
    });
  });

  test('a request that asks for nothing known is UNIMPLEMENTED', async () => {
    const [reply] = await ask(handlers, [{ host }]);
    expect(reply?.error_response?.error_code).toBe(12);
  });
});

describe('the protocol messages on the wire', () => {
  const requestCodec = createProtobufCodec<ServerReflectionRequest>({
    schema: ServerReflection.methods.ServerReflectionInfo.input,
  });
  const replyCodec = createProtobufCodec<ServerReflectionResponse>({
    schema: ServerReflection.methods.ServerReflectionInfo.output,
  });

  test("a request's bytes: host 1, file_containing_symbol 4 (the protocol's numbers)", () => {
    const bytes = requestCodec.encode({ host: 'h', file_containing_symbol: 'a.B' });
    expect(Buffer.from(bytes).toString('hex')).toBe('0a0168' + '2203612e42');
    expect(requestCodec.decode(Uint8Array.from([0x3a, 0x00]))).toEqual({ host: '', list_services: '' });
  });

  test("a reply's bytes: valid_host 1, original_request 2, error_response 7", () => {
    const bytes = replyCodec.encode({
      valid_host: '',
      original_request: { host: '', list_services: '' },
      error_response: { error_code: 5, error_message: '' },
    });
    expect(Buffer.from(bytes).toString('hex')).toBe('1202' + '3a00' + '3a02' + '0805');
  });
});

describe('serverReflection', () => {
  test('both versions by default, listing the services given and themselves', async () => {
    const served = serverReflection([OrderService, HealthService]);
    expect(served.map((s) => s.service)).toEqual([ServerReflection, ServerReflectionV1Alpha]);
    const [reply] = await ask(served[0]?.handlers as typeof handlers, [{ host, list_services: '' }]);
    expect(reply?.list_services_response?.service.map((s) => s.name)).toEqual([
      'orders.v1.OrderService',
      'grpc.health.v1.Health',
      'grpc.reflection.v1.ServerReflection',
      'grpc.reflection.v1alpha.ServerReflection',
    ]);
    const [v1alpha] = await ask(served[1]?.handlers as typeof handlers, [
      { host, file_containing_symbol: 'grpc.reflection.v1alpha.ServerReflectionResponse' },
    ]);
    expect(namesOf(v1alpha)).toEqual(['grpc/reflection/v1alpha/ServerReflection.proto']);
  });

  test('one version on request; a reflection service given among the services is listed once', async () => {
    const served = serverReflection([ServerReflectionV1Alpha, OrderService], { versions: ['v1alpha'] });
    expect(served.map((s) => s.service)).toEqual([ServerReflectionV1Alpha]);
    const [reply] = await ask(served[0]?.handlers as typeof handlers, [{ host, list_services: '' }]);
    expect(reply?.list_services_response?.service.map((s) => s.name)).toEqual([
      'grpc.reflection.v1alpha.ServerReflection',
      'orders.v1.OrderService',
    ]);
  });
});
