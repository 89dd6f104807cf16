/**
 * The schema languages the CLI reads. One table maps each language to its importer, so that a
 * language is added by filling in its row; which language a file is in, when `--from` does not say,
 * is schema-sniff.ts's question.
 *
 * A file is imported as the named types it declares (a .proto file's messages and enums) and, where
 * one schema is asked for (`--to json`, `schema check`), the one it describes: the root of an
 * .avsc, a JSON Schema or wirekit's JSON; for a .proto file, the message `--type` names, or the
 * file's only message no other type uses.
 */
import { schemaFromAvro, schemaFromAvroContainer } from '../codecs/avro/index.js';
import { type ImportedProto, schemaFromDescriptorSet } from '../codecs/protobuf/index.js';
import { isWirekitError, SchemaImportError } from '../errors/index.js';
import { schemaFromJsonSchema } from '../schema/import/index.js';
import {
  type Schema,
  type SchemaDocument,
  type ServiceSchema,
  schemaFromJson,
  schemaToJson,
} from '../schema/index.js';
import { maxSchemaJsonDepth } from '../schema/json-form.js';
import { findJsonFault, lineAndColumnOf } from '../util/json-syntax.js';
import { importProtoFile, protoRoot } from './proto-files.js';
import { isAvroContainer, sniffSchemaLanguage, unknownLanguage } from './schema-sniff.js';
import { usageError } from './usage.js';

export const schemaLanguageNames = ['wirekit', 'avro', 'proto', 'jsonschema', 'descriptor-set'] as const;
export type SchemaLanguage = (typeof schemaLanguageNames)[number];

/** A schema file as read: its name (for messages), its bytes, and what the command line adds. */
export interface SchemaSource {
  /** The path given, or `standard input`. */
  readonly file: string;
  readonly bytes: Uint8Array;
  /** The bytes as UTF-8 text, for the languages written as text. */
  readonly text: string;
  /** Directories to look for imported files in (`-I DIR`), for languages that import. */
  readonly includeDirs: readonly string[];
  /** The most bytes a file may have, imported ones included. */
  readonly maxBytes: number;
  /** `--type NAME`: the type of a file of several that a command reads the file as. */
  readonly type?: string | undefined;
  /** `--at POINTER`: the schema of a JSON document to read (an OpenAPI document's component). */
  readonly at?: string | undefined;
}

/** What a file holds, imported. */
export interface ImportedFile {
  readonly language: SchemaLanguage;
  /** The one schema the file describes; undefined for a .proto file of several messages and no --type. */
  readonly schema: Schema | undefined;
  /** What `--to ts` declares: that schema, or every type (and service) of a file of several. */
  readonly declared: Schema | readonly (Schema | ServiceSchema)[];
  /** The types `--type` could name, when the file describes no one schema. */
  readonly candidates: readonly string[];
}

interface LanguageRow {
  /** How people name it, in messages. */
  readonly title: string;
  /** The file as wirekit schemas; SchemaImportError when it cannot be. */
  readonly read: (source: SchemaSource) => Omit<ImportedFile, 'language'>;
}

/** A language whose files describe one schema. */
function single(read: (source: SchemaSource) => Schema): LanguageRow['read'] {
  return (source) => {
    const schema = imported(source, () => read(source));
    return { schema, declared: schema, candidates: [] };
  };
}

/**
 * A file of Protocol Buffers messages (a .proto, a descriptor set): `--to ts` declares them all and
 * the file's services, or the one message --type names; the schema is that one, or the only
 * message no other uses.
 */
function messagesOf(
  { types, services }: ImportedProto,
  source: SchemaSource,
): Omit<ImportedFile, 'language'> {
  const { schema, candidates } = protoRoot(types, source.type, source.file);
  return {
    schema,
    declared:
      source.type === undefined
        ? [...types.values(), ...services.map((service) => service.schema)]
        : (schema as Schema),
    candidates,
  };
}

/** By --from name; a Map, so that `--from constructor` is an unknown name like any other. */
const languages: ReadonlyMap<SchemaLanguage, LanguageRow> = new Map<SchemaLanguage, LanguageRow>([
  [
    'wirekit',
    {
      title: "wirekit's schema JSON (.schema.json)",
      read: single((source) => schemaFromJson(jsonOf(source))),
    },
  ],
  [
    'avro',
    {
      title: 'Avro (.avsc, or the schema of an .avro container file)',
      read: single((source) =>
        isAvroContainer(source.bytes)
          ? schemaFromAvroContainer(source.bytes, { limits: { maxInputBytes: source.maxBytes } })
          : schemaFromAvro(jsonOf(source) as never),
      ),
    },
  ],
  [
    'proto',
    {
      title: 'Protocol Buffers (.proto)',
      read: (source) => messagesOf(importProtoFile(source), source),
    },
  ],
  [
    'jsonschema',
    {
      title: 'JSON Schema',
      read: single((source) =>
        schemaFromJsonSchema(jsonOf(source) as never, source.at === undefined ? {} : { at: source.at }),
      ),
    },
  ],
  [
    'descriptor-set',
    {
      title: 'a binary FileDescriptorSet (.pb)',
      read: (source) =>
        messagesOf(
          imported(source, () =>
            schemaFromDescriptorSet(source.bytes, { limits: { maxInputBytes: source.maxBytes } }),
          ),
          source,
        ),
    },
  ],
]);

