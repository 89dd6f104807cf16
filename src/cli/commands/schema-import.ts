/**
 * `wirekit schema import FILE`: a schema another language describes (.avsc today; .proto and JSON
 * Schema to come), as wirekit's schema JSON or as a TypeScript module of builder calls to check in.
 */
import { writeFile } from 'node:fs/promises';
import { toTypeScript } from '../../schema/export/index.js';
import { type Schema, schemaToJson } from '../../schema/index.js';
import { type CliIo, inputLimitOf, inputLimitOption, readInput } from '../io.js';
import {
  importSchema,
  languageNamed,
  type SchemaLanguage,
  type SchemaSource,
  schemaLanguageList,
} from '../schema-languages.js';
import { parseCommand, usageError } from '../usage.js';

export const schemaImportHelp = `  wirekit schema import FILE [--from LANGUAGE] [-I DIR]... [--to ts|json] [--out FILE] [--root-name NAME]
      Reads a schema written in another language and prints it as wirekit's schema JSON (--to json,
      the default) or as a TypeScript module of t.* builder calls with a type for each named type
      (--to ts), to check in. LANGUAGE is ${schemaLanguageList}; without --from it is told from the
      extension (.proto, .avsc, .schema.json) and then the content. -I DIR adds a directory to look
      for imported files in (repeatable). A file that cannot be imported ends in WK_SCHEMA_IMPORT
      with its file, line and column. Avro and wirekit's JSON are read today; .proto and JSON Schema
      are refused as not yet read.`;

/** The schema a file holds, as read by `schema import` and `schema check`. */
async function readSchemaFile(
  io: CliIo,
  file: string,
  options: { from?: SchemaLanguage; includeDirs?: readonly string[]; maxBytes?: number },
): Promise<{ source: SchemaSource; language: SchemaLanguage; schema: Schema }> {
  const text = (await readInput(io, file, options.maxBytes)).toString('utf8');
  const source = {
    file: file === '-' ? 'standard input' : file,
    text,
    includeDirs: options.includeDirs ?? [],
  };
  return { source, ...importSchema(source, options.from) };
}

/** The --from value as a language; a usage error that lists them for any other name. */
export function fromOption(value: string | undefined): SchemaLanguage | undefined {
  if (value === undefined) return undefined;
  const language = languageNamed(value);
  if (language === undefined) throw usageError(`--from must be one of ${schemaLanguageList}.`);
  return language;
}

export async function schemaImport(args: readonly string[], io: CliIo): Promise<void> {
  const { values, positionals } = parseCommand(args, {
    from: { type: 'string' },
    include: { type: 'string', short: 'I', multiple: true },
    to: { type: 'string' },
    out: { type: 'string' },
    'root-name': { type: 'string' },
    ...inputLimitOption,
  });
  const to = values.to ?? 'json';
  if (to !== 'json' && to !== 'ts') throw usageError('--to is ts or json.');
  if (positionals.length !== 1) throw usageError(`schema import takes one FILE, got ${positionals.length}.`);
  const from = fromOption(values.from);
  const { schema } = await readSchemaFile(io, positionals[0] as string, {
    ...(from === undefined ? {} : { from }),
    includeDirs: values.include ?? [],
    maxBytes: inputLimitOf(values),
  });
  const text =
    to === 'ts'
      ? toTypeScript(schema, values['root-name'] === undefined ? {} : { rootName: values['root-name'] })
      : `${JSON.stringify(schemaToJson(schema), null, 2)}\n`;
  if (values.out === undefined || values.out === '-') io.stdout.write(text);
  else await writeFile(values.out, text);
}
