/**
 * Reading .proto files (proto2 and proto3) into plain data: `parseProto` reads one file's text into
 * its AST (ast.ts) and applies the rules that need only that file; `linkProto` resolves its type
 * names against the files it imports. Both answer any text with a result or a WirekitError
 * WK_SCHEMA_INVALID (format protobuf) carrying the line, column and offset, in time linear in the
 * text (n log n where ranges are sorted), with at most `maxNodes` declarations built.
 *
 * Why not protobufjs's parser: its reflection adds fields one by one, and each addition clears the
 * type's caches, which the next rebuilds from every field, so a message of n fields takes n² steps
 * (8,000 fields of a oneof: 4-5 s); and it keys fields, types and enum values by name in plain
 * objects, where a field named `__proto__` vanishes. `npm run bench:proto` compares the two.
 */
import type { ProtoFileAst } from './ast.js';
import { checkProtoFile } from './check.js';
import { parseProtoSyntax } from './parse.js';
import { collectSymbols } from './symbols.js';

export type * from './ast.js';
export { type LinkedProto, linkProto } from './link.js';
export { stringConstant } from './parse-options.js';
export { printProto } from './print.js';
export {
  mapEntryName,
  qualify,
} from './symbols.js';
export { wellKnownProtoFiles } from './well-known.js';

export interface ProtoParseOptions {
  /**
   * The most declarations (messages, fields, enum values, options, reserved ranges...) and option
   * values one file may hold (default 1,000,000); past it the parse stops with WK_SCHEMA_INVALID.
   */
  readonly maxNodes?: number;
}

const defaultProtoMaxNodes = 1_000_000;

/** Parses one .proto file and checks the rules that need no other file. */
export function parseProto(text: string, options: ProtoParseOptions = {}): ProtoFileAst {
  const file = parseProtoSyntax(text, options.maxNodes ?? defaultProtoMaxNodes);
  collectSymbols(file, new Map());
  checkProtoFile(file);
  return file;
}
