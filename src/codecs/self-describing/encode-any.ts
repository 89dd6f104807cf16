/**
 * Values without a schema: the `json` kind (JSON values only) and schemaless codecs (the natural
 * mapping, the one msgpackr and cbor-x decode back to the same JavaScript values):
 *
 *   null → nil/null, undefined → nil (MessagePack) or undefined (CBOR), boolean, string,
 *   number → an integer where the libraries read one back as a number (32-bit range), else float64
 *   (so -0, NaN and large numbers keep their value), bigint → a 64-bit integer (read back as bigint),
 *   Uint8Array → bytes, Date → timestamp, array, Map → map, other objects → map of own keys.
 *
 * Anything else (functions, symbols, Sets, other typed arrays, invalid Dates, cycles) is refused
 * with a WirekitError instead of being written in a form no wirekit decoder accepts.
 */
import { isUnsafeKey } from '../errors.js';
import { refusedKey, unsupported, withKey, wrongValue } from './failures.js';
import type { Emitter } from './wire.js';

const maxDateMillis = 8.64e15;

/** Writes `value` at nesting `depth`; `json` restricts it to JSON values (finite numbers, plain objects). */
export function writeAny(out: Emitter, value: unknown, depth: number, maxDepth: number, json: boolean): void {
  switch (typeof value) {
    case 'string':
      out.string(value);
      return;
    case 'boolean':
      out.bool(value);
      return;
    case 'number':
      if (json) {
        if (!Number.isFinite(value)) throw wrongValue('a JSON value (a finite number)', value);
        if (Number.isSafeInteger(value) && !Object.is(value, -0)) out.int(value);
        else out.float64(value);
      } else if (
        Number.isInteger(value) &&
        value >= out.naturalIntMin &&
        value <= out.naturalIntMax &&
        !Object.is(value, -0)
      ) {
        out.int(value);
      } else out.float64(value);
      return;
    case 'bigint':
      if (json) throw wrongValue('a JSON value', value);
      out.naturalBigint(value);
      return;
    case 'undefined':
      if (json) throw wrongValue('a JSON value', value);
      out.undef();
      return;
    case 'object':
      if (value === null) out.nil();
      else writeObject(out, value, depth, maxDepth, json);
      return;
    default:
      throw refuse(json, value);
  }
}

function writeObject(out: Emitter, value: object, depth: number, maxDepth: number, json: boolean): void {
  const inner = depth + 1;
  if (inner > maxDepth)
    throw unsupported(`the value nests deeper than maxDepth (${maxDepth}); is it cyclic?`);
  if (Array.isArray(value)) {
    out.arrayHeader(value.length);
    for (let i = 0; i < value.length; i++) {
      try {
        writeAny(out, value[i], inner, maxDepth, json);
      } catch (error) {
        throw withKey(error, i);
      }
    }
    return;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    if (json) throw wrongValue('a JSON value', value);
    if (value instanceof Uint8Array) {
      out.bytes(value);
      return;
    }
    if (value instanceof Date) {
      const millis = value.getTime();
      if (!(Math.abs(millis) <= maxDateMillis)) throw unsupported('an invalid Date has no timestamp.');
      out.timestamp(millis);
      return;
    }
    if (value instanceof Map) {
      writeMap(out, value, inner, maxDepth);
      return;
    }
    if (isBuiltin(value)) throw refuse(false, value);
  }
  const keys = Object.keys(value);
  out.mapHeader(keys.length);
  for (const key of keys) {
    try {
      if (isUnsafeKey(key)) throw refusedKey(key);
      out.string(key);
      writeAny(out, (value as Record<string, unknown>)[key], inner, maxDepth, json);
    } catch (error) {
      throw withKey(error, key);
    }
  }
}

function writeMap(out: Emitter, value: Map<unknown, unknown>, depth: number, maxDepth: number): void {
  out.mapHeader(value.size);
  for (const [key, item] of value) {
    try {
      if (typeof key === 'string' && isUnsafeKey(key)) throw refusedKey(key);
      writeAny(out, key, depth, maxDepth, false);
      writeAny(out, item, depth, maxDepth, false);
    } catch (error) {
      throw withKey(error, typeof key === 'string' || typeof key === 'number' ? key : '?');
    }
  }
}

/** Built-in objects whose own keys are not their content: writing them as maps would lose it. */
function isBuiltin(value: object): boolean {
  return (
    ArrayBuffer.isView(value) ||
    value instanceof ArrayBuffer ||
    value instanceof Set ||
    value instanceof WeakMap ||
    value instanceof WeakSet ||
    value instanceof RegExp ||
    value instanceof Error ||
    value instanceof Promise ||
    (typeof SharedArrayBuffer !== 'undefined' && value instanceof SharedArrayBuffer)
  );
}

function refuse(json: boolean, value: unknown): Error {
  if (json) return wrongValue('a JSON value', value);
  const what =
    typeof value === 'object' && value !== null ? (value.constructor?.name ?? 'object') : typeof value;
  return unsupported(`a ${what} has no MessagePack or CBOR form in wirekit's schemaless mapping.`);
}
