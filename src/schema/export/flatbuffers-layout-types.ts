/**
 * The shapes of a FlatBuffers layout (flatbuffers-layout.ts builds them): what `toFlatBuffers`
 * prints and the FlatBuffers codec's plan follows.
 */
import type {
  ArraySchema,
  EitherSchema,
  EnumSchema,
  FieldDef,
  MapSchema,
  ObjectSchema,
  TimestampSchema,
  UnionSchema,
} from '../types.js';
import type { ScalarLeaf } from './plan.js';

/** What one value is declared as: a base type (a literal where it is stored), an enum, a table, a union or a vector. */
export type FbsValue =
  | {
      readonly is: 'leaf';
      /** The flatc type: `int`, `string`, `[ubyte]`, ... */
      readonly type: string;
      readonly schema: ScalarLeaf | TimestampSchema;
    }
  | { readonly is: 'enum'; readonly enum: FbsEnum }
  /** An object type's table, or a generated wrapper around a vector element. */
  | { readonly is: 'table'; readonly table: FbsTable }
  | { readonly is: 'union'; readonly union: FbsUnion }
  | { readonly is: 'vector'; readonly element: FbsValue; readonly schema: ArraySchema }
  /** A map: a vector of entry tables. */
  | { readonly is: 'map'; readonly entry: FbsTable; readonly schema: MapSchema };

export interface FbsField {
  readonly def: FieldDef;
  /** The vtable slot; a union's type sits here and its value in the next slot. */
  readonly slot: number;
  readonly value: FbsValue;
  /** An absent scalar needs flatc's optional-scalar form `= null`; strings, vectors, tables are optional anyway. */
  readonly optionalScalar: boolean;
}

/** One vtable slot. */
export type FbsSlot =
  | { readonly is: 'field'; readonly field: FbsField }
  /** The `<name>_type` slot flatc adds before a union field's value. */
  | { readonly is: 'unionType'; readonly field: FbsField }
  /** An unused number, held by a deprecated placeholder; `literal` is the omitted literal numbered so. */
  | { readonly is: 'placeholder'; readonly number: number; readonly literal: FieldDef | undefined };

/** A field of a table in declaration order: stored (with its slot), or a literal that is not. */
export interface FbsMember {
  readonly def: FieldDef;
  readonly field: FbsField | undefined;
}

export interface FbsTable {
  readonly name: string;
  /**
   * 'object' declares an object type; 'wrapper' is generated, its one field numbered 1 holding a
   * value where it cannot stand itself (a vector element, the root); 'entry' is a map entry, `key`
   * numbered 1 and `value` 2.
   */
  readonly origin: 'object' | 'wrapper' | 'entry';
  readonly schema: ObjectSchema | undefined;
  readonly members: FbsMember[];
  /** Every vtable slot in order, placeholders included. */
  readonly slots: FbsSlot[];
  /** The omitted literals numbered above every stored field, by number: no slot follows them. */
  readonly trailing: FieldDef[];
}

export interface FbsEnum {
  readonly name: string;
  readonly schema: EnumSchema;
  /** Members are numbered from 0 in order on the smallest unsigned type that counts them. */
  readonly base: 'ubyte' | 'ushort' | 'uint';
}

export interface FbsUnion {
  readonly name: string;
  /**
   * A tagged union, whose variants are its objects' tables, or an either (untagged), generated for
   * the field that holds it: branch i is member i + 1, an object branch its table and any other
   * branch a generated wrapper table whose one field `value` holds it.
   */
  readonly schema: UnionSchema | EitherSchema;
  /** Variant i has union type i + 1; 0 is NONE. */
  readonly variants: FbsTable[];
}

export interface FbsLayout {
  readonly namespace: string | undefined;
  /** The root table: the root object's, or the generated wrapper around the root. */
  readonly root: FbsTable;
  readonly rootWrapped: boolean;
  /** In the order the file declares them. */
  readonly enums: readonly FbsEnum[];
  readonly unions: readonly FbsUnion[];
  readonly tables: readonly FbsTable[];
}
