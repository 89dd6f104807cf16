import type { FieldInput, NamedOptions } from '../builders.js';
import * as t from '../builders.js';
import type { JsonValue, MapKeySchema, NamedSchema, Schema } from '../types.js';
import { checkDialect, discriminatorOf, fieldMeta, stringOr } from './annotations.js';
import { isFloatSpelling, isNullOnly, nodeOfType, taggedUnion, untaggedUnion } from './choices.js';
import {
  build,
  childPointer,
  defaultImportLimits,
  type ImportLimits,
  importError,
  isJsonObject,
  type JsonObject,
  NodeBudget,
  refuseUnread,
  resolveLocalRef,
} from './json-document.js';
import { enumKeyedRecord, objectShape } from './object-shape.js';
import {
  annotatedNode,
  checkEnumType,
  count,
  integerOf,
  literalOf,
  mapKeysOf,
  numberOf,
  stringOf,
} from './scalars.js';
import { constChoice, textChoice } from './text-choices.js';
import { arrayItems } from './tuples.js';
import { defName, pascal, typeName, uniqueName } from './type-names.js';
import {
  aliasesOf,
  checkOneofsNot,
  choiceAnnotations,
  enumAnnotations,
  enumNumbers,
  jsonProtoOf,
  objectAnnotations,
  objectOptions,
  onlyOnNamed,
  packedOf,
  splitField,
  withWrapper,
} from './wirekit-annotations.js';

export interface JsonSchemaImportOptions extends Partial<ImportLimits> {
  /** The name of a root object or enum without a `title` (default 'Root'). */
  readonly name?: string;
  /**
   * A JSON pointer to the schema to read, when it is not the document itself: an OpenAPI 3.1
   * document's `#/components/schemas/Order`, say. `$ref`s resolve against the whole document.
   */
  readonly at?: string;
  /**
   * Objects whose `additionalProperties` is absent or true let a value hold keys the schema does not
   * list, which wirekit's `validate()` refuses: 'refuse' (the default) refuses such an object by
   * name; 'close' reads it as closed, so values with other keys become invalid.
   */
  readonly openObjects?: 'refuse' | 'close';
}

/** Reads a JSON Schema document (its text, or the value JSON.parse made of it) as a wirekit schema. */
export function schemaFromJsonSchema(
  document: string | JsonValue,
  options: JsonSchemaImportOptions = {},
): Schema {
  let root: JsonValue;
  if (typeof document === 'string') {
    try {
      root = JSON.parse(document) as JsonValue;
    } catch (error) {
      throw importError('#', `the document is not JSON (${(error as Error).message}).`);
    }
  } else root = document;
  return new JsonSchemaImporter(root, options).read();
}

class JsonSchemaImporter {
  private readonly budget: NodeBudget;
  /** What each converted node became, by pointer, so a `$ref` used twice gives one named type. */
  private readonly done = new Map<string, Schema>();
  /** Nodes being converted: whether each becomes a named type, the only kind recursion may pass. */
  private readonly converting = new Map<string, boolean>();
  private readonly names = new Set<string>();
  /** Pointers a `$ref` has looped back to (t.lazy), which must become named types. */
  private readonly lazyTargets = new Set<string>();

  constructor(
    private readonly root: JsonValue,
    private readonly options: JsonSchemaImportOptions,
  ) {
    this.budget = new NodeBudget({ ...defaultImportLimits, ...definedLimits(options) });
  }

  read(): Schema {
    checkDialect(this.root);
    const at = this.options.at ?? '#';
    const start = at === '#' ? { node: this.root, pointer: '#' } : resolveLocalRef(this.root, at, '#');
    const title =
      isJsonObject(start.node) && typeof start.node.title === 'string' ? start.node.title : undefined;
    return this.convert(
      start.node,
      start.pointer,
      0,
      this.options.name ?? defName(start.pointer) ?? title ?? 'Root',
    );
  }

  /** Converts the node at `pointer` once; `hint` names it if it becomes a named type without a name. */
  private convert(node: JsonValue, pointer: string, depth: number, hint: string): Schema {
    const known = this.done.get(pointer);
    if (known !== undefined) return known;
    this.budget.spend(pointer);
    this.budget.checkDepth(depth, pointer);
    this.converting.set(pointer, becomesNamed(node));
    try {
      const schema = this.convertNode(node, pointer, depth, hint);
      if (this.lazyTargets.has(pointer) && !isNamedKind(schema)) {
        throw importError(
          pointer,
          `a $ref loops back here through no object, enum or tagged union (this node is a ${schema.kind}); wirekit's recursion passes through a named type.`,
        );
      }
      this.done.set(pointer, schema);
      return schema;
    } finally {
      this.converting.delete(pointer);
    }
  }

