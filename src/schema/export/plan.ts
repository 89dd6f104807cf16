/**
 * What the Protocol Buffers and FlatBuffers exporters settle the same way before writing a line:
 * one file holds one namespace, which types it declares and in what order, whether the root can be
 * declared as the file's root type or needs a generated wrapper, and which field names the format
 * accepts.
 */
import { type WireFormat, WirekitError } from '../../errors/index.js';
import { isIdentifier } from '../names.js';
import type { NamedSchema, NullableSchema, OptionalSchema, RefSchema, Schema } from '../types.js';
import { deref, fullName, namedTypes } from '../walk.js';
import { caseKey, NameAllocator } from './naming.js';

/** A schema node with refs followed and presence (optional, nullable) taken off. */
export type Plain = Exclude<Schema, RefSchema | OptionalSchema | NullableSchema>;

/** The error's `format` for the exporters that share this plan, which name their format for messages. */
const wireFormatOf: Readonly<Record<string, WireFormat>> = {
  'Protocol Buffers': 'protobuf',
  FlatBuffers: 'flatbuffers',
};

/** A plain node that is a single value: neither an array nor a map. */
export type Leaf = Exclude<Plain, { kind: 'array' | 'map' }>;

/** A leaf that each format declares as one of its own base types. */
export type ScalarLeaf = Exclude<Leaf, { kind: 'timestamp' | 'enum' | 'object' | 'union' | 'either' }>;

/** The kinds a scalar leaf is stored as; each format maps them onto its base types. */
export type StoredKind = Exclude<ScalarLeaf['kind'], 'decimal' | 'json' | 'literal'>;

/**
 * What a scalar leaf is stored as. Neither format has a decimal or a JSON type, so both travel as
 * text; a literal is stored only where it is not a field of its own (an array item, a map value, an
 * optional field), and then as its value's type.
 */
export function storedKind(node: ScalarLeaf): StoredKind {
  switch (node.kind) {
    case 'decimal':
    case 'json':
      return 'string';
    case 'literal':
      return typeof node.value === 'string' ? 'string' : typeof node.value === 'boolean' ? 'bool' : 'float64';
    default:
      return node.kind;
  }
}

export function unsupported(format: string, message: string): never {
  throw new WirekitError('WK_EXPORT_UNSUPPORTED', message, { format: wireFormatOf[format] });
}

export interface PlanOptions {
  /** The format's name, for messages. */
  readonly format: string;
  /** The namespace (package) asked for; else the one the types share. */
  readonly namespace: string | undefined;
  readonly rootName: string | undefined;
  /** The kinds the format can declare as its root type as they are. */
  readonly rootKinds: readonly ('object' | 'union')[];
  /** Names a declared type cannot take, because the format reads them as built-in types or keywords. */
  readonly reservedNames: ReadonlySet<string>;
  /** What a refusal does; by default it throws WK_EXPORT_UNSUPPORTED (see `Refuse`). */
  readonly refuse?: Refuse;
  /**
   * Whether the format declares types inside object types (Protocol Buffers' nested messages): a
   * type whose namespace is the full name of an object it holds is then declared inside that object
   * (`shop.v1.Order.Line` inside `Order`), as schemaFromProto names them, rather than being a second
   * namespace; its name need only differ from its siblings'.
   */
  readonly nests?: boolean;
  /**
   * Types the file imports rather than declares (protobuf's well-known types): they take no name
   * and no namespace of the file's.
   */
  readonly imported?: ReadonlySet<NamedSchema>;
}

/**
 * Receives what the format cannot declare. The exporters throw on the first refusal; a codec that
 * only needs the wire layout (numbers, types, nesting), which never depends on names, may go on.
 */
export type Refuse = (message: string) => void;

function throwing(format: string): Refuse {
  return (message) => unsupported(format, message);
}

export interface ExportPlan {
  readonly namespace: string | undefined;
  /** Every named type, in the order of namedTypes(): the declaration order. */
  readonly types: readonly NamedSchema[];
  /** The declared type that is the file's root, or undefined when a wrapper holds the root. */
  readonly rootType: NamedSchema | undefined;
  /** The name of the generated type `{ value = 1 }` around a root of another kind. */
  readonly rootWrapper: string | undefined;
  /** The names taken so far (the types', the root wrapper's): generated types claim theirs here. */
  readonly names: NameAllocator;
  /** The refusal handler asked for, else one that throws. */
  readonly refuse: Refuse;
  /** Where the format nests (PlanOptions.nests): the object each nested type is declared in. */
  readonly enclosing: ReadonlyMap<NamedSchema, NamedSchema>;
}

