/**
 * An Avro schema with the named types it takes from its references written in, as Confluent's
 * registry answers `?format=resolved`: a reader gets one self-contained schema and needs no second
 * fetch. Each referenced type is written where the schema first names it (Avro defines a name at
 * its first use, in document order) with its namespace spelled out, and by name after that; names
 * the schema defines itself, and names no reference defines, stay as written.
 *
 * Works on the JSON, not on the parsed schema, so docs, defaults, aliases and logical types come
 * through as registered. The schema and its references were checked when they were registered.
 */
import { parseSchemaJson, type SchemaLimits } from './schema-text.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const primitives = new Set(['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string']);
const namedKinds = new Set(['record', 'error', 'enum', 'fixed']);

const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const namespaceOf = (fullName: string) => fullName.slice(0, Math.max(0, fullName.lastIndexOf('.')));

/** The full name a definition declares, inside the namespace `enclosing`. */
function declaredName(definition: JsonObject, enclosing: string): string | undefined {
  const { name, namespace } = definition;
  if (typeof name !== 'string') return undefined;
  if (name.includes('.')) return name;
  const space = typeof namespace === 'string' ? namespace : enclosing;
  return space === '' ? name : `${space}.${name}`;
}

/** The full names a type name may stand for inside `enclosing`, the likelier first. */
function candidates(name: string, enclosing: string): string[] {
  if (name.includes('.') || enclosing === '') return [name];
  return [`${enclosing}.${name}`, name];
}

/** Every named type a schema defines, by full name, with the namespace it is defined in. */
function collectNamed(node: Json | undefined, enclosing: string, into: Map<string, JsonObject>): void {
  if (Array.isArray(node)) {
    for (const branch of node) collectNamed(branch, enclosing, into);
    return;
  }
  if (!isObject(node)) return;
  const { type } = node;
  if (typeof type === 'string' && namedKinds.has(type)) {
    const fullName = declaredName(node, enclosing);
    if (fullName === undefined) return;
    if (!into.has(fullName)) into.set(fullName, node);
    const fields = Array.isArray(node.fields) ? node.fields : [];
    for (const field of fields) if (isObject(field)) collectNamed(field.type, namespaceOf(fullName), into);
    return;
  }
  if (type === 'array') collectNamed(node.items, enclosing, into);
  else if (type === 'map') collectNamed(node.values, enclosing, into);
  else collectNamed(type, enclosing, into);
}

class Inliner {
  private readonly written = new Set<string>();
  constructor(private readonly library: ReadonlyMap<string, JsonObject>) {}

  type(node: Json, enclosing: string): Json {
    if (typeof node === 'string') return this.named(node, enclosing);
    if (Array.isArray(node)) return node.map((branch) => this.type(branch, enclosing));
    if (!isObject(node)) return node;
    const { type } = node;
    if (typeof type === 'string' && namedKinds.has(type)) return this.definition(node, enclosing);
    if (type === 'array' && node.items !== undefined) {
      return { ...node, items: this.type(node.items, enclosing) };
    }
    if (type === 'map' && node.values !== undefined) {
      return { ...node, values: this.type(node.values, enclosing) };
    }
    if (type !== undefined) return { ...node, type: this.type(type, enclosing) };
    return node;
  }

  /** A type named by a string: written out at its first use if a reference defines it. */
  private named(name: string, enclosing: string): Json {
    if (primitives.has(name)) return name;
    for (const fullName of candidates(name, enclosing)) {
      if (this.written.has(fullName)) return name;
      const definition = this.library.get(fullName);
      if (definition === undefined) continue;
      // Its namespace made explicit: here it sits inside the schema's, not its own file's.
      const { name: _name, namespace: _namespace, ...rest } = definition;
      const shortName = fullName.slice(fullName.lastIndexOf('.') + 1);
      return this.definition(
        { type: definition.type ?? null, name: shortName, namespace: namespaceOf(fullName), ...rest },
        enclosing,
      );
    }
    return name;
  }

  private definition(definition: JsonObject, enclosing: string): Json {
    const fullName = declaredName(definition, enclosing);
    if (fullName === undefined) return definition;
    this.written.add(fullName);
    if (!Array.isArray(definition.fields)) return definition;
    const inner = namespaceOf(fullName);
    const fields = definition.fields.map((field) =>
      isObject(field) && field.type !== undefined ? { ...field, type: this.type(field.type, inner) } : field,
    );
    return { ...definition, fields };
  }
}

/** The schema text with its references' named types written in (Avro's JSON, no whitespace). */
export function resolvedAvroText(
  text: string,
  referenced: readonly string[],
  limits: Required<SchemaLimits>,
): string {
  const library = new Map<string, JsonObject>();
  for (const other of referenced)
    collectNamed(parseSchemaJson(other, 'Avro', limits).json as Json, '', library);
  const root = parseSchemaJson(text, 'Avro', limits).json as Json;
  return JSON.stringify(new Inliner(library).type(root, ''));
}
