/**
 * The service every case of bench:rpc serves, declared once as a wirekit schema: one user by id (a
 * small unary call), the seed's user records as one reply, and the same records as a server stream
 * of one message each. The `.proto` that protobufjs's static code and Connect-ES's descriptors are
 * made from is this schema's `toProto`, so every stack carries the same message on the wire.
 */
import { createCodec, type FormatName } from 'wirekit-ts/codecs';
import { flatten, User, users } from 'wirekit-ts/lab';
import { type Infer, t } from 'wirekit-ts/schema';
import { toProto } from 'wirekit-ts/schema/export';

const GetUserRequest = t.object('GetUserRequest', { id: t.uint32() });
const ListUsersRequest = t.object('ListUsersRequest', { count: t.uint32() });
const UserList = t.object('UserList', { users: t.array(User) });

export const UserService = t.service('bench.v1.UserService', {
  GetUser: t.unary(GetUserRequest, User),
  ListUsers: t.unary(ListUsersRequest, UserList),
  StreamUsers: t.serverStream(ListUsersRequest, User),
});

export const serviceName = 'bench.v1.UserService';
export const protoFileName = 'bench/v1/UserService.proto';
export const protoText = (): string => toProto(UserService);

export type BenchUser = Infer<typeof User>;

/**
 * The payload: the `users` dataset of wirekit's lab (seed 1), flat strings, the same in every
 * process. A small call asks for one of the first `smallIds` users, in turn.
 */
export function benchUsers(count: number): BenchUser[] {
  return flatten(users(count, 1));
}
export const smallIds = 100;

/** What each call asks for and gets. */
export type Workload = 'small' | 'list' | 'stream';
export const workloads: readonly Workload[] = ['small', 'list', 'stream'];

export const methodOf: Readonly<Record<Workload, 'GetUser' | 'ListUsers' | 'StreamUsers'>> = {
  small: 'GetUser',
  list: 'ListUsers',
  stream: 'StreamUsers',
};

/** The formats a reply travels in: Protocol Buffers, wirekit's MessagePack, or plain JSON. */
export type BenchCodec = 'proto' | 'msgpack' | 'json';

/** wirekit's codec of each message in `codec` (JSON: the value as JSON.stringify writes it). */
export function messageCodecs(codec: Exclude<BenchCodec, 'json'>) {
  const format: FormatName = codec === 'proto' ? 'protobuf' : 'msgpack';
  return {
    getUserRequest: createCodec(format, { schema: GetUserRequest }),
    listUsersRequest: createCodec(format, { schema: ListUsersRequest }),
    user: createCodec(format, { schema: User }),
    userList: createCodec(format, { schema: UserList }),
  };
}
