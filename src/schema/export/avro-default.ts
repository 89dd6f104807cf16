/**
 * Field defaults in Avro's JSON encoding. Avro reads a default by the *first* branch of a union, so
 * the encoder must know, at every union position, which branch the exporter put first: "null" for
 * array items, map values and fields without a non-null default; the first variant otherwise.
 */

import { describeValue, WirekitError } from '../../errors/index.js';
import { describeBranches, selectBranch } from '../either.js';
import { fieldOf } from '../names.js';
import type { EitherSchema, FieldDef, JsonValue, ObjectSchema, Schema, UnionSchema } from '../types.js';

/** Whether a field's union type starts with "null": yes, unless the field has a non-null default. */
export function nullFirstFor(field: FieldDef): boolean {
  return field.default === undefined || field.default === null;
}

const refuse = (where: string, message: string): never => {
  throw new WirekitError('WK_EXPORT_UNSUPPORTED', `default of ${where}: ${message}`, { format: 'avro' });
};

const longRange = [-(2n ** 63n), 2n ** 63n - 1n] as const;

/** `value` (a value of `schema`) as an Avro default, or a WK_EXPORT_UNSUPPORTED error saying why not. */
export function avroDefault(schema: Schema, value: unknown, nullFirst: boolean, where: string): JsonValue {
  if (schema.kind === 'optional' || schema.kind === 'nullable') {
    const isNull = value === null || value === undefined;
    if (isNull !== nullFirst) {
      refuse(
        where,
        `Avro takes a union default from its first branch, which is ${nullFirst ? '"null"' : 'not "null"'} here.`,
      );
    }
    return isNull ? null : encode(schema.inner, value, where);
  }
  return encode(schema, value, where);
}

function encode(schema: Schema, value: unknown, where: string): JsonValue {
  switch (schema.kind) {
    case 'bool':
      check(typeof value === 'boolean', value, where, 'a boolean');
      return value as boolean;
    case 'int8':
    case 'int16':
    case 'int32':
    case 'uint8':
    case 'uint16':
      check(Number.isInteger(value), value, where, 'an integer');
      return value as number;
    case 'uint32':
    case 'int64':
    case 'uint64':
      return long(value, where);
    case 'float32':
    case 'float64':
      // JSON has no spelling for NaN or the infinities, and readers disagree on string stand-ins.
      check(Number.isFinite(value), value, where, 'a finite number');
      return value as number;
    case 'decimal':
      check(typeof value === 'string', value, where, 'a decimal string');
      return schema.precision !== undefined && schema.scale !== undefined
        ? codePoints(decimalBytes(value as string, schema.scale, where))
        : (value as string);
    case 'string':
    case 'enum':
      check(typeof value === 'string', value, where, 'a string');
      return value as string;
    case 'literal':
      return schema.value;
    case 'bytes':
      check(value instanceof Uint8Array, value, where, 'a Uint8Array');
      return codePoints(value as Uint8Array);
    case 'timestamp': {
      check(value instanceof Date && !Number.isNaN(value.getTime()), value, where, 'a valid Date');
      const millis = BigInt((value as Date).getTime());
      const perMilli = { s: 1n, ms: 1n, us: 1000n, ns: 1_000_000n }[schema.precision];
      return long(millis * perMilli, where);
    }
    case 'json': {
      const text: string | undefined = JSON.stringify(value);
      check(text !== undefined, value, where, 'a JSON value');
      return text as string;
    }
    case 'array':
      check(Array.isArray(value), value, where, 'an array');
      return (value as unknown[]).map((item, i) => avroDefault(schema.items, item, true, `${where}[${i}]`));
    case 'map': {
      const entries = value instanceof Map ? [...value] : Object.entries(expectObject(value, where));
      if (schema.keys.kind === 'string') {
        return Object.fromEntries(
          entries.map(([key, item]) => [
            key,
            avroDefault(schema.values, item, true, `${where}[${String(key)}]`),
          ]),
        );
      }
      const keys = schema.keys;
      return entries.map(([key, item]) => ({
        key: encode(
          keys,
          typeof key === 'string' && keys.kind !== 'int64' && keys.kind !== 'uint64' ? Number(key) : key,
          where,
        ),
        value: avroDefault(schema.values, item, true, `${where}[${String(key)}]`),
      }));
    }
    case 'optional':
    case 'nullable':
      return avroDefault(schema, value, true, where);
    case 'ref':
      return encode(schema.resolve(), value, where);
    case 'object':
      return record(schema, expectObject(value, where), where);
    case 'either':
      return encode(firstBranch(schema, value, where), value, where);
    case 'union':
      return record(
        firstVariant(schema, expectObject(value, where), where),
        value as Record<string, unknown>,
        where,
      );
  }
}

