/**
 * The identifiers a generated module declares its named types as. A type is declared by its own
 * name (`Item`) when no other type of the module has that name; types that share one
 * (`order.v1.Order.Item` and `order.v1.Cart.Item`) take the shortest tail of their full names that
 * is free (`Order_Item`, `Cart_Item`). Every identifier is checked against all the others, so a
 * type literally named `Order_Item` keeps its name and the nested one moves on to `v1_Order_Item`;
 * against the words TypeScript and the module itself use (`default`, `Date`, `t`); and, for a type
 * declared with an input interface beside it (a recursive one: `User` and `UserInput`), against
 * that second name too. Names are given in the order of the full names, so the result depends on
 * the schema alone.
 */

/** One named type: its full name (dots between scopes), its own name, and whether it needs `<id>Input` too. */
export interface NamedEntry {
  readonly fullName: string;
  readonly name: string;
  readonly withInput: boolean;
}

/**
 * The identifier of each type, by full name, and every name the module now declares (the
 * identifiers and their `Input` companions), for a caller that adds a name of its own.
 */
export function typeIdentifiers(
  entries: readonly NamedEntry[],
  reserved: ReadonlySet<string>,
): { ids: Map<string, string>; used: Set<string> } {
  const sorted = [...entries].sort((a, b) =>
    a.fullName < b.fullName ? -1 : a.fullName > b.fullName ? 1 : 0,
  );
  const used = new Set(reserved);
  const ids = new Map<string, string>();
  const free = (id: string, entry: NamedEntry): boolean =>
    !used.has(id) && (!entry.withInput || !used.has(`${id}Input`));
  const claim = (id: string, entry: NamedEntry): void => {
    ids.set(entry.fullName, id);
    used.add(id);
    if (entry.withInput) used.add(`${id}Input`);
  };
  const shortCount = new Map<string, number>();
  for (const entry of sorted) {
    const short = identifier(entry.name);
    shortCount.set(short, (shortCount.get(short) ?? 0) + 1);
  }
  // Own names first, so that a type whose name is unique is never displaced by another's tail;
  // and the types' names before the `Input` companions this module invents.
  for (const companion of [false, true]) {
    for (const entry of sorted) {
      const short = identifier(entry.name);
      if (entry.withInput === companion && shortCount.get(short) === 1 && free(short, entry))
        claim(short, entry);
    }
  }
  for (const entry of sorted) {
    if (ids.has(entry.fullName)) continue;
    const segments = entry.fullName.split('.').map(identifier);
    let chosen: string | undefined;
    // The own name is taken or shared: a longer tail, from the enclosing scope outwards.
    for (let length = 2; length <= segments.length && chosen === undefined; length++) {
      const tail = segments.slice(-length).join('_');
      if (free(tail, entry)) chosen = tail;
    }
    // Every tail is taken (or the name is a word of the language): underscores, as in `Map_`.
    for (let whole = `${segments.join('_')}_`; chosen === undefined; whole += '_') {
      if (free(whole, entry)) chosen = whole;
    }
    claim(chosen, entry);
  }
  return { ids, used };
}

/** A name as a TypeScript identifier: characters an identifier may not hold become `_`. */
function identifier(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_$]/g, '_');
  return /^[0-9]/.test(cleaned) || cleaned === '' ? `_${cleaned}` : cleaned;
}
