/**
 * Strings and other values for the generators, all built flat.
 *
 * V8 represents `a + b` and template literals whose result is 13 characters or more as a rope (a
 * ConsString) that is flattened only when first read as a whole, and some encoders run several
 * times slower on ropes; a benchmark would then measure the generator, not the codec. So the
 * generators never concatenate with `+` or templates: every string is a literal from a word list,
 * `String(number)`, or an `Array.prototype.join`, which V8 builds as one sequential string (checked
 * with `node --allow-natives-syntax` and %DebugPrint: join gives a flat string, a template a `c"…"`
 * cons string). Generators written otherwise (records.ts) go through `flatten`.
 */
import type { Random } from '../random.js';

/** A fresh flat copy of a string: JSON.parse always allocates a new sequential string. */
export function flat(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

/**
 * Replaces, in place, every string inside plain objects, arrays and Maps by a flat copy, and
 * returns the same value. Dates, byte arrays and other class instances are left alone.
 */
export function flatten<T>(value: T): T {
  return flattenValue(value) as T;
}

function flattenValue(value: unknown): unknown {
  if (typeof value === 'string') return flat(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = flattenValue(value[i]);
  } else if (value instanceof Map) {
    // Keys too: a rebuilt map keeps its order, and string keys may be ropes as well.
    const entries = [...value].map(([key, item]) => [flattenValue(key), flattenValue(item)] as const);
    value.clear();
    for (const [key, item] of entries) value.set(key, item);
  } else if (
    typeof value === 'object' &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype
  ) {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) record[key] = flattenValue(record[key]);
  }
  return value;
}

/** `count` picks from `list`, joined by `separator`: one flat string. */
export function words(random: Random, list: readonly string[], count: number, separator = ' '): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) parts.push(random.pick(list));
  return parts.join(separator);
}

/** A decimal amount with exactly two fraction digits ("12.05"), the canonical form for scale 2. */
export function money(random: Random, min: number, max: number): string {
  return centsText(random.int(Math.round(min * 100), Math.round(max * 100)));
}

/** Cents as a decimal string with exactly two fraction digits, so Avro and Arrow give it back as is. */
export function centsText(cents: number): string {
  const whole = Math.floor(cents / 100);
  const rest = cents % 100;
  return [String(whole), rest < 10 ? '.0' : '.', String(rest)].join('');
}

/** The amount in cents of a decimal string written by centsText. */
export function centsOf(amount: string): number {
  return Math.round(Number(amount) * 100);
}

export function randomBytes(random: Random, length: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = random.int(0, 255);
  return out;
}

/** A float in [min, max) rounded to `digits` decimals, as a sensor or a price list would give it. */
export function float(random: Random, min: number, max: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round((min + random.next() * (max - min)) * scale) / scale;
}

/** A date in the year from 2023-11-14 (epoch 1.7e12), at millisecond precision. */
export function dateInAYear(random: Random): Date {
  return new Date(1_700_000_000_000 + random.int(0, 31_536_000_000));
}

/** A word list written as text, one space between words: short in the source, split once at load. */
function list(text: string): readonly string[] {
  return Object.freeze(text.trim().split(/\s+/));
}

export const firstNames = list(`
  Ada Alan Grace Edsger Barbara Donald Frances Kenneth Radia Timothy Margaret Dennis Katherine Claude
  Hedy Leslie Sophie Guido Shafi Yukihiro Anders Bjarne Joan Adele Niklaus Evelyn Fernando Mary Seymour
  Annie Vinton Jean Robert Lynn Whitfield Elizabeth Ivan Karen Marvin Carol`);

export const lastNames = list(`
  Lovelace Turing Hopper Dijkstra Liskov Knuth Allen Thompson Perlman Berners-Lee Hamilton Ritchie
  Johnson Shannon Lamarr Lamport Wilson Rossum Goldwasser Matsumoto Hejlsberg Stroustrup Clarke Goldberg
  Wirth Boyd Corbato Keller Papert Easley Cerf Sammet Kahn Conway Diffie Feinler Sutherland Sparck-Jones
  Minsky Shaw`);

export const loremWords = list(`
  lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et
  dolore magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris nisi aliquip ex ea
  commodo consequat duis aute irure in reprehenderit voluptate velit esse cillum fugiat nulla pariatur
  excepteur sint occaecat cupidatat non proident sunt culpa qui officia deserunt mollit anim id est
  laborum`);

export const streets = list('Main Oak Maple Station High Elm Church Mill Park Victoria');
export const cities = list('Springfield Riverton Lakeside Fairview Greenville Bristol Kyoto Porto Bergen');