/** What `--from` accepts, for messages: `wirekit, avro, proto, jsonschema, descriptor-set`. */
export const schemaLanguageList = schemaLanguageNames.join(', ');

/** The language named by --from, or undefined for a name that is none. */
export function languageNamed(name: string): SchemaLanguage | undefined {
  return languages.has(name as SchemaLanguage) ? (name as SchemaLanguage) : undefined;
}

/** Reads `source` in the language `from` names or the one it is sniffed to be. */
export function importSchema(source: SchemaSource, from?: SchemaLanguage): ImportedFile {
  const language = from ?? sniffLanguage(source);
  try {
    return readAs(source, language);
  } catch (error) {
    const hint = from === undefined ? '' : mismatchHint(source, from);
    if (!(error instanceof SchemaImportError) || hint === '') throw error;
    throw new SchemaImportError(`${error.reason}${hint}`, {
      file: error.file,
      line: error.line,
      column: error.column,
      path: error.path,
      format: error.format,
      cause: error,
    });
  }
}

/**
 * What to add to a refusal when `--from` names another language than the file looks like: the
 * likelier mistake is the flag. Empty when they agree or the file looks like nothing.
 */
export function mismatchHint(source: SchemaSource, from: SchemaLanguage): string {
  const looks = sniffSchemaLanguage(source.file, source.bytes);
  return looks === undefined || looks === from || looks === 'yaml'
    ? ''
    : ` It looks like ${titleOf(looks)}: pass --from ${looks}, or no --from.`;
}

function readAs(source: SchemaSource, language: SchemaLanguage): ImportedFile {
  if (source.type !== undefined && language !== 'proto' && language !== 'descriptor-set')
    throw usageError(`--type picks a message of a .proto file; ${source.file} is ${titleOf(language)}.`);
  if (source.at !== undefined && language !== 'jsonschema')
    throw usageError(`--at points into a JSON Schema document; ${source.file} is ${titleOf(language)}.`);
  return { language, ...(languages.get(language) as LanguageRow).read(source) };
}

function titleOf(language: SchemaLanguage): string {
  return (languages.get(language) as LanguageRow).title;
}

/**
 * The schema as wirekit's schema JSON, refused when that document would nest deeper than its reader
 * takes (a .proto of 10,000 messages each holding the one before: the JSON form writes a named type
 * where it is first met, so the chain nests 10,000 deep); a TypeScript module declares such a chain
 * type by type.
 */
export function schemaJsonOf(schema: Schema, file: string): SchemaDocument {
  const tooDeep = () =>
    new SchemaImportError(
      `its types nest deeper than wirekit's schema JSON holds (${maxSchemaJsonDepth} nodes): write it with --to ts, which declares each type on its own.`,
      { file },
    );
  let document: SchemaDocument;
  try {
    document = schemaToJson(schema);
  } catch (error) {
    if (error instanceof RangeError) throw tooDeep();
    throw error;
  }
  try {
    schemaFromJson(document);
  } catch (error) {
    if (isWirekitError(error, 'WK_SCHEMA_JSON_INVALID') && /nests deeper/.test(error.message))
      throw tooDeep();
    throw error;
  }
  return document;
}

/** The one schema a file describes, or the refusal that asks for --type. */
export function oneSchema(file: ImportedFile, source: SchemaSource): Schema {
  if (file.schema !== undefined) return file.schema;
  throw new SchemaImportError(
    file.candidates.length === 0
      ? 'declares no message to read as its schema.'
      : `declares ${file.candidates.length} messages no other uses (${file.candidates.join(', ')}): pass --type NAME to say which one is the schema.`,
    { file: source.file },
  );
}

/** The language a file is in; SchemaImportError when nothing says, or when it is one wirekit does not read. */
export function sniffLanguage(source: SchemaSource): SchemaLanguage {
  const sniffed = sniffSchemaLanguage(source.file, source.bytes);
  if (sniffed === 'yaml') {
    throw new SchemaImportError(
      'is YAML, which wirekit does not read (it has no YAML parser): convert the document to JSON (e.g. `yq -o=json . FILE > FILE.json`) and import that, with --at #/components/schemas/NAME for one schema of an OpenAPI document.',
      { file: source.file },
    );
  }
  if (sniffed !== undefined) return sniffed;
  throw unknownLanguage(
    source.file,
    [...languages.values()].map((row) => row.title),
    schemaLanguageNames,
  );
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
function imported<T>(source: SchemaSource, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof SchemaImportError) throw error.inFile(source.file);
    if (!isWirekitError(error)) throw error;
    throw new SchemaImportError(`${error.code}: ${error.message}`, { file: source.file, cause: error });
  }
}
