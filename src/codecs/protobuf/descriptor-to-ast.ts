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
 * Positions, and the checks of names, are descriptor-places.ts's.
 */
import type {
  ProtoEnumAst,
  ProtoExtendAst,
  ProtoFieldAst,
  ProtoFileAst,
  ProtoImport,
  ProtoMessageAst,
  ProtoOption,
  ProtoPosition,
  ProtoServiceAst,
  ProtoTypeAst,
} from '../../schema/proto/index.js';
import { qualify } from '../../schema/proto/symbols.js';
import { type DescriptorPlace, FilePlaces, ident } from './descriptor-places.js';
import {
  type EnumDescriptor,
  type FieldDescriptor,
  type FileDescriptor,
  LABEL_REPEATED,
  LABEL_REQUIRED,
  type MessageDescriptor,
  scalarTypes,
  TYPE_ENUM,
  TYPE_GROUP,
  TYPE_MESSAGE,
} from './descriptor-schema.js';
import { defaultJsonName, defaultValueConstant } from './descriptor-values.js';

/** Where a declaration of a descriptor set is: its file, and its line and column when known. */

const packageName = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/** Builds the ASTs of a descriptor set's files, all placed in one shared table. */
export class DescriptorFiles {
  readonly places: DescriptorPlace[] = [];

  file(descriptor: FileDescriptor): ProtoFileAst {
    return new FileReader(descriptor, this.places).read();
  }
}

class FileReader {
  private readonly name: string;
  private readonly where: FilePlaces;
  private syntax: 'proto2' | 'proto3' = 'proto2';

  constructor(
    private readonly descriptor: FileDescriptor,
    places: DescriptorPlace[],
  ) {
    this.name = descriptor.name ?? '';
    this.where = new FilePlaces(this.name, descriptor.sourceCodeInfo?.location ?? [], places);
  }

