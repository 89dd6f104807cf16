/**
 * `schemaFromDescriptorSet`: the import of a binary google.protobuf.FileDescriptorSet, as
 * `protoc --descriptor_set_out=x.pb [--include_imports] [--include_source_info]` (or `buf build
 * -o x.binpb`) writes it. The set is decoded by wirekit's own Protocol Buffers codec, from a schema
 * of descriptor.proto's parts (descriptor-schema.ts), under its decode limits; each file's
 * descriptor becomes the AST the `.proto` reader would have made of its text (descriptor-to-ast.ts),
 * checked by the same single-file rules and linked by the same linker; and the same mapping as
 * `schemaFromProto` makes the schemas. So a set and the text it was compiled from import alike.
 *
 * The files a set's file imports are looked up in the set (`--include_imports` puts them there),
 * then among the well-known types wirekit carries. Anything wrong, from bytes that are not a
 * descriptor set to a feature the import does not read, is a SchemaImportError (WK_SCHEMA_IMPORT),
 * placed in the descriptor's file (and at its line and column when the set has source info).
 */
import { isWirekitError, SchemaImportError } from '../../errors/index.js';
import { checkProtoFile } from '../../schema/proto/check.js';
import { type ProtoFileAst, parseProto, printProto, wellKnownProtoFiles } from '../../schema/proto/index.js';
import { collectSymbols } from '../../schema/proto/symbols.js';
import type { Codec } from '../core/codec.js';
import type { DecodeLimits } from '../core/limits.js';
import type { DescriptorPlace } from './descriptor-places.js';
import {
  type EnumDescriptor,
  type FileDescriptor,
  fileDescriptorSet,
  type MessageDescriptor,
} from './descriptor-schema.js';
import { DescriptorFiles } from './descriptor-to-ast.js';
import { type ImportedProto, importProtoFiles } from './from-proto.js';
import { linkProtoFiles } from './from-proto-files.js';
import { createProtobufCodec } from './index.js';

export interface SchemaFromDescriptorSetOptions {
  /**
   * The file of the set to import, by its name in the set (the path protoc was given it by, as an
   * import names it: `shop/v1/order.proto`). Default: the set's last file, which is the file protoc
   * compiled when it was given one (`--include_imports` writes the imports before it).
   */
  readonly file?: string;
  /**
   * Limits of the set's decode, as any Protocol Buffers decode takes them (default: the codec's,
   * e.g. 64 MiB of input, 100 levels of nesting, 256 MiB of decoded value).
   */
  readonly limits?: Partial<DecodeLimits>;
  /**
   * The most declarations (messages, fields, enums and their values, oneofs, services, methods,
   * ranges, reserved names) the set may hold, counted before any is built (default 1,000,000, the
   * `.proto` reader's own bound on a file).
   */
  readonly maxNodes?: number;
}

const defaultMaxNodes = 1_000_000;

