/**
 * The proto3 layout of a schema: every message, enum and oneof `toProto` declares, each field with
 * its number, label and proto type, the generated messages (`_Item`, `_Value`, `_List`, `_Map`, the
 * root's `{ value = 1 }`) where proto cannot hold a value directly, and the declarations in the
 * order the file lists them. proto.ts prints it; the protobuf codec's plan (codecs/protobuf/plan.ts)
 * follows it, so the bytes on the wire are always the ones the printed `.proto` describes.
 * docs/mapping/protobuf.md is the contract.
 */
import { isIdentifier } from '../names.js';
import { protoWrapperOf } from '../proto-wrappers.js';
import type {
  EitherSchema,
  EnumSchema,
  FieldDef,
  JsonProtoForm,
  JsonSchema,
  NamedSchema,
  NullableSchema,
  ObjectSchema,
  ProtoIntType,
  Schema,
  TimestampSchema,
  UnionSchema,
} from '../types.js';
import { deref, fullName, namedTypes } from '../walk.js';
import { fieldBase, lowerSnake, upperSnake } from './naming.js';
import {
  checkFieldNames,
  type ExportPlan,
  type Leaf,
  type Plain,
  planExport,
  type Refuse,
  type ScalarLeaf,
  unsupported,
  unwrapPresence,
} from './plan.js';
import { isScalarLeaf, protoScalar } from './proto-scalars.js';
import { type ProtoSyntax, protoSyntax } from './proto-syntax.js';
import { wellKnownTypes } from './proto-well-known.js';

export interface ProtoOptions {
  /** The proto package; by default the namespace the schema's types share, else none. */
  readonly package?: string;
  /** The message generated around a root that is not an object or union (default 'Root'). */
  readonly rootName?: string;
  /**
   * Write each method's REST mapping (`t.unary(..., { http })`) as `option (google.api.http)`,
   * importing google/api/annotations.proto from googleapis (default true). descriptorFiles leaves
   * them out: a server's descriptors would otherwise need googleapis' files and descriptor.proto.
   */
  readonly httpRules?: boolean;
}

export interface ProtoLayoutOptions extends ProtoOptions {
  /** What a refusal does; by default it throws WK_EXPORT_UNSUPPORTED. */
  readonly refuse?: Refuse;
}

const protoFormat = 'Protocol Buffers';

/** The proto scalar types a schema kind can become. */
export type ProtoScalar = 'bool' | ProtoIntType | 'float' | 'double' | 'string' | 'bytes';

/** What one value is declared as: a scalar (a literal where it is stored), a Timestamp, an enum or a message. */
export type ProtoValue =
  | {
      readonly is: 'scalar';
      readonly type: ProtoScalar;
      readonly schema: ScalarLeaf;
    }
  | { readonly is: 'timestamp'; readonly schema: TimestampSchema }
  /** A json value declared as google.protobuf.Value, Struct or ListValue (JsonSchema.proto); `name` as fields write it. */
  | { readonly is: 'json'; readonly schema: JsonSchema; readonly name: string }
  | { readonly is: 'enum'; readonly enum: ProtoEnum }
  | { readonly is: 'message'; readonly message: ProtoMessage };

/**
 * How a field sits in its message: proto3 implicit presence, `optional`, `repeated`, `map<,>`, or a
 * literal, which is not stored (the schema knows its value).
 */
export type ProtoLabel = 'implicit' | 'optional' | 'repeated' | 'map' | 'literal';

export interface ProtoField {
  /** The field as declared (a generated message's one field is made up here). */
  readonly def: FieldDef;
  /** The field's schema under optional/nullable. */
  readonly inner: Plain;
  readonly label: ProtoLabel;
  /** The value; a repeated field's element; a map's value; undefined for a literal. */
  readonly value: ProtoValue | undefined;
  /** A map's key. */
  readonly key: ProtoValue | undefined;
  /**
   * Whether a repeated field of numbers, booleans or enums is written packed: unless its array says
   * `packed: false`. Always false for what cannot be packed (strings, bytes, messages).
   */
  readonly packed: boolean;
}

