/**
 * The schema builders, exported together as `t`:
 *
 *   const User = t.object('User', { id: t.int64(), name: t.string(), tags: t.array(t.string()) });
 *   type User = Infer<typeof User>;
 *
 * Each builder checks its arguments and returns a frozen plain node (see types.ts).
 */

import { describeValue, WirekitError } from '../errors/index.js';
import { checkIntForm, checkStringForm, decimalForm, fixedForm } from './avro-forms.js';
import { branchTable } from './either.js';
import { assignFieldNumbers } from './field-numbers.js';
import { smallIntRange } from './int-ranges.js';
import { checkFieldName, checkTypeName } from './names.js';
import { type OneofsInput, oneofGroups } from './oneofs.js';
import { protoWrapperKinds, protoWrapperOf } from './proto-wrappers.js';
import type {
  ArraySchema,
  AvroDecimalForm,
  AvroFixedForm,
  AvroIntForm,
  AvroLongForm,
  AvroStringForm,
  BoolSchema,
  BytesSchema,
  DecimalSchema,
  EitherSchema,
  EnumSchema,
  FieldDef,
  FloatKind,
  FloatSchema,
  Infer,
  InferInput,
  InputTypeKey,
  Int64Schema,
  IntSchema,
  JsonProtoForm,
  JsonSchema,
  LargeIntKind,
  LiteralSchema,
  LiteralValue,
  MapKeySchema,
  MapSchema,
  NamedSchema,
  NullableSchema,
  ObjectSchema,
  OptionalSchema,
  ProtoInt32Type,
  ProtoInt64Type,
  ProtoIntType,
  ProtoUint32Type,
  ProtoUint64Type,
  RefSchema,
  Schema,
  SchemaNode,
  SmallIntKind,
  StringSchema,
  TimePrecision,
  TimestampRange,
  TimestampSchema,
  UnionSchema,
  ValueTypeKey,
} from './types.js';

// The phantom value and input types exist only for the compiler, so every builder ends in this cast.
function node<S extends Schema>(value: Omit<S, ValueTypeKey | InputTypeKey>): S {
  return Object.freeze(value) as unknown as S;
}

function invalid(message: string): never {
  throw new WirekitError('WK_SCHEMA_INVALID', message);
}

function checkLength(what: string, value: number | undefined): void {
  if (value !== undefined && (!Number.isSafeInteger(value) || value < 0)) {
    invalid(`${what} must be a non-negative integer, got ${value}.`);
  }
}

function compact<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
  return value;
}

export const bool = (): BoolSchema => node<BoolSchema>({ kind: 'bool' });
export interface FloatOptions {
  /** The least value allowed (inclusive, a finite number); a bounded float refuses NaN. */
  readonly min?: number;
  /** The greatest value allowed (inclusive, a finite number); a bounded float refuses NaN. */
  readonly max?: number;
}

function float<K extends FloatKind>(kind: K, { min, max }: FloatOptions): FloatSchema<K> {
  for (const [name, bound] of [
    ['min', min],
    ['max', max],
  ] as const) {
    if (bound === undefined) continue;
    if (typeof bound !== 'number' || !Number.isFinite(bound)) {
      invalid(`${kind}: ${name} must be a finite number, got ${describeValue(bound)}.`);
    }
    // A float32 value rounds to float32 on every wire; a bound that is one keeps a value and its
    // rounding on the same side of it.
    if (kind === 'float32' && Math.fround(bound) !== bound) {
      invalid(`${kind}: ${name} must be a float32 value (Math.fround(${name}) === ${name}), got ${bound}.`);
    }
  }
  if (min !== undefined && max !== undefined && min > max) {
    invalid(`${kind}: min ${min} is greater than max ${max}.`);
  }
  return node<FloatSchema<K>>(compact({ kind, min, max }));
}

export const float32 = (options: FloatOptions = {}): FloatSchema<'float32'> => float('float32', options);
export const float64 = (options: FloatOptions = {}): FloatSchema<'float64'> => float('float64', options);

