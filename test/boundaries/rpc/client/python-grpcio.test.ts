/**
 * wirekit's gRPC client against a Python grpcio server whose stubs grpcio-tools generated from the
 * `.proto` that `toProto(service)` writes: Google's C-core HTTP/2 and the protobuf runtime's
 * messages on the other side, for a unary call (2^53 + 1 exact, a Timestamp, bytes, an enum), a
 * server stream, and a status the server aborts with.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createRpcClient,
  grpcTransport,
  type NodeRpcTransport,
} from '../../../../src/boundaries/rpc/client/index.js';
import { toProto } from '../../../../src/schema/export/index.js';
import { has, venvPython } from '../../../support/tools.js';
import { anOrder, bigId, OrderService } from './order-service.js';

const server = `
import sys
from concurrent import futures
sys.path.insert(0, sys.argv[1])
import grpc
import orders_pb2, orders_pb2_grpc
from google.protobuf.timestamp_pb2 import Timestamp

def order(id):
    placed = Timestamp()
    placed.FromJsonString('${anOrder.placedAt.toISOString()}')
    return orders_pb2.Order(id=id, placedAt=placed, payload=bytes([${[...anOrder.payload].join(', ')}]),
                            status=orders_pb2.STATUS_SHIPPED, total='${anOrder.total}', quantity=${anOrder.quantity})

class Orders(orders_pb2_grpc.OrderServiceServicer):
    def GetOrder(self, request, context):
        if request.id == 404:
            context.abort(grpc.StatusCode.NOT_FOUND, 'no order 404')
        return order(request.id)
    def WatchOrders(self, request, context):
        for id in range(1, request.count + 1):
            yield order(id)

server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
orders_pb2_grpc.add_OrderServiceServicer_to_server(Orders(), server)
port = server.add_insecure_port('127.0.0.1:0')
server.start()
print(port, flush=True)
server.wait_for_termination()
`;

describe.skipIf(!has('venv:grpc_tools'))('against a Python grpcio server', () => {
  let dir: string;
  let child: ChildProcess;
  let transport: NodeRpcTransport;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 's42-rpc-client-python-'));
    writeFileSync(join(dir, 'orders.proto'), toProto(OrderService));
    writeFileSync(join(dir, 'server.py'), server);
    const include = execFileSync(
      venvPython,
      ['-c', 'import grpc_tools, os; print(os.path.join(os.path.dirname(grpc_tools.__file__), "_proto"))'],
      { encoding: 'utf8' },
    ).trim();
    execFileSync(
      venvPython,
      [
        '-m',
        'grpc_tools.protoc',
        `-I${dir}`,
        `-I${include}`,
        `--python_out=${dir}`,
        `--grpc_python_out=${dir}`,
        'orders.proto',
      ],
      { cwd: dir, stdio: 'pipe' },
    );
    child = spawn(venvPython, [join(dir, 'server.py'), dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    const port = await new Promise<number>((resolve, reject) => {
      let errors = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        errors += chunk.toString();
      });
      child.stdout?.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
      child.once('exit', (code) => reject(new Error(`the Python server exited with ${code}: ${errors}`)));
    });
    transport = grpcTransport({ baseUrl: `http://127.0.0.1:${port}` });
  }, 60_000);

  afterAll(() => {
    transport?.close();
    child?.kill();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  test('unary: the id exact, the Timestamp a Date, bytes, the enum by name', async () => {
    const client = createRpcClient(OrderService, transport);
    expect(await client.GetOrder({ id: bigId })).toEqual({ ...anOrder, id: bigId });
  });

  test('server stream', async () => {
    const client = createRpcClient(OrderService, transport);
    const ids: bigint[] = [];
    for await (const order of client.WatchOrders({ count: 3 })) ids.push(order.id);
    expect(ids).toEqual([1n, 2n, 3n]);
  });

  test("the server's abort is the status with its message", async () => {
    const client = createRpcClient(OrderService, transport);
    await expect(client.GetOrder({ id: 404n })).rejects.toMatchObject({
      status: 'NOT_FOUND',
      code: 'WK_RPC_STATUS',
      message: 'no order 404',
    });
  });
});
