/**
 * A FileDescriptorProto (as descriptor-schema.ts decodes it) turned back into the AST the `.proto`
 * reader makes of the file's text (schema/proto/ast.ts), so that linking and the import's mapping
 * apply unchanged. What protoc's descriptors spell differently from the text is undone here:
 *
 * - a map field is a repeated field of a nested `XxxEntry` message marked `map_entry`: it becomes a
 *   `map<K, V>` field again, and the entry message is dropped (the reader never lists it);
 * - a group is a field of type GROUP naming a nested message: the message moves into the field;
 * - proto3 `optional` is a field in a synthetic oneof of its own: the oneof is dropped and the label
 *   kept; a field in a real oneof, or a proto3 field without a label, has no label as in the text;
 * - ranges end exclusive in a message (inclusive in the AST), and `to max` is the largest number;
 * - type names are full names with a leading dot, which link.ts resolves from the root;
 * - options come back as the text would write them: `packed`, `deprecated`, `json_name` (only
 *   where it differs from the name protoc derives), `default` (from `default_value`'s text),
 *   `allow_alias`, `idempotency_level`. Other options (file options, custom options) are not read.
 *
 * A descriptor has no text, so a position is an index into a table of places (the file, and the
 * line and column when protoc wrote `--include_source_info`), from which an error is placed.
 * Every name is checked to be an identifier, as the text's grammar guarantees: a hostile
 * descriptor's `a.b` or `` must not become a name the linker looks up by parts.
 */
import { SchemaImportError } from '../../errors/index.js';
import type {
  ProtoConstant,
  ProtoEnumAst,
  ProtoExtendAst,
  ProtoFieldAst,
  ProtoFileAst,
  ProtoImport,
  ProtoMessageAst,
  ProtoOption,
  ProtoPosition,
  ProtoRange,
  ProtoScalar,
  ProtoServiceAst,
  ProtoTypeAst,
} from '../../schema/proto/index.js';
import { qualify } from '../../schema/proto/symbols.js';
import type {
  EnumDescriptor,
  FieldDescriptor,
  FileDescriptor,
  MessageDescriptor,
} from './descriptor-schema.js';
import { defaultJsonName, defaultValueConstant } from './descriptor-values.js';

/** Where a declaration of a descriptor set is: its file, and its line and column when known. */
export interface DescriptorPlace {
  readonly file: string;
  readonly line: number | undefined;
  readonly column: number | undefined;
}

const scalarTypes: Readonly<Record<number, ProtoScalar>> = {
  1: 'double',
  2: 'float',
  3: 'int64',
  4: 'uint64',
  5: 'int32',
  6: 'fixed64',
  7: 'fixed32',
  8: 'bool',
  9: 'string',
  12: 'bytes',
  13: 'uint32',
  15: 'sfixed32',
  16: 'sfixed64',
  17: 'sint32',
  18: 'sint64',
};
const TYPE_GROUP = 10;
const TYPE_MESSAGE = 11;
const TYPE_ENUM = 14;
const LABEL_REQUIRED = 2;
const LABEL_REPEATED = 3;
/** The largest field number; `to max` in a message's ranges. */
const maxFieldNumber = 536_870_911;
const maxEnumNumber = 2_147_483_647;
const identifier = /^[A-Za-z_][A-Za-z0-9_]*$/;
const fullName = /^(\.[A-Za-z_][A-Za-z0-9_]*)+$/;

/** Builds the ASTs of a descriptor set's files, all placed in one shared table. */
export class DescriptorFiles {
  readonly places: DescriptorPlace[] = [];

  file(descriptor: FileDescriptor): ProtoFileAst {
    return new FileReader(descriptor, this.places).read();
  }
}

class FileReader {
  private readonly spans = new Map<string, readonly number[]>();
  private readonly name: string;
  private syntax: 'proto2' | 'proto3' = 'proto2';

  constructor(
    private readonly descriptor: FileDescriptor,
    private readonly places: DescriptorPlace[],
  ) {
    this.name = descriptor.name ?? '';
    for (const location of descriptor.sourceCodeInfo?.location ?? []) {
      this.spans.set(location.path.join('.'), location.span);
    }
  }

