/**
 * `wirekit registry serve`: the Confluent-compatible schema registry as a process. It prints its
 * URL on standard output, alone on one line, once it listens (what a script or test waits for,
 * and the port picked when --port 0 asked for any), says where it keeps its records on standard
 * error, and on SIGINT or SIGTERM stops listening, lets the writes under way finish, closes its
 * store and exits 0.
 */
import { stat } from 'node:fs/promises';
import {
  type CompatibilityLevel,
  compatibilityLevels,
  fileStore,
  kafkaStore,
  memoryStore,
  type RegistryStore,
  type RegistryTlsOptions,
  type RegistryUser,
  readRegistryUsers,
  registryUsersFromEnv,
  startRegistryServer,
} from '../../boundaries/events/index.js';
import { isLoopback } from '../../util/loopback.js';
import { type CliIo, readInput } from '../io.js';
import { parseCommand, usageError } from '../usage.js';

export const registryHelp = `Usage:
  wirekit registry serve [--port P] [--host H] [--store memory|file:PATH|kafka:BOOTSTRAP[/TOPIC]]
                         [--compatibility LEVEL] [--max-body-bytes N] [--users-file PATH]
                         [--tls-cert PATH --tls-key PATH [--tls-ca PATH]]
                         [--allow-anonymous-remote] [--max-connections-per-address N]
                         [--max-schema-length N] [--max-schema-nodes N]
                         [--parsed-cache-schemas N] [--parsed-cache-length N]
                         [--advertised-url URL] [--leader-ca PATH] [--kafka-session-timeout MS]
      Runs a schema registry that speaks Confluent's REST API (Confluent's serializers and
      @kafkajs/confluent-schema-registry work against it) on http://H:P, by default
      127.0.0.1:8081. --port 0 picks a free port. Prints the URL on one line once it listens;
      SIGINT or SIGTERM stops it.
      --store memory            keep everything in memory, lost at exit (the default)
      --store file:PATH         one JSON record per line in PATH, fsynced on every write
      --store kafka:HOST:PORT[,HOST:PORT…][/TOPIC]
                                a compacted one-partition topic (default _schemas), created if
                                missing; needs the kafkajs package. Registries on one topic are
                                one cluster: Kafka's group protocol elects a leader, the others
                                forward writes to it (GET /v1/metadata/id says who leads)
      --advertised-url URL      the URL the others forward writes to (default: the one printed)
      --leader-ca PATH          trust this PEM CA for an https:// leader's certificate when
                                forwarding writes to it (default: Node's trusted CAs)
      --kafka-session-timeout MS
                                how long the group waits for a silent registry before electing
                                another leader (default 10000; the broker allows 6000 and up)
      --compatibility LEVEL     the level of subjects that set none (default BACKWARD): BACKWARD,
                                FORWARD, FULL (each also _TRANSITIVE) or NONE
      --max-body-bytes N        the largest request body read (default 1048576)
      --users-file PATH         require Basic auth from the users in PATH, one per line:
                                ROLE USER:PASSWORD, ROLE read, write (register) or admin
                                (also WIREKIT_REGISTRY_USERS_FILE; and WIREKIT_REGISTRY_ADMIN,
                                _WRITER, _READER, each USER:PASSWORD). Never a password here.
      --tls-cert PATH, --tls-key PATH
                                serve HTTPS with this PEM certificate and key
      --tls-ca PATH             ask clients for a certificate signed by this PEM CA
      --allow-anonymous-remote  listen on a host that is not loopback without users
      --max-connections-per-address N
                                sockets one client address holds at once (default 64; raise it
                                behind a proxy, where every client has the proxy's address)
      --max-schema-length N     the longest schema text, in characters (default 2097152)
      --max-schema-nodes N      the most nodes a schema may have: JSON values of an Avro or
                                wirekit schema, declarations of a .proto file (default 50000)
      --parsed-cache-schemas N  parsed schemas kept between checks (default 1000)
      --parsed-cache-length N   the schema text those may add up to, in characters
                                (default 4194304); the rest is parsed again when checked`;

