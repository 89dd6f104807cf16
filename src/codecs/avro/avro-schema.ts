/**
 * A reader of Avro schemas in their JSON form (Avro 1.11 spec, "Schema Declaration"), into a small
 * internal form the codec plans from: the writer side of schema resolution, whether the JSON comes
 * from wirekit's own export, an .avsc file, or an Object Container File header written by another
 * implementation. Names are resolved to full names; recursion becomes a cycle in the graph.
 */

import { previewValue } from '../../errors/describe-value.js';
import { WirekitError } from '../../errors/index.js';
import type { JsonValue } from '../../schema/index.js';

export type AvroPrimitiveName = 'null' | 'boolean' | 'int' | 'long' | 'float' | 'double' | 'bytes' | 'string';

/** Logical types the codec understands; others are dropped, as the spec asks of readers. */
export interface AvroLogical {
  readonly logicalType?: string;
  readonly precision?: number;
  readonly scale?: number;
}

export interface AvroPrimitive extends AvroLogical {
  readonly type: AvroPrimitiveName;
}

export interface AvroNamed {
  /** The full name (namespace.name). */
  readonly name: string;
  /** Full names too. */
  readonly aliases: readonly string[];
}

export interface AvroField {
  readonly name: string;
  readonly aliases: readonly string[];
  readonly type: AvroType;
  /**
   * The field's default as written (JSON), kept for the registry's compatibility rules; `null` is a
   * default too, so absence is `hasDefault: false`. The codec reads defaults from the reader's
   * wirekit schema instead, and does not look at these.
   */
  readonly hasDefault?: boolean;
  readonly default?: JsonValue;
}

export interface AvroRecord extends AvroNamed {
  readonly type: 'record';
  /** Filled after the record is registered, so that fields can refer to it. */
  readonly fields: AvroField[];
}

export interface AvroEnum extends AvroNamed {
  readonly type: 'enum';
  readonly symbols: readonly string[];
  /** The symbol a reader takes for a writer's symbol it does not know (Avro 1.9+), as written. */
  readonly default?: string;
}

export interface AvroFixed extends AvroNamed, AvroLogical {
  readonly type: 'fixed';
  readonly size: number;
}

export interface AvroArray {
  readonly type: 'array';
  readonly items: AvroType;
}

export interface AvroMap {
  readonly type: 'map';
  readonly values: AvroType;
}

export interface AvroUnion {
  readonly type: 'union';
  readonly branches: readonly AvroType[];
}

export type AvroType = AvroPrimitive | AvroRecord | AvroEnum | AvroFixed | AvroArray | AvroMap | AvroUnion;

/** Avro's primitive type names. */
export const primitives: ReadonlySet<string> = new Set([
  'null',
  'boolean',
  'int',
  'long',
  'float',
  'double',
  'bytes',
  'string',
]);

const nameRule = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Far beyond any real schema; keeps a hostile header from exhausting the stack. */
export const maxSchemaDepth = 500;

interface Context {
  readonly named: Map<string, AvroRecord | AvroEnum | AvroFixed>;
}

/** Named types already defined, by full name: what a schema may refer to without defining it. */
export type AvroNamedTypes = Map<string, AvroRecord | AvroEnum | AvroFixed>;

/**
 * Parses an Avro schema (JSON text or its parsed value). Throws WK_SCHEMA_INVALID naming the
 * problem; callers reading untrusted headers rewrap that as a decode error. `named` holds types
 * defined elsewhere (a schema registry's references, parsed first into the same map), and gets
 * this schema's named types added.
 */
export function parseAvroSchema(input: JsonValue | string, named: AvroNamedTypes = new Map()): AvroType {
  let json: unknown = input;
  if (typeof input === 'string' && !primitives.has(input)) {
    try {
      json = JSON.parse(input);
    } catch (cause) {
      throw new WirekitError('WK_SCHEMA_INVALID', 'the schema text is not JSON.', { format: 'avro', cause });
    }
  }
  return parse(json, '', { named }, 0);
}

function invalid(message: string): never {
  throw new WirekitError('WK_SCHEMA_INVALID', message, { format: 'avro', path: [] });
}