/** Reads one file of a binary FileDescriptorSet as wirekit schemas; see the module comment. */
export function schemaFromDescriptorSet(
  bytes: Uint8Array,
  options: SchemaFromDescriptorSetOptions = {},
): ImportedProto {
  const descriptors = decodeSet(bytes, options.limits);
  const maxNodes = options.maxNodes ?? defaultMaxNodes;
  const nodes = descriptors.reduce((sum, file) => sum + declarationsIn(file), 0);
  if (nodes > maxNodes) {
    refuse(
      `the descriptor set declares ${nodes} messages, fields, values and ranges; maxNodes is ${maxNodes}`,
    );
  }
  const byName = new Map<string, FileDescriptor>();
  for (const descriptor of descriptors) {
    const name = descriptor.name ?? '';
    if (byName.has(name)) refuse(`the set holds two files named ${JSON.stringify(name)}`);
    byName.set(name, descriptor);
  }
  const targetName = options.file ?? descriptors.at(-1)?.name;
  if (targetName === undefined) refuse('the descriptor set holds no file');
  const target = byName.get(targetName);
  if (target === undefined) {
    refuse(
      `the descriptor set has no file named ${JSON.stringify(targetName)} (it has ${[...byName.keys()].map((n) => JSON.stringify(n)).join(', ')})`,
    );
  }

  const files = new DescriptorFiles();
  const built = new Map<string, ProtoFileAst | undefined>();
  const fileNamed = (name: string): ProtoFileAst | undefined => {
    if (built.has(name)) return built.get(name);
    const descriptor = byName.get(name);
    let file: ProtoFileAst | undefined;
    if (descriptor !== undefined) {
      file = files.file(descriptor);
      // The rules parseProto applies to a text, for a set that did not come from protoc.
      collectSymbols(file, new Map());
      checkProtoFile(file);
    } else {
      const text = wellKnownProtoFiles.get(name);
      file = text === undefined ? undefined : parseProto(text);
    }
    built.set(name, file);
    return file;
  };
  try {
    const root = fileNamed(targetName) as ProtoFileAst;
    // Every file the target reaches by imports, each linked on its own (from-proto-files.ts). Depth
    // first with the chain open, so that a cycle (which protoc refuses, as the text import does) is
    // named where it closes; a loop, not recursion, for a chain of any length.
    const byPath = new Map<string, ProtoFileAst>();
    const pathOf = new Map<ProtoFileAst, string | undefined>([[root, targetName]]);
    const open = new Set<ProtoFileAst>([root]);
    const chain: { file: ProtoFileAst; next: number }[] = [{ file: root, next: 0 }];
    while (chain.length > 0) {
      const top = chain[chain.length - 1] as { file: ProtoFileAst; next: number };
      const item = top.file.imports[top.next++];
      if (item === undefined) {
        open.delete(top.file);
        chain.pop();
        continue;
      }
      const from = pathOf.get(top.file) ?? targetName;
      const imported = item.path === targetName ? root : (byPath.get(item.path) ?? fileNamed(item.path));
      if (imported === undefined) {
        refuse(
          `${from} imports ${JSON.stringify(item.path)}, which the set does not hold: compile it with protoc --include_imports`,
          targetName,
        );
      }
      if (open.has(imported)) {
        const names = chain.map((step) => pathOf.get(step.file) ?? targetName);
        const cycle = [...names.slice(names.indexOf(item.path)), item.path].join(' → ');
        refuse(`import "${item.path}" closes an import cycle (${cycle})`, from);
      }
      if (byPath.has(item.path) || imported === root) continue;
      byPath.set(item.path, imported);
      pathOf.set(imported, item.path);
      open.add(imported);
      chain.push({ file: imported, next: 0 });
    }
    return importProtoFiles(linkProtoFiles(root, byPath, pathOf));
  } catch (error) {
    throw placed(error, files.places, targetName);
  }
}

/**
 * One serialized google.protobuf.FileDescriptorProto (what Confluent's Protobuf serializers register,
 * base64-encoded) as `.proto` text: decoded under the default limits, turned into the AST as a set's
 * file is, and printed (schema/proto/print.ts). Its imports are named, not read: the text links
 * against them wherever it is parsed. A SchemaImportError when the bytes are not such a file.
 *
 * The text compiles to the same declarations, with one thing a text cannot say: a message's fields
 * are written before its nested messages, so the entry message of a map field (or a group's) that
 * stood after a nested message in the descriptor comes before it when the text is compiled again.
 * Confluent's message indexes skip those entries; its Python client counts them, so the registry
 * serves a registered descriptor's own bytes rather than the text's.
 */
