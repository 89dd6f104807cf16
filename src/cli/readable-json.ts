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
  if (value instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of value)
      out[typeof key === 'string' ? key : JSON.stringify(toReadableJson(key))] = toReadableJson(item);
    return out;
  }
  if (Array.isArray(value)) return value.map(toReadableJson);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = toReadableJson(item);
    return out;
  }
  return value;
}
