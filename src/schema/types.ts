/**
 * The schema's data model. A schema is a tree of plain, frozen nodes, each with a `kind`; the static
 * type of the values it describes rides along as a phantom type parameter that exists only for the
 * compiler. Keeping nodes as plain data (no methods) is what lets every format, the JSON form and
 * other languages read one schema the same way.
 */

/**
 * Carry a schema's two static types: the value type (what decoding gives, `Infer`) and the input
 * type (what may be handed in where the library fills in field defaults, `InferInput`). Declared,
 * never set: they cost nothing at runtime.
 */
declare const valueType: unique symbol;
declare const inputType: unique symbol;
export type ValueTypeKey = typeof valueType;
export type InputTypeKey = typeof inputType;

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface SchemaNode<T = unknown, I = T> {
  readonly kind: Kind;
  readonly [valueType]: T;
  readonly [inputType]: I;
}

/** The type of the values a schema describes: what decoding gives, and what encoders take. */
export type Infer<S> = S extends { readonly [valueType]: infer T } ? T : never;

/** The same as `Infer`, named for symmetry with `InferInput`. */
export type InferOutput<S> = Infer<S>;

/**
 * The values a schema accepts where its field defaults are filled in before use (the HTTP client's
 * request body, `withDefaults`): a field declared with `t.field(schema, { default })` may be left
 * out. Everywhere else it is the same as `Infer`.
 */
export type InferInput<S> = S extends { readonly [inputType]: infer I } ? I : never;

export type SmallIntKind = 'int8' | 'int16' | 'int32' | 'uint8' | 'uint16' | 'uint32';
export type LargeIntKind = 'int64' | 'uint64';
export type FloatKind = 'float32' | 'float64';
export type NamedKind = 'object' | 'enum' | 'union';

export type Kind =
  | 'bool'
  | SmallIntKind
  | LargeIntKind
  | FloatKind
  | 'decimal'
  | 'string'
  | 'bytes'
  | 'timestamp'
  | 'enum'
  | 'literal'
  | 'object'
  | 'array'
  | 'map'
  | 'optional'
  | 'nullable'
  | 'union'
  | 'either'
  | 'ref'
  | 'json';

export interface BoolSchema extends SchemaNode<boolean> {
  readonly kind: 'bool';
}

/**
 * How Protocol Buffers writes an integer, as a `.proto` file declares it: a varint (`int32`,
 * `uint32`: negative numbers take ten bytes), a zigzag varint (`sint32`: small negative numbers stay
 * small) or fixed width (`sfixed32`, `fixed32`). A schema that declares none gets wirekit's own
 * choice (zigzag for signed kinds, a plain varint for unsigned ones); one imported from a `.proto`
 * keeps the file's, so its bytes are the ones protoc's runtimes write. Only Protocol Buffers reads it.
 */
export type ProtoInt32Type = 'int32' | 'sint32' | 'sfixed32';
export type ProtoUint32Type = 'uint32' | 'fixed32';
export type ProtoInt64Type = 'int64' | 'sint64' | 'sfixed64';
export type ProtoUint64Type = 'uint64' | 'fixed64';
export type ProtoIntType = ProtoInt32Type | ProtoUint32Type | ProtoInt64Type | ProtoUint64Type;

/**
 * An Avro logical type a value keeps where wirekit has no kind of its own for it (avro-forms.ts):
 * the value stays the integer, text or bytes Avro stores, and `toAvro` writes the logical type, so
 * an imported `.avsc` goes back out as it came in. Only Avro reads them.
 * - on an `int32`: `date` (days since 1970-01-01), `time-millis` (milliseconds since midnight);
 * - on an `int64`: `time-micros` (microseconds since midnight), `local-timestamp-millis`, `-micros`,
 *   `-nanos` (a wall-clock date and time in no time zone, counted as if it were UTC);
 * - on a `string`: `uuid`.
 */
export type AvroIntForm = 'date' | 'time-millis';
export type AvroLongForm =
  | 'time-micros'
  | 'local-timestamp-millis'
  | 'local-timestamp-micros'
  | 'local-timestamp-nanos';
export type AvroStringForm = 'uuid';