export interface ProtoVariant {
  /** The oneof field's name. */
  readonly name: string;
  readonly number: number;
  readonly message: ProtoMessage;
}

/** A branch of an either's oneof: branch i is number i + 1. */
export interface ProtoBranch {
  readonly name: string;
  readonly number: number;
  readonly value: ProtoValue;
}

export interface ProtoMessage {
  readonly name: string;
  /**
   * 'object' declares an object type; 'union' a union, as a message holding one oneof; 'wrapper' is
   * generated, its one field numbered 1 holding a value proto cannot hold where the value sits;
   * 'either' is generated for a t.either, a message holding one oneof of its branches.
   */
  readonly origin: 'object' | 'union' | 'wrapper' | 'either';
  /** The object or union type it declares; for 'either', the either it carries. */
  readonly schema: ObjectSchema | UnionSchema | EitherSchema | undefined;
  /** In declaration order, literals included. */
  readonly fields: ProtoField[];
  /** A union's oneof fields: variant i is number i + 1. */
  readonly variants: ProtoVariant[];
  /** An either's oneof fields, in branch order. */
  readonly branches: ProtoBranch[];
}

export interface ProtoEnum {
  readonly name: string;
  readonly schema: EnumSchema;
  /** The value names, member i being value i. */
  readonly values: readonly string[];
}

export interface ProtoLayout {
  /** proto3, unless the schema holds what only proto2 declares (proto-syntax.ts). */
  readonly syntax: ProtoSyntax;
  readonly package: string | undefined;
  readonly root: ProtoMessage;
  /** Every message and enum, in the order the file declares them. */
  readonly declarations: readonly (ProtoMessage | ProtoEnum)[];
  /** How fields refer to google.protobuf.Timestamp, when any does (the file then imports it). */
  readonly timestamp: string | undefined;
  /** Whether a field holds a well-known wrapper (the file then imports google/protobuf/wrappers.proto). */
  readonly wrappers: boolean;
  /** Whether a field holds a Value, Struct or ListValue (the file then imports google/protobuf/struct.proto). */
  readonly struct: boolean;
  /**
   * The other well-known files the file imports (google/protobuf/duration.proto...), sorted: those
   * declaring the schema's types that are well-known types (proto-well-known.ts), named by their
   * full name and not declared here.
   */
  readonly imports: readonly string[];
  /**
   * The message each nested declaration is declared in: an object or enum whose namespace is the
   * full name of an object of the schema (`shop.v1.Order.Line`), as schemaFromProto names them.
   */
  readonly enclosing: ReadonlyMap<ProtoMessage | ProtoEnum, ProtoMessage>;
}

// A type with one of these names could not be referred to unqualified: scalar type names, and the
// words that start a statement inside a message body.
const reservedNames = new Set([
  ...['double', 'float', 'int32', 'int64', 'uint32', 'uint64', 'sint32', 'sint64'],
  ...['fixed32', 'fixed64', 'sfixed32', 'sfixed64', 'bool', 'string', 'bytes'],
  ...['message', 'enum', 'oneof', 'map', 'optional', 'repeated', 'required', 'reserved'],
  ...['option', 'extensions', 'extend', 'group'],
]);

export function protoLayout(schema: Schema, options: ProtoLayoutOptions = {}): ProtoLayout {
  return new LayoutBuilder(schema, options).build();
}

class LayoutBuilder {
  private readonly plan: ExportPlan;
  private readonly declared = new Map<Schema, ProtoMessage | ProtoEnum>();
  private readonly declarations: (ProtoMessage | ProtoEnum)[] = [];
  private readonly timestampName: string;
  private readonly googlePrefix: string;
  private usesTimestamp = false;
  private usesWrappers = false;
  private usesStruct = false;
  /** The well-known wrapper message of each wrapped scalar schema (NullableSchema.proto). */
  private readonly wellKnown = new Map<Schema, ProtoMessage>();
  /** The schema's types that are well-known types, with the file each is imported from. */
  private readonly imported: ReadonlyMap<Schema, string>;
  /** The files of the imported types this file's own declarations name (protoc warns of the others). */
  private readonly importsUsed = new Set<string>();
  /** Set while the fields of an imported type are laid out: what they name is not this file's import. */
  private inImported = false;