/** The Protocol Buffers types each integer kind may declare (types.ts, ProtoIntType). */
const protoIntTypes: Record<SmallIntKind | LargeIntKind, readonly ProtoIntType[]> = {
  int8: ['int32', 'sint32', 'sfixed32'],
  int16: ['int32', 'sint32', 'sfixed32'],
  int32: ['int32', 'sint32', 'sfixed32'],
  uint8: ['uint32', 'fixed32'],
  uint16: ['uint32', 'fixed32'],
  uint32: ['uint32', 'fixed32'],
  int64: ['int64', 'sint64', 'sfixed64'],
  uint64: ['uint64', 'fixed64'],
};

function checkProtoInt(kind: SmallIntKind | LargeIntKind, proto: unknown): void {
  const allowed = protoIntTypes[kind];
  if (proto !== undefined && !allowed.includes(proto as ProtoIntType)) {
    invalid(`${kind}: proto must be one of ${allowed.join(', ')}, got ${describeValue(proto)}.`);
  }
}

export interface IntOptions<P extends ProtoIntType> {
  /** The Protocol Buffers type the field is declared as; by default sint32 for signed kinds, uint32 for unsigned. */
  readonly proto?: P;
}

export interface SmallIntOptions<P extends ProtoIntType> extends IntOptions<P> {
  /** The least value allowed (inclusive), inside the kind's range; by default the kind's least. */
  readonly min?: number;
  /** The greatest value allowed (inclusive), inside the kind's range; by default the kind's greatest. */
  readonly max?: number;
}

export interface Int32Options extends SmallIntOptions<ProtoInt32Type> {
  /** The Avro logical type the value is stored as (AvroIntForm: `date`, `time-millis`). */
  readonly avro?: AvroIntForm;
}

function smallInt<K extends SmallIntKind>(
  kind: K,
  options: SmallIntOptions<ProtoIntType> & { readonly avro?: AvroIntForm },
): IntSchema<K> {
  checkProtoInt(kind, options.proto);
  checkIntForm(kind, options.avro);
  const [least, greatest] = smallIntRange[kind];
  const { min, max } = options;
  for (const [name, bound] of [
    ['min', min],
    ['max', max],
  ] as const) {
    if (bound !== undefined && (!Number.isInteger(bound) || bound < least || bound > greatest)) {
      invalid(
        `${kind}: ${name} must be an integer from ${least} to ${greatest}, got ${describeValue(bound)}.`,
      );
    }
  }
  if ((min ?? least) > (max ?? greatest)) invalid(`${kind}: min ${min} is greater than max ${max}.`);
  // A bound equal to the kind's own limit says nothing, so it is not stored: one range, one form.
  return node<IntSchema<K>>(
    compact({
      kind,
      proto: options.proto,
      avro: options.avro,
      min: min === least || min === undefined ? undefined : min,
      max: max === greatest || max === undefined ? undefined : max,
    }),
  );
}

export const int8 = (options: SmallIntOptions<ProtoInt32Type> = {}): IntSchema<'int8'> =>
  smallInt('int8', options);
export const int16 = (options: SmallIntOptions<ProtoInt32Type> = {}): IntSchema<'int16'> =>
  smallInt('int16', options);
export const int32 = (options: Int32Options = {}): IntSchema<'int32'> => smallInt('int32', options);
export const uint8 = (options: SmallIntOptions<ProtoUint32Type> = {}): IntSchema<'uint8'> =>
  smallInt('uint8', options);
export const uint16 = (options: SmallIntOptions<ProtoUint32Type> = {}): IntSchema<'uint16'> =>
  smallInt('uint16', options);
export const uint32 = (options: SmallIntOptions<ProtoUint32Type> = {}): IntSchema<'uint32'> =>
  smallInt('uint32', options);

export interface Int64Options<As extends 'bigint' | 'number', P extends ProtoIntType = ProtoIntType>
  extends IntOptions<P> {
  /** 'bigint' (the default) is exact; 'number' is handier where values stay within 2^53. */
  readonly as: As;
}

/** An int64's own options: the Avro logical type its value is stored as (AvroLongForm). */
interface LongFormOption {
  readonly avro?: AvroLongForm;
}

export function int64(options?: IntOptions<ProtoInt64Type> & LongFormOption): Int64Schema<'int64', bigint>;
export function int64<As extends 'bigint' | 'number'>(
  options: Int64Options<As, ProtoInt64Type> & LongFormOption,
): Int64Schema<'int64', As extends 'number' ? number : bigint>;
export function int64(
  options?: Partial<Int64Options<'bigint' | 'number'>> & LongFormOption,
): Int64Schema<'int64'> {
  checkIntForm('int64', options?.avro);
  return largeInt('int64', options?.as ?? 'bigint', options?.proto, options?.avro);
}

