/**
 * How a message names a value it refuses. Both describers are bounded by construction: a string is
 * cut at 40 characters and a container is named, never walked, so a value nested a million deep, a
 * string of 16 MiB or a cyclic object makes a short message in constant time, not a stack overflow
 * or a copy of the input. Error messages show values only through these two.
 */

/** The characters of a string shown in `describeValue`, quotes and "..." aside. */
const stringCut = 40;

/**
 * A value named in the terms of its type ("expected a string, got number 5"): one describer for
 * `validate`, every encoder and the json kind, so that a wrong value reads the same in every format.
 * A string is quoted and cut at 40 characters, a number, boolean or bigint is shown, and a
 * container is named by what it is, never by its contents (they may be large, cyclic or private).
 */
export function describeValue(value: unknown): string {
  switch (typeof value) {
    case 'undefined':
      return 'nothing';
    case 'string':
      return quoted(value, stringCut);
    case 'bigint':
      return `${value}n`;
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    case 'object':
      if (value === null) return 'null';
      if (Array.isArray(value)) return 'an array';
      if (value instanceof Date) return 'a Date';
      if (value instanceof Uint8Array) return 'a Uint8Array';
      if (value instanceof Map) return 'a Map';
      return 'an object';
    default:
      // A number or a boolean.
      return `${typeof value} ${String(value)}`;
  }
}

/** A string as JSON text, cut to its first `cut` characters (the cut never splits a surrogate pair). */
function quoted(text: string, cut: number): string {
  if (text.length <= cut) return JSON.stringify(text);
  const end = isHighSurrogate(text.charCodeAt(cut - 4)) ? cut - 4 : cut - 3;
  return JSON.stringify(`${text.slice(0, end)}...`);
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

/**
 * A value read from JSON as the JSON codec's messages show it: a string, number, boolean or null as
 * its JSON text (a string cut at 40 characters), anything else named as `describeValue` names it
 * ("expected an integer, got an array", as the MessagePack and CBOR decoders say). A container is
 * never walked: a million-deep array or an object of a million keys costs what `[]` costs.
 */
export function previewValue(value: unknown): string {
  switch (typeof value) {
    case 'number':
    case 'boolean':
      return String(value);
    case 'object':
      return value === null ? 'null' : describeValue(value);
    default:
      return describeValue(value);
  }
}
