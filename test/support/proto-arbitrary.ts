/**
 * Random values of a schema schemaFromProto makes (fast-check), for the tests that compare
 * wirekit's Protocol Buffers bytes with protoc's runtimes: every kind the importer gives, with
 * recursion bounded (past depth 3, optional fields are left out and lists and maps are empty).
 */
import fc from 'fast-check';
import type { Schema } from '../../src/schema/types.js';

/** Values of a schema the importer makes; `depth` bounds recursion (optional fields left out, lists empty). */
export function arbitraryOf(schema: Schema, depth: number): fc.Arbitrary<unknown> {
  switch (schema.kind) {
    case 'ref':
      return arbitraryOf(schema.resolve(), depth);
    case 'object': {
      const keys: Record<string, fc.Arbitrary<unknown>> = {};
      const required: string[] = [];
      for (const field of schema.fields) {
        const optional = field.schema.kind === 'optional';
        const inner = field.schema.kind === 'optional' ? field.schema.inner : field.schema;
        if (optional && depth >= 3) continue;
        keys[field.name] = arbitraryOf(inner, depth + 1);
        if (!optional) required.push(field.name);
      }
      const groups = schema.oneofs ?? [];
      // A oneof holds at most one member: the first one drawn stays, as a runtime's setter keeps
      // the last one set.
      return fc.record(keys, { requiredKeys: required }).map((value) => {
        const kept: Record<string, unknown> = { ...value };
        for (const group of groups) {
          const set = group.fields.filter((name) => kept[name] !== undefined);
          for (const name of set.slice(1)) delete kept[name];
        }
        return kept;
      });
    }
    case 'nullable':
      return fc.option(arbitraryOf(schema.inner, depth), { nil: null });
    case 'array':
      return depth >= 3 ? fc.constant([]) : fc.array(arbitraryOf(schema.items, depth), { maxLength: 3 });
    case 'map': {
      const keys = arbitraryOf(schema.keys, depth);
      const entries =
        depth >= 3
          ? fc.constant([])
          : fc.array(fc.tuple(keys, arbitraryOf(schema.values, depth)), { maxLength: 3 });
      const stringKeys = schema.keys.kind === 'string';
      return entries.map((pairs) => {
        const unique = new Map(pairs as [unknown, unknown][]);
        return stringKeys ? Object.fromEntries(unique) : unique;
      });
    }
    case 'int32':
      return fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
    case 'uint32':
      return fc.integer({ min: 0, max: 2 ** 32 - 1 });
    case 'int64':
      return fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
    case 'uint64':
      return fc.bigInt({ min: 0n, max: 2n ** 64n - 1n });
    case 'float32':
      return fc.float();
    case 'float64':
      return fc.double();
    case 'bool':
      return fc.boolean();
    case 'string':
      return fc.string({ unit: 'grapheme', maxLength: 6 }).filter((text) => text !== '__proto__');
    case 'bytes':
      return fc.uint8Array({ maxLength: 5 });
    case 'enum':
      return fc.constantFrom(...schema.members);
    case 'timestamp':
      // An imported Timestamp holds the well-known type's years, 0001 to 9999 (`range`).
      return fc.date({
        min: new Date('0001-01-01T00:00:00Z'),
        max: new Date('9999-12-31T23:59:59.999Z'),
        noInvalidDate: true,
      });
    case 'json': {
      // Value, Struct or ListValue: JSON values whose numbers are finite doubles, -0 aside (the
      // wire has one zero); an object key that could reach a prototype is refused by design.
      const value = jsonValue(depth);
      if (schema.proto === 'struct') return fc.dictionary(jsonKey, value, { maxKeys: 3 });
      if (schema.proto === 'list') return fc.array(value, { maxLength: 3 });
      return value;
    }
    default:
      throw new Error(`no arbitrary for ${schema.kind}`);
  }
}

const jsonKey = fc.string({ maxLength: 4 }).filter((key) => key !== '__proto__');

/** A JSON value, nested at most to depth 3 as the other kinds are. */
function jsonValue(depth: number): fc.Arbitrary<unknown> {
  const leaf = fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.string({ maxLength: 5 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)),
  );
  if (depth >= 3) return leaf;
  return fc.oneof(
    leaf,
    fc.array(jsonValue(depth + 1), { maxLength: 3 }),
    fc.dictionary(jsonKey, jsonValue(depth + 1), { maxKeys: 3 }),
  );
}