function record(schema: ObjectSchema, value: Record<string, unknown>, where: string): JsonValue {
  const out: { [key: string]: JsonValue } = {};
  for (const field of schema.fields) {
    if (field.schema.kind === 'literal') continue;
    let item = fieldOf(value, field.name);
    if (item === undefined) item = field.default;
    if (item === undefined && field.schema.kind !== 'optional')
      refuse(where, `the field ${field.name} is missing.`);
    out[field.name] = avroDefault(field.schema, item ?? null, nullFirstFor(field), `${where}.${field.name}`);
  }
  return out;
}

function firstVariant(schema: UnionSchema, value: Record<string, unknown>, where: string): ObjectSchema {
  const first = schema.variants[0] as ObjectSchema;
  const tag = first.fields.find((field) => field.name === schema.tag)?.schema;
  if (tag?.kind !== 'literal' || tag.value !== value[schema.tag]) {
    refuse(
      where,
      `Avro takes a union default from its first branch, ${first.name}; this value is another variant.`,
    );
  }
  return first;
}

/**
 * The first branch of an either, when `value` is of it: Avro reads a union's default by the first
 * branch, so a default of another branch cannot be written (put its branch first instead).
 */
function firstBranch(schema: EitherSchema, value: unknown, where: string): Schema {
  const index = selectBranch(schema, value);
  if (index === undefined)
    refuse(where, `expected ${describeBranches(schema)}, got ${describeValue(value)}.`);
  if (index !== 0) {
    refuse(
      where,
      `Avro takes a union default from its first branch, which is not this value's (branch ${index}); put that branch first.`,
    );
  }
  return schema.branches[0] as Schema;
}

/** A long as a JSON number, refused when the number's text would not be exactly the value. */
function long(value: unknown, where: string): number {
  check(typeof value === 'bigint' || Number.isInteger(value), value, where, 'an integer');
  const big = BigInt(value as bigint | number);
  if (big < longRange[0] || big > longRange[1]) refuse(where, `${big} is outside Avro's long.`);
  const n = Number(big);
  if (String(n) !== big.toString()) {
    refuse(where, `${big} cannot be written as an exact JSON number (readers parse it as a double).`);
  }
  return n;
}

/** The unscaled value in big-endian two's complement, as the decimal logical type stores it. */
function decimalBytes(text: string, scale: number, where: string): Uint8Array {
  const match = /^(-?)([0-9]+)(?:\.([0-9]+))?$/.exec(text);
  const fraction = match?.[3] ?? '';
  if (match === null || fraction.length > scale)
    refuse(where, `${JSON.stringify(text)} is not a decimal of scale ${scale}.`);
  let unscaled = BigInt(`${match?.[2]}${fraction.padEnd(scale, '0')}`);
  if (match?.[1] === '-') unscaled = -unscaled;
  const bytes: number[] = [];
  let rest = unscaled;
  do {
    bytes.unshift(Number(BigInt.asUintN(8, rest)));
    rest >>= 8n;
  } while (!((rest === 0n && (bytes[0] as number) < 0x80) || (rest === -1n && (bytes[0] as number) >= 0x80)));
  return Uint8Array.from(bytes);
}

/** Avro writes bytes defaults as a string whose code points 0-255 are the bytes. */
function codePoints(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += String.fromCharCode(byte);
  return out;
}

function check(ok: boolean, value: unknown, where: string, what: string): void {
  if (!ok) refuse(where, `expected ${what}, got ${describeValue(value)}.`);
}

function expectObject(value: unknown, where: string): Record<string, unknown> {
  check(typeof value === 'object' && value !== null && !Array.isArray(value), value, where, 'an object');
  return value as Record<string, unknown>;
}
