/**
 * The files one `.proto` import reads: the file itself and every file it imports, transitively,
 * each parsed once and linked against the files it imports, as protoc reads them. The registry's
 * reader (schema/proto) refuses with WK_SCHEMA_INVALID and a UTF-16 offset, which the registry
 * relies on; here each of its refusals becomes the importers' SchemaImportError (WK_SCHEMA_IMPORT)
 * naming the imported file it is in, with its line and column.
 *
 * Bounded whatever the files hold: each file's reader stops at `maxNodes` declarations, at most
 * `maxFiles` files are read, an import cycle (which protoc refuses too) is refused where it closes,
 * and messages nest at most 31 deep (the reader's own bound), so a hostile set of files costs time
 * and memory in proportion to those limits.
 */
import { SchemaImportError } from '../../errors/schema-import-error.js';
import { isWirekitError } from '../../errors/wirekit-error.js';
import {
  type LinkedProto,
  linkProto,
  type ProtoExtendAst,
  type ProtoFieldAst,
  type ProtoFileAst,
  type ProtoPosition,
  parseProto,
  wellKnownProtoFiles,
} from '../../schema/proto/index.js';
import type { ProtoDeclaration } from '../../schema/proto/link.js';

export interface ProtoFileLimits {
  /** The most declarations one file may hold (the reader's `maxNodes`); default 1,000,000. */
  readonly maxNodes?: number;
  /** The most files one import reads, the file itself and the well-known types included; default 1,000. */
  readonly maxFiles?: number;
}

/** The text of a file an import names, or undefined when there is none; `searched` says where it looked. */
export interface ProtoSource {
  read(path: string): string | undefined;
  /** Where a missing file was looked for, for the refusal (`-I proto, -I vendor`). */
  readonly searched?: string;
}

export interface ProtoFileSet {
  /** The file asked for, linked. */
  readonly root: LinkedProto;
  /** What every field of every file read resolves to (a field's named type, a map's value type). */
  readonly fieldTypes: ReadonlyMap<ProtoFieldAst, ProtoDeclaration>;
  /** The message each `extend` block of every file read extends. */
  readonly extendees: ReadonlyMap<ProtoExtendAst, ProtoDeclaration>;
  /** The path an import named each file by; undefined for the file asked for. */
  readonly pathOf: ReadonlyMap<ProtoFileAst, string | undefined>;
}

const defaultMaxFiles = 1000;

/** Reads `text` and the files it imports, transitively; see the module comment. */
export function readProtoFiles(
  text: string,
  source: ProtoSource,
  limits: ProtoFileLimits = {},
): ProtoFileSet {
  const maxNodes = limits.maxNodes;
  const maxFiles = limits.maxFiles ?? defaultMaxFiles;
  const byPath = new Map<string, ProtoFileAst>();
  const pathOf = new Map<ProtoFileAst, string | undefined>();
  const parse = (path: string | undefined, fileText: string): ProtoFileAst => {
    const file = importing(path, () => parseProto(fileText, maxNodes === undefined ? {} : { maxNodes }));
    pathOf.set(file, path);
    return file;
  };
  const root = parse(undefined, text);

  // Depth first along the imports, with the chain being read, so that a cycle is named as it closes.
  const chain: string[] = [];
  const onChain = new Set<string>();
  const visit = (file: ProtoFileAst): void => {
    for (const item of file.imports) {
      const from = pathOf.get(file);
      if (onChain.has(item.path)) {
        const cycle = [...chain.slice(chain.indexOf(item.path)), item.path].join(' → ');
        throw refusal(`import "${item.path}" closes an import cycle (${cycle})`, from, item.at);
      }
      if (byPath.has(item.path)) continue;
      const found = readOne(source, item.path, from, item.at) ?? wellKnownProtoFiles.get(item.path);
      if (found === undefined) {
        const where = source.searched === undefined ? '' : ` (looked in ${source.searched})`;
        throw refusal(`import "${item.path}" is not found${where}`, from, item.at);
      }
      if (byPath.size + 2 > maxFiles) {
        throw refusal(
          `import "${item.path}" is past the limit of ${maxFiles} files (maxFiles)`,
          from,
          item.at,
        );
      }
      const imported = parse(item.path, found);
      byPath.set(item.path, imported);
      chain.push(item.path);
      onChain.add(item.path);
      visit(imported);
      chain.pop();
      onChain.delete(item.path);
    }
  };
  visit(root);
  return linkProtoFiles(root, byPath, pathOf);
}

/**
 * The text `source` reads for an import; a refusal it gives without a place (a path that leaves
 * the include folders) is placed at the import.
 */
function readOne(
  source: ProtoSource,
  path: string,
  from: string | undefined,
  at: ProtoPosition | undefined,
): string | undefined {
  try {
    return source.read(path);
  } catch (error) {
    if (error instanceof SchemaImportError && error.file === undefined && error.line === undefined) {
      throw refusal(error.reason, from, at);
    }
    throw error;
  }
}

/**
 * Links each file against the files it imports, as protoc does: a file's names resolve in its own
 * scope, and its own syntax rules apply to it. `byPath` holds every file `root` reaches by imports.
 */
export function linkProtoFiles(
  root: ProtoFileAst,
  byPath: ReadonlyMap<string, ProtoFileAst>,
  pathOf: ReadonlyMap<ProtoFileAst, string | undefined>,
): ProtoFileSet {
  const fieldTypes = new Map<ProtoFieldAst, ProtoDeclaration>();
  const extendees = new Map<ProtoExtendAst, ProtoDeclaration>();
  const link = (file: ProtoFileAst): LinkedProto => {
    const linked = importing(pathOf.get(file), () => linkProto(file, (path) => byPath.get(path)));
    for (const [field, declaration] of linked.fieldTypes) fieldTypes.set(field, declaration);
    for (const [block, declaration] of linked.extendees) extendees.set(block, declaration);
    return linked;
  };
  for (const file of byPath.values()) link(file);
  return { root: link(root), fieldTypes, extendees, pathOf };
}

/** A refusal of the importer, at a place in the file an import named `file` (undefined: the file asked for). */
export function refusal(
  message: string,
  file: string | undefined,
  at: ProtoPosition | undefined,
): SchemaImportError {
  return new SchemaImportError(message.endsWith('.') ? message : `${message}.`, {
    file,
    // Line 0 is a descriptor set's "no source info" (descriptor-places.ts): no place to give.
    line: at === undefined || at.line < 1 ? undefined : at.line,
    column: at === undefined || at.line < 1 ? undefined : at.column,
    format: 'protobuf',
  });
}

/** Runs the registry's reader, turning its WK_SCHEMA_INVALID into the importers' SchemaImportError. */
function importing<T>(file: string | undefined, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!isWirekitError(error, 'WK_SCHEMA_INVALID')) throw error;
    // The reader's message starts with `.proto line L, column C: ` (schema/proto/errors.ts).
    const match = /^\.proto (?:line (\d+), column (\d+): )?([\s\S]*)$/.exec(error.message);
    const reason = match?.[3] ?? error.message;
    throw new SchemaImportError(reason, {
      file,
      line: match?.[1] === undefined || Number(match[1]) < 1 ? undefined : Number(match[1]),
      column: match?.[1] === undefined || Number(match[1]) < 1 ? undefined : Number(match[2]),
      format: 'protobuf',
      cause: error,
    });
  }
}
