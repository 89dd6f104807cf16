/**
 * What `anyOf`, `oneOf` and a list of types mean in wirekit: a nullable (one branch and null), the
 * exporter's float spelling, a tagged union of objects (a string const tells them apart), or else
 * an untagged union (`t.either`), whose branches the value's class tells apart (either.ts).
 */

import { isWirekitError } from '../../errors/index.js';
import type { NamedOptions } from '../builders.js';
import * as t from '../builders.js';
import { isSmallInt } from '../int-ranges.js';
import type { JsonValue, ObjectSchema, Schema } from '../types.js';
import { build, childPointer, importError, isJsonObject } from './json-document.js';

/** `{type: "null"}` (annotations aside): the branch nullable reads. */
export function isNullOnly(branch: JsonValue): boolean {
  return (
    isJsonObject(branch) &&
    branch.type === 'null' &&
    Object.keys(branch).every((key) => key === 'type' || key === 'description' || key === 'title')
  );
}

/** The exporter's float: a number, or one of the strings JSON spells NaN and the infinities with. */
export function isFloatSpelling(branches: readonly JsonValue[]): boolean {
  const [number, named] = branches;
  return (
    branches.length === 2 &&
    isJsonObject(number) &&
    Object.keys(number).length === 1 &&
    number.type === 'number' &&
    isJsonObject(named) &&
    Object.keys(named).length === 1 &&
    JSON.stringify(named.enum) === JSON.stringify(['NaN', 'Infinity', '-Infinity'])
  );
}

/**
 * Objects told apart by one required property of a distinct string const in each: a tagged union,
 * or undefined where the branches are not such objects. With distinct tags at most one branch
 * matches, so anyOf and oneOf mean the same here. `tag` is OpenAPI's discriminator.propertyName,
 * which must then be that property.
 */
export function taggedUnion(
  { name, options }: { name: string; options: NamedOptions },
  variants: readonly Schema[],
  at: string,
  tag?: string,
): Schema | undefined {
  const objects = variants.map((variant) => (variant.kind === 'ref' ? variant.resolve() : variant));
  if (!objects.every((variant): variant is ObjectSchema => variant.kind === 'object')) return undefined;
  const tagged = (field: string) =>
    objects.every((variant) => {
      const same = variant.fields.find((candidate) => candidate.name === field);
      return same?.schema.kind === 'literal' && typeof same.schema.value === 'string';
    });
  const first = objects[0] as ObjectSchema;
  const found = tag ?? first.fields.find((field) => tagged(field.name))?.name;
  if (found === undefined) return undefined;
  if (!tagged(found)) {
    throw importError(
      at,
      `the discriminator ${JSON.stringify(found)} is not a required property of a string const in every branch, which JSON Schema would need to tell them apart.`,
    );
  }
  return build(at, () => t.union(name, found, objects, options));
}

/**
 * An untagged union of `branches` (read at `at`, under `keyword`): a nullable branch makes the whole
 * nullable, an either among them has its branches listed in this one, and branch sets that some
 * value could match twice are refused, naming the keyword and the branches (either.ts's rule).
 * oneOf refuses a value two branches match where anyOf takes it, so an integer branch beside a
 * number branch is refused under oneOf whatever either.ts allows: 3 matches both.
 */
export function untaggedUnion(
  keyword: string,
  branches: readonly Schema[],
  at: string,
  hasNull: boolean,
): Schema {
  let nullable = hasNull;
  const flat: Schema[] = [];
  for (const branch of branches) {
    let inner = branch;
    if (inner.kind === 'nullable') {
      nullable = true;
      inner = inner.inner;
    }
    if (inner.kind === 'either') flat.push(...inner.branches);
    else flat.push(inner);
  }
  const integer = flat.find(
    (branch) => isSmallInt(branch) || branch.kind === 'int64' || branch.kind === 'uint64',
  );
  const float = flat.find((branch) => branch.kind === 'float32' || branch.kind === 'float64');
  if (keyword === 'oneOf' && integer !== undefined && float !== undefined) {
    throw importError(
      at,
      `oneOf: an ${integer.kind} branch beside a ${float.kind} branch: an integer matches both, which oneOf refuses and a wirekit union does not; write anyOf, or keep one of them.`,
    );
  }
  const schema = flat.length === 1 ? (flat[0] as Schema) : eitherOf(keyword, flat, at);
  return nullable && schema.kind !== 'nullable' ? t.nullable(schema) : schema;
}

function eitherOf(keyword: string, branches: Schema[], at: string): Schema {
  try {
    return t.either(branches);
  } catch (error) {
    if (!isWirekitError(error, 'WK_SCHEMA_INVALID')) throw error;
    const kinds = branches.map((branch) => (branch.kind === 'ref' ? branch.resolve().name : branch.kind));
    throw importError(
      at,
      `${keyword}: the branches ${kinds.join(', ')} form no untagged union: ${error.message}`,
    );
  }
}

/** The keywords each JSON type reads, for giving each type of a list its own (`type: [...]`). */
const keywordsOfType: Readonly<Record<string, readonly string[]>> = {
  integer: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  string: ['minLength', 'maxLength', 'pattern', 'contentEncoding'],
  array: ['items', 'prefixItems', 'minItems', 'maxItems', 'uniqueItems', 'contains'],
  object: [
    'properties',
    'required',
    'additionalProperties',
    'propertyNames',
    'patternProperties',
    'minProperties',
    'maxProperties',
  ],
  boolean: [],
};

/**
 * The node of one type of a list (`{"type": ["string", "integer"], "maxLength": 3}`): the type and
 * the keywords that apply to it (JSON Schema applies `maxLength` to strings only), annotations and
 * unknown keywords kept so that the type's reader refuses those by name. `format` goes to the
 * string type where the list has one, else to the numeric ones (OpenAPI's int32, double).
 */
export function nodeOfType(
  node: { readonly [key: string]: JsonValue },
  type: string,
  types: readonly string[],
  at: string,
): { [key: string]: JsonValue } {
  if (!Object.hasOwn(keywordsOfType, type)) {
    throw importError(
      childPointer(at, 'type'),
      `the type ${JSON.stringify(type)} is not a JSON Schema type.`,
    );
  }
  const others = new Set(
    types.filter((other) => other !== type).flatMap((other) => keywordsOfType[other] ?? []),
  );
  const own = new Set(keywordsOfType[type]);
  const out: { [key: string]: JsonValue } = { type };
  for (const [keyword, value] of Object.entries(node)) {
    if (keyword === 'type') continue;
    if (keyword === 'format') {
      const toStrings = types.includes('string');
      if (toStrings ? type === 'string' : type === 'integer' || type === 'number') out[keyword] = value;
      continue;
    }
    if (own.has(keyword) || !others.has(keyword)) out[keyword] = value;
  }
  return out;
}
