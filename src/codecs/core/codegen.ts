/**
 * The one place wirekit turns source text into functions. Schema-compiled codecs build their
 * encoders and decoders here, under rules that keep generated code safe and debuggable:
 *
 * - Nothing from a schema or a value is ever spliced into source. Field names, messages and
 *   constants are passed in as dependencies (`dep(x)` gives the expression `d[i]`) or, for object
 *   keys, as JSON string literals (`key(name)`), which cannot break out of their quotes.
 * - Identifiers are made here (`fn`, `local`) from counters and a sanitized hint, so a schema name
 *   like `User` gives `decode_User_0`: readable in a stack trace, never chosen by input.
 * - Each compiled unit is one `new Function('d', source)` call; where that is forbidden (a Content
 *   Security Policy without 'unsafe-eval', some edge runtimes) `codegenAvailable` is false and
 *   codecs keep their interpreter.
 * - Results are cached per schema object in a bounded map, so a schema is compiled once.
 */
import { fieldOf, isInheritedName } from '../../schema/names.js';
import { isUnsafeKey } from './errors.js';

/** Whether this runtime lets code be compiled from text. */
export const codegenAvailable: boolean = (() => {
  try {
    return new Function('return 1')() === 1;
  } catch {
    return false;
  }
})();

/** Builds the source of one compiled unit: functions, their dependencies, and the names they get. */
export class SourceBuilder {
  private readonly lines: string[] = [];
  private readonly deps: unknown[] = [];
  private readonly depIndex = new Map<unknown, number>();
  private names = 0;
  /** Blocks open, for `indented`. */
  private blocks = 0;

  /** An expression that evaluates to `value` in the generated code (a dependency, passed by reference). */
  dep(value: unknown): string {
    let index = this.depIndex.get(value);
    if (index === undefined) {
      index = this.deps.push(value) - 1;
      this.depIndex.set(value, index);
    }
    return `d[${index}]`;
  }

  /** A fresh identifier, e.g. `decode_User_3`, for a function or variable. */
  fn(prefix: string, hint = ''): string {
    const clean = hint.replace(/[^A-Za-z0-9_]/g, '_').slice(0, 40);
    return `${prefix}${clean === '' ? '' : `_${clean}`}_${this.names++}`;
  }

  /** An object key as a string literal. Unsafe keys never reach generated code (see `keysAreSafe`). */
  key(name: string): string {
    return JSON.stringify(name);
  }

  /**
   * The expression that reads field `name` of the object `target`: a plain property read, except for
   * names every object inherits (`valueOf`), whose inherited member counts as absent (see `fieldOf`).
   */
  field(target: string, name: string): string {
    return isInheritedName(name)
      ? `${this.dep(fieldOf)}(${target}, ${this.key(name)})`
      : `${target}[${this.key(name)}]`;
  }

  line(text: string): void {
    this.lines.push(text);
  }

  /**
   * A line indented by the blocks open around it, for reading what was generated: a line ending in
   * `{` opens a block, one starting with `}` closes it.
   */
  indented(text: string): void {
    if (text.startsWith('}')) this.blocks--;
    this.lines.push(`${'  '.repeat(Math.max(0, this.blocks))}${text}`);
    if (text.endsWith('{')) this.blocks++;
  }

  /** Compiles the lines; the body ends with `return <expr>` of what the unit exports. */
  compile<T>(exported: string): T {
    const body = `"use strict";\n${this.lines.join('\n')}\nreturn ${exported};`;
    return new Function('d', body)(this.deps) as T;
  }

  /** The source text, for tests and for reading what was generated. */
  text(): string {
    return this.lines.join('\n');
  }
}

/**
 * Whether every name can be an own key of an object literal: `{ "__proto__": x }` would set the
 * prototype instead, so a schema with such a name stays on the interpreter.
 */
export function keysAreSafe(names: Iterable<string>): boolean {
  for (const name of names) if (isUnsafeKey(name)) return false;
  return true;
}

/** A key of a decoded object, the expression of its value, and whether that may be undefined. */
export interface ObjectEntry {
  readonly key: string;
  readonly value: string;
  readonly optional: boolean;
}

/**
 * The statements building `out` from `entries`, keys in their order as an interpreter adds them:
 * one object literal up to entry `literal` (so every object gets its hidden class at once), then a
 * store per entry, made only where the value is not undefined for an optional one.
 */
export function buildObject(s: SourceBuilder, entries: readonly ObjectEntry[], literal: number): string[] {
  const head = entries.slice(0, literal).map((entry) => `${s.key(entry.key)}: ${entry.value}`);
  const lines = [`const out = { ${head.join(', ')} };`];
  for (const entry of entries.slice(literal)) {
    const set = `out[${s.key(entry.key)}] = ${entry.value};`;
    lines.push(entry.optional ? `if (${entry.value} !== undefined) ${set}` : set);
  }
  return lines;
}

/**
 * Generated functions made on demand, one per key (a schema node, a plan): the first call site
 * names the function, and its body is emitted later, by `drain`. Recursive schemas need this: a
 * function may call one whose body is not written yet, or itself.
 */
export class FunctionQueue<K, N = string> {
  private readonly names = new Map<K, N>();
  private readonly pending: [K, N][] = [];

  /** `name` makes the name (or names: see `functionPairs`) of a key's function, from `SourceBuilder.fn`. */
  constructor(private readonly name: (key: K) => N) {}

  /** The name of the function for `key`, queued for `drain` the first time. */
  nameFor(key: K): N {
    let name = this.names.get(key);
    if (name === undefined) {
      name = this.name(key);
      this.names.set(key, name);
      this.pending.push([key, name]);
    }
    return name;
  }

  /** Emits the body of every queued function, including those that emitting queues. */
  drain(emit: (key: K, name: N) => void): void {
    while (this.pending.length > 0) {
      const [key, name] = this.pending.pop() as [K, N];
      emit(key, name);
    }
  }
}

/** The names of the encoder and the decoder made for one key (a message, a table, an object plan). */
export interface FunctionPair {
  readonly encode: string;
  readonly decode: string;
}

/**
 * A FunctionQueue of encoder-decoder pairs, as the binary generators make them for every message
 * they reach: `nameFor(key)` gives both names, e.g. `encode_User_3` and `decode_User_4`, from the
 * key's hint.
 */
export function functionPairs<K>(
  source: SourceBuilder,
  hintOf: (key: K) => string,
): FunctionQueue<K, FunctionPair> {
  return new FunctionQueue<K, FunctionPair>((key) => {
    const hint = hintOf(key);
    return { encode: source.fn('encode', hint), decode: source.fn('decode', hint) };
  });
}

/**
 * A cache of compiled units by schema identity, bounded: past `max` entries the oldest is dropped
 * (a process that builds schemas dynamically does not grow without bound).
 */
export class CompiledCache<K extends object, V> {
  private readonly entries = new Map<K, V>();
  constructor(private readonly max: number) {}

  get(key: K, build: () => V): V {
    let value = this.entries.get(key);
    if (value === undefined) {
      value = build();
      if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as K);
      this.entries.set(key, value);
    }
    return value;
  }

  get size(): number {
    return this.entries.size;
  }
}
