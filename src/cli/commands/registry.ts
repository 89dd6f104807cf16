/**
 * `wirekit registry serve`: the Confluent-compatible schema registry as a process. It prints its
 * URL on standard output, alone on one line, once it listens (what a script or test waits for,
 * and the port picked when --port 0 asked for any), says where it keeps its records on standard
 * error, and on SIGINT or SIGTERM stops listening, lets the writes under way finish, closes its
 * store and exits 0.
 */
import { type CompatibilityLevel, compatibilityLevels } from '../../boundaries/events/registry/api.js';
import { fileStore } from '../../boundaries/events/registry/file-store.js';
import { memoryStore } from '../../boundaries/events/registry/memory-store.js';
import { startRegistryServer } from '../../boundaries/events/registry/server.js';
import type { RegistryStore } from '../../boundaries/events/registry/store.js';
import type { CliIo } from '../io.js';
import { parseCommand, usageError } from '../usage.js';

export const registryHelp = `Usage:
  wirekit registry serve [--port P] [--host H] [--store memory|file:PATH|kafka:BOOTSTRAP[/TOPIC]]
                         [--compatibility LEVEL] [--max-body-bytes N]
                         [--max-schema-length N] [--max-schema-nodes N]
                         [--parsed-cache-schemas N] [--parsed-cache-length N]
      Runs a schema registry that speaks Confluent's REST API (Confluent's serializers and
      @kafkajs/confluent-schema-registry work against it) on http://H:P, by default
      127.0.0.1:8081. --port 0 picks a free port. Prints the URL on one line once it listens;
      SIGINT or SIGTERM stops it.
      --store memory            keep everything in memory, lost at exit (the default)
      --store file:PATH         one JSON record per line in PATH, fsynced on every write
      --store kafka:HOST:PORT[,HOST:PORT…][/TOPIC]
                                a compacted one-partition topic (default _schemas), created if
                                missing; needs the kafkajs package
      --compatibility LEVEL     the level of subjects that set none (default BACKWARD): BACKWARD,
                                FORWARD, FULL (each also _TRANSITIVE) or NONE
      --max-body-bytes N        the largest request body read (default 1048576)
      --max-schema-length N     the longest schema text, in characters (default 2097152)
      --max-schema-nodes N      the most nodes a schema may have: JSON values of an Avro or
                                wirekit schema, declarations of a .proto file (default 50000)
      --parsed-cache-schemas N  parsed schemas kept between checks (default 1000)
      --parsed-cache-length N   the schema text those may add up to, in characters
                                (default 4194304); the rest is parsed again when checked`;

/** The store a --store value names. */
async function storeOf(spec: string): Promise<RegistryStore> {
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
    // Imported here, so that a registry in memory or a file never loads the Kafka store.
    const { kafkaStore } = await import('../../boundaries/events/registry/kafka-store.js');
    return kafkaStore({ brokers, ...(topic === undefined ? {} : { topic }) });
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

/** A positive whole number given to `--flag`, or undefined when the flag is absent. */
function countOf(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const count = /^[0-9]{1,12}$/.test(text) ? Number(text) : Number.NaN;
  if (!(count >= 1)) throw usageError(`--${flag} takes a whole number from 1 (got ${text}).`);
  return count;
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
    'max-schema-length': { type: 'string' },
    'max-schema-nodes': { type: 'string' },
    'parsed-cache-schemas': { type: 'string' },
    'parsed-cache-length': { type: 'string' },
  });
  if (positionals.length > 0)
    throw usageError(`registry serve takes no arguments (got ${positionals.join(' ')}).`);
  const port = portOf(values.port);
  const defaultCompatibility = levelOf(values.compatibility);
  const maxBodyBytes = countOf('max-body-bytes', values['max-body-bytes']);
  const maxSchemaLength = countOf('max-schema-length', values['max-schema-length']);
  const maxSchemaNodes = countOf('max-schema-nodes', values['max-schema-nodes']);
  const maxSchemas = countOf('parsed-cache-schemas', values['parsed-cache-schemas']);
  const maxTextLength = countOf('parsed-cache-length', values['parsed-cache-length']);
  const storeSpec = values.store ?? 'memory';
  const server = await startRegistryServer({
    port,
    host: values.host ?? '127.0.0.1',
    store: await storeOf(storeSpec),
    ...(defaultCompatibility === undefined ? {} : { defaultCompatibility }),
    ...(maxBodyBytes === undefined ? {} : { maxBodyBytes }),
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
    `wirekit registry: listening on ${server.url}, store ${storeSpec}; SIGINT or SIGTERM stops it\n`,
  );
  // Signals are taken over only now: until the server listens, Ctrl-C ends the process as usual.
  await (stop ?? untilSignalled());
  await server.close();
  io.stderr.write('wirekit registry: stopped\n');
}
