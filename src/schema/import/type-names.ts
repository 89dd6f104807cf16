/**
 * Names for the named types an import creates. JSON Schema names a type by its `$defs` key or its
 * `title`, which may hold any text; wirekit type names are identifiers (names.ts), unique in a schema.
 */

/** `text` as an identifier: each run of other characters becomes '_', and a leading digit gets one. */
export function typeName(text: string): string {
  const name = text.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '');
  if (name === '') return 'Type';
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

/** `name`, or `name_2`, `name_3`, … when taken; records the answer in `taken`. */
export function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) candidate = `${name}_${n}`;
  taken.add(candidate);
  return candidate;
}

/** The name a `#/$defs/Name`, `#/definitions/Name` or OpenAPI `#/components/schemas/Name` pointer gives. */
export function defName(pointer: string): string | undefined {
  const match = /^#\/(?:\$defs|definitions|components\/schemas)\/([^/]+)$/.exec(pointer);
  return match === null
    ? undefined
    : decodeURIComponent(match[1] as string)
        .replaceAll('~1', '/')
        .replaceAll('~0', '~');
}

/** A property name as the tail of a type name: `home_address` → `HomeAddress`. */
export function pascal(name: string): string {
  return name.replace(/(^|[^A-Za-z0-9]+)([A-Za-z0-9])/g, (_, _sep: string, c: string) => c.toUpperCase());
}