/** The name of an Avro `fixed` type, kept so that `toAvro` writes the fixed an `.avsc` declared. */
export interface AvroFixedName {
  readonly name: string;
  readonly namespace?: string;
  readonly aliases?: readonly string[];
}

/** A sized `bytes` as Avro declares it: its fixed's name, and `uuid` (16 bytes) or `duration` (12). */
export interface AvroFixedForm extends AvroFixedName {
  readonly logicalType?: 'uuid' | 'duration';
}

/** A decimal stored in an Avro `fixed` of `size` bytes rather than in `bytes`. */
export interface AvroDecimalForm extends AvroFixedName {
  readonly size: number;
}

export interface IntSchema<K extends SmallIntKind = SmallIntKind> extends SchemaNode<number> {
  readonly kind: K;
  /** The declared Protocol Buffers type (see ProtoIntType); absent means wirekit's default. */
  readonly proto?: ProtoIntType;
  /** The declared Avro logical type of an `int32` (see AvroIntForm). */
  readonly avro?: AvroIntForm;
  /**
   * The least and greatest value allowed, inside the kind's own range (int-ranges.ts, `intRange`):
   * JSON Schema's `minimum` and `maximum`. Absent means the kind's limit; a bound equal to it is
   * not stored, so one range has one form.
   */
  readonly min?: number;
  readonly max?: number;
}

/**
 * 64-bit integers are `bigint` by default, because a JavaScript number holds only 53 bits. With
 * `as: 'number'` they are numbers, and validation rejects values beyond Number.MAX_SAFE_INTEGER.
 */
export interface Int64Schema<
  K extends LargeIntKind = LargeIntKind,
  T extends bigint | number = bigint | number,
> extends SchemaNode<T> {
  readonly kind: K;
  readonly as: T extends bigint ? 'bigint' : 'number';
  /** The declared Protocol Buffers type (see ProtoIntType); absent means wirekit's default. */
  readonly proto?: ProtoIntType;
  /** The declared Avro logical type of an `int64` (see AvroLongForm). */
  readonly avro?: AvroLongForm;
}

/**
 * A binary floating-point number. `min` and `max` are inclusive bounds (an exclusive one is the next
 * float of the kind, as the JSON Schema importer writes it); a bounded float refuses NaN, which no
 * bound admits. A float32's bounds are float32 values, so that rounding a value to float32 never
 * carries it across one.
 */
export interface FloatSchema<K extends FloatKind = FloatKind> extends SchemaNode<number> {
  readonly kind: K;
  readonly min?: number;
  readonly max?: number;
}

/**
 * An exact decimal number, held as its canonical decimal string ("-12.50") so that no binary float
 * ever rounds it. `precision` (total digits) and `scale` (digits after the point) are optional, but
 * Avro and Arrow need both to store decimals natively.
 */
export interface DecimalSchema extends SchemaNode<string> {
  readonly kind: 'decimal';
  readonly precision?: number;
  readonly scale?: number;
  /** Avro only: the `fixed` the decimal is stored in (see AvroDecimalForm); absent means `bytes`. */
  readonly avro?: AvroDecimalForm;
}

export interface StringSchema extends SchemaNode<string> {
  readonly kind: 'string';
  readonly minLength?: number;
  readonly maxLength?: number;
  /** A regular expression source (no flags) every value must match. */
  readonly pattern?: string;
  /** The declared Avro logical type (see AvroStringForm). */
  readonly avro?: AvroStringForm;
}

export interface BytesSchema extends SchemaNode<Uint8Array> {
  readonly kind: 'bytes';
  readonly maxLength?: number;
  /**
   * The exact length of every value, in bytes: validate() and every codec refuse another length
   * (value-rules.ts). Avro writes it as a `fixed`, its bytes with no length in front; the other
   * formats write it as they write any bytes.
   */
  readonly size?: number;
  /** Avro only: the name and logical type of the `fixed` a sized value is written as (AvroFixedForm). */
  readonly avro?: AvroFixedForm;
}

/** s, ms, us or ns since the Unix epoch. A `Date` holds milliseconds, so us and ns carry zeros below. */
export type TimePrecision = 's' | 'ms' | 'us' | 'ns';

