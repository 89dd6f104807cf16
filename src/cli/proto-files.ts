/**
 * A `.proto` file as the CLI imports it: the files it imports read from disk along the include
 * paths (`-I DIR`, as protoc takes them, then the file's own folder) by the library's reader, a
 * refusal placed in the file that has the fault, and the one message that is the file's schema
 * when a command needs one.
 */
import { dirname } from 'node:path';
import { schemaFromProtoText } from '../codecs/protobuf/from-proto-file.js';
import type { ImportedProto } from '../codecs/protobuf/index.js';
import { isWirekitError, SchemaImportError, type WirekitError } from '../errors/index.js';
import type { Schema } from '../schema/index.js';
import { fullName } from '../schema/walk.js';
import { lineAndColumnOf } from '../util/json-syntax.js';

export interface ProtoSource {
  readonly file: string;
  readonly text: string;
  readonly includeDirs: readonly string[];
  /** The most bytes an imported file may have (the --max-input-bytes of the file itself). */
  readonly maxBytes: number;
}

/**
 * Every message and enum the file declares and imports, by full name, and the file's services. The
 * library reads the imports (schemaFromProtoText, each file bounded by --max-input-bytes); the text
 * is the CLI's own, read from the file or standard input.
 */
export function importProtoFile(source: ProtoSource): ImportedProto {
  const dirs = [...source.includeDirs, source.file === 'standard input' ? '.' : dirname(source.file)];
  try {
    return schemaFromProtoText(source.text, { includePaths: dirs, maxFileBytes: source.maxBytes });
  } catch (error) {
    // A refusal in an imported file names that file on disk; one left unnamed is in this one.
    throw placed(error, source.file, source.text);
  }
}

/**
 * A refusal of the .proto reader or importer as WK_SCHEMA_IMPORT in `file`, at the line and column
 * of its offset into `text`; a refusal already placed keeps its place.
 */
function placed(error: unknown, file: string, text: string): unknown {
  if (error instanceof SchemaImportError) return error.inFile(file);
  if (!isWirekitError(error)) return error;
  const reason = error.message.replace(/^\.proto (line \d+, column \d+: )?/, '');
  const at = (error as WirekitError).offset;
  return new SchemaImportError(reason, {
    file,
    format: 'protobuf',
    cause: error,
    ...(at === undefined ? {} : lineAndColumnOf(text, at)),
  });
}

/**
 * The message a command reads the file as: the one `--type` names (by full name, or by a name no
 * other type ends in), else the file's only message no other type uses; undefined when that is
 * not one message, with the candidates for the message that asks for --type.
 */
export function protoRoot(
  types: ReadonlyMap<string, Schema>,
  wanted: string | undefined,
  file: string,
): { schema: Schema | undefined; candidates: string[] } {
  if (wanted !== undefined) {
    const matches = [...types.keys()].filter((name) => name === wanted || name.endsWith(`.${wanted}`));
    const exact = types.get(wanted);
    const schema = exact ?? (matches.length === 1 ? types.get(matches[0] as string) : undefined);
    if (schema !== undefined) return { schema, candidates: [] };
    throw new SchemaImportError(
      matches.length > 1
        ? `--type ${wanted} names ${matches.join(' and ')}: give the full name.`
        : `declares no type ${wanted}; it declares ${[...types.keys()].sort().join(', ')}.`,
      { file, format: 'protobuf' },
    );
  }
  const used = new Set<string>();
  for (const type of types.values()) for (const name of namedInside(type)) used.add(name);
  const candidates = [...types]
    .filter(([name, type]) => type.kind === 'object' && !used.has(name))
    .map(([name]) => name)
    .sort();
  return {
    schema: candidates.length === 1 ? types.get(candidates[0] as string) : undefined,
    candidates,
  };
}

/** The full names of the named types a type's fields mention, not looking inside those. */
function namedInside(type: Schema): Set<string> {
  const found = new Set<string>();
  if (type.kind !== 'object') return found;
  const stack = type.fields.map((field) => field.schema);
  while (stack.length > 0) {
    const schema = stack.pop() as Schema;
    if (schema.kind === 'ref') found.add(fullName(schema.resolve()));
    else if (schema.kind === 'object' || schema.kind === 'enum' || schema.kind === 'union')
      found.add(fullName(schema));
    else if (schema.kind === 'array') stack.push(schema.items);
    else if (schema.kind === 'map') stack.push(schema.values);
    else if (schema.kind === 'optional' || schema.kind === 'nullable') stack.push(schema.inner);
    else if (schema.kind === 'either') stack.push(...schema.branches);
  }
  return found;
}