  read(): ProtoFileAst {
    const d = this.descriptor;
    const at = this.at([]);
    if (this.name === '') this.refuse('a file of the descriptor set has no name', at);
    if (d.edition !== undefined || d.syntax === 'editions') {
      this.refuse(
        'files in protobuf editions are not imported (only proto2 and proto3); compile a proto2 or proto3 file',
        at,
      );
    }
    if (d.syntax === 'proto3') this.syntax = 'proto3';
    else if (d.syntax !== undefined && d.syntax !== 'proto2' && d.syntax !== '') {
      this.refuse(`syntax ${JSON.stringify(d.syntax)} is not proto2 or proto3`, at);
    }
    const pkg = d.package ?? '';
    if (pkg !== '' && !fullName.test(`.${pkg}`))
      this.refuse(`package ${JSON.stringify(pkg)} is not a name`, at);
    const imports = d.dependency.map((path, i): ProtoImport => {
      const modifier = d.publicDependency.includes(i)
        ? 'public'
        : d.weakDependency.includes(i)
          ? 'weak'
          : 'none';
      return { path, modifier, at: this.at([3, i]) };
    });
    for (const index of [...d.publicDependency, ...d.weakDependency]) {
      if (!(index >= 0 && index < d.dependency.length))
        this.refuse(`dependency index ${index} is out of range`, at);
    }
    const topGroups = groupMessages(d.extension, d.messageType, pkg);
    const topAt = this.positions(d.messageType, [4]);
    return {
      syntax: this.syntax,
      syntaxDeclared: d.syntax !== undefined,
      package: pkg,
      imports,
      options: [],
      messages: this.messages(d.messageType, pkg, topGroups, topAt),
      enums: d.enumType.map((e, i) => this.enumeration(e, [5, i])),
      extends: this.extensions(d.extension, [7], pkg, topGroups, topAt),
      services: d.service.map((service, i): ProtoServiceAst => {
        const path = [6, i];
        return {
          name: this.identifier(service.name, path),
          methods: service.method.map((method, j) => {
            const where = [...path, 2, j];
            const options: ProtoOption[] = [];
            const level = method.options?.idempotencyLevel;
            if (level !== undefined) {
              const name = ['IDEMPOTENCY_UNKNOWN', 'NO_SIDE_EFFECTS', 'IDEMPOTENT'][level];
              if (name === undefined)
                this.refuse(`idempotency_level ${level} is not a level`, this.at(where));
              options.push(this.option('idempotency_level', ident(name), where));
            }
            this.flagOption(options, 'deprecated', method.options?.deprecated, where);
            return {
              name: this.identifier(method.name, where),
              input: this.typeName(method.inputType, where),
              inputStream: method.clientStreaming ?? false,
              output: this.typeName(method.outputType, where),
              outputStream: method.serverStreaming ?? false,
              options,
              at: this.at(where),
            };
          }),
          options: this.flagOption([], 'deprecated', service.options?.deprecated, path),
          at: this.at(path),
        };
      }),
    };
  }

  /**
   * The positions of a list of messages, made before anything inside them: their order is the list's
   * (protoc's order of nested types, where map entries and groups sit among the messages).
   */
  private positions(list: readonly MessageDescriptor[], path: readonly number[]): Nested[] {
    return list.map((_m, i) => ({ path: [...path, i], at: this.at([...path, i]) }));
  }

  /** Messages at `path` (a list of DescriptorProtos), without the map entries and groups, which fields hold. */
  private messages(
    list: readonly MessageDescriptor[],
    scope: string,
    taken: ReadonlyMap<number, MessageDescriptor>,
    nested: readonly Nested[],
  ): ProtoMessageAst[] {
    return list.flatMap((m, i) =>
      taken.has(i) || m.options?.mapEntry === true ? [] : [this.message(m, nested[i] as Nested, scope)],
    );
  }

