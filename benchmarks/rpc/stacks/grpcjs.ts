/**
 * The bench service on @grpc/grpc-js, the common Node gRPC server, with the messages serialized
 * either by protobufjs's static code (the usual stack: `pbjs -t static-module` classes) or by
 * wirekit's codecs (Protocol Buffers or MessagePack) as grpc-js's serializers, which it takes
 * natively: wirekit's values, grpc-js's protocol.
 */
import * as grpc from '@grpc/grpc-js';
import { type BenchUser, benchUsers, messageCodecs, serviceName, type Workload } from '../service.js';
import { importStaticCode, type StaticUser } from '../static-code.js';
import { anyId, Payload, type RunningStack, type StackOptions } from './stack.js';

/** The four functions grpc-js calls per message, for one method. */
interface Serializers<Req, Rep> {
  readonly request: (bytes: Buffer) => Req;
  readonly reply: (value: Rep) => Buffer;
}

// grpc-js copies the serializer's result with Buffer#copy: a view over wirekit's bytes, no copy here.
const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

interface Messages<U, L> {
  readonly payload: Payload<U, L>;
  readonly getUser: Serializers<{ id: number }, U>;
  readonly listUsers: Serializers<{ count: number }, L>;
  readonly streamUsers: Serializers<{ count: number }, U>;
}

function method<Req, Rep>(name: string, serializers: Serializers<Req, Rep>, responseStream: boolean) {
  return {
    path: `/${serviceName}/${name}`,
    requestStream: false,
    responseStream,
    requestSerialize: () => Buffer.alloc(0),
    requestDeserialize: serializers.request,
    responseSerialize: serializers.reply,
    responseDeserialize: () => undefined as unknown as Rep,
  };
}

async function staticMessages(users: number): Promise<Messages<StaticUser, { users: StaticUser[] }>> {
  const code = await importStaticCode();
  // protobufjs's own objects, made the way such a service gets them: decoded from Protocol Buffers.
  const wire = messageCodecs('proto').userList.encode({ users: benchUsers(users) });
  const decoded = code.UserList.decode(wire).users;
  const reply = (bytes: Uint8Array) => asBuffer(bytes);
  return {
    payload: new Payload(
      decoded,
      (user) => user.id,
      (list) => ({ users: list }),
    ),
    getUser: {
      request: (bytes) => code.GetUserRequest.decode(bytes),
      reply: (user) => reply(code.User.encode(user).finish()),
    },
    listUsers: {
      request: (bytes) => code.ListUsersRequest.decode(bytes),
      reply: (list) => reply(code.UserList.encode(list).finish()),
    },
    streamUsers: {
      request: (bytes) => code.ListUsersRequest.decode(bytes),
      reply: (user) => reply(code.User.encode(user).finish()),
    },
  };
}

function wirekitMessages(
  codec: 'proto' | 'msgpack',
  users: number,
): Messages<BenchUser, { users: BenchUser[] }> {
  const codecs = messageCodecs(codec);
  return {
    payload: new Payload(
      benchUsers(users),
      (user) => user.id,
      (list) => ({ users: list }),
    ),
    getUser: {
      request: (bytes) => codecs.getUserRequest.decode(bytes),
      reply: (user) => asBuffer(codecs.user.encode(user)),
    },
    listUsers: {
      request: (bytes) => codecs.listUsersRequest.decode(bytes),
      reply: (list) => asBuffer(codecs.userList.encode(list)),
    },
    streamUsers: {
      request: (bytes) => codecs.listUsersRequest.decode(bytes),
      reply: (user) => asBuffer(codecs.user.encode(user)),
    },
  };
}

async function serve<U, L>(messages: Messages<U, L>): Promise<RunningStack> {
  const { payload } = messages;
  const server = new grpc.Server();
  const definition = {
    GetUser: method('GetUser', messages.getUser, false),
    ListUsers: method('ListUsers', messages.listUsers, false),
    StreamUsers: method('StreamUsers', messages.streamUsers, true),
  };
  server.addService(definition, {
    GetUser: (call: grpc.ServerUnaryCall<{ id: number }, U>, done: grpc.sendUnaryData<U>) =>
      done(null, payload.user(call.request.id)),
    ListUsers: (call: grpc.ServerUnaryCall<{ count: number }, L>, done: grpc.sendUnaryData<L>) =>
      done(null, payload.list(call.request.count)),
    // Written as the socket takes it: a stream that is not read waits instead of filling memory.
    StreamUsers: (call: grpc.ServerWritableStream<{ count: number }, U>) => {
      const users = payload.first(call.request.count);
      let next = 0;
      const pump = (): void => {
        while (next < users.length) {
          if (!call.write(users[next++] as U)) {
            call.once('drain', pump);
            return;
          }
        }
        call.end();
      };
      pump();
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error === null ? resolve(bound) : reject(error),
    ),
  );
  const first = payload.user(anyId(payload));
  const serializeOnce = (workload: Workload): void => {
    if (workload === 'small') messages.getUser.reply(first);
    else if (workload === 'list') messages.listUsers.reply(payload.list(payload.users.length));
    else for (const user of payload.users) messages.streamUsers.reply(user);
  };
  return {
    port,
    serializeOnce,
    close: () => new Promise((resolve) => server.tryShutdown(() => resolve())),
  };
}

export async function startGrpcJsStatic(options: StackOptions): Promise<RunningStack> {
  return serve(await staticMessages(options.users));
}

export async function startGrpcJsWirekit(options: StackOptions): Promise<RunningStack> {
  if (options.codec === 'json') throw new Error('grpc-js with wirekit codecs: proto or msgpack, not json');
  return serve(wirekitMessages(options.codec, options.users));
}