  private convertNode(node: JsonValue, pointer: string, depth: number, hint: string): Schema {
    if (node === true) return t.json();
    if (node === false)
      throw importError(pointer, 'the schema false accepts no value; wirekit has no such kind.');
    if (!isJsonObject(node)) throw importError(pointer, 'a schema must be an object or a boolean.');
    if ('nullable' in node && this.openapi30) return this.openapiNullable(node, pointer, depth, hint);
    if ('x-wirekit-kind' in node) return annotatedNode(node, pointer);
    const json = jsonProtoOf(node, pointer);
    if (json !== undefined) return json;
    if ('$ref' in node) return this.reference(node, pointer, depth);
    if ('const' in node) return literalOf(node, pointer);
    if ('enum' in node) return this.enumeration(node, pointer, hint);
    if ('anyOf' in node || 'oneOf' in node) return this.choice(node, pointer, depth, hint);
    const type = node.type;
    if (Array.isArray(type)) return this.typeList(node, type, pointer, depth, hint);
    switch (type) {
      case undefined:
        refuseUnread(node, [], pointer, 'applies only to values of one type; add "type" to say which.');
        return t.json();
      case 'boolean':
        refuseUnread(node, ['type'], pointer, 'is not read for booleans.');
        return t.bool();
      case 'integer':
        return integerOf(node, pointer);
      case 'number':
        return numberOf(node, pointer);
      case 'string':
        return stringOf(node, pointer);
      case 'array':
        return this.array(node, pointer, depth, hint);
      case 'object':
        return this.object(node, pointer, depth, hint);
      case 'null':
        throw importError(
          pointer,
          'a schema of only null has no wirekit kind; null goes with another type (nullable).',
        );
      default:
        throw importError(
          childPointer(pointer, 'type'),
          `the type ${JSON.stringify(type)} is not a JSON Schema type.`,
        );
    }
  }

  /** Whether the document is OpenAPI 3.0's, whose schemas say `nullable: true` for [T, "null"]. */
  private get openapi30(): boolean {
    return (
      isJsonObject(this.root) && typeof this.root.openapi === 'string' && /^3\.0\./.test(this.root.openapi)
    );
  }

  private openapiNullable(node: JsonObject, pointer: string, depth: number, hint: string): Schema {
    const { nullable, ...rest } = node;
    if (typeof nullable !== 'boolean')
      throw importError(childPointer(pointer, 'nullable'), 'nullable must be true or false.');
    const inner = this.convertNode(rest, pointer, depth, hint);
    return nullable && inner.kind !== 'nullable' ? t.nullable(inner) : inner;
  }

  private reference(node: JsonObject, pointer: string, depth: number): Schema {
    refuseUnread(node, ['$ref'], pointer, 'next to $ref is not read; move it into the referenced schema.');
    const ref = node.$ref;
    if (typeof ref !== 'string') throw importError(childPointer(pointer, '$ref'), '$ref must be a string.');
    const target = resolveLocalRef(this.root, ref, pointer);
    const named = this.converting.get(target.pointer);
    if (named === false || target.pointer === pointer) {
      throw importError(
        pointer,
        `$ref ${JSON.stringify(ref)} loops back without passing through an object, so no value could end it.`,
      );
    }
    if (named === true) {
      // Recursion: the object is still being built; the reference resolves once it is.
      this.lazyTargets.add(target.pointer);
      return t.lazy(() => this.done.get(target.pointer) as NamedSchema);
    }
    // The hop to the target nests no value, so it adds no depth.
    return this.convert(target.node, target.pointer, depth, defName(target.pointer) ?? 'Type');
  }

  private enumeration(node: JsonObject, pointer: string, hint: string): Schema {
    refuseUnread(node, ['enum', 'type', ...enumAnnotations], pointer, 'is not read next to enum.');
    const values = node.enum;
    if (!Array.isArray(values) || values.length === 0) {
      throw importError(childPointer(pointer, 'enum'), 'enum must be a non-empty array.');
    }
    this.budget.checkEnum(values.length, pointer);
    const members = values.filter((value) => value !== null);
    const nullable = members.length < values.length;
    checkEnumType(node, nullable, pointer);
    // Strings are an enum (or one literal); each other value a literal, all in one untagged union.
    const strings = members.filter((value): value is string => typeof value === 'string');
    const booleans = members.filter((value) => typeof value === 'boolean');
    const rest = members.filter((value) => typeof value !== 'string' && typeof value !== 'boolean');
    const parts: Schema[] = [];
    if (strings.length > 1 || (strings.length === 1 && strings.length === members.length)) {
      const { name, options } = this.nameFor(node, pointer, hint);
      parts.push(build(pointer, () => t.enum(name, strings, { ...options, ...enumNumbers(node, pointer) })));
    } else if (strings.length === 1) parts.push(literalOf({ const: strings[0] as string }, pointer));
    // true and false together are every boolean: a bool, not two literals of one class.
    if (booleans.length === 2) parts.push(t.bool());
    else parts.push(...[...booleans, ...rest].map((value) => literalOf({ const: value }, pointer)));
    const schema = untaggedUnion('enum', parts, childPointer(pointer, 'enum'), nullable);
    const inner = schema.kind === 'nullable' ? schema.inner : schema;
    onlyOnNamed(node, inner.kind === 'enum', pointer, enumAnnotations);
    return schema;
  }

