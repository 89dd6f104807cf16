/**
 * Turns any decoded value into JSON a person can read: bigints as digit strings, bytes as base64,
 * Dates as ISO text, Maps as objects, non-finite floats as "NaN"/"Infinity". Used where no schema
 * gives the exact JSON form of values (schemaless decode, `inspect`).
 */
import { toBase64 } from '../util/base64.js';

export function toReadableJson(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (value instanceof Uint8Array) return toBase64(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  // Objects are built by fromEntries, which defines every key as an own property: assignment would
  // turn a `__proto__` key into the object's prototype and the key would vanish from the output.
  if (value instanceof Map) {
    return Object.fromEntries(
      Array.from(value, ([key, item]) => [
        typeof key === 'string' ? key : JSON.stringify(toReadableJson(key)),
        toReadableJson(item),
      ]),
    );
  }
  if (Array.isArray(value)) return value.map(toReadableJson);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, item]) => item !== undefined)
        .map(([key, item]) => [key, toReadableJson(item)]),
    );
  }
  return value;
}