export interface TimestampSchema extends SchemaNode<Date> {
  readonly kind: 'timestamp';
  readonly precision: TimePrecision;
  /**
   * `'0001-9999'` holds the value to 0001-01-01T00:00:00Z … 9999-12-31T23:59:59.999Z in every
   * format: google.protobuf.Timestamp's range (and RFC 3339's years), which schemaFromProto gives an
   * imported Timestamp. Without it the unit's 64-bit count alone bounds the value.
   */
  readonly range?: TimestampRange;
}

/** The named ranges a timestamp may declare (TimestampSchema.range). */
export type TimestampRange = '0001-9999';

/** Metadata every named type may carry; formats with namespaces (Avro, proto packages) use it. */
export interface NamedTypeInfo {
  readonly name: string;
  readonly namespace?: string;
  readonly doc?: string;
  /** Former names, so that readers of old data (Avro) still resolve the type. */
  readonly aliases?: readonly string[];
}

export interface EnumSchema<M extends string = string> extends SchemaNode<M>, NamedTypeInfo {
  readonly kind: 'enum';
  /** Wire numbers follow this order (first member = 0), so members are only ever appended. */
  readonly members: readonly M[];
  /**
   * Protocol Buffers only: the number of each member, in the order of `members`, for an enum that
   * keeps a `.proto` file's numbers (`A = 0; B = 5; C = -1;`). Such an enum is a `.proto` enum:
   * `toProto` prints its members as the value names they are. Other formats number members by
   * their order and ignore it.
   */
  readonly numbers?: readonly number[];
}

export type LiteralValue = string | number | boolean;

/** A single allowed value. Binary formats do not store it: the schema already knows it. */
export interface LiteralSchema<V extends LiteralValue = LiteralValue> extends SchemaNode<V> {
  readonly kind: 'literal';
  readonly value: V;
}

/** One field of an object, with the metadata that schema evolution needs. */
export interface FieldDef {
  readonly name: string;
  /** The field number for tag-based formats (Protocol Buffers, the FlatBuffers slot order). */
  readonly id: number;
  readonly schema: Schema;
  readonly doc?: string;
  /**
   * Used by readers whose data lacks the field (Avro resolution, JSON, MessagePack and CBOR) and by
   * `withDefaults`; values handed to an encoder must still carry it.
   */
  readonly default?: unknown;
  readonly deprecated?: boolean;
  /**
   * Protocol Buffers only: `'explicit'` writes the field whenever it holds a value, its default
   * included, as a proto2 `required` field is written (without it, proto3 leaves a 0, '' or false
   * out). `toProto` declares such a field `optional`, which proto3 writes the same way.
   */
  readonly presence?: 'explicit';
  /** Former names of this field, so readers of old data still find it. */
  readonly aliases?: readonly string[];
}

export interface ObjectSchema<T = unknown, I = T> extends SchemaNode<T, I>, NamedTypeInfo {
  readonly kind: 'object';
  readonly fields: readonly FieldDef[];
  /** Field numbers that once belonged to removed fields; never handed out again. */
  readonly reserved?: readonly number[];
  /** Groups of optional fields of which a value holds at most one (Protocol Buffers' `oneof`: oneofs.ts). */
  readonly oneofs?: readonly OneofGroup[];
}

/**
 * A `oneof` group: optional fields of one object, each with its own name and number, of which at
 * most one is present in a value. Not a value of its own, unlike `t.either`: the members stay fields
 * of the object, as protobuf's JSON mapping writes them.
 */
export interface OneofGroup {
  readonly name: string;
  /** The members' field names, in the order the group declares them. */
  readonly fields: readonly string[];
}

export interface ArraySchema<T = unknown, I = T> extends SchemaNode<T[], I[]> {
  readonly kind: 'array';
  readonly items: Schema;
  readonly minItems?: number;
  readonly maxItems?: number;
  /**
   * `false` writes a Protocol Buffers repeated scalar as one field per item (`[packed = false]`,
   * proto2's default) rather than packed (proto3's). Readers take both forms; other formats ignore it.
   */
  readonly packed?: false;
}

export type MapKeySchema = StringSchema | IntSchema | Int64Schema;