  private choice(node: JsonObject, pointer: string, depth: number, hint: string): Schema {
    // Distinct string consts are an enum; texts told apart only by their look are one string
    // (arktype's string.uuid), not a union.
    const branches = node.anyOf ?? node.oneOf;
    if (Array.isArray(branches)) this.budget.ensure(branches.length, pointer);
    const consts = constChoice(node);
    if (consts !== undefined) return this.enumeration(consts, pointer, hint);
    const text = textChoice(node, pointer);
    if (text !== undefined) return text;
    const keyword = 'anyOf' in node ? 'anyOf' : 'oneOf';
    refuseUnread(node, [keyword, ...choiceAnnotations], pointer, `is not read next to ${keyword}.`);
    const at = childPointer(pointer, keyword);
    if (!Array.isArray(branches) || branches.length === 0)
      throw importError(at, `${keyword} must be a non-empty array.`);
    this.budget.ensure(branches.length, at);
    if (isFloatSpelling(branches)) return t.float64();
    const others = branches.filter((branch) => !isNullOnly(branch));
    if (others.length === 0) throw importError(at, 'a union of only null has no wirekit kind.');
    const title = typeof node.title === 'string' ? node.title : hint;
    const schemas = others.map((branch) =>
      this.convert(
        branch,
        childPointer(at, branches.indexOf(branch)),
        depth + 1,
        others.length === 1 ? hint : `${title}${branches.indexOf(branch) + 1}`,
      ),
    );
    const tag = discriminatorOf(node, pointer);
    const tagged =
      schemas.length > 1 ? taggedUnion(this.nameFor(node, pointer, hint), schemas, at, tag) : undefined;
    if (tagged === undefined && tag !== undefined) {
      throw importError(
        childPointer(pointer, 'discriminator'),
        'a discriminator needs branches that are all objects with that property as a string const.',
      );
    }
    const hasNull = others.length < branches.length;
    onlyOnNamed(node, tagged !== undefined, pointer, ['x-wirekit-aliases']);
    if (tagged === undefined) return withWrapper(node, untaggedUnion(keyword, schemas, at, hasNull), pointer);
    return withWrapper(node, hasNull ? t.nullable(tagged) : tagged, pointer);
  }

  private typeList(
    node: JsonObject,
    types: readonly JsonValue[],
    pointer: string,
    depth: number,
    hint: string,
  ): Schema {
    const at = childPointer(pointer, 'type');
    if (types.length === 0 || !types.every((type): type is string => typeof type === 'string')) {
      throw importError(at, 'a list of types must hold type names.');
    }
    if (new Set(types).size !== types.length) throw importError(at, 'the list of types repeats one.');
    const others = types.filter((type) => type !== 'null');
    if (others.length === 0) throw importError(at, 'a schema of only null has no wirekit kind.');
    // Each type read alone, with its own keywords, at the node's pointer: a keyword fault is reported there.
    const schemas = others.map((type) =>
      this.convertNode(nodeOfType(node, type, others, pointer), pointer, depth, hint),
    );
    return untaggedUnion('type', schemas, at, others.length < types.length);
  }

  private array(node: JsonObject, pointer: string, depth: number, hint: string): Schema {
    refuseUnread(
      node,
      [
        'type',
        'items',
        'prefixItems',
        'additionalItems',
        'minItems',
        'maxItems',
        'uniqueItems',
        'x-wirekit-packed',
      ],
      pointer,
      'is not read for arrays.',
    );
    if (node.uniqueItems === true) {
      throw importError(
        childPointer(pointer, 'uniqueItems'),
        'uniqueItems: true has no wirekit counterpart (validate() does not compare items).',
      );
    }
    // A tuple reads as an array where its positions all hold one schema (tuples.ts).
    const items = arrayItems(node, this.root, pointer);
    const schema =
      items.node === undefined ? t.json() : this.convert(items.node, items.pointer, depth + 1, `${hint}Item`);
    const most = count(node, 'maxItems', pointer);
    return build(pointer, () =>
      t.array(schema, {
        minItems: count(node, 'minItems', pointer),
        maxItems: items.maxItems === undefined ? most : Math.min(items.maxItems, most ?? items.maxItems),
        ...packedOf(node, pointer),
      }),
    );
  }

