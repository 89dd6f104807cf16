/**
 * A parsed and linked .proto file in the shape descriptor_json.py prints protoc's descriptors in,
 * so the two can be compared as JSON: names, numbers, labels, types (protoc's type numbers), type
 * names resolved to full names, oneofs, nested types (with the entry messages of map fields and the
 * messages of groups, as protoc makes them), reserved and extension ranges (ends exclusive, as in a
 * descriptor), enums, services and extensions.
 */
import {
  type LinkedProto,
  mapEntryName,
  type ProtoEnumAst,
  type ProtoFieldAst,
  type ProtoMessageAst,
  type ProtoScalar,
  qualify,
} from '../../../src/schema/proto/index.js';

const typeNumbers: Readonly<Record<ProtoScalar, number>> = {
  double: 1,
  float: 2,
  int64: 3,
  uint64: 4,
  int32: 5,
  fixed64: 6,
  fixed32: 7,
  bool: 8,
  string: 9,
  bytes: 12,
  uint32: 13,
  sfixed32: 15,
  sfixed64: 16,
  sint32: 17,
  sint64: 18,
};
const group = 10;
const message = 11;
const enumType = 14;

export function descriptorShape(linked: LinkedProto): unknown {
  const { file } = linked;
  const scope = file.package;
  return {
    package: file.package,
    syntax: file.syntax,
    dependencies: file.imports.map((item) => item.path),
    // Groups declared in top-level extend blocks are top-level messages, in text order.
    messages: [
      ...file.messages.map((m) => ({ offset: m.at.offset, shape: messageShape(linked, m, scope) })),
      ...file.extends.flatMap((block) => block.fields.flatMap((f) => nestedOf(linked, f, scope))),
    ]
      .sort((a, b) => a.offset - b.offset)
      .map((m) => m.shape),
    enums: file.enums.map(enumShape),
    services: file.services.map((service) => ({
      name: service.name,
      methods: service.methods.map((method) => {
        const types = linked.methods.get(method);
        return {
          name: method.name,
          input: `.${types?.input.fullName}`,
          output: `.${types?.output.fullName}`,
          client_streaming: method.inputStream,
          server_streaming: method.outputStream,
        };
      }),
    })),
    extensions: file.extends.flatMap((block) =>
      block.fields.map((f) => fieldShape(linked, f, scope, `.${linked.extendees.get(block)?.fullName}`)),
    ),
  };
}

function messageShape(linked: LinkedProto, m: ProtoMessageAst, scope: string, mapEntry = false): unknown {
  const fullName = qualify(scope, m.name);
  const syntheticOneofs: string[] = [];
  const fields = m.fields.map((f) => {
    const shape = fieldShape(linked, f, fullName, '');
    if (linked.file.syntax === 'proto3' && f.label === 'optional') {
      syntheticOneofs.push(`_${f.name}`);
      return { ...shape, oneof_index: 'synthetic' };
    }
    return shape;
  });
  // protoc declares nested types as it meets them: messages, groups and map entries in text order.
  const nested: { offset: number; shape: unknown }[] = [
    ...m.messages.map((n) => ({ offset: n.at.offset, shape: messageShape(linked, n, fullName) })),
    ...m.fields.flatMap((f) => nestedOf(linked, f, fullName)),
    ...m.extends.flatMap((block) => block.fields.flatMap((f) => nestedOf(linked, f, fullName))),
  ].sort((a, b) => a.offset - b.offset);
  return {
    name: m.name,
    map_entry: mapEntry,
    fields,
    oneofs: [...m.oneofs.map((o) => o.name), ...syntheticOneofs],
    nested: nested.map((n) => n.shape),
    enums: m.enums.map(enumShape),
    extensions: m.extends.flatMap((block) =>
      block.fields.map((f) => fieldShape(linked, f, fullName, `.${linked.extendees.get(block)?.fullName}`)),
    ),
    reserved_ranges: m.reserved.ranges.map((r) => [r.start, r.end + 1]),
    reserved_names: m.reserved.names.map((r) => r.name),
    extension_ranges: m.extensionRanges.map((r) => [r.start, r.end + 1]),
  };
}

/** The types a field declares: a group's message, a map field's entry message. */
function nestedOf(
  linked: LinkedProto,
  f: ProtoFieldAst,
  scope: string,
): { offset: number; shape: unknown }[] {
  if (f.type.kind === 'group')
    return [{ offset: f.at.offset, shape: messageShape(linked, f.type.message, scope) }];
  if (f.type.kind !== 'map') return [];
  const value =
    f.type.value.kind === 'scalar'
      ? { type: typeNumbers[f.type.value.scalar], type_name: '' }
      : namedType(linked, f);
  const part = (name: string, number: number, type: { type: number | undefined; type_name: string }) => ({
    name,
    number,
    label: 1,
    ...type,
    oneof_index: null,
    proto3_optional: false,
    extendee: '',
  });
  return [
    {
      offset: f.at.offset,
      shape: {
        name: mapEntryName(f.name),
        map_entry: true,
        fields: [part('key', 1, { type: typeNumbers[f.type.key], type_name: '' }), part('value', 2, value)],
        oneofs: [],
        nested: [],
        enums: [],
        extensions: [],
        reserved_ranges: [],
        reserved_names: [],
        extension_ranges: [],
      },
    },
  ];
}

function namedType(linked: LinkedProto, f: ProtoFieldAst): { type: number | undefined; type_name: string } {
  const declaration = linked.fieldTypes.get(f);
  if (declaration === undefined) throw new Error(`${f.name} has no resolved type`);
  return {
    type: declaration.symbol.kind === 'enum' ? enumType : message,
    type_name: `.${declaration.fullName}`,
  };
}

function fieldShape(linked: LinkedProto, f: ProtoFieldAst, scope: string, extendee: string): object {
  let type: { type: number | undefined; type_name: string };
  if (f.type.kind === 'scalar') type = { type: typeNumbers[f.type.scalar], type_name: '' };
  else if (f.type.kind === 'group')
    type = { type: group, type_name: `.${qualify(scope, f.type.message.name)}` };
  else if (f.type.kind === 'map')
    type = { type: message, type_name: `.${qualify(scope, mapEntryName(f.name))}` };
  else type = namedType(linked, f);
  const label = f.type.kind === 'map' ? 3 : f.label === 'repeated' ? 3 : f.label === 'required' ? 2 : 1;
  return {
    name: f.name,
    number: f.number,
    label,
    ...type,
    oneof_index: f.oneof ?? null,
    proto3_optional: linked.file.syntax === 'proto3' && f.label === 'optional',
    extendee,
  };
}

function enumShape(e: ProtoEnumAst): unknown {
  return {
    name: e.name,
    values: e.values.map((v) => [v.name, v.number]),
    reserved_ranges: e.reserved.ranges.map((r) => [r.start, r.end]),
    reserved_names: e.reserved.names.map((r) => r.name),
  };
}
