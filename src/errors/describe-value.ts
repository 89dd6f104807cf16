/**
 * How a message names a value it refuses ("expected a string, got number 5"): one describer for
 * `validate`, every encoder and the json kind, so that a wrong value reads the same in every format.
 * It stays short and safe to log: a string is quoted and cut at 40 characters, a number, boolean or
 * bigint is shown, and a container is named by what it is, never by its contents (they may be large,
 * cyclic or private).
 */
export function describeValue(value: unknown): string {
  switch (typeof value) {
    case 'undefined':
      return 'nothing';
    case 'string':
      return JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value);
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
