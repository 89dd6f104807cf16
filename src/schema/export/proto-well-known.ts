/**
 * Which of a schema's types are protobuf's own well-known types (google.protobuf.Duration, Any,
 * Empty, FieldMask, Type...), so that `toProto` imports their file and names them, rather than
 * declaring a second google.protobuf.Duration in a file of another package, which protoc could not
 * compile beside the real one. schemaFromProto imports such a type as the message itself; a type is
 * taken for the well-known one only when it has its full name and its very shape (every field's
 * name, number, label and proto type, each enum's values and numbers, the oneofs), so that the
 * bytes the codec writes for it are the well-known message's. A type that has the name but not the
 * shape is refused by name: printing it would declare the well-known type again, differently.
 */
import type { ProtoEnumAst, ProtoFieldAst, ProtoMessageAst } from '../proto/ast.js';
import { parseProto, wellKnownProtoFiles } from '../proto/index.js';
import type { FieldDef, NamedSchema, Schema } from '../types.js';
import { deref, fullName } from '../walk.js';
import type { Plain, Refuse } from './plan.js';

/** A well-known message or enum, by its full name: the file that declares it and its declaration. */
interface WellKnown {
  readonly file: string;
  readonly scope: string;
  readonly declared: ProtoMessageAst | ProtoEnumAst;
}

let declarations: ReadonlyMap<string, WellKnown> | undefined;

/** Every declaration of the well-known files wirekit carries (schema/proto/well-known.ts), by full name. */
function wellKnownDeclarations(): ReadonlyMap<string, WellKnown> {
  if (declarations !== undefined) return declarations;
  const found = new Map<string, WellKnown>();
  const add = (
    file: string,
    scope: string,
    messages: readonly ProtoMessageAst[],
    enums: readonly ProtoEnumAst[],
  ) => {
    for (const declared of enums) found.set(`${scope}.${declared.name}`, { file, scope, declared });
    for (const declared of messages) {
      const name = `${scope}.${declared.name}`;
      found.set(name, { file, scope, declared });
      add(file, name, declared.messages, declared.enums);
    }
  };
  for (const [file, text] of wellKnownProtoFiles) {
    const ast = parseProto(text);
    add(file, ast.package, ast.messages, ast.enums);
  }
  declarations = found;
  return found;
}

/** The package the well-known types are declared in. */
const wellKnownPackage = 'google.protobuf';

/**
 * The proto scalar a plain leaf is declared as (`int32`, `sint64`, `string`...), or undefined for
 * what is not a scalar; proto-layout.ts's rule, passed in so that this module stays below it.
 */
export type ScalarOf = (node: Plain) => string | undefined;

/**
 * The types of `types` that are well-known types, each with the file that declares them. `home` is
 * the package of the file being printed: in google.protobuf itself the types are declared, as they
 * are in the well-known files. A type with a well-known name but another shape is refused.
 */
export function wellKnownTypes(
  types: readonly NamedSchema[],
  home: string | undefined,
  scalarOf: ScalarOf,
  refuse: Refuse,
): Map<NamedSchema, string> {
  const found = new Map<NamedSchema, string>();
  if (home === wellKnownPackage || home?.startsWith(`${wellKnownPackage}.`)) return found;
  for (const type of types) {
    const name = fullName(type);
    if (!name.startsWith(`${wellKnownPackage}.`)) continue;
    const known = wellKnownDeclarations().get(name);
    if (known === undefined) continue;
    const difference = differenceFrom(type, known, scalarOf);
    if (difference === undefined) {
      found.set(type, known.file);
    } else {
      refuse(
        `type ${name} has the name of a well-known type (${known.file}) but not its shape: ${difference}. ` +
          'Printed, it would declare a second, different google.protobuf type: give the type its ' +
          `well-known fields (schemaFromProto imports ${name} so), or another namespace.`,
      );
    }
  }
  return found;
}

