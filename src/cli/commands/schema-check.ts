/**
 * `wirekit schema check OLD NEW`: whether NEW may follow OLD, by the schema registry's own rules,
 * without a registry, so that CI can refuse a breaking change before it ships.
 *
 * Two files in the same language the registry holds (Avro, Protocol Buffers, wirekit's JSON) are
 * checked by that language's rules on their text, as the registry would check them. Files in
 * different languages are both imported as wirekit schemas and checked by wirekit's rules (the
 * values, and each format's rules on the schema's exports). Exit codes: 0 compatible, 1 not (with
 * the list of what breaks), 2 bad input (a file that cannot be read or imported, a wrong flag).
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type CompatibilityIssue,
  type CompatibilityLevel,
  compatibilityLevels,
  compatibilityReport,
  type ParsedSchema,
  parseRegisteredSchema,
  type SchemaType,
} from '../../boundaries/events/index.js';
import { containerSchemaText } from '../../codecs/avro/inspect.js';
import { defaultDecodeLimits } from '../../codecs/index.js';
import { errorLine, isWirekitError, SchemaImportError } from '../../errors/index.js';
import { type CliIo, inputLimitOf, inputLimitOption, readInput } from '../io.js';
import {
  importSchema,
  mismatchHint,
  oneSchema,
  type SchemaLanguage,
  type SchemaSource,
  schemaJsonOf,
  sniffLanguage,
} from '../schema-languages.js';
import { isAvroContainer } from '../schema-sniff.js';
import { parseCommand, usageError } from '../usage.js';
import { fromOption } from './schema-import.js';

export const schemaCheckHelp = `  wirekit schema check OLD NEW [--level LEVEL] [--history DIR] [--from LANGUAGE] [-I DIR]... [--type NAME]
                       [--json]
      Checks that NEW may follow OLD by the schema registry's rules. LEVEL is ${compatibilityLevels.join(', ')}
      (default BACKWARD: NEW reads data written with OLD; FORWARD: OLD reads NEW's; FULL: both).
      --history DIR holds older versions (read in name order, OLD the newest), which the
      _TRANSITIVE levels check too. Files all in one language the registry holds (.avsc or .avro
      containers, .proto, wirekit JSON) are checked by its rules; otherwise (JSON Schema, or files
      in different languages) each is imported and checked by wirekit's rules, a .proto file as the
      message --type names (or its only message no other uses). Exit code 0 when
      compatible, 1 with the list of what breaks (path, rule, old → new), 2 when a file cannot be
      read or imported. --json prints { compatible, level, rules, issues } for tools.`;

/** The registry type that checks a language's text as it is; languages without one are imported. */
const registryTypes: ReadonlyMap<SchemaLanguage, SchemaType> = new Map<SchemaLanguage, SchemaType>([
  ['avro', 'AVRO'],
  ['proto', 'PROTOBUF'],
  ['wirekit', 'WIREKIT'],
]);

interface Checked {
  readonly source: SchemaSource;
  readonly language: SchemaLanguage;
}

/** Runs the check; the exit code, with bad input (exit 2) reported here rather than as a failure. */
export async function schemaCheck(args: readonly string[], io: CliIo): Promise<number> {
  try {
    return await check(args, io);
  } catch (error) {
    if (!isWirekitError(error) || error.code === 'WK_CLI_USAGE') throw error;
    io.stderr.write(`wirekit: ${errorLine(error)}\n`);
    return 2;
  }
}

