#!/usr/bin/env node
/**
 * The `wirekit` command. Only argument dispatch lives here; each command is a module of its own.
 * Exit codes: 0 success (also when the reader of standard output closed it early), 1 the work
 * failed (a wirekit error, printed with its code), 2 usage error.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { errorLine, isWirekitError, WirekitError } from '../errors/index.js';
import { benchCommand, benchHelp } from './commands/bench.js';
import { codecHelp, decodeCommand, encodeCommand } from './commands/codec.js';
import { inspectCommand, inspectHelp } from './commands/inspect.js';
import { registryCommand, registryHelp } from './commands/registry.js';
import { schemaCommand, schemaHelp } from './commands/schema.js';
import { type CliIo, processIo } from './io.js';

const help = `wirekit: choose the wire format per boundary, by measurement.

Commands:
  wirekit bench                   measure every format on the built-in datasets (the main job)
  wirekit schema infer FILE       infer a schema from JSON, a JSON array or NDJSON
  wirekit schema export --to F S  print schema S as proto, avro, fbs, arrow or json-schema
  wirekit schema import FILE      a .proto, .avsc or JSON Schema as wirekit's JSON or a TypeScript module
  wirekit schema check OLD NEW    whether NEW may follow OLD by the schema registry's rules (exit 0, 1 or 2)
  wirekit encode --format F       JSON in, bytes of format F out (a JSON array or NDJSON of items: a sequence)
  wirekit decode --format F|auto  bytes in, JSON out (one value, or a sequence's items)
  wirekit inspect FILE|-|redis:// what a payload or a Redis key is (format, compression, fingerprint, sizes, framing, TTL) and holds
  wirekit inspect --registry URL  a Confluent-framed event (file, - or kafka://TOPIC/PARTITION/OFFSET) read by its writer schema
  wirekit registry serve          a Confluent-compatible schema registry (memory, a file or a Kafka topic)

${benchHelp}

${schemaHelp}

${codecHelp}

${inspectHelp}

${registryHelp}

Every command reads at most 64 MiB of input (--max-input-bytes N raises it) and stops there.

Exit codes: 0 success (also when the reader of the output closes it early, as head does), 1 the
input or the work failed (the message starts with its error code, see docs/errors.md), 2 the
command line is wrong.`;

/** Each command's own usage for `wirekit COMMAND --help`; a Map, so no inherited name is a topic. */
const helpTopics: ReadonlyMap<string, string> = new Map([
  ['bench', benchHelp],
  ['schema', schemaHelp],
  ['encode', codecHelp],
  ['decode', codecHelp],
  ['inspect', inspectHelp],
  ['registry', registryHelp],
]);

const bugReport =
  'This is a bug in wirekit, not in the input: please report it with the command line and input ' +
  '(set WIREKIT_DEBUG=1 to print the stack).';

/** An error that is not a WirekitError, in one line (its stack too where WIREKIT_DEBUG asks for it). */
function describeBug(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (process.env.WIREKIT_DEBUG !== undefined && process.env.WIREKIT_DEBUG !== '') {
    return error.stack ?? `${error.name}: ${error.message}`;
  }
  return `${error.name}: ${error.message}`;
}

export async function run(args: readonly string[], io: CliIo = processIo): Promise<number> {
  const [command, ...rest] = args;
  try {
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      io.stdout.write(`${help}\n`);
      return command === undefined ? 2 : 0;
    }
    if (rest.includes('--help') || rest.includes('-h')) {
      const topic = helpTopics.get(command);
      // An unknown command's --help is a usage error like the command itself, not the whole help
      // with exit 0, which would let a typo in a script's `wirekit scema --help` pass.
      if (topic === undefined) throw new WirekitError('WK_CLI_USAGE', `unknown command ${command}.`);
      io.stdout.write(`${topic}\n`);
      return 0;
    }
    // bench has an exit code of its own: 1 when a case it was asked to run could not; so has
    // schema check: 1 when the schemas are incompatible, 2 when one cannot be read.
    if (command === 'bench') return await benchCommand(rest, io);
    if (command === 'schema') return await schemaCommand(rest, io);
    if (command === 'encode') await encodeCommand(rest, io);
    else if (command === 'decode') await decodeCommand(rest, io);
    else if (command === 'inspect') await inspectCommand(rest, io);
    else if (command === 'registry') await registryCommand(rest, io);
    else throw new WirekitError('WK_CLI_USAGE', `unknown command ${command}.`);
    return 0;
  } catch (error) {
    if (!isWirekitError(error)) {
      // Every failure the input can cause is a WirekitError; anything else is wirekit's own fault.
      // Said in one line rather than as a stack, with what to report.
      io.stderr.write(`wirekit: internal error: ${describeBug(error)}\n${bugReport}\n`);
      return 1;
    }
    io.stderr.write(`wirekit: ${errorLine(error)}\n`);
    if (error.code === 'WK_CLI_USAGE') io.stderr.write("Run 'wirekit --help' for usage.\n");
    return error.code === 'WK_CLI_USAGE' ? 2 : 1;
  }
}

/**
 * A reader that stops early (`wirekit decode … | head`) closes the pipe: like other Unix tools,
 * wirekit then ends quietly, with status 0, instead of dying on an unhandled EPIPE. Other write
 * errors still surface.
 */
function endQuietlyOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(0);
  });
}

const invokedDirectly =
  process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  endQuietlyOnClosedPipe(process.stdout);
  process.exitCode = await run(process.argv.slice(2));
}
