/**
 * `schemaFromProtoFile`: `schemaFromProto` for a `.proto` file on disk, whose imports are found in
 * include paths as protoc's `-I` finds them. It is its own entry (`wirekit-ts/protobuf/files`)
 * because it reads files with node:fs: `wirekit-ts/protobuf` stays free of Node modules, for pages
 * and edge runtimes, where `schemaFromProto(text, { imports })` takes the files' texts instead.
 *
 * Every file is read with a size limit (`maxFileBytes`), counted as it is read, so a huge file, a
 * FIFO or a device named by a path costs no more memory than the limit. The CLI reads its imports
 * here too (`schemaFromProtoText`, for a file it has read itself or standard input).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
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
  /** The most bytes one file may have, the file itself and each file it imports; default 16 MiB. */
  readonly maxFileBytes?: number;
}

export interface SchemaFromProtoTextOptions extends SchemaFromProtoFileOptions {
  /** The name refusals in the text itself are placed in (a path, `standard input`); none by default. */
  readonly file?: string;
}

/** 16 MiB: over a hundred times Debian's largest .proto (descriptor.proto, about 50 KB). */
const defaultMaxFileBytes = 16 * 1024 * 1024;

/**
 * Reads the `.proto` file at `path` and the files it imports; refusals are SchemaImportErrors
 * naming the file they are in (`path`, or the path on disk of the imported file).
 */
export function schemaFromProtoFile(path: string, options: SchemaFromProtoFileOptions = {}): ImportedProto {
  const { includePaths = [dirname(path)], maxFileBytes = defaultMaxFileBytes } = options;
  let text: string | undefined;
  try {
    text = readBounded(path, maxFileBytes, false);
  } catch (error) {
    if (error instanceof SchemaImportError) throw error.inFile(path);
    throw new SchemaImportError(`cannot read the file (${(error as Error).message})`, {
      file: path,
      format: 'protobuf',
      cause: error,
    });
  }
  return schemaFromProtoText(text as string, { ...options, includePaths, maxFileBytes, file: path });
}

/**
 * `schemaFromProtoFile` for a file whose text the caller holds already (read from standard input,
 * say): its imports are read from `includePaths` (by default the working folder).
 */
export function schemaFromProtoText(text: string, options: SchemaFromProtoTextOptions = {}): ImportedProto {
  const { includePaths = ['.'], maxFileBytes = defaultMaxFileBytes, file, ...limits } = options;
  /** Where on disk each import was found, so that a refusal inside it names that file. */
  const foundAt = new Map<string, string>();
  try {
    return schemaFromProto(text, {
      ...limits,
      imports: (imported) => {
        const found = readImport(imported, includePaths, maxFileBytes);
        if (found !== undefined) foundAt.set(imported, found.file);
        return found?.text;
      },
      searched: includePaths.map((folder) => `-I ${folder}`).join(', '),
    });
  } catch (error) {
    if (!(error instanceof SchemaImportError)) throw error;
    const onDisk = error.file === undefined ? undefined : foundAt.get(error.file);
    if (onDisk !== undefined) throw error.movedTo(onDisk);
    throw file === undefined ? error : error.inFile(file);
  }
}

/**
 * The first include path that holds the import. An import's path is a path inside the include
 * paths, as protoc requires: an absolute one, or one with `..` or `.` parts, is refused.
 */
function readImport(
  path: string,
  includePaths: readonly string[],
  maxFileBytes: number,
): { file: string; text: string } | undefined {
  if (isAbsolute(path) || path.split(/[\\/]/).some((part) => part === '..' || part === '.' || part === '')) {
    // Unplaced: the importer places it at the import that names the path.
    throw new SchemaImportError(
      `import "${path}" must be a path below an include folder (no leading /, no . or .. parts).`,
      { format: 'protobuf' },
    );
  }
  for (const folder of includePaths) {
    const file = join(folder, path);
    let text: string | undefined;
    try {
      text = readBounded(file, maxFileBytes, true);
    } catch (error) {
      if (error instanceof SchemaImportError) throw error.inFile(file);
      // Not in this folder (or not readable): protoc goes on to the next one too.
      continue;
    }
    if (text !== undefined) return { file, text };
  }
  return undefined;
}

/**
 * The text of a file, read in chunks and refused (an unplaced SchemaImportError) once it passes
 * `maxBytes`; undefined for what is not a regular file when `filesOnly` (a folder of that name).
 */
function readBounded(path: string, maxBytes: number, filesOnly: boolean): string | undefined {
  const fd = openSync(path, 'r');
  try {
    if (filesOnly && !fstatSync(fd).isFile()) return undefined;
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, maxBytes + 1 - total));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      total += read;
      if (total > maxBytes) {
        throw new SchemaImportError(
          `is larger than the limit of ${maxBytes} bytes a file may have (maxFileBytes).`,
          {
            format: 'protobuf',
          },
        );
      }
      chunks.push(chunk.subarray(0, read));
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
