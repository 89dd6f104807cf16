/**
 * The shapes of a codec's plan (see plan.ts): one node per Arrow column, pairing the wirekit kind
 * (what a JavaScript value must be) with the Arrow type the column is written as.
 */
import type { Schema as ArrowSchema, DataType, Dictionary, Struct, Utf8, Vector } from 'apache-arrow';
import type { EitherSchema, LiteralValue, SmallIntKind, TimePrecision } from '../../schema/index.js';
import type { Rule } from '../../schema/value-rules.js';

export interface PlanBase {
  /** The Arrow type written; incoming data must have a type that matches it. */
  readonly type: DataType;
  /** Arrow nulls allowed: the schema is nullable (null) or optional (undefined) here. */
  readonly nullable: boolean;
  readonly allowNull: boolean;
  readonly allowAbsent: boolean;
  /** What an Arrow null decodes to: null, or undefined (an absent optional field). */
  readonly nullValue: null | undefined;
  /**
   * A valid value written into the child slots under a null struct entry: Arrow keeps those slots,
   * and a placeholder lets children encode without a null check per value.
   */
  readonly placeholder: unknown;
  /** Containers (objects, arrays, maps) between this column and the row, the row included. */
  readonly depth: number;
  /**
   * The schema's constraints on a value of this column (value-rules.ts): a string's, decimal's,
   * bytes' or timestamp's, a list's item counts. Both directions hold every value to it.
   */
  readonly rule?: Rule<never> | undefined;
}

export interface StructEntry {
  readonly name: string;
  /** The stored column; undefined for a literal field, which costs nothing on the wire. */
  readonly plan: Plan | undefined;
  readonly literal: LiteralValue | undefined;
}

export type Plan = PlanBase &
  (
    | { readonly k: 'bool' }
    | {
        readonly k: 'int';
        readonly kind: SmallIntKind;
        readonly bits: 8 | 16 | 32;
        readonly signed: boolean;
        /** The schema's bounds where they narrow the kind's range (t.int32({ min, max })). */
        readonly range?: readonly [number, number];
      }
    | { readonly k: 'int64'; readonly signed: boolean; readonly asNumber: boolean }
    | { readonly k: 'float'; readonly bits: 32 | 64 }
    | { readonly k: 'decimal'; readonly precision: number; readonly scale: number; readonly words: 2 | 4 }
    | {
        readonly k: 'text';
        readonly text: 'string' | 'decimal' | 'json';
        /** For json: how deep its values may nest (the codec's maxDepth; `depth` is where they start). */
        readonly maxDepth?: number;
        /** For json: the object or array a declared Struct or ListValue holds (JsonSchema.proto). */
        readonly shape?: Rule<never> | undefined;
      }
    | { readonly k: 'bytes' }
    | { readonly k: 'timestamp'; readonly unit: TimePrecision }
    | EnumPlan
    | {
        readonly k: 'literal';
        readonly value: LiteralValue;
        /** The column the literal is stored in: Utf8, Bool or Float64. */
        readonly storage: Plan;
      }
    | StructPlan
    | { readonly k: 'list'; readonly item: Plan }
    | MapPlan
    | UnionPlan
    | EitherPlan
  );

export interface EnumPlan extends PlanBase {
  readonly k: 'enum';
  readonly type: Dictionary;
  readonly members: readonly string[];
  readonly indexOf: ReadonlyMap<string, number>;
  readonly bits: 8 | 16 | 32;
  /** One dictionary for the codec's life: a writer sends it once, and a file allows no other. */
  readonly dictionary: Vector<Utf8>;
}

export interface StructPlan extends PlanBase {
  readonly k: 'struct';
  readonly type: Struct;
  readonly typeName: string;
  /** A valid object of this type, whatever the nullability: what a null entry's children hold. */
  readonly fill: Readonly<Record<string, unknown>>;
  /**
   * What a decoded object starts as: literals set, every field that is always present holding null
   * until filled (so that all objects get one shape), optional fields left out.
   */
  readonly template: Readonly<Record<string, unknown>>;
  /** Every field of the object, in declaration order. */
  readonly entries: readonly StructEntry[];
  /** The stored fields, in Arrow child order. */
  readonly columns: readonly (StructEntry & { readonly plan: Plan })[];
  /** The object's oneof groups (schema/oneofs.ts), which the writers and readers check per row. */
  readonly oneofs?: Rule<never> | undefined;
}

export interface MapPlan extends PlanBase {
  readonly k: 'map';
  readonly stringKeys: boolean;
  readonly key: Plan;
  readonly value: Plan;
  readonly entriesType: Struct;
}

export interface UnionPlan extends PlanBase {
  readonly k: 'union';
  readonly tag: string;
  readonly variants: readonly { readonly tag: string; readonly plan: StructPlan }[];
  readonly byTag: ReadonlyMap<unknown, number>;
}

/**
 * An untagged union (`t.either`): a dense union with one child per branch, type id = branch
 * position. The value picks its branch (schema/either.ts); a null is a null entry of branch 0, as
 * for a tagged union, since an Arrow union has no validity bitmap of its own.
 */
export interface EitherPlan extends PlanBase {
  readonly k: 'either';
  readonly schema: EitherSchema;
  /** One per branch, in branch order: each is the union child of the same position. */
  readonly branches: readonly Plan[];
}

/** How rows map to the record batch: an object root gives one column per field. */
export interface RootPlan {
  readonly arrowSchema: ArrowSchema;
  /** 'object': a row is the root object; 'value': a row is the value of the single column `value`. */
  readonly rows: 'object' | 'value';
  readonly struct: StructPlan;
  /** The deepest column's depth, checked against maxDepth before decoding. */
  readonly maxDepth: number;
}
