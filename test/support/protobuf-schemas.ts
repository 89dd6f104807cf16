/**
 * Random schemas of the kinds Protocol Buffers carries (every integer kind in each declared proto
 * type, floats, strings, bytes, timestamps, enums, json, nullable leaves, lists, maps, messages)
 * and random values of them (fast-check), for the differential tests of the protobuf codecs: the
 * compiled codec against the interpreter (compiled-maps.test.ts), the ProtoJSON transcoder against
 * the two codecs (protojson-transcode.test.ts).
 */
import fc from 'fast-check';
import { type Schema, t } from '../../src/schema/index.js';

let names = 0;

/** A name no other schema drawn in this process has (messages and enums are named). */
export function nextName(): number {
  return names++;
}

/** The kinds a map key can have. */
const keyKinds: (() => Schema)[] = [
  () => t.string(),
  () => t.int8(),
  () => t.uint16(),
  () => t.int32(),
  () => t.uint32(),
  () => t.int64(),
  () => t.uint64(),
  () => t.int64({ as: 'number' }),
  () => t.int32({ proto: 'sint32' }),
  () => t.int32({ proto: 'sfixed32' }),
  () => t.uint32({ proto: 'fixed32' }),
  () => t.int64({ proto: 'sint64' }),
  () => t.uint64({ proto: 'fixed64' }),
];

/** The kinds of a single value (a field, an item, a map value) that are not containers. */
export const leafKinds: (() => Schema)[] = [
  ...keyKinds,
  () => t.bool(),
  () => t.float32(),
  () => t.float64(),
  () => t.bytes(),
  () => t.decimal(),
  () => t.timestamp(),
  () => t.enum(`E${names++}`, ['zero', 'one', 'two']),
  () => t.string({ minLength: 1 }),
];

/**
 * json's null is its own absent value, so it stays out of optional and nullable places; and an
 * optional field is never nullable as well (Protocol Buffers has one "not set" for both).
 */
export const valueKinds: (() => Schema)[] = [...leafKinds, () => t.json()];

/**
 * Random schemas whose values are drawn from `values` (a leaf kind, or json), nullable leaves, maps,
 * messages and arrays of any of them, nesting at most three deep.
 */
export function schemaArbitraryOf(values: readonly (() => Schema)[]) {
  return fc.letrec<{ value: Schema; map: Schema; message: Schema }>((tie) => ({
    value: fc.oneof(
      { maxDepth: 3, depthIdentifier: 'schema' },
      fc.constantFrom(...values).map((make) => make()),
      tie('map'),
      tie('message'),
      fc.constantFrom(...leafKinds).map((make) => t.nullable(make())),
      tie('value').map((items) => t.array(items)),
    ),
    map: fc
      .tuple(fc.constantFrom(...keyKinds), tie('value'))
      .map(([key, value]) => t.map(key() as never, value)),
    message: fc
      .array(fc.tuple(tie('value'), fc.boolean()), { minLength: 1, maxLength: 3 })
      .map((fields) =>
        t.object(
          `M${names++}`,
          Object.fromEntries(
            fields.map(([schema, optional], i) => [
              `f${i}`,
              optional && schema.kind !== 'json' && schema.kind !== 'nullable' ? t.optional(schema) : schema,
            ]),
          ),
        ),
      ),
  }));
}

const int = (min: number, max: number) => fc.integer({ min, max });

/** Random values of a schema drawn above, nesting bounded by the schema itself. */
export function valuesOf(schema: Schema): fc.Arbitrary<unknown> {
  switch (schema.kind) {
    case 'string':
      return fc
        .string({ unit: 'grapheme', minLength: schema.minLength ?? 0, maxLength: 5 })
        .filter((text) => text !== '__proto__');
    case 'int8':
      return int(-128, 127);
    case 'uint16':
      return int(0, 65535);
    case 'int32':
      return int(-(2 ** 31), 2 ** 31 - 1);
    case 'uint32':
      return int(0, 2 ** 32 - 1);
    case 'int64':
      return schema.as === 'number'
        ? fc.maxSafeInteger()
        : fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
    case 'uint64':
      return fc.bigInt({ min: 0n, max: 2n ** 64n - 1n });
    case 'bool':
      return fc.boolean();
    case 'float32':
      return fc.float();
    case 'float64':
      return fc.double();
    case 'bytes':
      return fc.uint8Array({ maxLength: 4 });
    case 'decimal':
      return fc.constantFrom('0', '-1.5', '12345678901234567890.25', '0.001');
    case 'timestamp':
      return fc.integer({ min: -1e12, max: 1e13 }).map((ms) => new Date(ms));
    case 'enum':
      return fc.constantFrom(...schema.members);
    case 'json':
      return fc.constantFrom(null, 1.5, 'text', [true, null], { a: { b: [] } });
    case 'nullable':
      return fc.option(valuesOf(schema.inner), { nil: null });
    case 'array':
      return fc.array(valuesOf(schema.items), { maxLength: 3 });
    case 'map': {
      const entries = fc.array(fc.tuple(valuesOf(schema.keys), valuesOf(schema.values)), { maxLength: 4 });
      return entries.map((pairs) =>
        schema.keys.kind === 'string' ? Object.fromEntries(pairs) : new Map(pairs as [unknown, unknown][]),
      );
    }
    case 'object': {
      const fields: Record<string, fc.Arbitrary<unknown>> = {};
      const required: string[] = [];
      for (const field of schema.fields) {
        const optional = field.schema.kind === 'optional';
        fields[field.name] = valuesOf(
          optional && field.schema.kind === 'optional' ? field.schema.inner : field.schema,
        );
        if (!optional) required.push(field.name);
      }
      return fc.record(fields, { requiredKeys: required, noNullPrototype: true });
    }
    default:
      throw new Error(`no values for ${schema.kind}`);
  }
}
