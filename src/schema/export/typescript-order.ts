/**
 * The order a generated module declares named types in: a type after the types it uses, so that
 * each is defined before it is read, and otherwise by name, so that the order depends on the schema
 * alone. Types that use each other (a cycle, found as a strongly connected component) are declared
 * together, by name, and refer to each other through `t.lazy`.
 */
import { WirekitError } from '../../errors/index.js';
import type { NamedSchema, Schema } from '../types.js';
import { fullName } from '../walk.js';

/** The named types' full names, grouped into cycles (most of them alone), in declaration order. */
export function dependencyOrder(named: ReadonlyMap<string, NamedSchema>): string[][] {
  const uses = new Map<string, string[]>();
  for (const [name, type] of named) uses.set(name, [...usedBy(type)].sort());
  const components = stronglyConnected([...named.keys()].sort(), uses);
  const componentOf = new Map<string, number>();
  components.forEach((members, index) => {
    for (const member of members) componentOf.set(member, index);
  });
  // Kahn's algorithm over the components, always taking the ready one whose first name sorts first.
  const waitingOn = components.map(() => new Set<number>());
  const users = components.map(() => [] as number[]);
  components.forEach((members, index) => {
    for (const member of members) {
      for (const used of uses.get(member) ?? []) {
        const other = componentOf.get(used) as number;
        if (other !== index && !waitingOn[index]?.has(other)) {
          waitingOn[index]?.add(other);
          users[other]?.push(index);
        }
      }
    }
  });
  const firstName = (index: number): string => (components[index] as string[])[0] as string;
  const ready = new NameHeap(firstName);
  components.forEach((_, index) => {
    if (waitingOn[index]?.size === 0) ready.push(index);
  });
  const order: string[][] = [];
  for (let next = ready.pop(); next !== undefined; next = ready.pop()) {
    order.push(components[next] as string[]);
    for (const user of users[next] ?? []) {
      const waiting = waitingOn[user] as Set<number>;
      waiting.delete(next);
      if (waiting.size === 0) ready.push(user);
    }
  }
  return order;
}

/**
 * The components ready to be declared, the one whose first name sorts first on top: a binary heap,
 * so that a file of 10,000 independent types is not sorted again after each one is taken.
 */
class NameHeap {
  private readonly items: number[] = [];

  constructor(private readonly nameOf: (index: number) => string) {}

  push(item: number): void {
    const items = this.items;
    items.push(item);
    for (let at = items.length - 1; at > 0; ) {
      const parent = (at - 1) >> 1;
      if (!this.before(items[at] as number, items[parent] as number)) break;
      [items[at], items[parent]] = [items[parent] as number, items[at] as number];
      at = parent;
    }
  }

  pop(): number | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    items[0] = last;
    for (let at = 0; ; ) {
      const [left, right] = [2 * at + 1, 2 * at + 2];
      let least = at;
      if (left < items.length && this.before(items[left] as number, items[least] as number)) least = left;
      if (right < items.length && this.before(items[right] as number, items[least] as number)) least = right;
      if (least === at) break;
      [items[at], items[least]] = [items[least] as number, items[at] as number];
      at = least;
    }
    return top;
  }

  private before(a: number, b: number): boolean {
    return this.nameOf(a) < this.nameOf(b);
  }
}

/**
 * Every named type reachable from the roots, by full name, found without recursion (a chain of
 * 10,000 types must not overflow the stack); two different types of one full name are refused, as
 * every exporter refuses them.
 */
export function collectNamed(roots: readonly Schema[]): Map<string, NamedSchema> {
  const found = new Map<string, NamedSchema>();
  const seen = new Set<Schema>();
  const stack = [...roots].reverse();
  while (stack.length > 0) {
    const schema = stack.pop() as Schema;
    if (seen.has(schema)) continue;
    seen.add(schema);
    if (schema.kind === 'ref') {
      stack.push(schema.resolve());
      continue;
    }
    if (schema.kind === 'object' || schema.kind === 'enum' || schema.kind === 'union') {
      const name = fullName(schema);
      const known = found.get(name);
      if (known !== undefined && known !== schema) {
        throw new WirekitError(
          'WK_SCHEMA_NAME_CONFLICT',
          `Two different types are named ${name}; rename one of them (or reuse one schema object for both).`,
        );
      }
      found.set(name, schema);
    }
    stack.push(...childrenOf(schema).reverse());
  }
  return found;
}

/** The named types a named type's definition mentions, not looking inside them. */
function usedBy(type: NamedSchema): Set<string> {
  const found = new Set<string>();
  const stack: Schema[] = childrenOf(type);
  const seen = new Set<Schema>();
  while (stack.length > 0) {
    const schema = stack.pop() as Schema;
    if (seen.has(schema)) continue;
    seen.add(schema);
    if (schema.kind === 'ref') found.add(fullName(schema.resolve()));
    else if (schema.kind === 'object' || schema.kind === 'enum' || schema.kind === 'union')
      found.add(fullName(schema));
    else stack.push(...childrenOf(schema));
  }
  return found;
}

function childrenOf(schema: Schema): Schema[] {
  switch (schema.kind) {
    case 'object':
      return schema.fields.map((field) => field.schema);
    case 'union':
      return [...schema.variants];
    case 'either':
      return [...schema.branches];
    case 'array':
      return [schema.items];
    case 'map':
      return [schema.keys, schema.values];
    case 'optional':
    case 'nullable':
      return [schema.inner];
    default:
      return [];
  }
}

/**
 * Tarjan's strongly connected components, without recursion (a chain of thousands of types must
 * not overflow the stack); each component's names sorted.
 */
function stronglyConnected(names: readonly string[], uses: ReadonlyMap<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const start of names) {
    if (index.has(start)) continue;
    const work: { name: string; next: number }[] = [{ name: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { name: string; next: number };
      const edges = uses.get(frame.name) ?? [];
      if (frame.next < edges.length) {
        const to = edges[frame.next++] as string;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ name: to, next: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.name, Math.min(low.get(frame.name) as number, index.get(to) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined)
        low.set(parent.name, Math.min(low.get(parent.name) as number, low.get(frame.name) as number));
      if (low.get(frame.name) === index.get(frame.name)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop() as string;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.name);
        components.push(component.sort());
      }
    }
  }
  return components;
}
