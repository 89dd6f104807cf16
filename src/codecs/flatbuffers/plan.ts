/**
 * The per-schema layout that the encoder, the decoder, the verifier and the views all follow (built
 * by planner.ts from the schema's FlatBuffers layout, schema/export/flatbuffers-layout.ts): which
 * table holds what in which vtable slot, and how each slot maps to a value.
 */
import type { EitherSchema, LiteralValue, TimePrecision } from '../../schema/index.js';
import type { Rule } from '../../schema/value-rules.js';

export type ScalarKind =
  | 'bool'
  | 'int8'
  | 'uint8'
  | 'int16'
  | 'uint16'
  | 'int32'
  | 'uint32'
  | 'int64'
  | 'uint64'
  | 'float32'
  | 'float64';

/** How an inline value is written: the runtime's writer of that width. */
export type Store = 'i8' | 'i16' | 'i32' | 'i64' | 'f32' | 'f64';

/**
 * What one slot or vector element holds, and how a value of the schema maps onto it. `rule` is the
 * schema's constraints (value-rules.ts) that the encoder and the readers hold values to: a
 * timestamp's, string's, decimal's or bytes', a vector's item counts; undefined where none.
 */
export type ValuePlan =
  | {
      readonly k: 'scalar';
      readonly kind: ScalarKind;
      readonly size: number;
      readonly store: Store;
      readonly asNumber: boolean;
      /** A small integer's bounds where the schema narrows its kind's range (t.int32({ min, max })). */
      readonly range?: readonly [number, number];
      /** A float's bounds where the schema has them (t.float64({ min, max })). */
      readonly rule?: Rule<number> | undefined;
    }
  | {
      readonly k: 'timestamp';
      readonly precision: TimePrecision;
      readonly size: 8;
      readonly store: 'i64';
      readonly rule: Rule<Date> | undefined;
    }
  | {
      readonly k: 'enum';
      readonly members: readonly string[];
      readonly index: ReadonlyMap<string, number>;
      readonly size: 1 | 2 | 4;
      readonly store: Store;
    }
  /** A literal where it is stored (vector element, map value, optional field): its base type. */
  | { readonly k: 'literal'; readonly value: LiteralValue; readonly size: number; readonly store: Store }
  | { readonly k: 'string'; readonly size: 4; readonly rule: Rule<string> | undefined }
  | { readonly k: 'decimal'; readonly size: 4; readonly rule: Rule<string> }
  | { readonly k: 'bytes'; readonly size: 4; readonly rule: Rule<Uint8Array> | undefined }
  | { readonly k: 'json'; readonly size: 4; readonly rule: Rule<unknown> | undefined }
  | { readonly k: 'table'; readonly table: TablePlan; readonly size: 4 }
  | { readonly k: 'union'; readonly union: UnionPlan; readonly size: 4 }
  | {
      readonly k: 'vector';
      readonly element: ValuePlan;
      readonly size: 4;
      readonly rule: Rule<number> | undefined;
    }
  | { readonly k: 'map'; readonly entry: TablePlan; readonly stringKeys: boolean; readonly size: 4 };

/** How an absent slot reads back: the outermost of optional/nullable decides. */
export type Presence = 'required' | 'optional' | 'nullable';

export interface FieldPlan {
  readonly name: string;
  /** The vtable slot; a union's type sits here and its value in the next slot. */
  readonly slot: number;
  readonly value: ValuePlan;
  readonly presence: Presence;
  /** Whether `null` (besides `undefined` for optional) means "not present" when encoding. */
  readonly nullAbsent: boolean;
  /** Stored inline in the table (a scalar), rather than as an offset to something written before it. */
  readonly inline: boolean;
  /** Named like a member of Object.prototype (`toString`), which every plain object inherits. */
  readonly inherited: boolean;
}

/** A field of an object in declaration order: stored in a slot, or a literal the schema supplies. */
export interface Member {
  readonly name: string;
  readonly field: FieldPlan | undefined;
  readonly literal: LiteralValue | undefined;
}

/** One step of writing a table's inline part, ordered largest first so that little padding is needed. */
export interface Write {
  readonly field: FieldPlan;
  readonly what: 'scalar' | 'offset' | 'unionType';
  /** Index into the offsets that the table's children left on the encoder's stack. */
  readonly child: number;
}

/**
 * 'object' is a user object type; 'wrapper' a generated table whose one field holds the value itself
 * (a vector element a vector cannot hold, or a root that is not an object); 'entry' a map entry with
 * `key` in slot 0 and `value` after it.
 */
export interface TablePlan {
  readonly name: string;
  readonly kind: 'object' | 'wrapper' | 'entry';
  /** vtable slots, placeholders included. */
  slots: number;
  /** Stored fields in declaration order. */
  readonly fields: FieldPlan[];
  readonly members: Member[];
  /** The members that are literals: not stored, but encoders check them. */
  readonly literals: Member[];
  /** Fields whose data is written before the table (strings, vectors, tables, unions). */
  readonly children: FieldPlan[];
  readonly writes: Write[];
  /** An object's oneof groups (schema/oneofs.ts): the encoder and the building readers check them. */
  oneofs: Rule<never> | undefined;
}

export interface UnionPlan {
  readonly name: string;
  /**
   * An untagged union (t.either) picks its member by the value (schema/either.ts), and a member
   * that is a wrapper table holds the value in its one field; a tagged union picks by `tag`.
   */
  readonly either: EitherSchema | undefined;
  readonly tag: string;
  /** Variant i has union type i + 1; 0 is NONE. */
  readonly variants: readonly TablePlan[];
  readonly byTag: ReadonlyMap<unknown, number>;
}

export interface RootPlan {
  readonly table: TablePlan;
  /** The root table is a generated wrapper: the value is its one field, not the table. */
  readonly wrapped: boolean;
}

export function isInline(value: ValuePlan): boolean {
  switch (value.k) {
    case 'scalar':
    case 'timestamp':
    case 'enum':
      return true;
    case 'literal':
      return typeof value.value !== 'string';
    default:
      return false;
  }
}