  private message(m: MessageDescriptor, { path, at }: Nested, scope: string): ProtoMessageAst {
    const name = this.identifier(m.name, path);
    const own = qualify(scope, name);
    const groups = groupMessages([...m.field, ...m.extension], m.nestedType, own);
    const nested = this.positions(m.nestedType, [...path, 3]);
    // A proto3 `optional` field's oneof is synthetic: not in the text, so not in the AST.
    const synthetic = new Set(m.field.flatMap((f) => (f.proto3Optional === true ? [f.oneofIndex] : [])));
    const realOneofs: number[] = [];
    const oneofIndex = new Map<number, number>();
    m.oneofDecl.forEach((_o, i) => {
      if (synthetic.has(i)) return;
      oneofIndex.set(i, realOneofs.length);
      realOneofs.push(i);
    });
    const fields = m.field.map((f, i) => this.field(f, [...path, 2, i], m, own, groups, nested, oneofIndex));
    const options: ProtoOption[] = [];
    this.flagOption(options, 'deprecated', m.options?.deprecated, path);
    return {
      name,
      at,
      fields,
      oneofs: realOneofs.map((i) => ({
        name: this.identifier(m.oneofDecl[i]?.name, [...path, 8, i]),
        options: [],
        at: this.at([...path, 8, i]),
      })),
      messages: this.messages(m.nestedType, own, groups, nested),
      enums: m.enumType.map((e, i) => this.enumeration(e, [...path, 4, i])),
      extends: this.extensions(m.extension, [...path, 6], own, groups, nested),
      extensionRanges: m.extensionRange.map((r, i) => ({
        ...this.range(r, [...path, 5, i], 1),
        options: [],
      })),
      reserved: {
        ranges: m.reservedRange.map((r, i) => this.range(r, [...path, 9, i], 1)),
        names: m.reservedName.map((reserved, i) => ({
          name: this.identifier(reserved, [...path, 10, i]),
          at: this.at([...path, 10, i]),
        })),
      },
      options,
    };
  }

  /** Extension fields, as `extend` blocks: one per run of fields that extend the same message. */
  private extensions(
    list: readonly FieldDescriptor[],
    path: readonly number[],
    scope: string,
    groups: ReadonlyMap<number, MessageDescriptor>,
    nested: readonly Nested[],
  ): ProtoExtendAst[] {
    const blocks: { extendee: string; fields: ProtoFieldAst[]; at: ProtoPosition }[] = [];
    list.forEach((f, i) => {
      const where = [...path, i];
      const extendee = this.typeName(f.extendee, where);
      const field = this.field(f, where, undefined, scope, groups, nested, new Map());
      const last = blocks.at(-1);
      if (last?.extendee === extendee) last.fields.push(field);
      else blocks.push({ extendee, fields: [field], at: this.at(where) });
    });
    return blocks;
  }

