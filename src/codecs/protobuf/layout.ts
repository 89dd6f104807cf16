/**
 * The vocabulary of a wire layout, shared by the planner, encoder and decoder: protobuf's wire
 * types, what one value is on the wire (a slot type), how a field sits in its message (a mode),
 * and the plan nodes built from them. Numbers rather than strings keep the interpreter's switches
 * cheap.
 */
import type { EitherSchema, JsonProtoForm, LiteralValue, TimePrecision } from '../../schema/types.js';
import type { Rule } from '../../schema/value-rules.js';

/** Wire types of the protobuf encoding. */
export const VARINT = 0;
export const FIXED64 = 1;
export const LEN = 2;
export const START_GROUP = 3;
export const END_GROUP = 4;
export const FIXED32 = 5;

/** What one value on the wire is. The types whose values are messages on the wire come last. */
export const BOOL = 0;
export const SINT32 = 1;
export const UINT32 = 2;
export const SINT64 = 3;
export const UINT64 = 4;
export const FLOAT = 5;
export const DOUBLE = 6;
export const STRING = 7;
export const DECIMAL = 8;
export const JSON_TEXT = 9;
export const BYTES = 10;
// The integer types a schema declares for a `.proto` it came from (types.ts, ProtoIntType): a
// two's-complement varint (int32, int64) or fixed width, signed (sfixed) or not (proto's fixed32
// and fixed64, named UFIXED here as FIXED32 and FIXED64 name the wire types).
export const INT32 = 11;
export const SFIXED32 = 12;
export const UFIXED32 = 13;
export const INT64 = 14;
export const SFIXED64 = 15;
export const UFIXED64 = 16;
export const ENUM = 17;
export const LITERAL = 18;
export const TIMESTAMP = 19;
export const MESSAGE = 20;
export const UNION = 21;
export const WRAPPER = 22;
export const EITHER = 23;
/** A json value as google.protobuf.Value, Struct or ListValue (json-messages.ts). */
export const JSON_MESSAGE = 24;

/** How a field sits in its message. */
export const SINGLE = 0; // proto3 implicit presence: a default value is not written
export const PRESENT = 1; // proto3 `optional`: written whenever the value is there
export const REPEATED = 2;
export const MAP = 3;
export const OMITTED = 4; // a literal: nothing on the wire, the schema knows the value

/**
 * One value's encoding. Every slot has every property (unused ones undefined), so the interpreter
 * sees a single object shape.
 */
export interface Slot {
  readonly type: number;
  /** The wire type of one value of this slot. */
  readonly wire: number;
  /** Inclusive range of the 32-bit integer kinds. */
  readonly min: number;
  readonly max: number;
  /** int64/uint64 held as numbers (`as: 'number'`). */
  readonly asNumber: boolean;
  readonly members: readonly string[] | undefined;
  /** An enum's number of each member. */
  readonly memberIndex: ReadonlyMap<unknown, number> | undefined;
  /** An enum whose members have the numbers a .proto gave them: the member of each number. */
  readonly numbered: ReadonlyMap<number, string> | undefined;
  readonly literal: LiteralValue | undefined;
  readonly precision: TimePrecision | undefined;
  readonly message: MessagePlan | undefined;
  readonly union: UnionPlan | undefined;
  /** A t.either's message: one oneof of its branches. */
  readonly either: EitherPlan | undefined;
  /** The single field (number 1) of a generated wrapper message. */
  readonly wrapped: FieldPlan | undefined;
  /** A JSON_MESSAGE's well-known message (JsonSchema.proto). */
  readonly jsonForm: JsonProtoForm | undefined;
  /**
   * An enum's value names as the `.proto` declares them (member i is value i), which ProtoJSON
   * writes; a WRAPPER's message name, where it is a well-known one (google.protobuf.Int32Value…).
   */
  readonly protoNames: readonly string[] | undefined;
  /** The schema kind, for messages and integers; an enum's name, for enums. */
  readonly kind: string;
  /** The constraints of a string, bytes, decimal or timestamp (value-rules.ts), checked both ways. */
  readonly rule: Rule<never> | undefined;
  /**
   * A decimal's bounds (schema/decimal.ts `decimalBounds`), for the compiled codec to test a value
   * against without calling `rule`, which then speaks only for the values out of them.
   */
  readonly decimalBounds: readonly [number, number] | undefined;
  /**
   * The levels of the value (see maxDepth) that entering this slot adds: 1 for an object, plus 1
   * for an array item or map value (the array or map is a level, though the wire writes no message
   * for it). Wrapper messages, map entries, unions and Timestamps add none: they stand for the value
   * they hold. A json value nests from here.
   */
  readonly levels: number;
  /**
   * The levels the body reaches at least: `levels`, plus 1 where it holds an array or map field that
   * is always there (its level counts even when the wire has no item). Checked against maxDepth on
   * entering; set once the plan is complete, as a recursive message's fields are not known before.
   */
  need: number;
}