/** The store a --store value names (`sessionTimeoutMs` for a Kafka store's election). */
async function storeOf(spec: string, sessionTimeoutMs?: number): Promise<RegistryStore> {
  if (spec === 'memory') return memoryStore();
  if (spec.startsWith('file:') && spec.length > 'file:'.length) return fileStore(spec.slice('file:'.length));
  if (spec.startsWith('kafka:')) {
    const rest = spec.slice('kafka:'.length);
    const slash = rest.indexOf('/');
    const bootstrap = slash === -1 ? rest : rest.slice(0, slash);
    const topic = slash === -1 ? undefined : rest.slice(slash + 1);
    const brokers = bootstrap.split(',').filter((broker) => broker !== '');
    if (
      brokers.length === 0 ||
      brokers.some((broker) => !/^[^\s:]+:[0-9]{1,5}$/.test(broker)) ||
      topic === ''
    ) {
      throw usageError(`--store kafka: takes HOST:PORT[,HOST:PORT…][/TOPIC] (got ${spec}).`);
    }
    // kafkajs, an optional peer, is loaded by the store when it connects, not before.
    return kafkaStore({
      brokers,
      ...(topic === undefined ? {} : { topic }),
      ...(sessionTimeoutMs === undefined ? {} : { sessionTimeoutMs }),
    });
  }
  throw usageError(`--store is memory, file:PATH or kafka:BOOTSTRAP[/TOPIC] (got ${spec}).`);
}

function portOf(text: string | undefined): number {
  if (text === undefined) return 8081;
  const port = /^[0-9]{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (!(port >= 0 && port <= 65_535)) throw usageError(`--port takes 0 to 65535 (got ${text}).`);
  return port;
}

function levelOf(text: string | undefined): CompatibilityLevel | undefined {
  if (text === undefined) return undefined;
  const level = compatibilityLevels.find((known) => known === text.toUpperCase());
  if (level === undefined)
    throw usageError(`--compatibility is one of ${compatibilityLevels.join(', ')} (got ${text}).`);
  return level;
}

function countOf(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const count = /^[0-9]{1,12}$/.test(text) ? Number(text) : Number.NaN;
  if (!(count >= 1)) throw usageError(`${flag} takes a whole number of at least 1 (got ${text}).`);
  return count;
}

function urlOf(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw usageError(`--advertised-url takes an http:// or https:// URL (got ${text}).`);
  }
  return url.origin;
}

/** The users from --users-file (or its variable) and the role variables; warns of a file others may read. */
async function usersOf(flag: string | undefined, io: CliIo): Promise<RegistryUser[]> {
  const path = flag ?? process.env.WIREKIT_REGISTRY_USERS_FILE;
  const users = registryUsersFromEnv(process.env);
  if (path === undefined || path === '') return users;
  users.push(...(await readRegistryUsers(path)));
  if (((await stat(path)).mode & 0o077) !== 0) {
    io.stderr.write(
      `wirekit registry: warning: ${path} holds passwords and others may read it; chmod 600 it\n`,
    );
  }
  return users;
}

/** The TLS options of --tls-cert, --tls-key and --tls-ca: both of the first two, or none. */
async function tlsOf(
  values: { 'tls-cert'?: string; 'tls-key'?: string; 'tls-ca'?: string },
  io: CliIo,
): Promise<RegistryTlsOptions | undefined> {
  const { 'tls-cert': cert, 'tls-key': key, 'tls-ca': ca } = values;
  if (cert === undefined && key === undefined) {
    if (ca !== undefined) throw usageError('--tls-ca needs --tls-cert and --tls-key.');
    return undefined;
  }
  if (cert === undefined || key === undefined) throw usageError('--tls-cert and --tls-key go together.');
  const pem = (path: string) => readInput(io, path, 1024 * 1024);
  return {
    cert: await pem(cert),
    key: await pem(key),
    ...(ca === undefined ? {} : { ca: await pem(ca), requestCert: true }),
  };
}