  private object(given: JsonObject, pointer: string, depth: number, hint: string): Schema {
    const node = enumKeyedRecord(given) ?? given;
    const shape = objectShape(node, pointer, this.options.openObjects ?? 'refuse');
    if (shape === 'map') {
      onlyOnNamed(node, false, pointer, objectAnnotations(node));
      return this.map(node, pointer, depth, hint);
    }
    const { properties, required, names } = shape;
    this.budget.ensure(names.length, childPointer(pointer, 'properties'));
    const named = this.nameFor(node, pointer, hint);
    const fields: Record<string, FieldInput> = {};
    for (const name of names) {
      const at = childPointer(pointer, 'properties', name);
      const given = properties[name] as JsonValue;
      // A field's own annotations sit beside its value's keywords; the value is read without them.
      const { meta, rest: property } = isJsonObject(given)
        ? splitField(given, at)
        : { meta: {}, rest: given };
      const inner = this.convert(property, at, depth + 1, `${named.name}${pascal(name)}`);
      const schema = required.includes(name) ? inner : t.optional(inner);
      fields[name] = t.field(schema, {
        ...(isJsonObject(property) ? fieldMeta(property, schema, at) : {}),
        ...meta,
      });
    }
    const built = build(pointer, () =>
      t.object(named.name, fields, { ...named.options, ...objectOptions(node, pointer) }),
    );
    checkOneofsNot(node, built, pointer);
    return built;
  }

  private map(node: JsonObject, pointer: string, depth: number, hint: string): Schema {
    const rest = node.additionalProperties;
    const values =
      rest === undefined || rest === true
        ? t.json()
        : this.convert(rest, childPointer(pointer, 'additionalProperties'), depth + 1, `${hint}Value`);
    const names = node.propertyNames;
    let keys: MapKeySchema = t.string();
    if (names !== undefined) {
      const at = childPointer(pointer, 'propertyNames');
      if (!isJsonObject(names)) throw importError(at, 'propertyNames must be a schema object.');
      const text = mapKeysOf(names, at) ?? stringOf({ type: 'string', ...names }, at);
      if (text.kind === 'timestamp') throw importError(at, 'map keys must be plain strings (no format).');
      keys = text as MapKeySchema;
    }
    return build(pointer, () => t.map(keys, values));
  }

  /**
   * The name, namespace and doc of the named type a node becomes. A dotted `$defs` key is a full name
   * (the exporter writes `ns.Name`); a title or a hint is one name.
   */
  private nameFor(node: JsonObject, pointer: string, hint: string): { name: string; options: NamedOptions } {
    const key = defName(pointer);
    const dot = key?.lastIndexOf('.') ?? -1;
    const namespace =
      key !== undefined && dot > 0 ? key.slice(0, dot).split('.').map(typeName).join('.') : undefined;
    const given = key?.slice(dot + 1) ?? (typeof node.title === 'string' ? node.title : hint);
    const prefix = namespace === undefined ? '' : `${namespace}.`;
    const full = uniqueName(`${prefix}${typeName(given)}`, this.names);
    const doc = stringOr(node.description);
    return {
      name: full.slice(prefix.length),
      options: {
        ...(namespace === undefined ? {} : { namespace }),
        ...(doc === undefined ? {} : { doc }),
        ...aliasesOf(node, pointer),
      },
    };
  }
}

function definedLimits(options: JsonSchemaImportOptions): Partial<ImportLimits> {
  const out: { -readonly [K in keyof ImportLimits]?: number } = {};
  if (options.maxDepth !== undefined) out.maxDepth = options.maxDepth;
  if (options.maxNodes !== undefined) out.maxNodes = options.maxNodes;
  if (options.maxEnumMembers !== undefined) out.maxEnumMembers = options.maxEnumMembers;
  return out;
}

function isNamedKind(schema: Schema): boolean {
  return schema.kind === 'object' || schema.kind === 'enum' || schema.kind === 'union';
}

/** Whether a node will become an object, enum or union: the named types a recursion may pass. */
function becomesNamed(node: JsonValue): boolean {
  if (!isJsonObject(node)) return false;
  if (node.type === 'object') return isJsonObject(node.properties) || node.additionalProperties === false;
  return 'oneOf' in node || 'anyOf' in node;
}