export function uint64(options?: IntOptions<ProtoUint64Type>): Int64Schema<'uint64', bigint>;
export function uint64<As extends 'bigint' | 'number'>(
  options: Int64Options<As, ProtoUint64Type>,
): Int64Schema<'uint64', As extends 'number' ? number : bigint>;
export function uint64(options?: Partial<Int64Options<'bigint' | 'number'>>): Int64Schema<'uint64'> {
  // Avro has no unsigned long: a logical type read from a schema document is refused, not dropped.
  checkIntForm('uint64', (options as LongFormOption | undefined)?.avro);
  return largeInt('uint64', options?.as ?? 'bigint', options?.proto);
}

function largeInt<K extends 'int64' | 'uint64'>(
  kind: K,
  as: 'bigint' | 'number',
  proto: ProtoIntType | undefined,
  avro?: AvroLongForm,
): Int64Schema<K> {
  if (as !== 'bigint' && as !== 'number') invalid(`${kind}: 'as' must be 'bigint' or 'number'.`);
  checkProtoInt(kind, proto);
  return node<Int64Schema<K>>(compact({ kind, as, proto, avro }));
}

export interface DecimalOptions {
  readonly precision?: number;
  readonly scale?: number;
  /** Avro only: the `fixed` the decimal is stored in (AvroDecimalForm); needs precision and scale. */
  readonly avro?: AvroDecimalForm;
}

export function decimal(options: DecimalOptions = {}): DecimalSchema {
  const { precision, scale } = options;
  if (precision !== undefined && (!Number.isInteger(precision) || precision < 1)) {
    invalid(`decimal: precision must be a positive integer, got ${precision}.`);
  }
  if (
    scale !== undefined &&
    (!Number.isInteger(scale) || scale < 0 || (precision !== undefined && scale > precision))
  ) {
    invalid(`decimal: scale must be an integer from 0 to the precision, got ${scale}.`);
  }
  const avro = decimalForm(precision, scale, options.avro);
  return node<DecimalSchema>(compact({ kind: 'decimal', precision, scale, avro }));
}

export interface StringOptions {
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  /** The Avro logical type the text is stored as (AvroStringForm: `uuid`). */
  readonly avro?: AvroStringForm;
}

export function string(options: StringOptions = {}): StringSchema {
  const { minLength, maxLength, pattern, avro } = options;
  checkStringForm(avro);
  checkLength('string: minLength', minLength);
  checkLength('string: maxLength', maxLength);
  if (pattern !== undefined) {
    try {
      new RegExp(pattern, 'u');
    } catch (cause) {
      throw new WirekitError(
        'WK_SCHEMA_INVALID',
        `string: pattern ${JSON.stringify(pattern)} is not valid.`,
        {
          cause,
        },
      );
    }
  }
  return node<StringSchema>(compact({ kind: 'string', minLength, maxLength, pattern, avro }));
}

export interface BytesOptions {
  /** The most bytes a value may hold. */
  readonly maxLength?: number;
  /** The exact number of bytes every value holds (an Avro `fixed`); not beside maxLength. */
  readonly size?: number;
  /** Avro only: the name and logical type of the `fixed` (AvroFixedForm); needs `size`. */
  readonly avro?: AvroFixedForm;
}

export function bytes(options: BytesOptions = {}): BytesSchema {
  const { maxLength, size } = options;
  checkLength('bytes: maxLength', maxLength);
  checkLength('bytes: size', size);
  if (size !== undefined && maxLength !== undefined)
    invalid('bytes: give size (the exact length) or maxLength, not both.');
  const avro = fixedForm(size, options.avro);
  return node<BytesSchema>(compact({ kind: 'bytes', maxLength, size, avro }));
}

const precisions: readonly TimePrecision[] = ['s', 'ms', 'us', 'ns'];

export interface TimestampOptions {
  /** The unit stored on the wire (default 'ms'). */
  readonly precision?: TimePrecision;
  /** Only the instants of years 0001 to 9999, as google.protobuf.Timestamp: see TimestampSchema.range. */
  readonly range?: TimestampRange;
}

