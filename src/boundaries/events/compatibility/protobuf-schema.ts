/**
 * A registered Protobuf schema (a .proto file, proto2 or proto3) read into the small model the
 * compatibility rules and Confluent's message indexes work on: messages with their fields by
 * number, labels as written, oneofs, reserved numbers and names, nested messages in declaration
 * order, and every field's type resolved to a scalar, an enum, a message, a group or a map.
 *
 * The text is parsed by protobufjs's parser, a maintained implementation of the .proto grammar
 * (both syntaxes, options, groups, nesting limits as protoc's); writing a second grammar here would
 * only add a second place to be wrong. protobufjs is loaded on the first Protobuf schema, not when
 * this module is imported: producers and consumers of Avro events never pay its ~50 ms and 4 MB,
 * and the registry's contract is synchronous, so it is `require`d (util/node-runtime.ts) rather
 * than `import()`ed.
 *
 * Imports: the well-known types that protobufjs ships (google/protobuf/ any, duration, empty,
 * field_mask, struct, timestamp, wrappers) are resolved; google/protobuf/descriptor.proto is
 * accepted for custom option declarations (extensions are not checked); any other import needs a
 * schema reference, which this registry does not hold, so it is refused. Editions are refused too:
 * their field presence and encoding come from feature options these rules do not read.
 */
import type { Enum, Field, MapField, OneOf, ReflectionObject, Root, Type } from 'protobufjs';
import { maxFieldNumber } from '../../../schema/index.js';
import { requirePackage } from '../../../util/node-runtime.js';
import { schemaInvalid } from './schema-text.js';

export type ProtoLabel = 'implicit' | 'optional' | 'required' | 'repeated';

export type ProtoFieldType =
  | { readonly kind: 'scalar'; readonly scalar: string }
  | { readonly kind: 'enum'; readonly type: ProtoEnum }
  | { readonly kind: 'message'; readonly type: ProtoMessage }
  | { readonly kind: 'group'; readonly type: ProtoMessage }
  | { readonly kind: 'map'; readonly key: ProtoFieldType; readonly value: ProtoFieldType };

export interface ProtoField {
  readonly name: string;
  readonly number: number;
  /** As written: proto3's field without a label is `implicit`; a map field has none (`repeated`). */
  readonly label: ProtoLabel;
  /** The real oneof the field belongs to (proto3 `optional` makes a synthetic one, which is not). */
  readonly oneof: string | undefined;
  readonly type: ProtoFieldType;
}

export interface ProtoReserved {
  /** Inclusive ranges of field (or enum value) numbers. */
  readonly numbers: readonly (readonly [number, number])[];
  readonly names: readonly string[];
}

export interface ProtoMessage {
  readonly name: string;
  /** Without a leading dot: `shop.Order.Line`. */
  readonly fullName: string;
  /** The full name without the file's package (`Order.Line`), by which Confluent compares message types. */
  readonly localName: string;
  /** Whether this is a proto2 group's type (not a message of its own in Confluent's message indexes). */
  readonly group: boolean;
  readonly fields: readonly ProtoField[];
  /** Names of the real oneofs, in declaration order. */
  readonly oneofs: readonly string[];
  /** Nested messages in declaration order, groups left out. */
  readonly messages: readonly ProtoMessage[];
  readonly enums: readonly ProtoEnum[];
  readonly reserved: ProtoReserved;
  /** Whether the type comes from a well-known types file rather than the registered text. */
  readonly wellKnown: boolean;
}

export interface ProtoEnum {
  readonly name: string;
  readonly fullName: string;
  readonly localName: string;
  readonly values: ReadonlyMap<string, number>;
  readonly reserved: ProtoReserved;
}

