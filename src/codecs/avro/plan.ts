/**
 * Plans: what the encoder and decoder do at each node, worked out once per schema so that encoding
 * and decoding are a switch over small integers with no schema inspection per value. A plan is a
 * graph (recursive types point back at their own plan). Read plans also carry schema resolution:
 * a read plan reads the *writer's* bytes and produces the *reader's* value.
 */
import type { EitherSchema, LiteralValue } from '../../schema/index.js';
import type { Rule } from '../../schema/value-rules.js';
import type { AvroType } from './avro-schema.js';

/** How a long becomes a value. */
export const LongAs = {
  BigInt: 0,
  Number: 1,
  UnsignedBigInt: 2,
  UnsignedNumber: 3,
  Uint32: 4,
  Float64: 5,
  Float32: 6,
} as const;
export type LongAs = (typeof LongAs)[keyof typeof LongAs];

/** Units per millisecond of each timestamp precision on the wire ('s' is stored as milliseconds). */
export const perMilliOf = { s: 1, ms: 1, us: 1000, ns: 1_000_000 } as const;

export const R = {
  Const: 0,
  Bool: 1,
  Int: 2,
  Long: 3,
  Float: 4,
  Double: 5,
  String: 6,
  Bytes: 7,
  Fixed: 8,
  DecimalBytes: 9,
  DecimalString: 10,
  Json: 11,
  Timestamp: 12,
  Enum: 13,
  Literal: 14,
  Record: 15,
  Array: 16,
  Map: 17,
  IntMap: 18,
  Union: 19,
  Error: 20,
  Skip: 21,
  Unknown: 22,
} as const;

/**
 * `rule` on a plan is the reader's schema's constraints (value-rules.ts), which the decoder holds
 * each value to: a string's, bytes', decimal's or timestamp's, an array's item counts, a
 * string-keyed map's keys (`keyRule`). Undefined where the schema has none.
 */
export type ReadPlan =
  | { readonly op: typeof R.Const; readonly value: unknown }
  | { readonly op: typeof R.Bool }
  | { readonly op: typeof R.Float | typeof R.Double; readonly rule?: Rule<number> | undefined }
  | { readonly op: typeof R.String; readonly rule?: Rule<string> | undefined }
  | { readonly op: typeof R.Bytes; readonly rule?: Rule<Uint8Array> | undefined }
  | { readonly op: typeof R.Json; readonly rule?: Rule<unknown> | undefined }
  | { readonly op: typeof R.Int; readonly min: number; readonly max: number }
  | {
      readonly op: typeof R.Long;
      readonly as: LongAs;
      /** A uint32's range where the schema bounds it (t.uint32({ min, max })); 0..2^32-1 otherwise. */
      readonly range?: readonly [number, number];
      /** A float's bounds where a float read from a long has them (t.float64({ min, max })). */
      readonly rule?: Rule<number> | undefined;
    }
  | { readonly op: typeof R.Fixed; readonly size: number; readonly rule?: Rule<Uint8Array> | undefined }
  | DecimalBytesRead
  | { readonly op: typeof R.DecimalString; readonly rule: Rule<string> }
  | { readonly op: typeof R.Timestamp; readonly perMilli: number; readonly rule?: Rule<Date> | undefined }
  | { readonly op: typeof R.Enum; readonly symbols: readonly (string | undefined)[]; readonly name: string }
  | { readonly op: typeof R.Literal; readonly inner: ReadPlan; readonly value: LiteralValue }
  | RecordRead
  | {
      readonly op: typeof R.Array;
      readonly items: ReadPlan;
      readonly itemSize: number;
      readonly rule?: Rule<number> | undefined;
    }
  | {
      readonly op: typeof R.Map;
      readonly values: ReadPlan;
      readonly entrySize: number;
      readonly keyRule?: Rule<string> | undefined;
    }
  | IntMapRead
  | { readonly op: typeof R.Union; readonly branches: readonly ReadPlan[] }
  | { readonly op: typeof R.Error; readonly message: string }
  | { readonly op: typeof R.Skip; readonly type: AvroType }
  /** A writer field the reader lacks, under `unknownKeys: 'reject'`: refused unless it holds null. */
  | {
      readonly op: typeof R.Unknown;
      readonly type: AvroType;
      readonly record: string;
      readonly name: string;
    };

export interface DecimalBytesRead {
  readonly op: typeof R.DecimalBytes;
  readonly scale: number;
  readonly precision: number;
  /** The bytes a value of this precision can need; longer input fails before any big arithmetic. */
  readonly maxBytes: number;
  /** 10^precision: an unscaled integer read as a Number has more digits than the precision from here. */
  readonly unscaledLimit: number;
  /** The size of a `fixed` writer type; -1 for `bytes`. */
  readonly fixedSize: number;
}

/** A reader field the writer lacks, filled from its default (copied per value when mutable). */
export interface Fill {
  readonly name: string;
  readonly value: unknown;
  readonly copy: boolean;
}