export function timestamp(options: TimestampOptions = {}): TimestampSchema {
  const precision = options.precision ?? 'ms';
  if (!precisions.includes(precision))
    invalid(`timestamp: precision must be one of ${precisions.join(', ')}.`);
  const { range } = options;
  if (range !== undefined && range !== '0001-9999') invalid(`timestamp: range must be '0001-9999'.`);
  // A 64-bit count of nanoseconds ends in 1677 and 2262: the range would be a promise no format keeps.
  if (range !== undefined && precision === 'ns') {
    invalid(
      `timestamp: range '${range}' needs precision s, ms or us (a 64-bit count of ns holds 1677-2262).`,
    );
  }
  return node<TimestampSchema>(compact({ kind: 'timestamp', precision, range }));
}

export interface NamedOptions {
  readonly namespace?: string;
  readonly doc?: string;
  readonly aliases?: readonly string[];
}

function namedInfo(name: string, options: NamedOptions) {
  checkTypeName(name);
  if (options.namespace !== undefined) {
    for (const part of options.namespace.split('.')) checkTypeName(part, 'namespace part');
  }
  for (const alias of options.aliases ?? []) checkTypeName(alias, 'alias');
  return compact({
    name,
    namespace: options.namespace,
    doc: options.doc,
    aliases: options.aliases === undefined ? undefined : Object.freeze([...options.aliases]),
  });
}

export interface EnumOptions extends NamedOptions {
  /**
   * Protocol Buffers only: each member's number, in the order of the members (distinct int32s; in
   * proto3 the first is 0, the default). Without it member i is number i. See EnumSchema.numbers.
   */
  readonly numbers?: readonly number[];
}

export function enumeration<const M extends string>(
  name: string,
  members: readonly M[],
  options: EnumOptions = {},
): EnumSchema<M> {
  if (members.length === 0) invalid(`enum ${name}: needs at least one member.`);
  if (new Set(members).size !== members.length) invalid(`enum ${name}: members must be distinct.`);
  for (const member of members) {
    if (typeof member !== 'string' || member === '')
      invalid(`enum ${name}: members must be non-empty strings.`);
  }
  const { numbers, ...named } = options;
  if (numbers !== undefined) checkEnumNumbers(name, members.length, numbers);
  return node<EnumSchema<M>>({
    kind: 'enum',
    ...namedInfo(name, named),
    members: Object.freeze([...members]),
    ...(numbers === undefined ? {} : { numbers: Object.freeze([...numbers]) }),
  });
}

function checkEnumNumbers(name: string, count: number, numbers: readonly number[]): void {
  if (!Array.isArray(numbers) || numbers.length !== count) {
    invalid(`enum ${name}: numbers must give one number per member (${count}).`);
  }
  for (const number of numbers) {
    if (!Number.isInteger(number) || number < -(2 ** 31) || number >= 2 ** 31) {
      invalid(`enum ${name}: numbers must be int32s, got ${describeValue(number)}.`);
    }
  }
  // Two members of one number would decode to either: a .proto's allow_alias has no wirekit reading.
  if (new Set(numbers).size !== numbers.length) invalid(`enum ${name}: numbers must be distinct.`);
}

export function literal<const V extends LiteralValue>(value: V): LiteralSchema<V> {
  const ok =
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value));
  if (!ok) invalid(`literal: value must be a string, boolean or finite number, got ${describeValue(value)}.`);
  return node<LiteralSchema<V>>({ kind: 'literal', value });
}

/** Field-level metadata, given through `t.field(schema, meta)`. */
export interface FieldMeta<T = unknown> {
  /** Pin the field number (see field-numbers.ts for the numbering rule). */
  readonly id?: number;
  readonly doc?: string;
  readonly default?: T;
  readonly deprecated?: boolean;
  readonly aliases?: readonly string[];
  /** Protocol Buffers only: see FieldDef.presence. */
  readonly presence?: 'explicit';
}

/**
 * A schema wrapped with field metadata; only `t.object` unwraps it. `D` records, for the compiler
 * alone, whether the field has a default, which makes it optional in the object's input type.
 */
export class Field<S extends Schema = Schema, D extends boolean = boolean> {
  declare readonly hasDefault: D;
  constructor(
    readonly schema: S,
    readonly meta: FieldMeta,
  ) {}
}