export function planExport(schema: Schema, options: PlanOptions): ExportPlan {
  const { format, reservedNames } = options;
  const refuse = options.refuse ?? throwing(format);
  const types = [...namedTypes(schema).values()].filter((type) => options.imported?.has(type) !== true);
  const enclosing = new Map<NamedSchema, NamedSchema>();
  if (options.nests === true) {
    const objects = new Map(
      types.filter((type) => type.kind === 'object').map((type) => [fullName(type), type]),
    );
    for (const type of types) {
      const outer = type.namespace === undefined ? undefined : objects.get(type.namespace);
      if (outer !== undefined) enclosing.set(type, outer);
    }
  }

  // Both formats declare a file's types in one namespace (package), so types from two namespaces
  // would lose the very qualifier that tells them apart.
  // The refusal names a type of each namespace, so that a schema imported from several packages
  // says which of its types would need another home.
  const firstOf = new Map<string, NamedSchema>();
  for (const type of types) {
    if (type.namespace === undefined || enclosing.has(type) || firstOf.has(type.namespace)) continue;
    firstOf.set(type.namespace, type);
  }
  const namespaces = [...firstOf.keys()];
  if (namespaces.length > 1) {
    const listed = [...firstOf.values()].map((type) => `${type.namespace} (${fullName(type)})`);
    refuse(
      `one file holds one namespace, but the types use ${listed.join(' and ')}; the ${format} file ` +
        "is written with one, so give the types one namespace (the builders' `namespace` option).",
    );
  }
  const namespace = options.namespace ?? namespaces[0];
  if (namespace !== undefined && !namespace.split('.').every(isIdentifier)) {
    refuse(`namespace ${JSON.stringify(namespace)} is not a dotted list of identifiers.`);
  }

  const byName = new Map<string, NamedSchema>();
  for (const type of types) {
    if (reservedNames.has(type.name)) {
      refuse(`type ${fullName(type)}: ${type.name} is a built-in name in ${format}; rename the type.`);
    }
    // A nested type's name is its enclosing type's full name and its own, unique as that.
    const outer = enclosing.get(type);
    const key = outer === undefined ? type.name : `${fullName(outer)}.${type.name}`;
    const other = byName.get(key);
    if (other !== undefined) {
      refuse(`${fullName(other)} and ${fullName(type)} would both be declared as ${type.name}.`);
    }
    byName.set(key, type);
  }

  const root = deref(schema);
  if ((root.kind === 'object' || root.kind === 'union') && options.rootKinds.includes(root.kind)) {
    const names = new NameAllocator(types.map((type) => type.name));
    return { namespace, types, rootType: root, rootWrapper: undefined, names, refuse, enclosing };
  }
  const rootWrapper = options.rootName ?? 'Root';
  if (!isIdentifier(rootWrapper) || reservedNames.has(rootWrapper)) {
    refuse(`rootName ${JSON.stringify(rootWrapper)} cannot name a type; pass another rootName.`);
  }
  if (byName.has(rootWrapper)) {
    refuse(
      `the root (a ${root.kind}) is wrapped in a generated type ${rootWrapper}, but a type of that name ` +
        'exists already; pass another rootName.',
    );
  }
  const names = new NameAllocator([...types.map((type) => type.name), rootWrapper]);
  return { namespace, types, rootType: undefined, rootWrapper, names, refuse, enclosing };
}

export interface FieldName {
  readonly name: string;
  /** How a message names it, when it is not a field the user declared (default: `field <name>`). */
  readonly label?: string;
}

/**
 * Both formats need field names that are identifiers, distinct even once case and underscores are
 * ignored (protoc's proto3 rule; FlatBuffers generators camel-case names the same way).
 */
export function checkFieldNames(
  format: string,
  owner: string,
  fields: readonly FieldName[],
  refuse: Refuse = throwing(format),
): void {
  const seen = new Map<string, FieldName>();
  for (const field of fields) {
    const label = field.label ?? `field ${field.name}`;
    if (!isIdentifier(field.name)) {
      refuse(
        `${owner}: field name ${JSON.stringify(field.name)} is not an identifier ` +
          "(letters, digits and '_', not starting with a digit); rename the field.",
      );
    }
    const other = seen.get(caseKey(field.name));
    if (other !== undefined) {
      refuse(
        `${owner}: ${other.label ?? `field ${other.name}`} and ${label} differ only in case or ` +
          'underscores, which generated code cannot tell apart; rename one of them.',
      );
    }
    seen.set(caseKey(field.name), field);
  }
}

/**
 * The schema under any optional/nullable wrappers, and whether there were any. Both formats have a
 * single notion of absence, so `optional`, `nullable` and both together are the same to them.
 */
export function unwrapPresence(schema: Schema): { readonly inner: Plain; readonly present: boolean } {
  let node = schema;
  let present = false;
  while (node.kind === 'optional' || node.kind === 'nullable') {
    present = true;
    node = node.inner;
  }
  // A ref resolves to a named type, which is never optional or nullable itself.
  return { inner: deref(node) as Plain, present };
}
