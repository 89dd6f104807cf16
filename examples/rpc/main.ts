/**
 * The order service over gRPC, gRPC-Web and Connect on one port, with reflection and health, and
 * the commands that call it from grpcurl, grpc-js and Python. `--demo` calls it with wirekit's own
 * client over gRPC (Protocol Buffers) and Connect (MessagePack and ProtoJSON), prints the replies
 * and exits.
 *
 *   npm run example:rpc                    # then try the commands it prints
 *   npm run example:rpc -- --port 50051
 *   npm run example:rpc -- --demo
 *   npm run example:rpc -- --write-proto OrderService.proto   # the .proto for grpc-js and Python, then exit
 */
import { writeFileSync } from 'node:fs';
import { connectTransport, createRpcClient, grpcTransport } from 'wirekit-ts/rpc/client';
import { toProto } from 'wirekit-ts/schema/export';
import { OrderService } from '../gateway/schema.js';
import { startOrderService } from './service.js';

const flag = (name: string) => {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
};
const port = Number(flag('--port') ?? process.env.PORT ?? 50051);

const protoFile = flag('--write-proto');
if (protoFile !== undefined) {
  // Without the REST mappings, whose google/api/annotations.proto grpcio-tools does not ship.
  writeFileSync(protoFile, toProto(OrderService, { httpRules: false }));
  console.log(`wrote ${protoFile}`);
  process.exit(0);
}

const server = await startOrderService(port);
const target = `127.0.0.1:${server.port}`;
console.log(
  `shop.v1.OrderService on ${server.url}: gRPC (h2c), gRPC-Web and Connect, reflection and health on`,
);

if (process.argv.includes('--demo')) {
  const calls: [string, ReturnType<typeof grpcTransport>][] = [
    ['gRPC, Protocol Buffers', grpcTransport({ baseUrl: server.url })],
    ['Connect, MessagePack', connectTransport({ baseUrl: server.url, codec: 'msgpack' })],
    ['Connect, ProtoJSON', connectTransport({ baseUrl: server.url, codec: 'json' })],
  ];
  for (const [label, transport] of calls) {
    const client = createRpcClient(OrderService, transport);
    const order = await client.GetOrder({ id: 2n });
    console.log(
      `${label}: GetOrder 2 -> ${order.customer}, total_cents ${order.total_cents} (exact past 2^53)`,
    );
    try {
      await client.GetOrder({ id: 99n }, { timeoutMs: 2000 });
    } catch (error) {
      console.log(`${label}: GetOrder 99 -> ${(error as { status?: string }).status}`);
    }
    transport.close();
  }
  await server.stop();
} else {
  const python = [
    'python -m grpc_tools.protoc -I . --python_out=. --grpc_python_out=. OrderService.proto',
    `python -c "import grpc, OrderService_pb2 as pb, OrderService_pb2_grpc as rpc; ` +
      `print(rpc.OrderServiceStub(grpc.insecure_channel('${target}')).GetOrder(pb.GetOrderRequest(id=2)))"`,
  ];
  console.log(`
Try:
  grpcurl -plaintext ${target} list
  grpcurl -plaintext ${target} describe shop.v1.OrderService
  grpcurl -plaintext -d '{"id":"2"}' ${target} shop.v1.OrderService/GetOrder
  grpcurl -plaintext -d '{"service":"shop.v1.OrderService"}' ${target} grpc.health.v1.Health/Check
  curl -s -H 'content-type: application/json' -d '{"id":"2"}' ${server.url}/shop.v1.OrderService/GetOrder
The .proto for grpc-js (@grpc/proto-loader) and Python (grpcio-tools):
  npm run example:rpc -- --write-proto OrderService.proto
${python.map((line) => `  ${line}`).join('\n')}

Ctrl-C to stop.`);
  process.on('SIGINT', async () => {
    await server.stop();
    process.exit(0);
  });
}
