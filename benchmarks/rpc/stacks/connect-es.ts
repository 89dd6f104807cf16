/**
 * The bench service on Connect-ES 2.1.2 with protobuf-es messages, as its documentation serves a
 * service: connect-node's adapter on node:http2 (h2c), which answers gRPC, gRPC-Web and Connect on
 * one port. There is no generated code here: the service and message descriptors come from the
 * FileDescriptorProtos wirekit makes of the same schema (`descriptorFiles`), linked by protobuf-es's
 * `createFileRegistry`, and the users are protobuf-es messages decoded from Protocol Buffers.
 */
import http2 from 'node:http2';
import { createFileRegistry, type DescMessage, fromBinary, type Message, toBinary } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import type { ConnectRouter } from '@connectrpc/connect';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import { descriptorFiles } from 'wirekit-ts/protobuf';
import {
  benchUsers,
  messageCodecs,
  protoFileName,
  serviceName,
  UserService,
  type Workload,
} from '../service.js';
import { anyId, Payload, type RunningStack, type StackOptions } from './stack.js';

/** Connect's default read limit is ~4 GiB; a server is configured with gRPC's 4 MiB, as any would be. */
const readMaxBytes = 4 * 2 ** 20;

function registry() {
  const files = descriptorFiles({ [protoFileName]: UserService }).files;
  const protos = new Map(
    [...files].map(([name, bytes]) => [name, fromBinary(FileDescriptorProtoSchema, bytes)]),
  );
  return createFileRegistry(
    ...[...protos.values()].map((proto) => createFileRegistry(proto, (name) => protos.get(name))),
  );
}

type UserMessage = Message & { readonly id: number };

export async function startConnectEs(options: StackOptions): Promise<RunningStack> {
  if (options.codec !== 'proto') throw new Error('Connect-ES + protobuf-es: proto only');
  const described = registry();
  const service = described.getService(serviceName);
  const userList = described.getMessage('bench.v1.UserList');
  const user = described.getMessage('bench.v1.User');
  if (service === undefined || userList === undefined || user === undefined)
    throw new Error(`${serviceName} is missing from its descriptors`);
  const wire = messageCodecs('proto').userList.encode({ users: benchUsers(options.users) });
  const decoded = (fromBinary(userList, wire) as Message & { users: UserMessage[] }).users;
  const payload = new Payload(
    decoded,
    (message) => message.id,
    (list) => ({ $typeName: userList.typeName, users: list }) as Message,
  );

  const routes = (router: ConnectRouter) =>
    router.service(service, {
      getUser: (request: { id: number }) => payload.user(request.id),
      listUsers: (request: { count: number }) => payload.list(request.count),
      async *streamUsers(request: { count: number }) {
        yield* payload.first(request.count);
      },
    } as never);
  const server = http2.createServer(connectNodeAdapter({ routes, readMaxBytes }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');

  const encode = (desc: DescMessage, message: Message) => toBinary(desc, message);
  const first = payload.user(anyId(payload));
  return {
    port: address.port,
    serializeOnce(workload: Workload) {
      if (workload === 'small') encode(user, first);
      else if (workload === 'list') encode(userList, payload.list(payload.users.length));
      else for (const message of payload.users) encode(user, message);
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
      }),
  };
}