  private field(
    f: FieldDescriptor,
    path: readonly number[],
    owner: MessageDescriptor | undefined,
    scope: string,
    groups: ReadonlyMap<number, MessageDescriptor>,
    nested: readonly Nested[],
    oneofIndex: ReadonlyMap<number, number>,
  ): ProtoFieldAst {
    const name = this.identifier(f.name, path);
    const at = this.at(path);
    if (f.number === undefined) this.refuse(`field ${name} has no number`, at);
    if (f.label !== undefined && (f.label < 1 || f.label > 3))
      this.refuse(`field ${name}: label ${f.label} is not a label`, at);
    let type: ProtoTypeAst;
    let position = at;
    const entryIndex = owner?.nestedType.findIndex(
      (n) => n.options?.mapEntry === true && f.typeName === `.${qualify(scope, n.name ?? '')}`,
    );
    const entry = entryIndex === undefined || entryIndex < 0 ? undefined : owner?.nestedType[entryIndex];
    if (f.type === TYPE_GROUP) {
      const index = [...groups].find(([, g]) => f.typeName === `.${qualify(scope, g.name ?? '')}`)?.[0];
      const message = index === undefined ? undefined : groups.get(index);
      const place = index === undefined ? undefined : nested[index];
      if (message === undefined || place === undefined) {
        this.refuse(`group field ${name} names no message declared beside it`, at);
      }
      // protoc lists a group's message where the group is written: the field takes its place.
      position = this.moved(place.at, path);
      type = { kind: 'group', message: this.message(message, place, scope) };
    } else if (entry !== undefined && f.label === LABEL_REPEATED && entryIndex !== undefined) {
      const place = nested[entryIndex] as Nested;
      position = this.moved(place.at, path);
      type = this.mapType(entry, place.path);
    } else {
      type = this.valueType(f, path);
    }
    const inRealOneof = f.oneofIndex !== undefined && f.proto3Optional !== true;
    const oneof = inRealOneof ? oneofIndex.get(f.oneofIndex as number) : undefined;
    if (inRealOneof && oneof === undefined)
      this.refuse(`field ${name}: oneof_index ${f.oneofIndex} is not a oneof`, at);
    // As written: none on a map field or a oneof member, none on a proto3 field without `optional`.
    let label: ProtoFieldAst['label'];
    if (type.kind === 'map' || oneof !== undefined) label = undefined;
    else if (f.label === LABEL_REPEATED) label = 'repeated';
    else if (f.label === LABEL_REQUIRED) label = 'required';
    else if (this.syntax === 'proto3') label = f.proto3Optional === true ? 'optional' : undefined;
    else label = 'optional';
    return {
      name,
      number: f.number,
      label,
      type,
      oneof,
      options: this.fieldOptions(f, type, name, path),
      at: position,
    };
  }

  private valueType(
    f: FieldDescriptor,
    path: readonly number[],
  ): Exclude<ProtoTypeAst, { kind: 'map' | 'group' }> {
    const scalar = f.type === undefined ? undefined : scalarTypes[f.type];
    if (scalar !== undefined) return { kind: 'scalar', scalar };
    if (f.type !== undefined && f.type !== TYPE_MESSAGE && f.type !== TYPE_ENUM) {
      this.refuse(`field ${f.name}: type ${f.type} is not a field type`, this.at(path));
    }
    return { kind: 'named', name: this.typeName(f.typeName, path) };
  }

  private mapType(entry: MessageDescriptor, path: readonly number[]): ProtoTypeAst {
    const key = entry.field.find((f) => f.number === 1);
    const value = entry.field.find((f) => f.number === 2);
    const keyScalar = key?.type === undefined ? undefined : scalarTypes[key.type];
    if (key === undefined || value === undefined || keyScalar === undefined || entry.field.length !== 2) {
      this.refuse(`map entry ${entry.name} is not a key (1) and a value (2)`, this.at(path));
    }
    const valueType = this.valueType(value, [...path, 2, entry.field.indexOf(value)]);
    return { kind: 'map', key: keyScalar, value: valueType };
  }

  private fieldOptions(
    f: FieldDescriptor,
    type: ProtoTypeAst,
    name: string,
    path: readonly number[],
  ): ProtoOption[] {
    const options: ProtoOption[] = [];
    if (f.options?.packed !== undefined)
      options.push(this.option('packed', ident(String(f.options.packed)), path));
    this.flagOption(options, 'deprecated', f.options?.deprecated, path);
    if (f.jsonName !== undefined && f.jsonName !== defaultJsonName(name)) {
      options.push(this.option('json_name', { kind: 'string', value: f.jsonName }, path));
    }
    if (f.defaultValue !== undefined) {
      const value = defaultValueConstant(f.defaultValue, type);
      if (value === undefined)
        this.refuse(`field ${name}: default ${JSON.stringify(f.defaultValue)} cannot be read`, this.at(path));
      options.push(this.option('default', value, path));
    }
    return options;
  }

