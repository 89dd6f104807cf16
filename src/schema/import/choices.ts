/**
 * What `anyOf` and `oneOf` can mean in wirekit today: a nullable (one branch and null), the
 * exporter's float spelling, or a tagged union of objects. Anything else needs an untagged union.
 */

import type { NamedOptions } from '../builders.js';
import * as t from '../builders.js';
import type { JsonValue, ObjectSchema, Schema } from '../types.js';
import { importError, isJsonObject } from './json-document.js';
import { build } from './scalars.js';

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
 * Objects told apart by one required property of a distinct string const in each: a tagged union.
 * With distinct tags at most one branch matches, so anyOf and oneOf mean the same here.
 */
export function taggedUnion(
  { name, options }: { name: string; options: NamedOptions },
  variants: readonly Schema[],
  at: string,
): Schema {
  const objects = variants.map((variant) => (variant.kind === 'ref' ? variant.resolve() : variant));
  if (!objects.every((variant): variant is ObjectSchema => variant.kind === 'object')) {
    throw importError(
      at,
      'branches that are not all objects need an untagged union, which wirekit does not have yet.',
    );
  }
  const first = objects[0] as ObjectSchema;
  const tag = first.fields.find((field) =>
    objects.every((variant) => {
      const same = variant.fields.find((candidate) => candidate.name === field.name);
      return same?.schema.kind === 'literal' && typeof same.schema.value === 'string';
    }),
  )?.name;
  if (tag === undefined) {
    throw importError(
      at,
      'the branches share no required property with a string const in each, so they form no tagged union; an untagged union is not in wirekit yet.',
    );
  }
  return build(at, () => t.union(name, tag, objects, options));
}