async function check(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(args, {
    level: { type: 'string' },
    history: { type: 'string' },
    from: { type: 'string' },
    include: { type: 'string', short: 'I', multiple: true },
    type: { type: 'string' },
    json: { type: 'boolean' },
    ...inputLimitOption,
  });
  if (positionals.length !== 2)
    throw usageError(`schema check takes OLD and NEW, got ${positionals.length} files.`);
  const level = (values.level ?? 'BACKWARD').toUpperCase() as CompatibilityLevel;
  if (!compatibilityLevels.includes(level))
    throw usageError(`--level must be one of ${compatibilityLevels.join(', ')}.`);
  const from = fromOption(values.from);
  const includeDirs = values.include ?? [];
  const type = values.type;
  const [oldFile, newFile] = positionals as [string, string];
  const historyFiles = values.history === undefined ? [] : await historyOf(values.history);
  const maxBytes = inputLimitOf(values);
  const read = async (file: string): Promise<Checked> => {
    const bytes = new Uint8Array(await readInput(io, file, maxBytes));
    const text = new TextDecoder().decode(bytes);
    const source = { file: file === '-' ? 'standard input' : file, bytes, text, includeDirs, maxBytes };
    const language = from ?? sniffLanguage(source);
    // --type picks the message of the .proto files among OLD and NEW; the others have one schema.
    const messages = language === 'proto' || language === 'descriptor-set';
    return { source: messages ? { ...source, type } : source, language };
  };
  const existing = await Promise.all([...historyFiles, oldFile].map(read));
  const candidate = await read(newFile);
  const all = [...existing, candidate];
  const shared = all.every((file) => file.language === candidate.language)
    ? registryTypes.get(candidate.language)
    : undefined;
  const parse = (file: Checked): ParsedSchema =>
    shared === undefined
      ? asWirekit(file)
      : registered(file.source, shared, from === undefined ? '' : mismatchHint(file.source, from));
  const parsedExisting = existing.map(parse);
  const report = compatibilityReport(parse(candidate), parsedExisting, level);
  const rules = shared ?? 'WIREKIT';
  const issues = report.flatMap(({ index, direction, issues }) =>
    issues.map((issue) => ({ against: (existing[index] as Checked).source.file, direction, ...issue })),
  );
  if (values.json === true) {
    io.stdout.write(
      `${JSON.stringify({ compatible: issues.length === 0, level, rules, issues }, null, 2)}\n`,
    );
  } else if (issues.length === 0) {
    const against = existing.length === 1 ? oldFile : `${existing.length} versions`;
    io.stdout.write(`${newFile} is ${level} compatible with ${against} (${rules} rules).\n`);
  } else {
    io.stdout.write(`${newFile} is not ${level} compatible (${rules} rules):\n`);
    for (const issue of issues) io.stdout.write(issueText(issue));
  }
  return issues.length === 0 ? 0 : 1;
}

/** One broken rule for people: where, which rule, what it means, and what changed. */
function issueText(issue: CompatibilityIssue & { against: string; direction: string }): string {
  const change = issue.additionalInfo === undefined ? '' : `\n      ${issue.additionalInfo}`;
  return `  ${issue.path}  ${issue.errorType} (${issue.rules} rules, ${issue.direction} against ${issue.against})\n      ${issue.description}${change}\n`;
}

/** The files of a history directory, oldest first by name (`v2` before `v10`). */
async function historyOf(dir: string): Promise<string[]> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (cause) {
    throw new SchemaImportError(`cannot read the history directory: ${(cause as Error).message}`, {
      file: dir,
      cause,
    });
  }
  return entries
    .filter((entry) => entry.isFile() && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
    .map((name) => join(dir, name));
}

/** A file's text as the registry parses a schema of this type, its refusal naming the file. */
function registered(source: SchemaSource, schemaType: SchemaType, hint = ''): ParsedSchema {
  try {
    // An Avro container file is checked by the writer's schema its header holds.
    const text =
      schemaType === 'AVRO' && isAvroContainer(source.bytes)
        ? containerSchemaText(source.bytes, { ...defaultDecodeLimits, maxInputBytes: source.maxBytes })
        : source.text;
    return parseRegisteredSchema({ schemaType, schema: text });
  } catch (error) {
    if (!isWirekitError(error, 'WK_REGISTRY_SCHEMA_INVALID')) throw error;
    throw new SchemaImportError(`${error.message}${hint}`, { file: source.file, cause: error });
  }
}

/** A file in any language, imported and checked as a wirekit schema. */
function asWirekit(file: Checked): ParsedSchema {
  const schema = oneSchema(importSchema(file.source, file.language), file.source);
  const text = JSON.stringify(schemaJsonOf(schema, file.source.file));
  return registered({ ...file.source, text }, 'WIREKIT');
}
