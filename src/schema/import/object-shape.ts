/**
 * What an object node must hold to become a wirekit object: its properties, the names it requires
 * (each among them), and no room for other keys, which validate() refuses. A node without
 * properties is a map instead (json-schema.ts reads it).
 */
import type { JsonValue } from '../types.js';
import { childPointer, importError, isJsonObject, type JsonObject, refuseUnread } from './json-document.js';
import { objectAnnotations } from './wirekit-annotations.js';

export interface ObjectShape {
  readonly properties: JsonObject;
  readonly required: readonly string[];
  readonly names: readonly string[];
}

/** The node's properties and required names, or 'map' for an object without properties. */
export function objectShape(
  node: JsonObject,
  pointer: string,
  openObjects: 'refuse' | 'close',
): ObjectShape | 'map' {
  refuseUnread(
    node,
    ['type', 'properties', 'required', 'additionalProperties', 'propertyNames', ...objectAnnotations(node)],
    pointer,
    'is not read for objects.',
  );
  const properties = node.properties ?? {};
  if (!isJsonObject(properties))
    throw importError(childPointer(pointer, 'properties'), 'properties must be an object.');
  const required: JsonValue = node.required ?? [];
  if (!Array.isArray(required) || !required.every((name) => typeof name === 'string')) {
    throw importError(childPointer(pointer, 'required'), 'required must be an array of names.');
  }
  const rest = node.additionalProperties;
  const names = Object.keys(properties);
  if (names.length === 0 && required.length === 0 && rest !== false) return 'map';
  if ('propertyNames' in node)
    throw importError(
      childPointer(pointer, 'propertyNames'),
      'propertyNames is read only on maps (objects without properties).',
    );
  if (rest !== false) {
    if (rest !== undefined && rest !== true) {
      throw importError(
        childPointer(pointer, 'additionalProperties'),
        'an object with both properties and additionalProperties needs a kind wirekit does not have.',
      );
    }
    if (openObjects !== 'close') {
      throw importError(
        pointer,
        'the object lets values hold keys it does not list (additionalProperties is not false), which validate() refuses; write additionalProperties: false, or import with openObjects: "close".',
      );
    }
  }
  for (const name of required) {
    if (!names.includes(name))
      throw importError(
        childPointer(pointer, 'required'),
        `${JSON.stringify(name)} is required but not among the properties.`,
      );
  }
  return { properties, required, names };
}

/**
 * A record whose keys are an enum of strings (zod's `z.record(z.enum([...]), V)` and
 * `z.partialRecord`): `propertyNames: { enum }` beside `additionalProperties: V`. It accepts what an
 * object with a property V per key, closed to other keys, accepts, so it is read as that object;
 * undefined for any other node.
 */
export function enumKeyedRecord(node: JsonObject): JsonObject | undefined {
  const names = node.propertyNames;
  if (!isJsonObject(names) || 'properties' in node || !Array.isArray(names.enum)) return undefined;
  const keys = names.enum;
  const plain = Object.keys(names).every(
    (keyword) => keyword === 'enum' || (keyword === 'type' && names.type === 'string'),
  );
  if (!plain || keys.length === 0 || !keys.every((key): key is string => typeof key === 'string'))
    return undefined;
  const value = node.additionalProperties ?? true;
  const { propertyNames: _names, additionalProperties: _rest, ...rest } = node;
  return {
    ...rest,
    properties: Object.fromEntries(keys.map((key) => [key, value])),
    additionalProperties: false,
  };
}