export interface ProtoFile {
  readonly syntax: 'proto2' | 'proto3';
  readonly package: string;
  readonly imports: readonly string[];
  /** Top-level messages in declaration order (Confluent's message index 0, 1, ...). */
  readonly messages: readonly ProtoMessage[];
  readonly enums: readonly ProtoEnum[];
  /** Every message and enum of the file and of its well-known imports, by full name. */
  readonly types: ReadonlyMap<string, ProtoMessage | ProtoEnum>;
  /** The file as protobufjs reads it, re-serialized (declaration order kept, comments dropped). */
  readonly canonical: string;
}

type Protobufjs = typeof import('protobufjs');

let protobufjs: Protobufjs | undefined;

function library(): Protobufjs {
  if (protobufjs === undefined) {
    if (requirePackage === undefined)
      throw schemaInvalid('Protobuf schemas are read with protobufjs, which needs Node.');
    protobufjs = requirePackage('protobufjs') as Protobufjs;
  }
  return protobufjs;
}

const scalars: ReadonlySet<string> = new Set([
  ...['double', 'float', 'int32', 'int64', 'uint32', 'uint64', 'sint32', 'sint64'],
  ...['fixed32', 'fixed64', 'sfixed32', 'sfixed64', 'bool', 'string', 'bytes'],
]);

const wellKnownFiles: ReadonlySet<string> = new Set(
  ['any', 'duration', 'empty', 'field_mask', 'struct', 'timestamp', 'wrappers'].map(
    (name) => `google/protobuf/${name}.proto`,
  ),
);
/** Imported only to declare custom options; its types are not resolved. */
const optionsFile = 'google/protobuf/descriptor.proto';

/** Protocol Buffers keeps 19000-19999 for its own use; protoc refuses them as field numbers. */
const implementationReserved = [19_000, 19_999] as const;

/** Parses a .proto file; WK_REGISTRY_SCHEMA_INVALID when it does not parse or refers to what it does not define. */
export function parseProtoFile(text: string): ProtoFile {
  const syntax = declaredSyntax(text);
  const lib = library();
  let parsed: ReturnType<Protobufjs['parse']>;
  try {
    parsed = lib.parse(text, new lib.Root(), { keepCase: true });
  } catch (error) {
    throw schemaInvalid(`Protobuf schema: ${(error as Error).message}.`, error);
  }
  const imports = [...(parsed.imports ?? []), ...(parsed.weakImports ?? [])];
  const types = new Map<string, ProtoMessage | ProtoEnum>();
  for (const name of imports) {
    if (name === optionsFile) continue;
    if (!wellKnownFiles.has(name)) {
      throw schemaInvalid(
        `Protobuf schema: import "${name}" needs a schema reference, which this registry does not support ` +
          '(the google/protobuf well-known types are built in).',
      );
    }
    for (const [fullName, type] of wellKnownTypes(name)) types.set(fullName, type);
  }
  const packageName = parsed.package ?? '';
  const built = new FileBuilder(lib, { packageName, syntax, wellKnown: false }, types).build(parsed.root);
  return {
    syntax,
    package: packageName,
    imports,
    ...built,
    types,
    canonical: JSON.stringify({
      syntax,
      package: packageName,
      imports: [...imports].sort(),
      nested: parsed.root.toJSON().nested ?? {},
    }),
  };
}

/**
 * The `syntax` (or `edition`) statement, which must come first: proto2 when there is none, as
 * protoc reads such a file. Editions are refused (see the module comment).
 */
