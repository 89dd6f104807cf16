import { WirekitError } from '../errors/index.js';

/**
 * Type names must be identifiers in every target language at once (proto, Avro, FlatBuffers, C-like
 * code generators), so wirekit accepts only the common subset.
 */
const identifier = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function isIdentifier(name: string): boolean {
  return identifier.test(name);
}

/**
 * What every reader says of a key its object schema does not name (`validate`'s `unknown_field`,
 * and every decoder refusing one under `unknownKeys: 'reject'`): a name, or a field number or id on
 * wires that key fields by number.
 */
export function noSuchField(typeName: string, key: string | number, what = 'field'): string {
  return `${typeName} has no ${what} ${typeof key === 'string' ? JSON.stringify(key) : key}.`;
}

export function checkTypeName(name: string, what = 'type name'): void {
  if (typeof name !== 'string' || !identifier.test(name)) {
    throw new WirekitError(
      'WK_SCHEMA_INVALID',
      `${what} ${JSON.stringify(name)} must start with a letter or '_' and hold only letters, digits and '_'.`,
    );
  }
}

/**
 * Field names are free-form (JSON keys can be anything), except `__proto__`: assigning it to a plain
 * object changes the object's prototype instead of setting a key, so no decoder could honour it.
 * Formats that need identifiers (proto, FlatBuffers) refuse other names at export.
 */
export function checkFieldName(objectName: string, name: string): void {
  if (name === '' || name === '__proto__') {
    throw new WirekitError(
      'WK_SCHEMA_INVALID',
      `${objectName}: ${JSON.stringify(name)} cannot be a field name.`,
    );
  }
}

const objectPrototype = Object.prototype as unknown as Record<string, unknown>;

/**
 * Whether every plain object inherits a member by this name (`toString`, `valueOf`, `constructor`…).
 * A field so named reads the inherited function from a value that lacks it, so readers of such a
 * field go through `fieldOf`; every other field is a plain property read.
 */
export function isInheritedName(name: string): boolean {
  return name in objectPrototype;
}

/**
 * The value of the field `name` in `record`, where the member every object inherits from
 * Object.prototype counts as absent: `{}` has no `valueOf` field, although `{}.valueOf` is a function.
 * A comparison rather than `Object.hasOwn`, so a class instance's own getters still count.
 */
export function fieldOf(record: Record<string, unknown>, name: string): unknown {
  const value = record[name];
  return value === objectPrototype[name] ? undefined : value;
}