export function field<S extends Schema>(
  schema: S,
  meta: FieldMeta<Infer<S>> & { readonly default: Infer<S> },
): Field<S, true>;
export function field<S extends Schema>(schema: S, meta: FieldMeta<Infer<S>>): Field<S, false>;
export function field<S extends Schema>(schema: S, meta: FieldMeta<Infer<S>>): Field<S> {
  return new Field(schema, meta);
}

export type FieldInput = Schema | Field;

type SchemaOf<F> = F extends Field<infer S> ? S : F;
type OptionalKeys<F> = { [K in keyof F]: SchemaOf<F[K]> extends OptionalSchema ? K : never }[keyof F];
/** Keys that may be left out of an input value: optional fields, and fields with a default. */
type InputOptionalKeys<F> = {
  [K in keyof F]: F[K] extends Field<Schema, true> ? K : SchemaOf<F[K]> extends OptionalSchema ? K : never;
}[keyof F];
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The value type of an object with these fields: optional fields become optional keys. */
export type InferFields<F> = Simplify<
  { -readonly [K in Exclude<keyof F, OptionalKeys<F>>]: Infer<SchemaOf<F[K]>> } & {
    -readonly [K in OptionalKeys<F>]?: Exclude<Infer<SchemaOf<F[K]>>, undefined>;
  }
>;

/** The input type of an object with these fields: fields with a default may be left out too. */
export type InferInputFields<F> = Simplify<
  { -readonly [K in Exclude<keyof F, InputOptionalKeys<F>>]: InferInput<SchemaOf<F[K]>> } & {
    -readonly [K in InputOptionalKeys<F>]?: Exclude<InferInput<SchemaOf<F[K]>>, undefined>;
  }
>;

export interface ObjectOptions extends NamedOptions {
  /** Numbers of removed fields: never reused, and skipped by automatic numbering. */
  readonly reserved?: readonly number[];
  /**
   * Groups of optional fields of which a value holds at most one, by group name: Protocol Buffers'
   * `oneof` (`{ kind: ['name', 'id'] }`); the members keep their own names and numbers (oneofs.ts).
   */
  readonly oneofs?: OneofsInput;
}

export function object<const F extends Record<string, FieldInput>>(
  name: string,
  fields: F,
  options: ObjectOptions = {},
): ObjectSchema<InferFields<F>, InferInputFields<F>> {
  const info = namedInfo(name, options);
  const entries = Object.entries(fields).map(([fieldName, input]) => {
    checkFieldName(name, fieldName);
    const { schema, meta } = input instanceof Field ? input : { schema: input, meta: {} as FieldMeta };
    checkSchemaValue(`${name}.${fieldName}`, schema);
    for (const alias of meta.aliases ?? []) checkFieldName(name, alias);
    return { fieldName, schema, meta };
  });
  const ids = assignFieldNumbers(
    name,
    entries.map((entry) => ({ name: entry.fieldName, id: entry.meta.id })),
    options.reserved,
  );
  const defs = entries.map(
    ({ fieldName, schema, meta }, index): FieldDef =>
      Object.freeze(
        compact({
          name: fieldName,
          id: ids[index] as number,
          schema,
          doc: meta.doc,
          default: meta.default,
          deprecated: meta.deprecated === true ? true : undefined,
          presence: explicitPresence(fieldName, schema, meta.presence),
          aliases: meta.aliases === undefined ? undefined : Object.freeze([...meta.aliases]),
        }),
      ),
  );
  const reserved = options.reserved === undefined ? undefined : Object.freeze([...options.reserved]);
  const oneofs = oneofGroups(name, defs, options.oneofs);
  return node<ObjectSchema<InferFields<F>, InferInputFields<F>>>(
    compact({ kind: 'object' as const, ...info, fields: Object.freeze(defs), reserved, oneofs }),
  );
}

/** A field's declared presence: only a single value (not a list or map, which have no presence) has one. */
function explicitPresence(name: string, schema: Schema, presence: unknown): 'explicit' | undefined {
  if (presence === undefined) return undefined;
  if (presence !== 'explicit') invalid(`field ${name}: presence must be 'explicit'.`);
  // A reference is not resolved here: it may name the object being built (a proto2 message with a
  // required field of its own type), whose fields do not exist yet. It names a type, which has presence.
  const { kind } = schema;
  if (kind === 'array' || kind === 'map' || kind === 'literal') {
    invalid(`field ${name}: a ${kind} has no presence of its own.`);
  }
  return 'explicit';
}

