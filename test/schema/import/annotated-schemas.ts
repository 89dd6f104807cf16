/**
 * Random wirekit schemas holding every fact the `x-wirekit-*` annotations carry, for the round trip
 * through JSON Schema: every kind the exporter writes, with bounds, declared Protocol Buffers
 * types, precisions, defaults, docs, field numbers, aliases, presence, reserved numbers, oneof
 * groups, enum numbers, untagged and tagged unions, recursion, a timestamp's range, json's
 * well-known messages, and the Avro forms (logical types, fixed names, a decimal in a fixed). A candidate the builders refuse
 * (a default beside bounds it breaks, say) falls back to a plain string field.
 */
import fc from 'fast-check';
import { isWirekitError } from '../../../src/errors/index.js';
import {
  type FieldInput,
  type ObjectSchema,
  type ProtoIntType,
  type Schema,
  type SmallIntKind,
  t,
} from '../../../src/schema/index.js';

/** Names are handed out in order, so that two named types of one schema never share one. */
let named = 0;
const nextName = (stem: string) => `${stem}${++named}`;

const smallKinds: readonly [SmallIntKind, readonly ProtoIntType[], number, number][] = [
  ['int8', ['int32', 'sint32', 'sfixed32'], -128, 127],
  ['int16', ['int32', 'sint32', 'sfixed32'], -32_768, 32_767],
  ['int32', ['int32', 'sint32', 'sfixed32'], -(2 ** 31), 2 ** 31 - 1],
  ['uint8', ['uint32', 'fixed32'], 0, 255],
  ['uint16', ['uint32', 'fixed32'], 0, 65_535],
  ['uint32', ['uint32', 'fixed32'], 0, 2 ** 32 - 1],
];

const smallInt: fc.Arbitrary<Schema> = fc
  .tuple(fc.constantFrom(...smallKinds), fc.double({ min: 0, max: 1, noNaN: true }), fc.nat(3), fc.boolean())
  .map(([[kind, protos, least, greatest], cut, proto, bounded]) => {
    const min = bounded ? Math.round(least + (greatest - least) * cut * 0.5) : undefined;
    const builder = t[kind] as (options: object) => Schema;
    // An int32 may carry an Avro logical type (a date, a time of day).
    const avro = kind === 'int32' && proto > 1 ? (['date', 'time-millis'] as const)[proto % 2] : undefined;
    return builder({ min, max: bounded ? greatest - 1 : undefined, proto: protos[proto], avro });
  });

const largeInt: fc.Arbitrary<Schema> = fc
  .tuple(fc.boolean(), fc.constantFrom('bigint', 'number'), fc.nat(3))
  .map(([signed, as, proto]) => {
    const protos = signed ? ['int64', 'sint64', 'sfixed64'] : ['uint64', 'fixed64'];
    const options = { as, proto: protos[proto] } as { as: 'bigint'; proto?: never };
    if (!signed) return t.uint64(options);
    return t.int64({ ...options, avro: longForms[proto] });
  });

const longForms = ['time-micros', 'local-timestamp-millis', 'local-timestamp-micros', undefined] as const;

/** The Avro forms the other kinds declare: a uuid's text, a fixed's name and logical type, a decimal in a fixed. */
const avroForms: fc.Arbitrary<Schema> = fc.nat(4).map((pick) => {
  switch (pick) {
    case 0:
      return t.string({ avro: 'uuid' });
    case 1:
      return t.bytes({ size: 16, avro: { name: nextName('Uuid'), logicalType: 'uuid' } });
    case 2:
      return t.bytes({
        size: 12,
        avro: {
          name: nextName('Span'),
          namespace: 'acme.time',
          aliases: ['Period'],
          logicalType: 'duration',
        },
      });
    case 3:
      return t.bytes({ size: 5, avro: { name: nextName('Code') } });
    default:
      return t.decimal({
        precision: 9,
        scale: 2,
        avro: { name: nextName('Money'), namespace: 'acme', size: 5 },
      });
  }
});