export interface FieldPlan {
  readonly name: string;
  readonly number: number;
  readonly mode: number;
  /** The key written before the field: `number << 3 | wire type` (LEN for repeated fields and maps). */
  readonly tag: number;
  /** The value's slot; for a repeated field, one element's; for a map, the value's. */
  readonly slot: Slot;
  /** A map's key slot. */
  readonly key: Slot | undefined;
  /**
   * Repeated numbers, booleans and enums are written packed (proto3's default) unless the array says
   * `packed: false`; both forms are read.
   */
  readonly packed: boolean;
  /** A map keyed by integers decodes to a `Map`, by strings to a plain object. */
  readonly intKeys: boolean;
  /** For PRESENT fields: whether undefined (optional) and null (nullable) mean "not set". */
  readonly acceptsUndefined: boolean;
  readonly acceptsNull: boolean;
  /** What an unset PRESENT field decodes to: undefined (key left out) for optional, else null. */
  readonly absent: null | undefined;
  /** This field's bit in its message's `requiredMask` (0 when it has none). */
  bit: number;
  /** A repeated field's item counts (value-rules.ts), checked on the whole list both ways. */
  readonly items: Rule<number> | undefined;
  /**
   * The other members of the field's oneof group (schema/oneofs.ts): reading this field clears
   * them, protobuf's rule that the last member on the wire wins. Undefined outside a group.
   */
  rivals: readonly string[] | undefined;
}

export interface MessagePlan {
  readonly name: string;
  /** The stored fields in field-number order: the order protoc-generated code writes them in. */
  readonly fields: FieldPlan[];
  /** Literal fields: never stored, but checked on encode and filled in on decode. */
  readonly literals: { readonly name: string; readonly value: LiteralValue }[];
  /** Decoded objects start as a copy of this: keys in declaration order, literals filled in. */
  readonly template: Record<string, unknown>;
  /** Fields that must hold a value once decoding ends (all but optional ones). */
  readonly required: FieldPlan[];
  /**
   * The bits of the first 31 required fields: the decoder ORs in each field it reads, so that a
   * message whose fields are all on the wire needs no pass over its fields at the end.
   */
  requiredMask: number;
  /** Field lookup by number: an array when numbers are small, else a map. */
  dense: (FieldPlan | undefined)[] | undefined;
  sparse: Map<number, FieldPlan> | undefined;
  /** The repeated fields with an item-count rule, checked once the message is read. */
  readonly counted: FieldPlan[];
  /** At most one member of each oneof group present (schema/oneofs.ts), checked on encode. */
  oneofs: Rule<never> | undefined;
}

export interface UnionPlan {
  readonly name: string;
  readonly tag: string;
  /** Variant i is oneof field i + 1. */
  readonly variants: MessagePlan[];
  /** The oneof field name of each variant, as the `.proto` declares it (ProtoJSON's keys). */
  readonly fieldNames: string[];
  /** The same variants as message slots, for the decoder. */
  readonly slots: Slot[];
  readonly byTag: ReadonlyMap<unknown, number>;
}

export interface EitherPlan {
  readonly name: string;
  readonly schema: EitherSchema;
  /** Branch i is oneof field i + 1; its key is `keys[i]`. */
  readonly slots: Slot[];
  /** The oneof field name of each branch, as the `.proto` declares it (ProtoJSON's keys). */
  readonly fieldNames: string[];
  readonly keys: number[];
  /** NaN and the infinities are refused (a text branch sits beside the number branch: either.ts). */
  readonly finiteOnly: boolean;
}

export function fieldByNumber(plan: MessagePlan, number: number): FieldPlan | undefined {
  return plan.dense !== undefined ? plan.dense[number] : plan.sparse?.get(number);
}

export function slot(type: number, wire: number, extra: Partial<Slot> = {}): Slot {
  return {
    type,
    wire,
    min: extra.min ?? 0,
    max: extra.max ?? 0,
    asNumber: extra.asNumber ?? false,
    members: extra.members,
    memberIndex: extra.memberIndex,
    numbered: extra.numbered,
    literal: extra.literal,
    precision: extra.precision,
    message: extra.message,
    union: extra.union,
    either: extra.either,
    wrapped: extra.wrapped,
    jsonForm: extra.jsonForm,
    protoNames: extra.protoNames,
    kind: extra.kind ?? '',
    rule: extra.rule,
    decimalBounds: extra.decimalBounds,
    levels: extra.levels ?? 0,
    need: extra.need ?? extra.levels ?? 0,
  };
}
