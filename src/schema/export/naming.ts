/**
 * Names that the Protocol Buffers and FlatBuffers exporters derive from schema names: case
 * conversions of free-form labels (enum members, union tags), the key under which generated code
 * would confuse two field names, and unique names for generated types. Pure: callers decide what a
 * clash means for their format.
 */

/**
 * The ASCII words of a label: split at `_`, `-`, `.`, spaces and camelCase humps ("inProgress",
 * "in-progress" and "IN_PROGRESS" all give in/progress). Undefined when the label holds any other
 * character (or no word at all), since no transliteration of it would be obviously right.
 */
function words(label: string): string[] | undefined {
  if (!/^[A-Za-z0-9_\-. ]+$/.test(label)) return undefined;
  const found = label
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1 $2')
    .split(/[_\-. ]+/)
    .filter((word) => word !== '');
  return found.length === 0 ? undefined : found;
}

export function upperSnake(label: string): string | undefined {
  return words(label)
    ?.map((word) => word.toUpperCase())
    .join('_');
}

export function lowerSnake(label: string): string | undefined {
  return words(label)
    ?.map((word) => word.toLowerCase())
    .join('_');
}

/** The name with its first letter upper-cased, the rest untouched (so distinct names stay distinct). */
function pascalHead(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/**
 * Two field names with the same key collide in generated code that camel-cases names, and protoc
 * refuses them in proto3 ("The JSON camel-case name of field ... conflicts"): this is its rule.
 */
export function caseKey(name: string): string {
  return name.replaceAll('_', '').toLowerCase();
}

/**
 * Hands out names for generated types. User types are claimed first, so a generated name never
 * takes one: a taken name gets the lowest free numeric suffix (`Owner_field_Item2`), the same rule
 * the Avro exporter uses for its entry records.
 */
export class NameAllocator {
  private readonly taken: Set<string>;

  constructor(taken: Iterable<string>) {
    this.taken = new Set(taken);
  }

  has(name: string): boolean {
    return this.taken.has(name);
  }

  add(name: string): void {
    this.taken.add(name);
  }

  claim(candidate: string): string {
    let name = candidate;
    for (let n = 2; this.taken.has(name); n++) name = `${candidate}${n}`;
    this.taken.add(name);
    return name;
  }
}

/** The prefix of the names of types generated for one field: EveryKind.matrix gives `EveryKind_Matrix`. */
export function fieldBase(owner: string, field: string): string {
  return `${owner}_${pascalHead(field)}`;
}