export interface ArrayOptions {
  readonly minItems?: number;
  readonly maxItems?: number;
  /**
   * Protocol Buffers only: `false` writes repeated numbers, booleans and enums one field per item
   * (`[packed = false]`), as proto2 files do by default; packed (proto3's default) otherwise.
   */
  readonly packed?: boolean;
}

export function array<S extends Schema>(
  items: S,
  options: ArrayOptions = {},
): ArraySchema<Infer<S>, InferInput<S>> {
  checkSchemaValue('array items', items);
  checkLength('array: minItems', options.minItems);
  checkLength('array: maxItems', options.maxItems);
  if (options.packed !== undefined && typeof options.packed !== 'boolean') {
    invalid(`array: packed must be a boolean, got ${describeValue(options.packed)}.`);
  }
  return node<ArraySchema<Infer<S>, InferInput<S>>>(
    compact({
      kind: 'array' as const,
      items,
      minItems: options.minItems,
      maxItems: options.maxItems,
      // Only the exception is stored, so that schemas declaring nothing keep their form.
      packed: options.packed === false ? (false as const) : undefined,
    }),
  );
}

type MapValue<K extends MapKeySchema, V> = K extends StringSchema ? Record<string, V> : Map<Infer<K>, V>;

export function map<K extends MapKeySchema, V extends Schema>(
  keys: K,
  values: V,
): MapSchema<MapValue<K, Infer<V>>, MapValue<K, InferInput<V>>> {
  const keyKinds = ['string', 'int8', 'int16', 'int32', 'uint8', 'uint16', 'uint32', 'int64', 'uint64'];
  if (!keyKinds.includes(keys.kind))
    invalid(`map: keys must be a string or an integer kind, got ${keys.kind}.`);
  checkSchemaValue('map values', values);
  return node<MapSchema<MapValue<K, Infer<V>>, MapValue<K, InferInput<V>>>>({ kind: 'map', keys, values });
}

export function optional<S extends Schema>(inner: S): OptionalSchema<Infer<S>, InferInput<S>> {
  if (inner.kind === 'optional') invalid('optional: the schema is optional already.');
  return node<OptionalSchema<Infer<S>, InferInput<S>>>({ kind: 'optional', inner });
}

export interface NullableOptions {
  /** Protocol Buffers only: see NullableSchema.proto. */
  readonly proto?: 'wrapper';
}

export function nullable<S extends Schema>(
  inner: S,
  options: NullableOptions = {},
): NullableSchema<Infer<S>, InferInput<S>> {
  if (inner.kind === 'optional' || inner.kind === 'nullable') {
    invalid(`nullable: cannot wrap a schema that is ${inner.kind} already; use t.optional(t.nullable(x)).`);
  }
  if (options.proto === undefined)
    return node<NullableSchema<Infer<S>, InferInput<S>>>({ kind: 'nullable', inner });
  const wrapper = protoWrapperOf(inner.kind);
  if (options.proto !== 'wrapper' || wrapper === undefined) {
    invalid(`nullable: proto 'wrapper' holds a ${protoWrapperKinds.join(', ')}, not a ${inner.kind}.`);
  }
  // The wrapper's field has one type: a declared other one would not be the wrapper's bytes.
  const declared = 'proto' in inner ? inner.proto : undefined;
  if (declared !== undefined && declared !== wrapper[1]) {
    invalid(`nullable: google.protobuf.${wrapper[0]} holds a ${wrapper[1]}, not a ${String(declared)}.`);
  }
  return node<NullableSchema<Infer<S>, InferInput<S>>>({ kind: 'nullable', inner, proto: 'wrapper' });
}

export function union<const V extends readonly ObjectSchema[]>(
  name: string,
  tag: string,
  variants: V,
  options: NamedOptions = {},
): UnionSchema<Infer<V[number]>, InferInput<V[number]>> {
  const info = namedInfo(name, options);
  if (variants.length === 0) invalid(`union ${name}: needs at least one variant.`);
  const seen = new Set<LiteralValue>();
  for (const variant of variants) {
    if (variant?.kind !== 'object') invalid(`union ${name}: every variant must be a t.object.`);
    const tagField = variant.fields.find((f) => f.name === tag);
    if (tagField?.schema.kind !== 'literal' || typeof tagField.schema.value !== 'string') {
      invalid(`union ${name}: variant ${variant.name} needs a field '${tag}' of a string t.literal.`);
    }
    if (seen.has(tagField.schema.value)) {
      invalid(`union ${name}: two variants have ${tag} = ${JSON.stringify(tagField.schema.value)}.`);
    }
    seen.add(tagField.schema.value);
  }
  return node<UnionSchema<Infer<V[number]>, InferInput<V[number]>>>({
    kind: 'union',
    ...info,
    tag,
    variants: Object.freeze([...variants]),
  });
}