  read(): ProtoFileAst {
    const d = this.descriptor;
    const at = this.where.at([]);
    if (this.name === '') this.where.refuse('a file of the descriptor set has no name', at);
    if (d.edition !== undefined || d.syntax === 'editions') {
      this.where.refuse(
        'files in protobuf editions are not imported (only proto2 and proto3); compile a proto2 or proto3 file',
        at,
      );
    }
    if (d.syntax === 'proto3') this.syntax = 'proto3';
    else if (d.syntax !== undefined && d.syntax !== 'proto2' && d.syntax !== '') {
      this.where.refuse(`syntax ${JSON.stringify(d.syntax)} is not proto2 or proto3`, at);
    }
    const pkg = d.package ?? '';
    if (pkg !== '' && !packageName.test(pkg))
      this.where.refuse(`package ${JSON.stringify(pkg)} is not a name`, at);
    const imports = d.dependency.map((path, i): ProtoImport => {
      const modifier = d.publicDependency.includes(i)
        ? 'public'
        : d.weakDependency.includes(i)
          ? 'weak'
          : 'none';
      return { path, modifier, at: this.where.at([3, i]) };
    });
    for (const index of [...d.publicDependency, ...d.weakDependency]) {
      if (!(index >= 0 && index < d.dependency.length))
        this.where.refuse(`dependency index ${index} is out of range`, at);
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
          name: this.where.identifier(service.name, path),
          methods: service.method.map((method, j) => {
            const where = [...path, 2, j];
            const options: ProtoOption[] = [];
            const level = method.options?.idempotencyLevel;
            if (level !== undefined) {
              const name = ['IDEMPOTENCY_UNKNOWN', 'NO_SIDE_EFFECTS', 'IDEMPOTENT'][level];
              if (name === undefined)
                this.where.refuse(`idempotency_level ${level} is not a level`, this.where.at(where));
              options.push(this.where.option('idempotency_level', ident(name), where));
            }
            this.where.flagOption(options, 'deprecated', method.options?.deprecated, where);
            return {
              name: this.where.identifier(method.name, where),
              input: this.where.typeName(method.inputType, where),
              inputStream: method.clientStreaming ?? false,
              output: this.where.typeName(method.outputType, where),
              outputStream: method.serverStreaming ?? false,
              options,
              at: this.where.at(where),
            };
          }),
          options: this.where.flagOption([], 'deprecated', service.options?.deprecated, path),
          at: this.where.at(path),
        };
      }),
    };
  }

  /**
   * The positions of a list of messages, made before anything inside them: their order is the list's
   * (protoc's order of nested types, where map entries and groups sit among the messages).
   */
  private positions(list: readonly MessageDescriptor[], path: readonly number[]): Nested[] {
    return list.map((_m, i) => ({ path: [...path, i], at: this.where.at([...path, i]) }));
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
    const name = this.where.identifier(m.name, path);
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
    this.where.flagOption(options, 'deprecated', m.options?.deprecated, path);
    return {
      name,
      at,
      fields,
      oneofs: realOneofs.map((i) => ({
        name: this.where.identifier(m.oneofDecl[i]?.name, [...path, 8, i]),
        options: [],
        at: this.where.at([...path, 8, i]),
      })),
      messages: this.messages(m.nestedType, own, groups, nested),
      enums: m.enumType.map((e, i) => this.enumeration(e, [...path, 4, i])),
      extends: this.extensions(m.extension, [...path, 6], own, groups, nested),
      extensionRanges: m.extensionRange.map((r, i) => ({
        ...this.where.range(r, [...path, 5, i], 1),
        options: [],
      })),
      reserved: {
        ranges: m.reservedRange.map((r, i) => this.where.range(r, [...path, 9, i], 1)),
        names: m.reservedName.map((reserved, i) => ({
          name: this.where.identifier(reserved, [...path, 10, i]),
          at: this.where.at([...path, 10, i]),
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
      const extendee = this.where.typeName(f.extendee, where);
      const field = this.field(f, where, undefined, scope, groups, nested, new Map());
      const last = blocks.at(-1);
      if (last?.extendee === extendee) last.fields.push(field);
      else blocks.push({ extendee, fields: [field], at: this.where.at(where) });
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
    const name = this.where.identifier(f.name, path);
    const at = this.where.at(path);
    if (f.number === undefined) this.where.refuse(`field ${name} has no number`, at);
    if (f.label !== undefined && (f.label < 1 || f.label > 3))
      this.where.refuse(`field ${name}: label ${f.label} is not a label`, at);
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
        this.where.refuse(`group field ${name} names no message declared beside it`, at);
      }
      // protoc lists a group's message where the group is written: the field takes its place.
      position = this.where.moved(place.at, path);
      type = { kind: 'group', message: this.message(message, place, scope) };
    } else if (entry !== undefined && f.label === LABEL_REPEATED && entryIndex !== undefined) {
      const place = nested[entryIndex] as Nested;
      position = this.where.moved(place.at, path);
      type = this.mapType(entry, place.path);
    } else {
      type = this.valueType(f, path);
    }
    const inRealOneof = f.oneofIndex !== undefined && f.proto3Optional !== true;
    const oneof = inRealOneof ? oneofIndex.get(f.oneofIndex as number) : undefined;
    if (inRealOneof && oneof === undefined)
      this.where.refuse(`field ${name}: oneof_index ${f.oneofIndex} is not a oneof`, at);
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
      this.where.refuse(`field ${f.name}: type ${f.type} is not a field type`, this.where.at(path));
    }
    return { kind: 'named', name: this.where.typeName(f.typeName, path) };
  }

  private mapType(entry: MessageDescriptor, path: readonly number[]): ProtoTypeAst {
    const key = entry.field.find((f) => f.number === 1);
    const value = entry.field.find((f) => f.number === 2);
    const keyScalar = key?.type === undefined ? undefined : scalarTypes[key.type];
    if (key === undefined || value === undefined || keyScalar === undefined || entry.field.length !== 2) {
      this.where.refuse(`map entry ${entry.name} is not a key (1) and a value (2)`, this.where.at(path));
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
      options.push(this.where.option('packed', ident(String(f.options.packed)), path));
    this.where.flagOption(options, 'deprecated', f.options?.deprecated, path);
    if (f.jsonName !== undefined && f.jsonName !== defaultJsonName(name)) {
      options.push(this.where.option('json_name', { kind: 'string', value: f.jsonName }, path));
    }
    if (f.defaultValue !== undefined) {
      const value = defaultValueConstant(f.defaultValue, type);
      if (value === undefined)
        this.where.refuse(
          `field ${name}: default ${JSON.stringify(f.defaultValue)} cannot be read`,
          this.where.at(path),
        );
      options.push(this.where.option('default', value, path));
    }
    return options;
  }

  private enumeration(e: EnumDescriptor, path: readonly number[]): ProtoEnumAst {
    const options: ProtoOption[] = [];
    this.where.flagOption(options, 'allow_alias', e.options?.allowAlias, path);
    this.where.flagOption(options, 'deprecated', e.options?.deprecated, path);
    return {
      name: this.where.identifier(e.name, path),
      values: e.value.map((v, i) => {
        const where = [...path, 2, i];
        if (v.number === undefined)
          this.where.refuse(`enum value ${v.name} has no number`, this.where.at(where));
        return {
          name: this.where.identifier(v.name, where),
          number: v.number,
          options: this.where.flagOption([], 'deprecated', v.options?.deprecated, where),
          at: this.where.at(where),
        };
      }),
      reserved: {
        ranges: e.reservedRange.map((r, i) => this.where.range(r, [...path, 4, i], 0)),
        names: e.reservedName.map((reserved, i) => ({
          name: this.where.identifier(reserved, [...path, 5, i]),
          at: this.where.at([...path, 5, i]),
        })),
      },
      options,
      at: this.where.at(path),
    };
  }
}

/** A message's place among its siblings: its descriptor path and its position. */
interface Nested {
  readonly path: readonly number[];
  readonly at: ProtoPosition;
}

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