  constructor(
    private readonly schema: Schema,
    options: ProtoLayoutOptions,
  ) {
    const root = deref(schema);
    const home = options.package ?? ('name' in root ? root.namespace : undefined);
    const imported = wellKnownTypes(
      [...namedTypes(schema).values()],
      home,
      (node) => (isScalarLeaf(node) ? protoScalar(node) : undefined),
      options.refuse ?? ((message) => unsupported(protoFormat, message)),
    );
    this.imported = imported;
    this.plan = planExport(schema, {
      imported: new Set(imported.keys()),
      format: protoFormat,
      namespace: options.package,
      rootName: options.rootName,
      rootKinds: ['object', 'union'],
      reservedNames,
      refuse: options.refuse,
      nests: true,
    });
    // Enum values are siblings of their enum (C++ scoping), so a top-level enum's share the
    // package's names with every type, and generated messages must avoid them too; a nested enum's
    // are scoped to its message, and need differ only from the other names declared there.
    const scoped = new Map<NamedSchema, Set<string>>();
    for (const type of this.plan.types) {
      const outer = this.plan.enclosing.get(type);
      if (outer !== undefined) scoped.set(outer, (scoped.get(outer) ?? new Set()).add(type.name));
    }
    for (const type of this.plan.types) {
      if (type.kind === 'enum') {
        const values = this.enumValueNames(type);
        const outer = this.plan.enclosing.get(type);
        const names = outer === undefined ? this.plan.names : (scoped.get(outer) as Set<string>);
        for (const value of values) {
          if (names.has(value)) {
            this.plan.refuse(`enum ${type.name}: value ${value} clashes with another type or enum value.`);
          }
          names.add(value);
        }
        this.declared.set(type, { name: type.name, schema: type, values });
      } else {
        this.declared.set(type, {
          name: type.name,
          origin: type.kind,
          schema: type,
          fields: [],
          variants: [],
          branches: [],
        });
      }
    }
    // protoc resolves `google.…` from the innermost scope out, so a `google` of our own would hide
    // the real package; the leading dot starts from the root instead.
    const hidden = this.plan.namespace?.split('.').includes('google') || this.plan.names.has('google');
    this.googlePrefix = hidden ? '.google.protobuf.' : 'google.protobuf.';
    this.timestampName = `${this.googlePrefix}Timestamp`;
    // An imported well-known type is named by its full name and declared by its own file; its
    // fields are still laid out, since the codec writes them.
    for (const type of imported.keys()) {
      const name = `${hidden ? '.' : ''}${fullName(type as NamedSchema)}`;
      if (type.kind === 'enum') {
        this.declared.set(type, { name, schema: type, values: type.members });
      } else if (type.kind === 'object') {
        this.declared.set(type, {
          name,
          origin: 'object',
          schema: type,
          fields: [],
          variants: [],
          branches: [],
        });
      }
    }
  }

  build(): ProtoLayout {
    const rootDef: FieldDef = { name: 'value', id: 1, schema: this.schema };
    const wrapper =
      this.plan.rootWrapper === undefined ? undefined : this.message(this.plan.rootWrapper, [rootDef], false);
    for (const [schema, type] of this.declared) {
      if (this.imported.has(schema)) {
        if ('values' in type) continue;
        this.inImported = true;
        this.fill(type, (schema as ObjectSchema).fields, false);
        this.inImported = false;
      } else if ('values' in type) this.declarations.push(type);
      else if (type.origin === 'object') this.object(type);
      else this.union(type);
    }
    const root = wrapper ?? (this.declared.get(deref(this.schema)) as ProtoMessage);
    const enclosing = new Map<ProtoMessage | ProtoEnum, ProtoMessage>();
    for (const [inner, outer] of this.plan.enclosing) {
      enclosing.set(
        this.declared.get(inner) as ProtoMessage | ProtoEnum,
        this.declared.get(outer) as ProtoMessage,
      );
    }
    return {
      syntax: protoSyntax(this.declarations, this.plan.refuse),
      package: this.plan.namespace,
      root,
      declarations: this.declarations,
      timestamp: this.usesTimestamp ? this.timestampName : undefined,
      wrappers: this.usesWrappers,
      imports: [...this.importsUsed].sort(),
      struct: this.usesStruct,
      enclosing,
    };
  }

