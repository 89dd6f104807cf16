/**
 * The registry's Protobuf model as it was built before wirekit had a .proto reader of its own: from
 * protobufjs's parser and reflection. Kept here as the independent side of the differential test
 * (differential.test.ts): for a file both read, the two models must be equal.
 *
 * What protobufjs reads differently is left to the corpus to avoid, not papered over here: a field
 * naming a group's message type (protobufjs says group, protoc message), extensions of options
 * messages (protobufjs resolves nothing in descriptor.proto), names that are keys of Object.prototype.
 */
import { createRequire } from 'node:module';
import type { Enum, Field, MapField, OneOf, ReflectionObject, Root, Type } from 'protobufjs';

type Protobufjs = typeof import('protobufjs');
const lib = createRequire(import.meta.url)('protobufjs') as Protobufjs;

/** A model of plain data, as both sides project theirs (see `projectModel` in the test). */
export interface PlainMessage {
  readonly fullName: string;
  readonly localName: string;
  readonly group: boolean;
  readonly fields: readonly PlainField[];
  readonly oneofs: readonly string[];
  readonly messages: readonly string[];
  readonly enums: readonly string[];
  readonly reservedNumbers: readonly (readonly [number, number])[];
  readonly reservedNames: readonly string[];
}

export interface PlainField {
  readonly name: string;
  readonly number: number;
  readonly label: string;
  readonly oneof: string | null;
  readonly type: string;
}

export interface PlainEnum {
  readonly fullName: string;
  readonly values: readonly (readonly [string, number])[];
  readonly reservedNumbers: readonly (readonly [number, number])[];
  readonly reservedNames: readonly string[];
}

export interface PlainFile {
  readonly syntax: string;
  readonly package: string;
  readonly imports: readonly string[];
  readonly messages: readonly string[];
  readonly enums: readonly string[];
  /** Every message and enum of the file, by full name (sorted). */
  readonly types: readonly (PlainMessage | PlainEnum)[];
}

const scalars = new Set([
  ...['double', 'float', 'int32', 'int64', 'uint32', 'uint64', 'sint32', 'sint64'],
  ...['fixed32', 'fixed64', 'sfixed32', 'sfixed64', 'bool', 'string', 'bytes'],
]);

/** The plain model of a file as protobufjs reads it (imports of well-known types only). */
export function protobufjsModel(text: string): PlainFile {
  const syntax = /^\s*syntax\s*=\s*"(proto[23])"/m.exec(text)?.[1] ?? 'proto2';
  // The well-known types protobufjs ships, for the files that import them.
  const root0 = new lib.Root();
  for (const name of ['any', 'duration', 'empty', 'field_mask', 'struct', 'timestamp', 'wrappers']) {
    const json = lib.common.get(`google/protobuf/${name}.proto`) as {
      nested?: Record<string, unknown>;
    } | null;
    if (json?.nested !== undefined) root0.addJSON(json.nested as never);
  }
  const parsed = lib.parse(text, root0, { keepCase: true });
  const packageName = parsed.package ?? '';
  const root = parsed.root;
  root.resolveAll();
  const types: (PlainMessage | PlainEnum)[] = [];
  const scope: ReflectionObject | null = packageName === '' ? root : root.lookup(packageName);
  const members = (scope as Root | null)?.nestedArray ?? [];
  const local = (fullName: string) =>
    packageName === '' ? fullName : fullName.slice(packageName.length + 1);
  const messagesOf = (objects: readonly ReflectionObject[]) =>
    objects.filter((o): o is Type => o instanceof lib.Type && !(o as { group?: boolean }).group);
  const enumsOf = (objects: readonly ReflectionObject[]) =>
    objects.filter((o): o is Enum => o instanceof lib.Enum);
  const nameOf = (object: ReflectionObject) => object.fullName.slice(1);

  const visit = (objects: readonly ReflectionObject[]): void => {
    for (const object of objects) {
      if (object instanceof lib.Type) {
        const type = object;
        const real = type.oneofsArray.filter((oneof) => !isSynthetic(oneof));
        types.push({
          fullName: nameOf(type),
          localName: local(nameOf(type)),
          group: (type as { group?: boolean }).group === true,
          fields: type.fieldsArray.map((field) => fieldOf(field, syntax)),
          oneofs: real.map((oneof) => oneof.name),
          messages: messagesOf(type.nestedArray).map(nameOf),
          enums: enumsOf(type.nestedArray).map(nameOf),
          ...reservedOf(type.reserved),
        });
        visit(type.nestedArray);
      } else if (object instanceof lib.Enum) {
        types.push({
          fullName: nameOf(object),
          values: Object.entries(object.values),
          ...reservedOf(object.reserved),
        });
      }
    }
  };
  visit(members);
  return {
    syntax,
    package: packageName,
    imports: [...(parsed.imports ?? []), ...(parsed.weakImports ?? [])].sort(),
    messages: messagesOf(members).map(nameOf),
    enums: enumsOf(members).map(nameOf),
    types: types.sort((a, b) => (a.fullName < b.fullName ? -1 : 1)),
  };
}

function fieldOf(field: Field, syntax: string): PlainField {
  const oneof = field.partOf !== null && !isSynthetic(field.partOf) ? field.partOf.name : null;
  const isMap = field instanceof lib.MapField;
  const value = typeOf(field);
  return {
    name: field.name,
    number: field.id,
    label: isMap ? 'repeated' : labelOf(field, syntax),
    oneof,
    type: isMap ? `map<${(field as MapField).keyType}, ${value}>` : value,
  };
}

function typeOf(field: Field): string {
  if (scalars.has(field.type)) return field.type;
  const resolved = field.resolvedType;
  if (resolved === null) throw new Error(`protobufjs left ${field.fullName}'s type unresolved`);
  const kind =
    resolved instanceof lib.Enum ? 'enum' : (resolved as { group?: boolean }).group ? 'group' : 'message';
  return `${kind} ${resolved.fullName.slice(1)}`;
}

function isSynthetic(oneof: OneOf): boolean {
  const members = oneof.fieldsArray;
  return (
    members.length === 1 &&
    (members[0]?.options as { proto3_optional?: boolean } | undefined)?.proto3_optional === true
  );
}

function labelOf(field: Field, syntax: string): string {
  if (field.rule === 'repeated') return 'repeated';
  if (field.rule === 'required') return 'required';
  if ((field.options as { proto3_optional?: boolean } | undefined)?.proto3_optional === true)
    return 'optional';
  return syntax === 'proto3' ? 'implicit' : 'optional';
}

function reservedOf(reserved: readonly (number[] | string)[] | undefined): {
  reservedNumbers: (readonly [number, number])[];
  reservedNames: string[];
} {
  const numbers: (readonly [number, number])[] = [];
  const names: string[] = [];
  for (const entry of reserved ?? []) {
    if (typeof entry === 'string') names.push(entry);
    else numbers.push([entry[0] as number, entry[1] as number]);
  }
  return {
    reservedNumbers: numbers.filter(([a, b]) => b >= a).sort((a, b) => a[0] - b[0]),
    reservedNames: names.sort(),
  };
}
