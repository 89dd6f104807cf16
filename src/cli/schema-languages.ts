/**
 * The schema languages the CLI reads, and how it tells which one a file is written in. One table
 * maps each language to its importer, so that a language is added by filling in its row: the
 * importers of .proto and JSON Schema are still to come, and until then their rows refuse with
 * WK_SCHEMA_IMPORT, naming what is read today, instead of the misleading answer a JSON reader gives
 * a .proto file ("not valid JSON").
 *
 * The language is the one `--from` names; without it, the file's extension says (.proto, .avsc),
 * then its content: wirekit's own JSON says so in `format`, JSON Schema has `$schema`, `$defs` or
 * `properties`, Avro is a record, enum or fixed with a name, a union array or a primitive's name.
 */
import { schemaFromAvro } from '../codecs/avro/inspect.js';
import { isWirekitError, SchemaImportError } from '../errors/index.js';
import { type Schema, schemaFromJson } from '../schema/index.js';
import { findJsonFault, lineAndColumnOf } from '../util/json-syntax.js';

export const schemaLanguageNames = ['wirekit', 'avro', 'proto', 'jsonschema'] as const;
export type SchemaLanguage = (typeof schemaLanguageNames)[number];

/** A schema file as read: its name (for messages) and its text. */
export interface SchemaSource {
  /** The path given, or `standard input`. */
  readonly file: string;
  readonly text: string;
  /** Directories to look for imported files in (`-I DIR`), for languages that import. */
  readonly includeDirs: readonly string[];
}

interface LanguageRow {
  /** How people name it, in messages. */
  readonly title: string;
  /** The file name endings that say a file is in this language. */
  readonly extensions: readonly string[];
  /** The file as a wirekit schema; SchemaImportError when it cannot be. */
  readonly read: (source: SchemaSource) => Schema;
}

/** By --from name; a Map, so that `--from constructor` is an unknown name like any other. */
const languages: ReadonlyMap<SchemaLanguage, LanguageRow> = new Map<SchemaLanguage, LanguageRow>([
  [
    'wirekit',
    {
      title: "wirekit's schema JSON",
      extensions: ['.schema.json'],
      read: (source) => imported(source, () => schemaFromJson(jsonOf(source))),
    },
  ],
  [
    'avro',
    {
      title: 'Avro (.avsc)',
      extensions: ['.avsc'],
      read: (source) => imported(source, () => schemaFromAvro(jsonOf(source) as never)),
    },
  ],
  ['proto', { title: 'Protocol Buffers (.proto)', extensions: ['.proto'], read: notYet('proto') }],
  ['jsonschema', { title: 'JSON Schema', extensions: [], read: notYet('jsonschema') }],
]);

/** What `--from` accepts, for messages: `wirekit, avro, proto, jsonschema`. */
export const schemaLanguageList = schemaLanguageNames.join(', ');

/** The language named by --from, or undefined for a name that is none. */
export function languageNamed(name: string): SchemaLanguage | undefined {
  return languages.has(name as SchemaLanguage) ? (name as SchemaLanguage) : undefined;
}

/** The title of a language, for messages (`Avro (.avsc)`). */
function languageTitle(language: SchemaLanguage): string {
  return (languages.get(language) as LanguageRow).title;
}

/** Reads `source` as a wirekit schema, in the language `from` names or the one it is sniffed to be. */
export function importSchema(
  source: SchemaSource,
  from?: SchemaLanguage,
): { language: SchemaLanguage; schema: Schema } {
  const language = from ?? sniffLanguage(source);
  return { language, schema: (languages.get(language) as LanguageRow).read(source) };
}

/** The language a file is in, from its extension and then its content; SchemaImportError when neither says. */
export function sniffLanguage(source: SchemaSource): SchemaLanguage {
  const name = source.file.toLowerCase();
  for (const [language, row] of languages) {
    if (row.extensions.some((extension) => name.endsWith(extension))) return language;
  }
  const sniffed = sniffContent(source.text);
  if (sniffed !== undefined) return sniffed;
  throw new SchemaImportError(
    `cannot tell which schema language this is; wirekit reads ${[...languages.values()].map((row) => row.title).join(', ')}: pass --from ${schemaLanguageNames.join('|')} to say which.`,
    { file: source.file },
  );
}

function sniffContent(text: string): SchemaLanguage | undefined {
  const start = text.replace(/^\uFEFF/, '').trimStart();
  // A .proto file starts with its syntax, edition or package line, or a comment, an import, a message.
  if (/^(syntax|edition|package|import|message|enum|option|service)\b/.test(start)) return 'proto';
  if (start.startsWith('//') || start.startsWith('/*')) return 'proto';
  let json: unknown;
  try {
    json = JSON.parse(start);
  } catch {
    return undefined;
  }
  if (typeof json === 'string' || Array.isArray(json)) return 'avro';
  if (typeof json !== 'object' || json === null) return undefined;
  const object = json as Record<string, unknown>;
  if (object.format === 'wirekit-schema') return 'wirekit';
  if ('$schema' in object || '$defs' in object || 'definitions' in object || 'properties' in object)
    return 'jsonschema';
  const type = object.type;
  if ((type === 'record' || type === 'enum' || type === 'fixed' || type === 'error') && 'name' in object)
    return 'avro';
  if (type === 'array' && 'items' in object && typeof object.items !== 'boolean') {
    // Both Avro and JSON Schema write arrays so; JSON Schema's items are objects with their own
    // `type`, Avro's a name or a schema. Avro's map has `values`, which JSON Schema has not.
    return 'avro';
  }
  if (type === 'map' && 'values' in object) return 'avro';
  if (typeof type === 'string' && 'logicalType' in object) return 'avro';
  if (typeof type === 'string' || 'oneOf' in object || 'anyOf' in object || 'allOf' in object)
    return 'jsonschema';
  return undefined;
}

/** The refusal of a language whose importer is still to come. */
function notYet(language: SchemaLanguage): (source: SchemaSource) => Schema {
  return (source) => {
    throw new SchemaImportError(
      `${languageTitle(language)} is not imported yet (--from ${language}); wirekit reads ${schemaLanguageNames
        .filter((name) => name === 'wirekit' || name === 'avro')
        .map((name) => `${languageTitle(name)} (--from ${name})`)
        .join(' and ')} today.`,
      { file: source.file },
    );
  };
}

/** The file's JSON, or the place where it stops being JSON. */
function jsonOf(source: SchemaSource): unknown {
  const text = source.text.replace(/^\uFEFF/, '');
  try {
    return JSON.parse(text);
  } catch {
    const fault = findJsonFault(text);
    if (fault === undefined || fault.kind === 'truncated') {
      throw new SchemaImportError('is not JSON: it ends inside a value.', { file: source.file });
    }
    const { line, column } = lineAndColumnOf(text, fault.position);
    const what =
      fault.kind === 'malformed'
        ? `expected ${fault.expected}`
        : fault.kind === 'trailing'
          ? 'more follows the value'
          : 'a number beyond the range of a float64';
    throw new SchemaImportError(`is not JSON: ${what}.`, { file: source.file, line, column });
  }
}

/** Runs an importer, giving a wirekit error it throws (WK_SCHEMA_INVALID and the like) the file's name. */
function imported(source: SchemaSource, read: () => Schema): Schema {
  try {
    return read();
  } catch (error) {
    if (error instanceof SchemaImportError) throw error.inFile(source.file);
    if (!isWirekitError(error)) throw error;
    throw new SchemaImportError(`${error.code}: ${error.message}`, { file: source.file, cause: error });
  }
}
