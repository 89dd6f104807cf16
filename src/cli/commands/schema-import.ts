/**
 * `wirekit schema import FILE`: a schema another language describes (.proto, .avsc or an Avro
 * container, JSON Schema), as wirekit's schema JSON or as a TypeScript module of builder calls to
 * check in.
 */
import { writeFile } from 'node:fs/promises';
import { toTypeScript } from '../../schema/export/index.js';
import { type CliIo, inputLimitOf, inputLimitOption, readInput } from '../io.js';
import {
  type ImportedFile,
  importSchema,
  languageNamed,
  oneSchema,
  type SchemaLanguage,
  type SchemaSource,
  schemaJsonOf,
  schemaLanguageList,
} from '../schema-languages.js';
import { parseCommand, usageError } from '../usage.js';

export const schemaImportHelp = `  wirekit schema import FILE [--from LANGUAGE] [-I DIR]... [--type NAME] [--at POINTER]
                        [--to ts|json] [--out FILE] [--root-name NAME]
      Reads a schema written in another language and prints it as wirekit's schema JSON (--to json,
      the default) or as a TypeScript module of t.* builder calls with a type for each named type
      (--to ts), to check in. LANGUAGE is ${schemaLanguageList}; without --from it is told from the
      extension (.proto, .avsc, .avro, .schema.json, .pb) and then the content (.json holding JSON
      Schema, Avro or wirekit's JSON). A .proto file: -I DIR adds a folder its imports are looked
      for in (repeatable; the file's own folder is searched last); --to ts declares every message
      and enum; --to json writes one message: the one --type NAME names, else the file's only
      message no other type uses. JSON Schema: --at POINTER reads one schema of the document
      (#/components/schemas/Order of an OpenAPI 3.1 document). A file that cannot be imported ends
      in WK_SCHEMA_IMPORT with its file, line and column (exit 1).`;

/** The schemas a file holds, as `schema import` reads them. */
async function readSchemaFile(
  io: CliIo,
  file: string,
  options: {
    from?: SchemaLanguage | undefined;
    includeDirs?: readonly string[];
    maxBytes: number;
    type?: string | undefined;
    at?: string | undefined;
  },
): Promise<{ source: SchemaSource; imported: ImportedFile }> {
  const bytes = new Uint8Array(await readInput(io, file, options.maxBytes));
  const source: SchemaSource = {
    file: file === '-' ? 'standard input' : file,
    bytes,
    text: new TextDecoder().decode(bytes),
    includeDirs: options.includeDirs ?? [],
    maxBytes: options.maxBytes,
    type: options.type,
    at: options.at,
  };
  return { source, imported: importSchema(source, options.from) };
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
    type: { type: 'string' },
    at: { type: 'string' },
    to: { type: 'string' },
    out: { type: 'string' },
    'root-name': { type: 'string' },
    ...inputLimitOption,
  });
  const to = values.to ?? 'json';
  if (to !== 'json' && to !== 'ts') throw usageError('--to is ts or json.');
  if (positionals.length !== 1) throw usageError(`schema import takes one FILE, got ${positionals.length}.`);
  const { source, imported } = await readSchemaFile(io, positionals[0] as string, {
    from: fromOption(values.from),
    includeDirs: values.include ?? [],
    maxBytes: inputLimitOf(values),
    type: values.type,
    at: values.at,
  });
  const text =
    to === 'ts'
      ? toTypeScript(
          imported.declared,
          values['root-name'] === undefined ? {} : { rootName: values['root-name'] },
        )
      : `${JSON.stringify(schemaJsonOf(oneSchema(imported, source), source.file), null, 2)}\n`;
  if (values.out === undefined || values.out === '-') io.stdout.write(text);
  else await writeFile(values.out, text);
}