/** String keys give a plain object (as in JSON); integer keys a `Map`, since objects stringify keys. */
export interface MapSchema<T = unknown, I = T> extends SchemaNode<T, I> {
  readonly kind: 'map';
  readonly keys: MapKeySchema;
  readonly values: Schema;
}

/** Only meaningful as an object field: the key may be absent. */
export interface OptionalSchema<T = unknown, I = T> extends SchemaNode<T | undefined, I | undefined> {
  readonly kind: 'optional';
  readonly inner: Schema;
}

export interface NullableSchema<T = unknown, I = T> extends SchemaNode<T | null, I | null> {
  readonly kind: 'nullable';
  readonly inner: Schema;
  /**
   * Protocol Buffers only: `'wrapper'` writes the value as its scalar's well-known wrapper message
   * (google.protobuf.Int32Value, StringValue…: the value as field 1), null as no message, as a
   * `.proto` field of a wrapper type is written; `toProto` imports google/protobuf/wrappers.proto.
   * Other formats ignore it.
   */
  readonly proto?: 'wrapper';
}

/**
 * A tagged union (one-of) of objects. Each variant has a literal field named `tag` whose value
 * tells the variants apart, exactly as a TypeScript discriminated union does.
 */
export interface UnionSchema<T = unknown, I = T> extends SchemaNode<T, I>, NamedTypeInfo {
  readonly kind: 'union';
  readonly tag: string;
  readonly variants: readonly ObjectSchema[];
}

/**
 * An untagged union: a value of any one of the branches, which the value itself tells apart (by
 * its class, and an object by its keys: either.ts). Unnamed, like a TypeScript `A | B`.
 */
export interface EitherSchema<T = unknown, I = T> extends SchemaNode<T, I> {
  readonly kind: 'either';
  /** Protocol Buffers numbers the branches in this order (first = 1), so branches are only appended. */
  readonly branches: readonly Schema[];
}

/** A reference to a named type, resolved lazily so that a type can contain itself. */
export interface RefSchema<T = unknown, I = T> extends SchemaNode<T, I> {
  readonly kind: 'ref';
  readonly name: string;
  readonly resolve: () => NamedSchema;
}

/** Any JSON value. Schema-driven binary formats carry it as JSON text. */
export interface JsonSchema extends SchemaNode<JsonValue> {
  readonly kind: 'json';
  /**
   * Protocol Buffers' well-known JSON messages (google/protobuf/struct.proto), which schemaFromProto
   * gives a field of those types: `'value'` writes the value as a google.protobuf.Value, `'struct'`
   * as a Struct and `'list'` as a ListValue, where the json kind is otherwise JSON text on that
   * wire. A Struct holds only objects and a ListValue only arrays, in every format (validate()'s
   * rule); the other formats write the value as they write any json value.
   */
  readonly proto?: JsonProtoForm;
}

/** The well-known message a json value is written as on the Protocol Buffers wire (JsonSchema.proto). */
export type JsonProtoForm = 'value' | 'struct' | 'list';

export type NamedSchema = ObjectSchema | EnumSchema | UnionSchema;

/**
 * An object or union schema whose value type is `T`, an interface declared from the schema itself,
 * so that hovers and type errors name the type (`User`) where they would spell out its fields:
 *
 *   const UserSchema = t.object('User', { id: t.int64(), name: t.string() });
 *   export interface User extends Infer<typeof UserSchema> {}
 *   export const User: Named<User, typeof UserSchema> = UserSchema;
 *
 * The input type is the schema's own unless given (an interface of it is named the same way).
 * The assignment checks that `T` describes the schema's values; nothing changes at runtime.
 */
export type Named<T, S extends ObjectSchema | UnionSchema, I = InferInput<S>> = S extends ObjectSchema
  ? ObjectSchema<T, I>
  : UnionSchema<T, I>;

export type Schema =
  | BoolSchema
  | IntSchema
  | Int64Schema
  | FloatSchema
  | DecimalSchema
  | StringSchema
  | BytesSchema
  | TimestampSchema
  | EnumSchema
  | LiteralSchema
  | ObjectSchema
  | ArraySchema
  | MapSchema
  | OptionalSchema
  | NullableSchema
  | UnionSchema
  | EitherSchema
  | RefSchema
  | JsonSchema;
