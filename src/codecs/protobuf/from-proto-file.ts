/**
 * `schemaFromProtoFile`: `schemaFromProto` for a `.proto` file on disk, whose imports are found in
 * include paths as protoc's `-I` finds them. It is its own entry (`wirekit-ts/protobuf/files`)
 * because it reads files with node:fs: `wirekit-ts/protobuf` stays free of Node modules, for pages
 * and edge runtimes, where `schemaFromProto(text, { imports })` takes the files' texts instead.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { SchemaImportError } from '../../errors/schema-import-error.js';
import { type ImportedProto, type SchemaFromProtoOptions, schemaFromProto } from './from-proto.js';

export type { ImportedProto };

export interface SchemaFromProtoFileOptions extends Omit<SchemaFromProtoOptions, 'imports' | 'searched'> {
  /**
   * The folders an import's path is looked up in, in order (protoc's `-I`); by default the folder
   * of the file. The well-known types (google/protobuf/*.proto) need none: they are built in, and
   * used when no include path holds them.
   */
  readonly includePaths?: readonly string[];
}

/**
 * Reads the `.proto` file at `path` and the files it imports; refusals are SchemaImportErrors
 * naming the file they are in (`path`, or an import's path as the import names it).
 */
export function schemaFromProtoFile(path: string, options: SchemaFromProtoFileOptions = {}): ImportedProto {
  const { includePaths = [dirname(path)], ...limits } = options;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new SchemaImportError(`cannot read the file (${(error as Error).message})`, {
      file: path,
      format: 'protobuf',
      cause: error,
    });
  }
  try {
    return schemaFromProto(text, {
      ...limits,
      imports: (imported) => readImport(imported, includePaths),
      searched: includePaths.map((folder) => `-I ${folder}`).join(', '),
    });
  } catch (error) {
    throw error instanceof SchemaImportError ? error.inFile(path) : error;
  }
}

/**
 * The first include path that holds the import. An import's path is a path inside the include
 * paths, as protoc requires: an absolute one, or one with `..` or `.` parts, is looked up nowhere.
 */
function readImport(path: string, includePaths: readonly string[]): string | undefined {
  if (isAbsolute(path) || path.split(/[\\/]/).some((part) => part === '..' || part === '.' || part === '')) {
    return undefined;
  }
  for (const folder of includePaths) {
    try {
      return readFileSync(join(folder, path), 'utf8');
    } catch {
      // Not in this folder (or not readable): protoc goes on to the next one too.
    }
  }
  return undefined;
}
