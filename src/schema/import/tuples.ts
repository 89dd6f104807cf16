/**
 * Tuples: `prefixItems` with `items` (2020-12), or `items` as an array with `additionalItems`
 * (draft-07 and 2019-09), as zod's `z.tuple`, valibot's `tuple` and arktype's `[a, b]` write them.
 * wirekit has no tuple kind, so a tuple reads only where an array says the same: every position holds
 * the same schema, and what follows them is refused (`items: false`) or that schema again. The
 * positions JSON Schema lists are not required (`minItems` says how many must be there), so such a
 * tuple is an array of that schema with at most as many items as it lists, when nothing may follow.
 * Any other tuple is refused by name with the way out.
 */
import type { JsonValue } from '../types.js';
import { childPointer, importError, isJsonObject, type JsonObject } from './json-document.js';
import { sameJson } from './wirekit-annotations.js';

/** What an array node's items are: one schema, at a pointer, and the most items a tuple allows. */
export interface ArrayItems {
  readonly node: JsonValue | undefined;
  readonly pointer: string;
  /** The positions a tuple lists, when nothing may follow them: the array's most items. */
  readonly maxItems?: number;
}

/** The dialects whose `items` may be an array and whose rest is `additionalItems`. */
const listedItemsDialects = /draft-0[67]|draft\/2019-09/;

export function arrayItems(node: JsonObject, root: JsonValue, pointer: string): ArrayItems {
  const dialect = isJsonObject(root) && typeof root.$schema === 'string' ? root.$schema : undefined;
  const listed = Array.isArray(node.items);
  if ('prefixItems' in node) {
    if (listed || 'additionalItems' in node) {
      throw importError(
        pointer,
        'prefixItems is 2020-12 and an items list with additionalItems is draft-07; a tuple says one.',
      );
    }
    if (dialect !== undefined && listedItemsDialects.test(dialect)) {
      throw importError(
        childPointer(pointer, 'prefixItems'),
        `prefixItems means nothing in ${dialect}; write the tuple as an items list.`,
      );
    }
    return tuple(node.prefixItems, 'prefixItems', node.items, 'items', pointer);
  }
  if (listed) {
    if (dialect !== undefined && !listedItemsDialects.test(dialect)) {
      throw importError(
        childPointer(pointer, 'items'),
        `items as a list is not ${dialect}; write the tuple as prefixItems.`,
      );
    }
    return tuple(node.items, 'items', node.additionalItems, 'additionalItems', pointer);
  }
  if ('additionalItems' in node) {
    throw importError(
      childPointer(pointer, 'additionalItems'),
      'additionalItems means something only beside an items list.',
    );
  }
  return { node: node.items, pointer: childPointer(pointer, 'items') };
}

function tuple(
  positions: JsonValue | undefined,
  positionsKeyword: string,
  rest: JsonValue | undefined,
  restKeyword: string,
  pointer: string,
): ArrayItems {
  const at = childPointer(pointer, positionsKeyword);
  if (!Array.isArray(positions) || positions.length === 0) {
    throw importError(at, `${positionsKeyword} must be a non-empty array of schemas.`);
  }
  const first = positions[0] as JsonValue;
  const differs = positions.findIndex((position) => !sameJson(position, first));
  if (differs !== -1) {
    throw importError(
      childPointer(at, differs),
      'a tuple whose positions hold different schemas needs a tuple kind, which wirekit does not have: make it an object with a field per position, or an array of one schema.',
    );
  }
  const items = { node: first, pointer: childPointer(at, 0) };
  if (rest === false) return { ...items, maxItems: positions.length };
  if (rest !== undefined && sameJson(rest, first)) return items;
  throw importError(
    childPointer(pointer, restKeyword),
    rest === undefined
      ? `a tuple that lets any value follow its positions has no wirekit kind: write ${restKeyword}: false, or ${restKeyword} as the positions' schema.`
      : `items after a tuple's positions must be refused (${restKeyword}: false) or be the positions' schema; wirekit has no tuple kind to hold others.`,
  );
}
