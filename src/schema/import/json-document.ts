/**
 * The parts of reading a JSON Schema document that know nothing of wirekit kinds: the import error
 * with its JSON pointer, pointers and local `$ref` resolution, the keywords that only annotate, and
 * the budget that bounds the work a hostile document can ask for.
 */
import { isWirekitError, SchemaImportError } from '../../errors/index.js';
import { wirekitJsonSchemaKeywords } from '../export/json-schema-annotations.js';
import type { JsonValue } from '../types.js';

export type JsonObject = { readonly [key: string]: JsonValue };

/** The error of every refusal, its message led by the JSON pointer of the node at fault. */
export function importError(pointer: string, message: string): SchemaImportError {
  return new SchemaImportError(`${pointer}: ${message}`, { path: pointerPath(pointer) });
}

/** Runs a builder, turning its WK_SCHEMA_INVALID into an import error at `pointer`. */
export function build<S>(pointer: string, make: () => S): S {
  try {
    return make();
  } catch (error) {
    if (isWirekitError(error, 'WK_SCHEMA_INVALID')) throw importError(pointer, error.message);
    throw error;
  }
}

/** `#/properties/a~1b` → ['properties', 'a/b'] (RFC 6901 unescaping). */
function pointerPath(pointer: string): string[] {
  if (pointer === '#' || pointer === '') return [];
  return pointer
    .replace(/^#\//, '')
    .split('/')
    .map((part) => decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** The pointer of `key` under `pointer`, escaped as RFC 6901 and the URI fragment require. */
export function childPointer(pointer: string, ...keys: readonly (string | number)[]): string {
  let out = pointer;
  for (const key of keys) {
    const escaped = String(key).replaceAll('~', '~0').replaceAll('/', '~1');
    out += `/${encodeURIComponent(escaped).replaceAll('%24', '$')}`;
  }
  return out;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The node a local `$ref` names: `#`, `#/$defs/Name`, `#/definitions/Name` or any other pointer
 * into the same document. References to other documents, anchors and `$id`s are refused by name.
 */
export function resolveLocalRef(
  root: JsonValue,
  ref: string,
  at: string,
): { node: JsonValue; pointer: string } {
  if (!ref.startsWith('#')) {
    throw importError(
      at,
      `$ref ${JSON.stringify(ref)} points to another document; only local references (#/...) are read.`,
    );
  }
  if (ref !== '#' && !ref.startsWith('#/')) {
    throw importError(
      at,
      `$ref ${JSON.stringify(ref)} names an anchor; only JSON pointers (#/...) are read.`,
    );
  }
  let node: JsonValue = root;
  for (const key of pointerPath(ref)) {
    const next: JsonValue | undefined = Array.isArray(node)
      ? /^(0|[1-9][0-9]*)$/.test(key)
        ? node[Number(key)]
        : undefined
      : isJsonObject(node) && Object.hasOwn(node, key)
        ? node[key]
        : undefined;
    if (next === undefined)
      throw importError(at, `$ref ${JSON.stringify(ref)} points to nothing in the document.`);
    node = next;
  }
  return { node, pointer: ref === '#' ? '#' : ref };
}

/**
 * Keywords that only describe (JSON Schema calls them annotations): no validator's verdict depends
 * on them, so reading past them changes nothing. `x-` extensions are annotations too, except
 * wirekit's own, which the importer reads.
 */
const annotationKeywords: ReadonlySet<string> = new Set([
  '$schema',
  '$comment',
  '$id',
  '$defs',
  'definitions',
  'title',
  'description',
  'examples',
  'example',
  'deprecated',
  'readOnly',
  'writeOnly',
  'default',
  'discriminator',
]);

export function isAnnotation(keyword: string): boolean {
  return annotationKeywords.has(keyword) || (keyword.startsWith('x-') && !keyword.startsWith('x-wirekit-'));
}

/** Refuses every keyword of `node` that is neither an annotation nor among `read`. */
export function refuseUnread(node: JsonObject, read: readonly string[], pointer: string, why: string): void {
  for (const keyword of Object.keys(node)) {
    if (read.includes(keyword) || isAnnotation(keyword)) continue;
    const at = childPointer(pointer, keyword);
    if (keyword.startsWith('x-wirekit-')) {
      const known: readonly string[] = wirekitJsonSchemaKeywords;
      throw importError(
        at,
        known.includes(keyword)
          ? `the annotation ${JSON.stringify(keyword)} means nothing here (docs/mapping/json-schema.md says where each goes).`
          : `${JSON.stringify(keyword)} is no wirekit annotation; wirekit reads ${known.join(', ')}.`,
      );
    }
    throw importError(at, `the keyword ${JSON.stringify(keyword)} ${why}`);
  }
}

export interface ImportLimits {
  /** Subschemas nested deeper than this are refused (default 256, validate()'s depth limit). */
  readonly maxDepth: number;
  /** Subschemas in the whole document, counted as they are read (default 20,000). */
  readonly maxNodes: number;
  /** Members of one `enum` (default 10,000). */
  readonly maxEnumMembers: number;
}

export const defaultImportLimits: ImportLimits = { maxDepth: 256, maxNodes: 20_000, maxEnumMembers: 10_000 };

/** Counts the subschemas read, and refuses a wide node before walking it, so the refusal costs nothing. */
export class NodeBudget {
  private used = 0;
  constructor(private readonly limits: ImportLimits) {}

  /** One more subschema read. */
  spend(pointer: string): void {
    this.used += 1;
    this.ensure(0, pointer);
  }

  /** Refuses now when `count` more subschemas (a node's properties or branches) would pass the limit. */
  ensure(count: number, pointer: string): void {
    if (this.used + count > this.limits.maxNodes) {
      throw importError(
        pointer,
        `the document holds more than maxNodes (${this.limits.maxNodes}) subschemas.`,
      );
    }
  }

  checkDepth(depth: number, pointer: string): void {
    if (depth > this.limits.maxDepth) {
      throw importError(pointer, `subschemas are nested deeper than maxDepth (${this.limits.maxDepth}).`);
    }
  }

  checkEnum(size: number, pointer: string): void {
    if (size > this.limits.maxEnumMembers) {
      throw importError(
        pointer,
        `the enum has ${size} members, more than maxEnumMembers (${this.limits.maxEnumMembers}).`,
      );
    }
  }
}
