/**
 * Values without a schema: the `json` kind (JSON values only) and schemaless codecs (the natural
 * mapping, which the readers map back to the same JavaScript values):
 *
 *   null → nil/null, undefined → nil (MessagePack) or undefined (CBOR), boolean, string,
 *   number → a safe integer (|n| ≤ 2^53 - 1) as an integer in its smallest form, anything else
 *   (-0, fractions, NaN, ±Infinity, integral numbers beyond 2^53 - 1, which need not be the
 *   integer written) as float64,
 *   bigint → an integer in its smallest form (CBOR: a bignum beyond 64 bits; MessagePack refuses),
 *   Uint8Array → bytes, Date → timestamp, array, Map → map, other objects → map of own keys.
 *
 * Integers carry no JavaScript type on the wire: readers give a number for a safe integer and a
 * bigint beyond, so a bigint in the safe range reads back as a number.
 *
 * Anything else (functions, symbols, Sets, other typed arrays, invalid Dates, cycles) is refused
 * with a WirekitError instead of being written in a form no wirekit decoder accepts.
 */
import { prependPath } from '../../../errors/index.js';
import { isUnsafeKey } from '../../core/errors.js';
import { refusedKey, tooDeepValue, unsupported, wrongValue } from '../failures.js';
import type { WireEmitter } from '../wire.js';

const maxDateMillis = 8.64e15;

/** Writes `value` at nesting `depth`; `json` restricts it to JSON values (finite numbers, plain objects). */
export function writeAny(
  out: WireEmitter,
  value: unknown,
  depth: number,
  maxDepth: number,
  json: boolean,
): void {
  switch (typeof value) {
    case 'string':
      out.string(value);
      return;
    case 'boolean':
      out.bool(value);
      return;
    case 'number':
      if (Number.isSafeInteger(value) && !Object.is(value, -0)) out.int(value);
      else if (json && !Number.isFinite(value)) throw wrongValue('a JSON value (a finite number)', value);
      else out.float64(value);
      return;
    case 'bigint':
      if (json) throw wrongValue('a JSON value', value);
      out.anyBigint(value);
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

function writeObject(out: WireEmitter, value: object, depth: number, maxDepth: number, json: boolean): void {
  const inner = depth + 1;
  if (inner > maxDepth) {
    // Inside a schema's json value, as deep as any value of the schema: the limit's own code.
    if (json) throw tooDeepValue(maxDepth);
    throw unsupported(`the value nests deeper than maxDepth (${maxDepth}); is it cyclic?`);
  }
  if (Array.isArray(value)) {
    out.arrayHeader(value.length);
    for (let i = 0; i < value.length; i++) {
      try {
        writeAny(out, value[i], inner, maxDepth, json);
      } catch (error) {
        throw prependPath(error, i);
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
  const records = out.records;
  if (records === undefined) out.mapHeader(keys.length);
  else {
    // The keys go first, in the record's definition.
    for (const key of keys) if (isUnsafeKey(key)) throw prependPath(refusedKey(key), key);
    records.keysRecord(keys);
  }
  for (const key of keys) {
    try {
      if (isUnsafeKey(key)) throw refusedKey(key);
      if (records === undefined) out.string(key);
      writeAny(out, (value as Record<string, unknown>)[key], inner, maxDepth, json);
    } catch (error) {
      throw prependPath(error, key);
    }
  }
}

function writeMap(out: WireEmitter, value: Map<unknown, unknown>, depth: number, maxDepth: number): void {
  out.mapHeader(value.size);
  for (const [key, item] of value) {
    try {
      if (typeof key === 'string' && isUnsafeKey(key)) throw refusedKey(key);
      writeAny(out, key, depth, maxDepth, false);
      writeAny(out, item, depth, maxDepth, false);
    } catch (error) {
      throw prependPath(error, typeof key === 'string' || typeof key === 'number' ? key : '?');
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