export interface RecordRead {
  readonly op: typeof R.Record;
  /** Per writer field: the reader field it lands in, or null when skipped. */
  readonly names: (string | null)[];
  readonly plans: ReadPlan[];
  readonly fills: Fill[];
  /** The reader object's oneof groups (schema/oneofs.ts): a record with two members present is refused. */
  oneofs?: Rule<Record<string, unknown>> | undefined;
}

export const EntryRole = { Key: 0, Value: 1, Skip: 2 } as const;

export interface IntMapRead {
  readonly op: typeof R.IntMap;
  /** Per field of the writer's entry record. */
  readonly roles: (typeof EntryRole)[keyof typeof EntryRole][];
  readonly plans: ReadPlan[];
  readonly entrySize: number;
}

export const W = {
  Nothing: 0,
  Bool: 1,
  Int: 2,
  Long: 3,
  Float: 4,
  Double: 5,
  String: 6,
  Bytes: 7,
  DecimalBytes: 8,
  DecimalString: 9,
  Json: 10,
  Timestamp: 11,
  Enum: 12,
  Literal: 13,
  Record: 14,
  Array: 15,
  Map: 16,
  IntMap: 17,
  Option: 18,
  Tagged: 19,
  Either: 20,
  Fixed: 21,
} as const;

/** `rule` and `keyRule` are the schema's constraints, as on read plans; the encoder refuses what they refuse. */
export type WritePlan =
  | { readonly op: typeof W.Bool }
  | { readonly op: typeof W.Float | typeof W.Double; readonly rule?: Rule<number> | undefined }
  | { readonly op: typeof W.String; readonly rule?: Rule<string> | undefined }
  | { readonly op: typeof W.Bytes; readonly rule?: Rule<Uint8Array> | undefined }
  /** A sized bytes written as a fixed: its rule holds it to `size`, so it goes out with no length. */
  | { readonly op: typeof W.Fixed; readonly size: number; readonly rule?: Rule<Uint8Array> | undefined }
  | { readonly op: typeof W.Json; readonly rule?: Rule<unknown> | undefined }
  | { readonly op: typeof W.Nothing; readonly value: LiteralValue }
  | { readonly op: typeof W.Int; readonly min: number; readonly max: number; readonly kind: string }
  | {
      readonly op: typeof W.Long;
      readonly as: LongAs;
      readonly kind: string;
      /** A uint32's range where the schema bounds it (t.uint32({ min, max })); 0..2^32-1 otherwise. */
      readonly range?: readonly [number, number];
    }
  | {
      readonly op: typeof W.DecimalBytes;
      readonly scale: number;
      readonly precision: number;
      readonly rule: Rule<string>;
      /** The size of the `fixed` the decimal is stored in; -1 for `bytes`. */
      readonly fixedSize: number;
    }
  | { readonly op: typeof W.DecimalString; readonly rule: Rule<string> }
  | { readonly op: typeof W.Timestamp; readonly perMilli: number; readonly rule?: Rule<Date> | undefined }
  | { readonly op: typeof W.Enum; readonly indexes: ReadonlyMap<string, number>; readonly name: string }
  | { readonly op: typeof W.Literal; readonly inner: WritePlan; readonly value: LiteralValue }
  | RecordWrite
  | { readonly op: typeof W.Array; readonly items: WritePlan; readonly rule?: Rule<number> | undefined }
  | { readonly op: typeof W.Map; readonly values: WritePlan; readonly keyRule?: Rule<string> | undefined }
  | { readonly op: typeof W.IntMap; readonly key: WritePlan; readonly value: WritePlan }
  | OptionWrite
  | TaggedWrite
  | EitherWrite;

export interface RecordWrite {
  readonly op: typeof W.Record;
  readonly name: string;
  readonly names: string[];
  readonly plans: WritePlan[];
  /** Literal fields: not written, but checked so that a wrong value is not silently replaced. */
  readonly literals: { readonly name: string; readonly value: LiteralValue }[];
  /** The object's oneof groups (schema/oneofs.ts): a value with two members present is refused. */
  readonly oneofs?: Rule<Record<string, unknown>> | undefined;
}

/** A union of "null" with one value branch, or with the branches of a tagged union (`inner` writes its own index). */
export interface OptionWrite {
  readonly op: typeof W.Option;
  readonly nullIndex: number;
  /** -1 when `inner` is a Tagged plan that writes its own branch index. */
  readonly valueIndex: number;
  readonly inner: WritePlan;
  readonly undefinedIsNull: boolean;
  readonly nullIsNull: boolean;
}

export interface TaggedWrite {
  readonly op: typeof W.Tagged;
  readonly name: string;
  readonly tag: string;
  readonly branches: ReadonlyMap<unknown, { readonly index: number; readonly plan: WritePlan }>;
}

/**
 * An untagged union (t.either): the value picks its branch (schema/either.ts), and the branch is
 * written as its index in the Avro union and its value. A branch that is a tagged union writes its
 * own index (`index` -1), since its records stand in the Avro union one by one.
 */
export interface EitherWrite {
  readonly op: typeof W.Either;
  readonly schema: EitherSchema;
  readonly branches: readonly { readonly index: number; readonly plan: WritePlan }[];
}