const leaf: fc.Arbitrary<Schema> = fc.oneof(
  fc.constant(t.bool()),
  smallInt,
  largeInt,
  fc.constantFrom(t.float32(), t.float64()),
  fc
    .tuple(fc.option(fc.integer({ min: 1, max: 38 })), fc.option(fc.integer({ min: 0, max: 10 })))
    .map(([precision, scale]) =>
      t.decimal({
        precision: precision ?? undefined,
        scale: scale === null || (precision !== null && scale > precision) ? undefined : scale,
      }),
    ),
  fc
    .record({ minLength: fc.option(fc.nat(4)), maxLength: fc.option(fc.integer({ min: 5, max: 40 })) })
    .map(({ minLength, maxLength }) =>
      t.string({
        minLength: minLength ?? undefined,
        maxLength: maxLength ?? undefined,
        pattern: minLength === 2 ? '^\\S' : undefined,
      }),
    ),
  fc
    .tuple(fc.option(fc.integer({ min: 0, max: 50 })), fc.boolean())
    .map(([length, sized]) =>
      sized && length !== null ? t.bytes({ size: length }) : t.bytes({ maxLength: length ?? undefined }),
    ),
  fc.constantFrom('s', 'ms', 'us', 'ns').map((precision) => t.timestamp({ precision })),
  // An imported google.protobuf.Timestamp: years 0001-9999.
  fc.constantFrom('s', 'ms', 'us').map((precision) => t.timestamp({ precision, range: '0001-9999' })),
  avroForms,
  fc.constantFrom(t.literal('on'), t.literal(7), t.literal(true)),
  fc.boolean().map((numbered) =>
    t.enum(nextName('Level'), ['low', 'mid', 'high'], {
      namespace: numbered ? 'acme.ops' : undefined,
      aliases: numbered ? ['Grade'] : undefined,
      numbers: numbered ? [0, 5, -1] : undefined,
      doc: numbered ? 'How much' : undefined,
    }),
  ),
  fc.constant(t.json()),
  fc.constantFrom('value', 'struct', 'list').map((proto) => t.json({ proto })),
);

/** One branch of each value class; `pick` chooses among the kinds of a class. */
const branchOfClass = {
  bool: () => t.bool(),
  number: (pick: number) =>
    [t.int32({ min: 0 }), t.float32(), t.uint64({ as: 'number', proto: 'fixed64' })][pick % 3] as Schema,
  text: (pick: number) =>
    [t.timestamp({ precision: 'us' }), t.decimal({ scale: 3 }), t.bytes({ maxLength: 4 })][
      pick % 3
    ] as Schema,
  list: () => t.array(t.string()),
  object: () => t.object(nextName('Branch'), { at: t.string() }),
} satisfies Record<string, (pick: number) => Schema>;

/** Branches of distinct value classes, which either.ts takes together. */
const either: fc.Arbitrary<Schema> = fc
  .tuple(fc.subarray(['bool', 'number', 'text', 'list', 'object'] as const, { minLength: 2 }), fc.nat(5))
  .map(([classes, pick]) => t.either(classes.map((kind) => branchOfClass[kind](pick))));

function withChildren(inner: fc.Arbitrary<Schema>): fc.Arbitrary<Schema> {
  return fc.oneof(
    fc.tuple(inner, fc.boolean(), fc.option(fc.nat(3))).map(([items, unpacked, maxItems]) =>
      tryOr(
        () => t.array(items, { packed: unpacked ? false : undefined, maxItems: maxItems ?? undefined }),
        () => t.array(items),
      ),
    ),
    fc
      .tuple(fc.constantFrom(t.string({ maxLength: 8 }), t.int32({ proto: 'sfixed32' }), t.uint64()), inner)
      .map(([keys, values]) => t.map(keys, values)),
    fc.tuple(inner, fc.boolean()).map(([value, wrapper]) =>
      value.kind === 'nullable'
        ? value
        : tryOr(
            () => t.nullable(value, wrapper ? { proto: 'wrapper' } : {}),
            () => t.nullable(value),
          ),
    ),
    either,
    inner.map((value) => objectOf([['value', value]])),
    fc.constant(0).map(() => {
      const Circle = t.object(nextName('Circle'), { shape: t.literal('circle'), r: t.float64() });
      const Square = t.object(nextName('Square'), { shape: t.literal('square'), side: t.uint16() });
      return t.union(nextName('Shape'), 'shape', [Circle, Square], { aliases: ['Form'] });
    }),
  );
}