/** How `type` differs from the well-known declaration, or undefined when it has its shape. */
function differenceFrom(type: NamedSchema, known: WellKnown, scalarOf: ScalarOf): string | undefined {
  const { declared } = known;
  if ('values' in declared) {
    if (type.kind !== 'enum') return `it is a ${type.kind}, not an enum`;
    const expected = declared.values.map((value) => `${value.name} = ${value.number}`).join(', ');
    const actual = type.members.map((member, i) => `${member} = ${type.numbers?.[i] ?? i}`).join(', ');
    return expected === actual ? undefined : `its values are ${actual}, not ${expected}`;
  }
  if (type.kind !== 'object') return `it is a ${type.kind}, not a message`;
  const scope = `${known.scope}.${declared.name}`;
  const stored = type.fields.filter((def) => def.schema.kind !== 'literal');
  const expected = declared.fields.map((field) => `${field.name} = ${field.number}`).join(', ');
  const actual = stored.map((def) => `${def.name} = ${def.id}`).join(', ');
  if (expected !== actual) return `its fields are ${actual || 'none'}, not ${expected || 'none'}`;
  for (const [index, field] of declared.fields.entries()) {
    const def = stored[index] as FieldDef;
    const inOneof = field.oneof !== undefined;
    const wanted = shapeOf(field, scope, inOneof);
    const has = shapeOfDef(def, scalarOf);
    if (wanted !== has) return `field ${def.name} is ${has}, where the well-known type has ${wanted}`;
  }
  const groups = (type.oneofs ?? []).map((group) => `${group.name}(${group.fields.join(' ')})`).join(', ');
  const oneofs = declared.oneofs
    .map((oneof, index) => {
      const members = declared.fields.filter((field) => field.oneof === index).map((field) => field.name);
      return `${oneof.name}(${members.join(' ')})`;
    })
    .join(', ');
  return groups === oneofs ? undefined : `its oneofs are ${groups || 'none'}, not ${oneofs || 'none'}`;
}

/**
 * A well-known field as `shapeOfDef` describes a schema field: the label (a message field and a
 * oneof member always have presence, `optional`) and the type, a scalar or a full name.
 */
function shapeOf(field: ProtoFieldAst, scope: string, inOneof: boolean): string {
  const { type } = field;
  switch (type.kind) {
    case 'scalar':
      return `${field.label === 'repeated' ? 'repeated' : inOneof ? 'optional' : 'implicit'} ${type.scalar}`;
    case 'named': {
      const name = resolve(type.name, scope);
      const isMessage = !('values' in (wellKnownDeclarations().get(name)?.declared ?? { values: 0 }));
      const label = field.label === 'repeated' ? 'repeated' : isMessage || inOneof ? 'optional' : 'implicit';
      return `${label} ${name}`;
    }
    case 'map': {
      const value = type.value.kind === 'scalar' ? type.value.scalar : resolve(type.value.name, scope);
      return `map<${type.key}, ${value}>`;
    }
    default:
      return 'a group';
  }
}

/** A schema field's label and proto type, in the words of `shapeOf`. */
function shapeOfDef(def: FieldDef, scalarOf: ScalarOf): string {
  if (def.presence === 'explicit') return 'required';
  const optional = def.schema.kind === 'optional';
  const node = deref(optional ? (def.schema as { inner: Schema }).inner : def.schema);
  if (node.kind === 'array') {
    const items = deref(node.items) as Plain;
    return optional || node.packed === false ? 'an unusual list' : `repeated ${typeOf(items, scalarOf)}`;
  }
  if (node.kind === 'map') {
    const key = typeOf(deref(node.keys) as Plain, scalarOf);
    return optional ? 'an optional map' : `map<${key}, ${typeOf(deref(node.values) as Plain, scalarOf)}>`;
  }
  return `${optional ? 'optional' : 'implicit'} ${typeOf(node as Plain, scalarOf)}`;
}

function typeOf(node: Plain, scalarOf: ScalarOf): string {
  if (node.kind === 'object' || node.kind === 'enum') return fullName(node);
  return scalarOf(node) ?? `a ${node.kind}`;
}

/** A type name as a well-known file writes it, resolved from its scope outward, as protoc does. */
function resolve(name: string, scope: string): string {
  if (name.startsWith('.')) return name.slice(1);
  const known = wellKnownDeclarations();
  for (let outer = scope; outer !== ''; outer = outer.slice(0, Math.max(outer.lastIndexOf('.'), 0))) {
    if (known.has(`${outer}.${name}`)) return `${outer}.${name}`;
  }
  return name;
}