  private object(message: ProtoMessage): void {
    const schema = message.schema as ObjectSchema;
    this.declarations.push(message);
    this.fill(message, schema.fields, false);
  }

  /** A generated message; the ones generated for its own fields follow it. */
  private message(name: string, fields: readonly FieldDef[], wrapper: boolean): ProtoMessage {
    const message: ProtoMessage = {
      name,
      origin: 'wrapper',
      schema: undefined,
      fields: [],
      variants: [],
      branches: [],
    };
    this.declarations.push(message);
    this.fill(message, fields, wrapper);
    return message;
  }

  /**
   * The fields of a message. `wrapper` marks a generated message, whose own generated messages are
   * named after it rather than after it plus its field.
   */
  private fill(message: ProtoMessage, defs: readonly FieldDef[], wrapper: boolean): void {
    const stored = defs.filter((def) => def.schema.kind !== 'literal');
    checkFieldNames(protoFormat, message.name, stored, this.plan.refuse);
    for (const def of defs) {
      message.fields.push(this.field(wrapper ? message.name : fieldBase(message.name, def.name), def));
    }
  }

  /** `base` prefixes the names of messages generated for the field. */
  private field(base: string, def: FieldDef): ProtoField {
    const wrapped = protoWrapped(def.schema);
    if (wrapped !== undefined) {
      const value = this.wellKnownWrapper(wrapped);
      return {
        def,
        inner: deref(wrapped.inner) as Plain,
        key: undefined,
        packed: false,
        label: 'optional',
        value,
      };
    }
    const { inner, present } = unwrapPresence(def.schema);
    const field = { def, inner, key: undefined, packed: false };
    if (def.schema.kind === 'literal') return { ...field, label: 'literal', value: undefined };
    if (inner.kind === 'array' || inner.kind === 'map') {
      // A repeated field or a map cannot be absent, so one that may be absent goes into a message.
      if (present) {
        const kept = this.wrapper(`${base}_${inner.kind === 'array' ? 'List' : 'Map'}`, inner);
        return { ...field, label: 'optional', value: kept };
      }
      if (inner.kind === 'array') {
        const value = this.element(inner.items, `${base}_Item`, base);
        return { ...field, label: 'repeated', value, packed: isPackable(value) && inner.packed !== false };
      }
      const key = this.value(deref(inner.keys) as Leaf, base);
      return { ...field, label: 'map', key, value: this.element(inner.values, `${base}_Value`, base) };
    }
    // A field with explicit presence (a proto2 `required` one) is written as proto3 writes `optional`.
    const label = present || def.presence === 'explicit' ? 'optional' : 'implicit';
    return { ...field, label, value: this.value(inner, base) };
  }

  /**
   * A repeated element or map value. Neither can be absent, repeated or a map itself, so such a
   * schema goes into a generated message of one field. `base` names an either's message.
   */
  private element(schema: Schema, candidate: string, base: string): ProtoValue {
    const node = deref(schema);
    if (node.kind === 'nullable' && node.proto === 'wrapper') return this.wellKnownWrapper(node);
    if (
      node.kind === 'optional' ||
      node.kind === 'nullable' ||
      node.kind === 'array' ||
      node.kind === 'map'
    ) {
      return this.wrapper(candidate, node);
    }
    return this.value(node, base);
  }

