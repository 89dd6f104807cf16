/**
 * Where the declarations of a descriptor set are, for errors: a descriptor has no text, so a
 * position (ProtoPosition) of an AST built from one is an index into a table of places shared by
 * the set's files: the file's name, and the line and column where protoc's source info
 * (`--include_source_info`) has them. A refusal made at a position is placed from that table,
 * whichever code makes it. The checks of a descriptor's names live here too, since they refuse at
 * the declaration's place: a name must be an identifier and a type name a full name, as the text's
 * grammar guarantees, so that a hostile descriptor's `a.b` or `` never becomes a name the linker
 * looks up by parts. And the small parts of the AST made at a place: ranges and options.
 */
import { SchemaImportError } from '../../errors/index.js';
import type { ProtoConstant, ProtoOption, ProtoPosition, ProtoRange } from '../../schema/proto/index.js';

/** Where a declaration of a descriptor set is: its file, and its line and column when known. */
export interface DescriptorPlace {
  readonly file: string;
  readonly line: number | undefined;
  readonly column: number | undefined;
}

/** The largest field number; `to max` in a message's ranges. */
const maxFieldNumber = 536_870_911;
const maxEnumNumber = 2_147_483_647;
const identifierPattern = /^[A-Za-z_][A-Za-z0-9_]*$/;
const fullNamePattern = /^(\.[A-Za-z_][A-Za-z0-9_]*)+$/;

/** The places of one file's declarations, by their paths in its FileDescriptorProto. */
export class FilePlaces {
  private readonly spans = new Map<string, readonly number[]>();

  constructor(
    private readonly file: string,
    locations: readonly { readonly path: readonly number[]; readonly span: readonly number[] }[],
    private readonly places: DescriptorPlace[],
  ) {
    for (const location of locations) this.spans.set(location.path.join('.'), location.span);
  }

  identifier(name: string | undefined, path: readonly number[]): string {
    if (name === undefined || !identifierPattern.test(name)) {
      this.refuse(
        `${name === undefined ? 'a declaration has no name' : `${JSON.stringify(name)} is not a name`}`,
        this.at(path),
      );
    }
    return name;
  }

  /** A type name of a descriptor: a full name with a leading dot. */
  typeName(name: string | undefined, path: readonly number[]): string {
    if (name === undefined || !fullNamePattern.test(name)) {
      this.refuse(
        `type name ${JSON.stringify(name ?? '')} is not a full name (.package.Type)`,
        this.at(path),
      );
    }
    return name;
  }

  /**
   * A map or group field's position: its entry message's place in the order of nested types (which
   * the AST keeps through positions), but the field's line and column, which protoc records for the
   * field, not for the message it makes.
   */
  moved(at: ProtoPosition, path: readonly number[]): ProtoPosition {
    const span = this.spans.get(path.join('.'));
    if (span === undefined) return at;
    const line = (span[0] ?? 0) + 1;
    const column = (span[1] ?? 0) + 1;
    this.places[at.offset] = { file: this.file, line, column };
    return { offset: at.offset, line, column };
  }

  /** The position of the declaration at `path` (descriptor.proto's field numbers and indexes). */
  at(path: readonly number[]): ProtoPosition {
    const span = this.spans.size === 0 ? undefined : this.spans.get(path.join('.'));
    const line = span?.[0];
    const column = span?.[1];
    this.places.push({
      file: this.file,
      line: line === undefined ? undefined : line + 1,
      column: column === undefined ? undefined : column + 1,
    });
    return { offset: this.places.length - 1, line: (line ?? -1) + 1, column: (column ?? -1) + 1 };
  }

  refuse(message: string, at: ProtoPosition): never {
    const place = this.places[at.offset];
    throw new SchemaImportError(`${message}.`, {
      format: 'protobuf',
      file: place?.file || undefined,
      line: place?.line,
      column: place?.column,
    });
  }

  /** A range; `exclusive` is 1 where the descriptor's end is one past the last number (messages). */
  range(
    r: { readonly start?: number | undefined; readonly end?: number | undefined },
    path: readonly number[],
    exclusive: 0 | 1,
  ): ProtoRange {
    const at = this.at(path);
    if (r.start === undefined || r.end === undefined) this.refuse('a range has no start or no end', at);
    const end = r.end - exclusive;
    if (end < r.start) this.refuse(`the range ${r.start} to ${end} is empty`, at);
    return { start: r.start, end, toMax: end === (exclusive === 1 ? maxFieldNumber : maxEnumNumber), at };
  }

  flagOption(
    options: ProtoOption[],
    name: string,
    value: boolean | undefined,
    path: readonly number[],
  ): ProtoOption[] {
    if (value !== undefined) options.push(this.option(name, ident(String(value)), path));
    return options;
  }

  option(name: string, value: ProtoConstant, path: readonly number[]): ProtoOption {
    return { name: [{ name, extension: false }], value, at: this.at(path) };
  }
}

export const ident = (value: string): ProtoConstant => ({ kind: 'identifier', value, negative: false });