/** Resolves on the first SIGINT or SIGTERM the process gets. */
function untilSignalled(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

export async function registryCommand(
  args: readonly string[],
  io: CliIo,
  stop?: Promise<unknown>,
): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== 'serve') {
    throw usageError(
      sub === undefined
        ? 'wirekit registry needs a subcommand: serve.'
        : `unknown subcommand registry ${sub}.`,
    );
  }
  const { values, positionals } = parseCommand(rest, {
    port: { type: 'string' },
    host: { type: 'string' },
    store: { type: 'string' },
    compatibility: { type: 'string' },
    'max-body-bytes': { type: 'string' },
    'users-file': { type: 'string' },
    'tls-cert': { type: 'string' },
    'tls-key': { type: 'string' },
    'tls-ca': { type: 'string' },
    'allow-anonymous-remote': { type: 'boolean' },
    'max-connections-per-address': { type: 'string' },
    'max-schema-length': { type: 'string' },
    'max-schema-nodes': { type: 'string' },
    'parsed-cache-schemas': { type: 'string' },
    'parsed-cache-length': { type: 'string' },
    'advertised-url': { type: 'string' },
    'leader-ca': { type: 'string' },
    'kafka-session-timeout': { type: 'string' },
  });
  if (positionals.length > 0)
    throw usageError(`registry serve takes no arguments (got ${positionals.join(' ')}).`);
  const port = portOf(values.port);
  const defaultCompatibility = levelOf(values.compatibility);
  const maxBodyBytes = countOf('--max-body-bytes', values['max-body-bytes']);
  const perAddress = countOf('--max-connections-per-address', values['max-connections-per-address']);
  const host = values.host ?? '127.0.0.1';
  const users = await usersOf(values['users-file'], io);
  const tls = await tlsOf(values, io);
  const anonymousRemote = values['allow-anonymous-remote'] === true;
  if (!isLoopback(host) && users.length === 0 && !anonymousRemote) {
    throw usageError(
      `--host ${host} is not loopback: give users (--users-file, or WIREKIT_REGISTRY_ADMIN/_WRITER/_READER), or --allow-anonymous-remote to serve it open to whoever reaches it.`,
    );
  }
  if (!isLoopback(host) && users.length === 0) {
    io.stderr.write(
      `wirekit registry: warning: anyone who reaches ${host} can register, delete and reconfigure schemas\n`,
    );
  } else if (!isLoopback(host) && tls === undefined) {
    io.stderr.write(
      'wirekit registry: warning: without --tls-cert, Basic credentials cross the network in the clear\n',
    );
  }
  const maxSchemaLength = countOf('--max-schema-length', values['max-schema-length']);
  const maxSchemaNodes = countOf('--max-schema-nodes', values['max-schema-nodes']);
  const maxSchemas = countOf('--parsed-cache-schemas', values['parsed-cache-schemas']);
  const maxTextLength = countOf('--parsed-cache-length', values['parsed-cache-length']);
  const storeSpec = values.store ?? 'memory';
  const sessionTimeoutMs = countOf('--kafka-session-timeout', values['kafka-session-timeout']);
  const advertisedUrl = urlOf(values['advertised-url']);
  const leaderCaPath = values['leader-ca'];
  const leaderCa = leaderCaPath === undefined ? undefined : await readInput(io, leaderCaPath, 1024 * 1024);
  const server = await startRegistryServer({
    port,
    host,
    store: await storeOf(storeSpec, sessionTimeoutMs),
    ...(advertisedUrl === undefined ? {} : { advertisedUrl }),
    ...(leaderCa === undefined ? {} : { leaderCa }),
    ...(users.length === 0 ? {} : { auth: { users } }),
    ...(tls === undefined ? {} : { tls }),
    allowAnonymousRemote: anonymousRemote,
    ...(defaultCompatibility === undefined ? {} : { defaultCompatibility }),
    ...(maxBodyBytes === undefined ? {} : { maxBodyBytes }),
    ...(perAddress === undefined ? {} : { maxConnectionsPerAddress: perAddress }),
    schemaLimits: {
      ...(maxSchemaLength === undefined ? {} : { maxSchemaLength }),
      ...(maxSchemaNodes === undefined ? {} : { maxSchemaNodes }),
    },
    parsedCache: {
      ...(maxSchemas === undefined ? {} : { maxSchemas }),
      ...(maxTextLength === undefined ? {} : { maxTextLength }),
    },
    onInternalError: (error) => {
      const why = error instanceof Error ? (error.stack ?? error.message) : String(error);
      io.stderr.write(`wirekit registry: internal error (answered 500): ${why}\n`);
    },
  });
  io.stdout.write(`${server.url}\n`);
  io.stderr.write(
    `wirekit registry: listening on ${server.url}, store ${storeSpec}, ${users.length === 0 ? 'no auth' : `${users.length} users`}; SIGINT or SIGTERM stops it\n`,
  );
  // Signals are taken over only now: until the server listens, Ctrl-C ends the process as usual.
  await (stop ?? untilSignalled());
  await server.close();
  io.stderr.write('wirekit registry: stopped\n');
}
