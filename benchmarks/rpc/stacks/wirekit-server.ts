/**
 * wirekit's own RPC server (`wirekit-ts/rpc/server`): the bench service's handlers return wirekit's
 * values and the server picks the codec each call's content type names (gRPC and Connect, Protocol
 * Buffers or MessagePack). The entry is imported by name at run time, so that this bench builds and
 * runs before it exists: `loadWirekitServer` says why it is missing, and the cases on it are left
 * out with that reason.
 */
import { benchUsers, messageCodecs, UserService, type Workload } from '../service.js';
import { anyId, Payload, type RunningStack, type StackOptions } from './stack.js';

/** The part of the server entry's API this bench uses. */
interface WirekitServerModule {
  rpcService(service: typeof UserService, handlers: Record<string, unknown>): unknown;
  createRpcServer(options: {
    services: unknown[];
    port: number;
    host?: string;
  }): Promise<{ readonly port: number; close(): Promise<void> }>;
}

// A name in a variable: tsc neither resolves nor requires the entry at build time.
const entry = 'wirekit-ts/rpc/server';

export async function loadWirekitServer(): Promise<WirekitServerModule | string> {
  try {
    const module = (await import(entry)) as Partial<WirekitServerModule>;
    if (typeof module.rpcService !== 'function' || typeof module.createRpcServer !== 'function')
      return `${entry} exports no rpcService/createRpcServer`;
    return module as WirekitServerModule;
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    if (code === 'ERR_PACKAGE_PATH_NOT_EXPORTED')
      return `${entry} is not in this build (package.json does not export it)`;
    return `${entry} did not load: ${message.split('\n')[0]}`;
  }
}

export async function startWirekitServer(options: StackOptions): Promise<RunningStack> {
  if (options.codec === 'json') throw new Error('wirekit server: proto or msgpack here');
  const module = await loadWirekitServer();
  if (typeof module === 'string') throw new Error(module);
  const payload = new Payload(
    benchUsers(options.users),
    (user) => user.id,
    (list) => ({ users: list }),
  );
  const service = module.rpcService(UserService, {
    GetUser: async (request: { id: number }) => payload.user(request.id),
    ListUsers: async (request: { count: number }) => payload.list(request.count),
    async *StreamUsers(request: { count: number }) {
      yield* payload.first(request.count);
    },
  });
  const server = await module.createRpcServer({ services: [service], port: 0, host: '127.0.0.1' });
  // Per call the server encodes with wirekit's codec of the call's format: the same codec, timed alone.
  const codecs = messageCodecs(options.codec);
  const first = payload.user(anyId(payload));
  return {
    port: server.port,
    serializeOnce(workload: Workload) {
      if (workload === 'small') codecs.user.encode(first);
      else if (workload === 'list') codecs.userList.encode(payload.list(payload.users.length));
      else for (const user of payload.users) codecs.user.encode(user);
    },
    close: () => server.close(),
  };
}