function declaredSyntax(text: string): 'proto2' | 'proto3' {
  const start = /^(?:\s+|\/\/[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*/.exec(text)?.[0].length ?? 0;
  const statement = /^(syntax|edition)\s*=\s*(["'])([^"'\n]{0,40})\2/.exec(text.slice(start, start + 100));
  if (statement === null) return 'proto2';
  if (statement[1] === 'edition') {
    throw schemaInvalid(
      `Protobuf schema: edition "${statement[3]}" is not supported (proto2 and proto3 are).`,
    );
  }
  if (statement[3] === 'proto2' || statement[3] === 'proto3') return statement[3];
  throw schemaInvalid(`Protobuf schema: syntax "${statement[3]}" is neither proto2 nor proto3.`);
}

/** The types of one well-known types file, read from the definitions protobufjs ships; made once. */
const wellKnownCache = new Map<string, ReadonlyMap<string, ProtoMessage | ProtoEnum>>();

function wellKnownTypes(file: string): ReadonlyMap<string, ProtoMessage | ProtoEnum> {
  let known = wellKnownCache.get(file);
  if (known === undefined) {
    const lib = library();
    const root = lib.Root.fromJSON(lib.common.get(file) ?? {});
    const types = new Map<string, ProtoMessage | ProtoEnum>();
    new FileBuilder(lib, { packageName: 'google.protobuf', syntax: 'proto3', wellKnown: true }, types).build(
      root,
    );
    known = types;
    wellKnownCache.set(file, known);
  }
  return known;
}

interface MutableMessage extends ProtoMessage {
  readonly fields: ProtoField[];
}

/** Builds the model of one file: first every type (so fields can refer to any), then the fields. */
class FileBuilder {
  private readonly pending: { message: MutableMessage; type: Type }[] = [];

  private readonly packageName: string;

  constructor(
    private readonly lib: Protobufjs,
    private readonly file: { packageName: string; syntax: 'proto2' | 'proto3'; wellKnown: boolean },
    private readonly types: Map<string, ProtoMessage | ProtoEnum>,
  ) {
    this.packageName = file.packageName;
  }

  build(root: Root): { messages: ProtoMessage[]; enums: ProtoEnum[] } {
    let scope: ReflectionObject | null = root;
    if (this.packageName !== '') scope = root.lookup(this.packageName);
    const members = scope instanceof this.lib.Namespace || scope === root ? (scope as Root).nestedArray : [];
    const top = this.members(members, this.packageName);
    for (const { message, type } of this.pending) {
      for (const field of type.fieldsArray) message.fields.push(this.field(field, message));
    }
    return top;
  }

  private members(
    objects: readonly ReflectionObject[],
    scope: string,
  ): { messages: ProtoMessage[]; enums: ProtoEnum[] } {
    const messages: ProtoMessage[] = [];
    const enums: ProtoEnum[] = [];
    for (const object of objects) {
      if (object instanceof this.lib.Type) {
        const message = this.message(object, scope);
        if (!message.group) messages.push(message);
      } else if (object instanceof this.lib.Enum) {
        enums.push(this.enumeration(object, scope));
      }
    }
    return { messages, enums };
  }

  private message(type: Type, scope: string): ProtoMessage {
    const fullName = qualify(scope, type.name);
    const nested = this.members(type.nestedArray, fullName);
    const real = type.oneofsArray.filter((oneof) => !isSynthetic(oneof));
    const message: MutableMessage = {
      name: type.name,
      fullName,
      localName: this.local(fullName),
      group: (type as { group?: boolean }).group === true,
      fields: [],
      oneofs: real.map((oneof) => oneof.name),
      messages: nested.messages,
      enums: nested.enums,
      reserved: reservedOf(type.reserved, fullName),
      wellKnown: this.file.wellKnown,
    };
    this.define(message);
    this.pending.push({ message, type });
    return message;
  }

  private enumeration(type: Enum, scope: string): ProtoEnum {
    const fullName = qualify(scope, type.name);
    const enumeration: ProtoEnum = {
      name: type.name,
      fullName,
      localName: this.local(fullName),
      values: new Map(Object.entries(type.values)),
      reserved: reservedOf(type.reserved, fullName),
    };
    this.define(enumeration);
    return enumeration;
  }

  private define(type: ProtoMessage | ProtoEnum): void {
    if (this.types.has(type.fullName))
      throw schemaInvalid(`Protobuf schema: ${type.fullName} is defined twice.`);
    this.types.set(type.fullName, type);
  }

  private local(fullName: string): string {
    return this.packageName === '' ? fullName : fullName.slice(this.packageName.length + 1);
  }

  private field(field: Field, owner: ProtoMessage): ProtoField {
    const where = `${owner.fullName}.${field.name}`;
    const number = field.id;
    const [low, high] = implementationReserved;
    if (
      !Number.isInteger(number) ||
      number < 1 ||
      number > maxFieldNumber ||
      (number >= low && number <= high)
    ) {
      throw schemaInvalid(`Protobuf schema: ${where} has number ${number}, not a usable field number.`);
    }
    const oneof = field.partOf !== null && !isSynthetic(field.partOf) ? field.partOf.name : undefined;
    const isMap = field instanceof this.lib.MapField;
    const value = this.typeOf(field.type, owner, where);
    const type: ProtoFieldType = isMap
      ? { kind: 'map', key: this.typeOf((field as MapField).keyType, owner, where), value }
      : value;
    return {
      name: field.name,
      number,
      label: isMap ? 'repeated' : labelOf(field, this.file.syntax),
      oneof,
      type,
    };
  }

  /** A type name resolved as protoc does: from the innermost enclosing scope outwards, or from the root after a leading dot. */
  private typeOf(name: string, owner: ProtoMessage, where: string): ProtoFieldType {
    if (scalars.has(name)) return { kind: 'scalar', scalar: name };
    const candidates: string[] = [];
    if (name.startsWith('.')) candidates.push(name.slice(1));
    else {
      const parts = owner.fullName.split('.');
      for (let n = parts.length; n >= 0; n--) candidates.push(qualify(parts.slice(0, n).join('.'), name));
    }
    for (const candidate of candidates) {
      const found = this.types.get(candidate);
      if (found === undefined) continue;
      if ('values' in found) return { kind: 'enum', type: found };
      return { kind: found.group ? 'group' : 'message', type: found };
    }
    throw schemaInvalid(`Protobuf schema: ${where} has type ${name}, which is not defined or imported.`);
  }
}

function qualify(scope: string, name: string): string {
  return scope === '' ? name : `${scope}.${name}`;
}

/** proto3 `optional` declares a oneof of its own, of that one field; it says presence, not choice. */
function isSynthetic(oneof: OneOf): boolean {
  const members = oneof.fieldsArray;
  return (
    members.length === 1 &&
    (members[0]?.options as { proto3_optional?: boolean } | undefined)?.proto3_optional === true
  );
}

function labelOf(field: Field, syntax: 'proto2' | 'proto3'): ProtoLabel {
  if (field.rule === 'repeated') return 'repeated';
  if (field.rule === 'required') return 'required';
  if ((field.options as { proto3_optional?: boolean } | undefined)?.proto3_optional === true)
    return 'optional';
  // protobufjs records proto2's `optional` as no rule; in proto3 no rule is the implicit label.
  return syntax === 'proto3' ? 'implicit' : 'optional';
}

function reservedOf(reserved: readonly (number[] | string)[] | undefined, where: string): ProtoReserved {
  const numbers: [number, number][] = [];
  const names: string[] = [];
  for (const entry of reserved ?? []) {
    if (typeof entry === 'string') names.push(entry);
    else if (
      Array.isArray(entry) &&
      entry.length === 2 &&
      Number.isInteger(entry[0]) &&
      Number.isInteger(entry[1])
    ) {
      numbers.push([entry[0] as number, entry[1] as number]);
    } else
      throw schemaInvalid(
        `Protobuf schema: ${where} has a reserved entry that is not a number, range or name.`,
      );
  }
  return { numbers, names };
}

/** Whether `number` falls in one of the reserved ranges. */
export function isReservedNumber(reserved: ProtoReserved, number: number): boolean {
  return reserved.numbers.some(([low, high]) => number >= low && number <= high);
}