  private enumeration(e: EnumDescriptor, path: readonly number[]): ProtoEnumAst {
    const options: ProtoOption[] = [];
    this.flagOption(options, 'allow_alias', e.options?.allowAlias, path);
    this.flagOption(options, 'deprecated', e.options?.deprecated, path);
    return {
      name: this.identifier(e.name, path),
      values: e.value.map((v, i) => {
        const where = [...path, 2, i];
        if (v.number === undefined) this.refuse(`enum value ${v.name} has no number`, this.at(where));
        return {
          name: this.identifier(v.name, where),
          number: v.number,
          options: this.flagOption([], 'deprecated', v.options?.deprecated, where),
          at: this.at(where),
        };
      }),
      reserved: {
        ranges: e.reservedRange.map((r, i) => this.range(r, [...path, 4, i], 0)),
        names: e.reservedName.map((reserved, i) => ({
          name: this.identifier(reserved, [...path, 5, i]),
          at: this.at([...path, 5, i]),
        })),
      },
      options,
      at: this.at(path),
    };
  }

  /** A range; `exclusive` is 1 where the descriptor's end is one past the last number (messages). */
  private range(
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

  private flagOption(
    options: ProtoOption[],
    name: string,
    value: boolean | undefined,
    path: readonly number[],
  ): ProtoOption[] {
    if (value !== undefined) options.push(this.option(name, ident(String(value)), path));
    return options;
  }

  private option(name: string, value: ProtoConstant, path: readonly number[]): ProtoOption {
    return { name: [{ name, extension: false }], value, at: this.at(path) };
  }

  private identifier(name: string | undefined, path: readonly number[]): string {
    if (name === undefined || !identifier.test(name)) {
      this.refuse(
        `${name === undefined ? 'a declaration has no name' : `${JSON.stringify(name)} is not a name`}`,
        this.at(path),
      );
    }
    return name;
  }

  /** A type name of a descriptor: a full name with a leading dot. */
  private typeName(name: string | undefined, path: readonly number[]): string {
    if (name === undefined || !fullName.test(name)) {
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
  private moved(at: ProtoPosition, path: readonly number[]): ProtoPosition {
    const span = this.spans.get(path.join('.'));
    if (span === undefined) return at;
    const line = (span[0] ?? 0) + 1;
    const column = (span[1] ?? 0) + 1;
    this.places[at.offset] = { file: this.name, line, column };
    return { offset: at.offset, line, column };
  }

  /** The position of the declaration at `path` (descriptor.proto's field numbers and indexes). */
  private at(path: readonly number[]): ProtoPosition {
    const span = this.spans.size === 0 ? undefined : this.spans.get(path.join('.'));
    const line = span?.[0];
    const column = span?.[1];
    this.places.push({
      file: this.name,
      line: line === undefined ? undefined : line + 1,
      column: column === undefined ? undefined : column + 1,
    });
    return { offset: this.places.length - 1, line: (line ?? -1) + 1, column: (column ?? -1) + 1 };
  }

  private refuse(message: string, at: ProtoPosition): never {
    const place = this.places[at.offset];
    throw new SchemaImportError(`${message}.`, {
      format: 'protobuf',
      file: place?.file || undefined,
      line: place?.line,
      column: place?.column,
    });
  }
}

/** A message's place among its siblings: its descriptor path and its position. */
interface Nested {
  readonly path: readonly number[];
  readonly at: ProtoPosition;
}

const ident = (value: string): ProtoConstant => ({ kind: 'identifier', value, negative: false });

/**
 * The messages of `list` that fields of `fields` use as groups (by index), declared in `scope`:
 * a field of type GROUP names its message, declared beside it.
 */
function groupMessages(
  fields: readonly FieldDescriptor[],
  list: readonly MessageDescriptor[],
  scope: string,
): Map<number, MessageDescriptor> {
  const groups = new Map<number, MessageDescriptor>();
  const names = new Set(
    fields.flatMap((f) => (f.type === TYPE_GROUP && f.typeName !== undefined ? [f.typeName] : [])),
  );
  if (names.size === 0) return groups;
  list.forEach((m, i) => {
    if (names.has(`.${qualify(scope, m.name ?? '')}`)) groups.set(i, m);
  });
  return groups;
}