  /**
   * google.protobuf.Int32Value and the other wrappers, for a nullable scalar that declares them:
   * declared by wrappers.proto, not by this file, and written as a generated wrapper is (the value
   * as field 1, left out when it is the default), with the wrapper's own field type.
   */
  private wellKnownWrapper(node: NullableSchema): ProtoValue {
    const inner = deref(node.inner) as ScalarLeaf;
    let message = this.wellKnown.get(inner);
    if (message === undefined) {
      const [name, type] = protoWrapperOf(inner.kind) as readonly [string, ProtoScalar];
      const def: FieldDef = { name: 'value', id: 1, schema: inner };
      const value: ProtoValue = { is: 'scalar', type, schema: inner };
      const field: ProtoField = { def, inner, key: undefined, packed: false, label: 'implicit', value };
      message = {
        name: `${this.googlePrefix}${name}`,
        origin: 'wrapper',
        schema: undefined,
        fields: [field],
        variants: [],
        branches: [],
      };
      this.wellKnown.set(inner, message);
      this.usesWrappers = true;
    }
    return { is: 'message', message };
  }

  private wrapper(candidate: string, schema: Schema): ProtoValue {
    const name = this.plan.names.claim(candidate);
    const field = schema.kind === 'array' ? 'items' : schema.kind === 'map' ? 'entries' : 'value';
    return { is: 'message', message: this.message(name, [{ name: field, id: 1, schema }], true) };
  }

  /** One value; `base` names the message an either becomes (`<base>_Either`). */
  private value(node: Leaf, base: string): ProtoValue {
    const file = this.imported.get(node);
    if (file !== undefined && !this.inImported) this.importsUsed.add(file);
    switch (node.kind) {
      case 'timestamp':
        this.usesTimestamp = true;
        return { is: 'timestamp', schema: node };
      case 'enum':
        return { is: 'enum', enum: this.declared.get(node) as ProtoEnum };
      case 'json': {
        if (node.proto === undefined) break;
        this.usesStruct = true;
        return { is: 'json', schema: node, name: `${this.googlePrefix}${jsonMessageNames[node.proto]}` };
      }
      case 'either':
        return { is: 'message', message: this.either(node, `${base}_Either`) };
      case 'object':
      case 'union':
        return { is: 'message', message: this.declared.get(node) as ProtoMessage };
    }
    return { is: 'scalar', type: protoScalar(node as ScalarLeaf), schema: node as ScalarLeaf };
  }

  /**
   * The message of an either: one oneof whose field i + 1 holds branch i. A oneof member cannot be
   * repeated or a map, so an array or map branch goes into a generated message of one field
   * (`<name>_List`, `<name>_Map`).
   */
  private either(schema: EitherSchema, candidate: string): ProtoMessage {
    const name = this.plan.names.claim(candidate);
    const message: ProtoMessage = { name, origin: 'either', schema, fields: [], variants: [], branches: [] };
    this.declarations.push(message);
    const names = branchFieldNames(schema);
    schema.branches.forEach((branch, index) => {
      const node = deref(branch);
      const value =
        node.kind === 'array' || node.kind === 'map'
          ? this.wrapper(`${name}_${node.kind === 'array' ? 'List' : 'Map'}`, node)
          : this.value(node as Leaf, name);
      message.branches.push({ name: names[index] as string, number: index + 1, value });
    });
    return message;
  }

  private union(message: ProtoMessage): void {
    const type = message.schema as UnionSchema;
    this.declarations.push(message);
    const names = this.variantFieldNames(type);
    type.variants.forEach((variant, index) => {
      const name = names[index] as string;
      message.variants.push({ name, number: index + 1, message: this.declared.get(variant) as ProtoMessage });
    });
  }