/**
 * An untagged union: a value of any one branch, told apart by the value itself (either.ts gives
 * the rule), as TypeScript's `string | number` is:
 *
 *   const Id = t.either([t.string(), t.int64()]);   // refused: both take text in JSON
 *   const Id = t.either([t.string(), t.float64()]); // string | number
 *
 * Branches that some value could match both are refused here, naming both. Branches are numbered
 * in this order where a format numbers them (Protocol Buffers), so new ones go at the end.
 */
export function either<const B extends readonly Schema[]>(
  branches: B,
): EitherSchema<Infer<B[number]>, InferInput<B[number]>> {
  if (!Array.isArray(branches) || branches.length < 2) {
    invalid('either: needs an array of at least two branches (one branch is that schema alone).');
  }
  branches.forEach((branch, index) => {
    checkSchemaValue(`either branch ${index}`, branch);
  });
  const schema = node<EitherSchema<Infer<B[number]>, InferInput<B[number]>>>({
    kind: 'either',
    branches: Object.freeze([...branches]),
  });
  try {
    branchTable(schema);
  } catch (error) {
    // A t.lazy branch whose target is not defined yet (it is being built, as in a recursive type)
    // cannot be classified now; the table is then built, and checked, on first use.
    if (error instanceof WirekitError && error.code === 'WK_SCHEMA_INVALID') throw error;
    if (!branches.some((branch) => branch.kind === 'ref')) throw error;
  }
  return schema;
}

/**
 * A reference resolved on first use, so that a type can contain itself. Annotate the target, as
 * TypeScript cannot infer a type from its own definition (README, "Recursive schemas"):
 *
 *   interface Tree { label: string; children: Tree[] }
 *   const Tree: ObjectSchema<Tree> = t.object('Tree', { label: t.string(), children: t.array(t.lazy(() => Tree)) });
 *
 * With a default inside the recursion the input type differs, and is the annotation's second type.
 */
export function lazy<T, I = T>(get: () => SchemaNode<T, I>): RefSchema<T, I> {
  let target: NamedSchema | undefined;
  const resolve = (): NamedSchema => {
    if (target === undefined) {
      const value = get() as NamedSchema | undefined;
      if (value?.kind !== 'object' && value?.kind !== 'enum' && value?.kind !== 'union') {
        throw new WirekitError(
          'WK_SCHEMA_UNRESOLVED_REF',
          't.lazy must return a named type (object, enum or union).',
        );
      }
      target = value;
    }
    return target;
  };
  return Object.freeze({
    kind: 'ref',
    resolve,
    get name(): string {
      return resolve().name;
    },
  }) as unknown as RefSchema<T, I>;
}

export interface JsonOptions {
  /** Protocol Buffers: google.protobuf.Value, Struct or ListValue (see JsonSchema.proto). */
  readonly proto?: JsonProtoForm;
}

const jsonProtoForms: readonly JsonProtoForm[] = ['value', 'struct', 'list'];

export function json(options: JsonOptions = {}): JsonSchema {
  const { proto } = options;
  if (proto !== undefined && !jsonProtoForms.includes(proto)) {
    invalid(`json: proto must be one of ${jsonProtoForms.join(', ')}.`);
  }
  return node<JsonSchema>(compact({ kind: 'json', proto }));
}

function checkSchemaValue(where: string, schema: unknown): void {
  if (
    typeof schema !== 'object' ||
    schema === null ||
    typeof (schema as { kind?: unknown }).kind !== 'string'
  ) {
    invalid(`${where}: expected a schema (built with t.*), got ${schema === null ? 'null' : typeof schema}.`);
  }
}

export { bidiStream, clientStream, serverStream, service, unary } from './service.js';
export { enumeration as enum };