/**
 * Runs `read` on the part of the schema under `key`, putting `key` in front of the path of what it
 * refuses, so the error says where in the schema it is (fields[2].type). The message stays as it is:
 * the registry quotes it, and an importer shows the path its own way.
 */
function within<T>(key: string | number, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof WirekitError) || error.path === undefined) throw error;
    throw new WirekitError(error.code, error.message, {
      format: 'avro',
      path: [key, ...error.path],
      cause: error.cause,
    });
  }
}

function parse(json: unknown, namespace: string, ctx: Context, depth: number): AvroType {
  if (depth > maxSchemaDepth) invalid(`nests deeper than ${maxSchemaDepth} levels.`);
  if (typeof json === 'string') return reference(json, namespace, ctx);
  if (Array.isArray(json)) {
    const branches = json.map((branch, i) => within(i, () => parse(branch, namespace, ctx, depth + 1)));
    if (branches.some((branch) => branch.type === 'union')) invalid('a union directly inside a union.');
    return { type: 'union', branches };
  }
  if (typeof json !== 'object' || json === null) invalid(`${show(json)} is not a schema.`);
  const spec = json as Record<string, unknown>;
  const type = spec.type;
  if (typeof type !== 'string') {
    // Some writers nest a whole schema under "type"; its attributes then belong to the inner one.
    if (typeof type === 'object' && type !== null)
      return within('type', () => parse(type, namespace, ctx, depth + 1));
    invalid(`${show(json)} has no type.`);
  }
  switch (type) {
    case 'record':
    case 'error':
      return record(spec, namespace, ctx, depth);
    case 'enum': {
      const { name, aliases } = defineName(spec, namespace);
      const symbols = spec.symbols;
      if (!Array.isArray(symbols) || !symbols.every((s) => typeof s === 'string' && nameRule.test(s))) {
        invalid(`enum ${name} needs "symbols", a list of names.`);
      }
      if (new Set(symbols).size !== symbols.length) invalid(`enum ${name} repeats a symbol.`);
      const node: AvroEnum = { type: 'enum', name, aliases, symbols: symbols as string[] };
      // Kept only when it is a string: whether it names a symbol is the registry's check to make.
      return register(typeof spec.default === 'string' ? { ...node, default: spec.default } : node, ctx);
    }
    case 'fixed': {
      const { name, aliases } = defineName(spec, namespace);
      const size = spec.size;
      if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) {
        invalid(`fixed ${name} needs a non-negative integer "size".`);
      }
      return register({ type: 'fixed', name, aliases, size, ...logical(spec, 'bytes') }, ctx);
    }
    case 'array':
      if (!('items' in spec)) invalid('an array needs "items".');
      return { type: 'array', items: within('items', () => parse(spec.items, namespace, ctx, depth + 1)) };
    case 'map':
      if (!('values' in spec)) invalid('a map needs "values".');
      return { type: 'map', values: within('values', () => parse(spec.values, namespace, ctx, depth + 1)) };
    default:
      if (primitives.has(type)) return { type: type as AvroPrimitiveName, ...logical(spec, type) };
      // {"type": "SomeName"} refers to a named type like the bare string does.
      return reference(type, namespace, ctx);
  }
}

function record(spec: Record<string, unknown>, namespace: string, ctx: Context, depth: number): AvroRecord {
  const { name, aliases } = defineName(spec, namespace);
  const node: AvroRecord = register({ type: 'record', name, aliases, fields: [] }, ctx);
  if (!Array.isArray(spec.fields)) invalid(`record ${name} needs "fields", a list.`);
  const inner = namespaceOf(name);
  const seen = new Set<string>();
  for (const [i, field] of (spec.fields as unknown[]).entries()) {
    within('fields', () => within(i, () => addField(node, field, { inner, seen, ctx, depth })));
  }
  return node;
}

interface FieldContext {
  /** The namespace names in the field's type resolve against: the record's. */
  readonly inner: string;
  readonly seen: Set<string>;
  readonly ctx: Context;
  readonly depth: number;
}