  /**
   * `COLOR_RED` for member red of enum Color: proto3 enum values are scoped to the package, hence the
   * prefix. Refuses members that cannot become identifiers, or that protoc would take for the same
   * value (it compares values with the prefix stripped, ignoring case and underscores).
   */
  private enumValueNames(type: EnumSchema): string[] {
    // An enum with a .proto's numbers came from a .proto: its members are that file's value names.
    // One whose first number is not 0 makes the file proto2 (proto-syntax.ts).
    if (type.numbers !== undefined) {
      for (const member of type.members) {
        if (!isIdentifier(member)) {
          this.plan.refuse(`enum ${type.name}: member ${JSON.stringify(member)} is not a .proto value name.`);
        }
      }
      return [...type.members];
    }
    const prefix = upperSnake(type.name) ?? type.name.toUpperCase();
    const seen = new Map<string, string>();
    return type.members.map((member) => {
      const converted = upperSnake(member);
      if (converted === undefined) {
        this.plan.refuse(
          `enum ${type.name}: member ${JSON.stringify(member)} cannot become an identifier ` +
            "(only ASCII letters, digits, '_', '-', '.' and spaces convert).",
        );
      }
      const suffix = converted ?? member;
      const key = suffix
        .split('_')
        .map((word) => word.charAt(0) + word.slice(1).toLowerCase())
        .join('');
      const other = seen.get(key);
      if (other !== undefined) {
        this.plan.refuse(
          `enum ${type.name}: members ${JSON.stringify(other)} and ${JSON.stringify(member)} become values ` +
            `protoc cannot tell apart (${prefix}_${upperSnake(other)} and ${prefix}_${suffix}).`,
        );
      }
      seen.set(key, member);
      return `${prefix}_${suffix}`;
    });
  }

  /**
   * The oneof field of each variant: its tag value in lower_snake_case, or the variant's type name in
   * lower_snake_case when the tag cannot become an identifier (or would be `value`, the oneof's own
   * name). Names stay on the proto side: the wire carries only the variant number.
   */
  private variantFieldNames(type: UnionSchema): string[] {
    const names = type.variants.map((variant) => {
      const tag = variant.fields.find((field) => field.name === type.tag)?.schema;
      const fromTag = tag?.kind === 'literal' ? lowerSnake(String(tag.value)) : undefined;
      if (fromTag !== undefined && isIdentifier(fromTag) && fromTag !== 'value') return fromTag;
      const fromName = lowerSnake(variant.name) ?? variant.name.toLowerCase();
      if (fromName === 'value') {
        this.plan.refuse(`union ${type.name}: variant ${variant.name} would be named value, like the oneof.`);
      }
      return fromName;
    });
    checkFieldNames(
      protoFormat,
      type.name,
      names.map((name, index) => ({ name, label: `variant ${type.variants[index]?.name} (${name})` })),
      this.plan.refuse,
    );
    return names;
  }
}

/**
 * The oneof field of each branch of an either: a named type's name in lower_snake_case (`order`),
 * else its kind with `_value` (`string_value`, `int64_value`, `array_value`); a name taken already,
 * or `value` (the oneof's own name), gets `_2`, `_3`… Names stay on the proto side: the wire
 * carries only the branch's number.
 */
function branchFieldNames(schema: EitherSchema): string[] {
  const taken = new Set(['value']);
  return schema.branches.map((branch) => {
    const node = deref(branch);
    const named = 'name' in node ? lowerSnake(node.name) : undefined;
    const base = named !== undefined && isIdentifier(named) ? named : `${node.kind}_value`;
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
    taken.add(name);
    return name;
  });
}

/** The google/protobuf/struct.proto message of each declared form of a json value. */
const jsonMessageNames: Readonly<Record<JsonProtoForm, string>> = {
  value: 'Value',
  struct: 'Struct',
  list: 'ListValue',
};

/** The nullable under a field's optional that declares a well-known wrapper, if it does. */
function protoWrapped(schema: Schema): NullableSchema | undefined {
  const node = schema.kind === 'optional' ? schema.inner : schema;
  return node.kind === 'nullable' && node.proto === 'wrapper' ? node : undefined;
}

/** Whether repeated values of this type can be packed: numbers, booleans and enums, not what is length-delimited. */
export function isPackable(value: ProtoValue): boolean {
  return value.is === 'enum' || (value.is === 'scalar' && value.type !== 'string' && value.type !== 'bytes');
}