/** A field of each kind, with metadata chosen at random, some optional, two in a oneof group. */
function objectOf(kinds: readonly [string, Schema][], extras: FieldExtras[] = []): ObjectSchema {
  const fields: Record<string, FieldInput> = {};
  kinds.forEach(([name, schema], i) => {
    const extra = extras[i] ?? {};
    const value = extra.optional ? t.optional(schema) : schema;
    fields[name] = tryOr<FieldInput>(
      () => {
        const field = t.field(value, {
          id: extra.id,
          doc: extra.doc,
          deprecated: extra.deprecated,
          aliases: extra.alias ? [`${name}Old`] : undefined,
          presence: extra.explicit && !extra.optional ? 'explicit' : undefined,
          default: extra.defaulted ? defaultOf(schema) : undefined,
        });
        t.object('Check', { [name]: field });
        return field;
      },
      () => value,
    );
  });
  return t.object(nextName('Record'), fields);
}

function defaultOf(schema: Schema): unknown {
  if (schema.kind === 'string') return 'xyzzy';
  if (schema.kind === 'bool') return true;
  if (schema.kind === 'int8' || schema.kind === 'uint16') return schema.max ?? 100;
  return undefined;
}

interface FieldExtras {
  readonly optional?: boolean;
  readonly id?: number;
  readonly doc?: string;
  readonly deprecated?: boolean;
  readonly alias?: boolean;
  readonly explicit?: boolean;
  readonly defaulted?: boolean;
}

const extras: fc.Arbitrary<FieldExtras> = fc.record(
  {
    optional: fc.boolean(),
    id: fc.integer({ min: 1000, max: 1100 }),
    doc: fc.constantFrom('What it holds', 'Zoë says "hi"'),
    deprecated: fc.constant(true),
    alias: fc.boolean(),
    explicit: fc.boolean(),
    defaulted: fc.boolean(),
  },
  { requiredKeys: [] },
);

function tryOr<S>(make: () => S, fallback: () => S): S {
  try {
    return make();
  } catch (error) {
    if (isWirekitError(error)) return fallback();
    throw error;
  }
}

const value: fc.Arbitrary<Schema> = fc.oneof(
  { weight: 3, arbitrary: leaf },
  { weight: 2, arbitrary: withChildren(leaf) },
  { weight: 1, arbitrary: withChildren(withChildren(leaf)) },
);

/**
 * An object of random fields, two optional fields in a oneof group, reserved numbers, and a
 * recursive field (a list of its own type).
 */
export const annotatedSchema: fc.Arbitrary<ObjectSchema> = fc
  .tuple(
    fc.uniqueArray(fc.tuple(fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,8}$/), value, extras), {
      minLength: 1,
      maxLength: 8,
      selector: ([name]) => name,
    }),
    fc.boolean(),
  )
  .map(([entries, withGroup]) => {
    const fields: Record<string, FieldInput> = {};
    const used = new Set<number>();
    for (const [name, schema, extra] of entries) {
      const id = extra.id !== undefined && !used.has(extra.id) ? extra.id : undefined;
      if (id !== undefined) used.add(id);
      const probe = objectOf([[name, schema]], [{ ...extra, id }]);
      const field = probe.fields[0];
      if (field === undefined) continue;
      fields[name] = t.field(field.schema, {
        id,
        doc: field.doc,
        deprecated: field.deprecated,
        aliases: field.aliases,
        presence: field.presence,
        default: field.default,
      });
    }
    if (withGroup) {
      fields.byEmail = t.optional(t.string());
      fields.byPhone = t.optional(t.uint64({ proto: 'fixed64' }));
    }
    const name = nextName('Root');
    const root: ObjectSchema = t.object(
      name,
      { ...fields, children: t.array(t.lazy(() => root)) },
      {
        doc: 'A generated record',
        aliases: ['OldRoot'],
        reserved: [2000, 2001],
        oneofs: withGroup ? { contact: ['byEmail', 'byPhone'] } : undefined,
      },
    );
    return root;
  });