function addField(node: AvroRecord, field: unknown, { inner, seen, ctx, depth }: FieldContext): void {
  const name = node.name;
  if (typeof field !== 'object' || field === null)
    invalid(`record ${name} has a field that is not an object.`);
  const f = field as Record<string, unknown>;
  if (typeof f.name !== 'string' || !nameRule.test(f.name)) {
    invalid(`record ${name} has a field without a valid name.`);
  }
  if (seen.has(f.name)) invalid(`record ${name} has two fields named ${f.name}.`);
  seen.add(f.name);
  if (!('type' in f)) invalid(`field ${name}.${f.name} has no type.`);
  const fieldAliases = f.aliases ?? [];
  if (!Array.isArray(fieldAliases) || !fieldAliases.every((a) => typeof a === 'string')) {
    invalid(`field ${name}.${f.name} has aliases that are not a list of names.`);
  }
  const hasDefault = Object.hasOwn(f, 'default');
  node.fields.push({
    name: f.name,
    aliases: fieldAliases as string[],
    type: within('type', () => parse(f.type, inner, ctx, depth + 1)),
    hasDefault,
    ...(hasDefault ? { default: f.default as JsonValue } : {}),
  });
}

function defineName(spec: Record<string, unknown>, enclosing: string): { name: string; aliases: string[] } {
  const name = spec.name;
  if (typeof name !== 'string') invalid(`a ${String(spec.type)} needs a "name".`);
  let namespace = enclosing;
  if (typeof spec.namespace === 'string') namespace = spec.namespace;
  else if (spec.namespace !== undefined && spec.namespace !== null)
    invalid(`${name}: "namespace" must be a string.`);
  const full = qualify(name, namespace);
  checkFullName(full);
  const aliases = spec.aliases ?? [];
  if (!Array.isArray(aliases) || !aliases.every((a) => typeof a === 'string')) {
    invalid(`${full}: "aliases" must be a list of names.`);
  }
  const ownNamespace = namespaceOf(full);
  return { name: full, aliases: (aliases as string[]).map((alias) => qualify(alias, ownNamespace)) };
}

function register<T extends AvroRecord | AvroEnum | AvroFixed>(node: T, ctx: Context): T {
  // Only a name without namespace is a primitive's: "ns.int" is a name like any other (Avro 1.11).
  if (primitives.has(node.name)) invalid(`${node.name} redefines a primitive type.`);
  if (ctx.named.has(node.name)) invalid(`${node.name} is defined twice.`);
  ctx.named.set(node.name, node);
  return node;
}

function reference(name: string, namespace: string, ctx: Context): AvroType {
  if (primitives.has(name)) return { type: name as AvroPrimitiveName };
  const found = ctx.named.get(qualify(name, namespace)) ?? ctx.named.get(name);
  if (found === undefined) invalid(`${show(name)} names no type defined before it.`);
  return found;
}

function logical(spec: Record<string, unknown>, base: string): AvroLogical {
  const logicalType = spec.logicalType;
  if (typeof logicalType !== 'string') return {};
  if (logicalType === 'decimal' && (base === 'bytes' || base === 'fixed')) {
    const { precision, scale = 0 } = spec as { precision?: unknown; scale?: unknown };
    const valid =
      typeof precision === 'number' &&
      Number.isSafeInteger(precision) &&
      precision > 0 &&
      typeof scale === 'number' &&
      Number.isSafeInteger(scale) &&
      scale >= 0 &&
      scale <= precision;
    // An invalid logical type is ignored, and the underlying type read as it is (spec).
    return valid ? { logicalType, precision, scale } : {};
  }
  return { logicalType };
}

function qualify(name: string, namespace: string): string {
  return name.includes('.') || namespace === '' ? name : `${namespace}.${name}`;
}

export function shortName(fullName: string): string {
  return fullName.slice(fullName.lastIndexOf('.') + 1);
}

function namespaceOf(fullName: string): string {
  const dot = fullName.lastIndexOf('.');
  return dot === -1 ? '' : fullName.slice(0, dot);
}

function checkFullName(full: string): void {
  if (!full.split('.').every((part) => nameRule.test(part))) invalid(`${show(full)} is not a valid name.`);
}

/** A schema's part in a message, bounded: the schema may come from the input (a container's header). */
function show(value: unknown): string {
  return previewValue(value);
}
