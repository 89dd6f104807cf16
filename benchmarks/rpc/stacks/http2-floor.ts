/**
 * The floor under every gRPC server of bench:rpc: node:http2 answering each call with reply frames
 * encoded once, before the bench starts, so a call costs the protocol alone (the request's headers
 * and frame read, the reply's headers, one DATA write, the trailers), no serializer and no handler.
 * No server on node:http2 can be cheaper per call; the distance of a stack to this row is what its
 * own code costs. Not a server anyone would run: it reads the request's id by its byte position.
 */
import { createServer, type ServerHttp2Stream } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { benchUsers, messageCodecs, type Workload } from '../service.js';
import type { RunningStack, StackOptions } from './stack.js';

function framed(message: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(5 + message.length);
  out[0] = 0;
  out.writeUInt32BE(message.length, 1);
  out.set(message, 5);
  return out;
}

export async function startHttp2Floor(options: StackOptions): Promise<RunningStack> {
  if (options.codec !== 'proto') throw new Error('the node:http2 floor answers in Protocol Buffers');
  const codecs = messageCodecs('proto');
  const users = benchUsers(options.users);
  const byRequest = new Map<string, Buffer>();
  for (const user of users)
    byRequest.set(`/bench.v1.UserService/GetUser ${user.id}`, framed(codecs.user.encode(user)));
  const list = framed(codecs.userList.encode({ users }));
  const stream = Buffer.concat(users.map((user) => framed(codecs.user.encode(user))));
  const answer = (http2Stream: ServerHttp2Stream, path: string, body: Buffer) => {
    let reply: Buffer | undefined;
    if (path.endsWith('/GetUser')) {
      const request = codecs.getUserRequest.decode(body.subarray(5));
      reply = byRequest.get(`${path} ${request.id}`);
    } else if (path.endsWith('/ListUsers')) reply = list;
    else if (path.endsWith('/StreamUsers')) reply = stream;
    if (reply === undefined) {
      http2Stream.respond(
        { ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '12' },
        { endStream: true },
      );
      return;
    }
    http2Stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
    http2Stream.once('wantTrailers', () => http2Stream.sendTrailers({ 'grpc-status': '0' }));
    http2Stream.end(reply);
  };
  const server = createServer();
  server.on('stream', (http2Stream, headers) => {
    const chunks: Buffer[] = [];
    http2Stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    http2Stream.once('end', () => answer(http2Stream, headers[':path'] ?? '', Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    // Nothing is serialized per call.
    serializeOnce(_workload: Workload) {},
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
