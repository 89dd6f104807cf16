/**
 * Core Deterministic Encoding (RFC 8949 §4.2.1), what signing and hashing need: one value, one
 * sequence of bytes. wirekit's writer meets every rule but one by itself: preferred serialization
 * (shortest integers, lengths and floats, emitter.ts) and definite lengths only (it writes no
 * indefinite-length item). The one left is the order of map keys, sorted bytewise by their
 * encoded form, which this pass puts right in the finished bytes, so that the schema's writers,
 * compiled and interpreted, and the schemaless one give the same bytes without a rule of their own.
 *
 * The pass reads each item's head, recurses into arrays, maps and tags (at most as deep as the
 * writer's maxDepth let the value nest) and sorts each map's entries where they stand: an inner
 * map is sorted before the entries around it move, and sorting changes no length. Two keys whose
 * encodings are equal (a Map with the keys 1 and 1n) cannot be ordered, and the map would not be
 * valid CBOR: WK_ENCODE_UNSUPPORTED.
 */
import { WirekitBug, WirekitError } from '../../../errors/index.js';

/** Sorts the keys of every map in `bytes`, one CBOR item as wirekit's writer made it, in place. */
export function sortMapKeys(bytes: Uint8Array): Uint8Array {
  const end = sortItem(bytes, 0);
  if (end !== bytes.length) throw new WirekitBug(`the deterministic pass ended at ${end} of ${bytes.length}`);
  return bytes;
}

/** An entry of a map: where its key starts, where its value starts, where it ends. */
interface Entry {
  readonly key: number;
  readonly value: number;
  readonly end: number;
}

/** Sorts the maps inside the item at `at`; returns where the item ends. */
function sortItem(bytes: Uint8Array, at: number): number {
  const initial = bytes[at] as number;
  const major = initial >> 5;
  const info = initial & 0x1f;
  if (info > 27) throw new WirekitBug(`the deterministic pass met an indefinite length at ${at}`);
  const size = info < 24 ? 0 : 1 << (info - 24);
  let argument = info < 24 ? info : 0;
  for (let i = 1; i <= size; i++) argument = argument * 256 + (bytes[at + i] as number);
  let next = at + 1 + size;
  switch (major) {
    case 2:
    case 3:
      return next + argument;
    case 4:
      for (let i = 0; i < argument; i++) next = sortItem(bytes, next);
      return next;
    case 5:
      return sortEntries(bytes, next, argument);
    case 6:
      return sortItem(bytes, next);
    default:
      // Integers and simple values end with their head; a float's bits are its argument.
      return next;
  }
}

/** Sorts the `count` entries of a map that start at `at`; returns where the map ends. */
function sortEntries(bytes: Uint8Array, at: number, count: number): number {
  const entries: Entry[] = [];
  let next = at;
  for (let i = 0; i < count; i++) {
    const value = sortItem(bytes, next);
    const end = sortItem(bytes, value);
    entries.push({ key: next, value, end });
    next = end;
  }
  if (count < 2) return next;
  let sorted = true;
  for (let i = 1; i < count && sorted; i++)
    sorted = compareKeys(bytes, entries[i - 1] as Entry, entries[i] as Entry) < 0;
  if (sorted) return next;
  entries.sort((a, b) => compareKeys(bytes, a, b));
  for (let i = 1; i < count; i++) {
    if (compareKeys(bytes, entries[i - 1] as Entry, entries[i] as Entry) === 0) {
      throw new WirekitError(
        'WK_ENCODE_UNSUPPORTED',
        'two keys of one map have the same encoding (such as 1 and 1n), so the map has no deterministic form.',
        { format: 'cbor' },
      );
    }
  }
  const region = bytes.slice(at, next);
  let to = at;
  for (const entry of entries) {
    bytes.set(region.subarray(entry.key - at, entry.end - at), to);
    to += entry.end - entry.key;
  }
  return next;
}

/** The bytewise order of two entries' encoded keys (a key that is a prefix of the other first). */
function compareKeys(bytes: Uint8Array, a: Entry, b: Entry): number {
  const lengthA = a.value - a.key;
  const lengthB = b.value - b.key;
  const shorter = Math.min(lengthA, lengthB);
  for (let i = 0; i < shorter; i++) {
    const difference = (bytes[a.key + i] as number) - (bytes[b.key + i] as number);
    if (difference !== 0) return difference;
  }
  return lengthA - lengthB;
}