export function protoOfFileDescriptor(bytes: Uint8Array): string {
  // A set of one file is the file behind its field tag (1, length-delimited) and length.
  const length: number[] = [];
  for (let rest = bytes.length; ; rest = Math.floor(rest / 128)) {
    length.push(rest >= 128 ? (rest % 128) | 0x80 : rest);
    if (rest < 128) break;
  }
  const set = new Uint8Array(1 + length.length + bytes.length);
  set[0] = 0x0a;
  set.set(length, 1);
  set.set(bytes, 1 + length.length);
  const [descriptor] = decodeSet(set, undefined);
  if (descriptor === undefined) refuse('the bytes hold no file descriptor');
  const files = new DescriptorFiles();
  try {
    return printProto(files.file(descriptor));
  } catch (error) {
    throw placed(error, files.places, descriptor.name ?? '');
  }
}

type SetCodec = Codec<{ file: FileDescriptor[] }>;
/** The codec with the default limits, made once: a codec is immutable, and compiling it costs more than a small set's decode. */
let defaultCodec: SetCodec | undefined;

function decodeSet(bytes: Uint8Array, limits: Partial<DecodeLimits> | undefined): readonly FileDescriptor[] {
  if (limits === undefined) defaultCodec ??= createProtobufCodec({ schema: fileDescriptorSet });
  const codec: SetCodec =
    limits === undefined
      ? (defaultCodec as SetCodec)
      : createProtobufCodec({ schema: fileDescriptorSet, limits });
  try {
    return codec.decode(bytes).file;
  } catch (error) {
    if (!isWirekitError(error)) throw error;
    throw new SchemaImportError(
      `the bytes are not a readable FileDescriptorSet: ${error.code}: ${error.message}`,
      {
        format: 'protobuf',
        cause: error,
      },
    );
  }
}

/** How many declarations a file holds (nesting is bounded by the decode's maxDepth). */
function declarationsIn(file: FileDescriptor): number {
  const enumCount = (e: EnumDescriptor) =>
    1 + e.value.length + e.reservedRange.length + e.reservedName.length;
  const messageCount = (m: MessageDescriptor): number =>
    1 +
    m.field.length +
    m.extension.length +
    m.oneofDecl.length +
    m.extensionRange.length +
    m.reservedRange.length +
    m.reservedName.length +
    m.nestedType.reduce((sum, nested) => sum + messageCount(nested), 0) +
    m.enumType.reduce((sum, e) => sum + enumCount(e), 0);
  return (
    1 +
    file.dependency.length +
    file.extension.length +
    file.messageType.reduce((sum, m) => sum + messageCount(m), 0) +
    file.enumType.reduce((sum, e) => sum + enumCount(e), 0) +
    file.service.reduce((sum, service) => sum + 1 + service.method.length, 0)
  );
}

function refuse(message: string, file?: string): never {
  throw new SchemaImportError(`${message}.`, { format: 'protobuf', file });
}

/**
 * The reader's and the mapping's refusals (WK_SCHEMA_INVALID at a position, which here is an index
 * into the descriptors' places) as a SchemaImportError in the descriptor's file.
 */
function placed(error: unknown, places: readonly DescriptorPlace[], targetName: string): unknown {
  if (error instanceof SchemaImportError) {
    if (error.file !== undefined) return error;
    // A refusal the mapping placed itself, from a position: line 0 is a descriptor's "not known".
    const place = error.offset === undefined ? undefined : places[error.offset];
    if (place === undefined && error.line !== 0) return error.inFile(targetName);
    return new SchemaImportError(error.reason, {
      format: 'protobuf',
      file: place?.file ?? targetName,
      line: place?.line,
      column: place?.column,
      path: error.path,
      cause: error.cause,
    });
  }
  if (!isWirekitError(error, 'WK_SCHEMA_INVALID')) return error;
  const place = error.offset === undefined ? undefined : places[error.offset];
  // protoError's text starts with the text's line and column, which a descriptor's position does not have.
  const reason = error.message.replace(/^\.proto (line -?\d+, column -?\d+: )?/, '');
  return new SchemaImportError(reason, {
    format: 'protobuf',
    file: place?.file ?? targetName,
    line: place?.line,
    column: place?.column,
    cause: error,
  });
}
