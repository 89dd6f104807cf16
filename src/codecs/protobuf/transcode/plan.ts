/**
 * What the protobuf → ProtoJSON transcoder (protojson-transcode.ts) follows, built once per schema
 * from the codec's own plan (plan.ts): per message, its fields in field-number order with each
 * one's `"jsonName":` already as bytes, each enum's quoted names as bytes, and whether the decoder
 * would refuse the field's absence. A schema with any part the transcoder does not write itself
 * (unions, eithers, wrappers, json, decimals, literals, well-known messages, oneof groups, a root
 * that is not a message) has no transcode plan: every input of it takes the codecs' slow path.
 */
import { type Rule, refusalBy } from '../../../schema/value-rules.js';
import { messageCost } from '../decode/message.js';
import { scalarDefault } from '../decode/proto3-defaults.js';
import { quote } from '../encode/protojson.js';
import {
  BOOL,
  BYTES,
  DOUBLE,
  ENUM,
  type FieldPlan,
  FLOAT,
  INT32,
  INT64,
  LEN,
  MAP,
  MESSAGE,
  type MessagePlan,
  PRESENT,
  REPEATED,
  SFIXED32,
  SFIXED64,
  SINGLE,
  SINT32,
  SINT64,
  type Slot,
  STRING,
  TIMESTAMP,
  UFIXED32,
  UFIXED64,
  UINT32,
  UINT64,
} from '../layout.js';
import { jsonNameOf, wellKnownOf } from '../protojson-names.js';

/** One value's slot with what writing it needs: the nested message's plan, an enum's names. */
export interface ValueStep {
  readonly type: number;
  readonly slot: Slot;
  readonly message: MessageStep | undefined;
  /** An enum's quoted `.proto` names as bytes, by member index. */
  readonly enumNames: readonly Uint8Array[] | undefined;
  /** An enum with a `.proto`'s numbers: the member index of each number. */
  readonly enumIndex: ReadonlyMap<number, number> | undefined;
}

export interface FieldStep {
  readonly number: number;
  /** The one key this field is taken under: its own wire type, or LEN for a packed list. */
  readonly tag: number;
  readonly mode: number;
  readonly packed: boolean;
  /** `"jsonName":` as bytes. */
  readonly key: Uint8Array;
  /** The same bytes as little-endian 32-bit words (the last one padded), written four at a time. */
  readonly keyWords: Int32Array;
  readonly value: ValueStep;
  /** A map's key. */
  readonly mapKey: ValueStep | undefined;
  readonly intKeys: boolean;
  readonly items: Rule<number> | undefined;
  /**
   * The decoder refuses the field's absence: a required field with presence, a default its rule
   * refuses ('' under minLength), no items where the list needs some.
   */
  readonly absentRefused: boolean;
  /** What emitDefaults writes for an absent field without presence that is a scalar. */
  readonly defaultText: Uint8Array | undefined;
}

export interface MessageStep {
  readonly fields: readonly FieldStep[];
  /** The field numbers the message names: any other is skipped, as the decoder skips it. */
  readonly numbers: ReadonlySet<number>;
  /** What the decoded object costs the budget (decode/message.ts messageCost). */
  readonly cost: number;
}

const encoder = new TextEncoder();
const ascii = (text: string): Uint8Array => encoder.encode(text);

const plans = new WeakMap<Slot, MessageStep | null>();

/** The transcode plan of a root slot, or undefined where the schema has a part it does not write. */
export function transcodePlan(root: Slot): MessageStep | undefined {
  let plan = plans.get(root);
  if (plan === undefined) {
    plan = root.type === MESSAGE ? (new StepPlanner().message(root.message as MessagePlan) ?? null) : null;
    plans.set(root, plan);
  }
  return plan ?? undefined;
}

/** Signals a part of the schema the transcoder leaves to the codecs. */
class Unsupported extends Error {}

class StepPlanner {
  /** Steps per message plan, made before their fields so that recursive messages terminate. */
  private readonly steps = new Map<MessagePlan, MessageStep>();

  message(plan: MessagePlan): MessageStep | undefined {
    try {
      return this.messageStep(plan);
    } catch (error) {
      if (error instanceof Unsupported) return undefined;
      throw error;
    }
  }

  private messageStep(plan: MessagePlan): MessageStep {
    const known = this.steps.get(plan);
    if (known !== undefined) return known;
    // Well-known messages (Duration, FieldMask, Any, wrappers) have a text of their own; a oneof
    // group clears its rivals as it is read, which the transcoder does not follow.
    const wellKnown = wellKnownOf(plan.name);
    if ((wellKnown !== undefined && wellKnown !== 'Empty') || plan.oneofs !== undefined) {
      throw new Unsupported();
    }
    const fields: FieldStep[] = [];
    const step: MessageStep = {
      fields,
      numbers: new Set(plan.fields.map((field) => field.number)),
      cost: messageCost(plan),
    };
    this.steps.set(plan, step);
    for (const field of plan.fields) {
      if (field.rivals !== undefined) throw new Unsupported();
      fields.push(this.field(field));
    }
    return step;
  }

  private field(field: FieldPlan): FieldStep {
    const value = this.value(field.slot);
    const key = ascii(`${quote(jsonNameOf(field.name))}:`);
    const common = {
      keyWords: wordsOf(key),
      number: field.number,
      tag: field.tag,
      mode: field.mode,
      packed: field.mode === REPEATED && (field.tag & 7) === LEN && field.slot.wire !== LEN,
      key,
      value,
      mapKey: undefined as ValueStep | undefined,
      intKeys: field.intKeys,
      items: field.items,
      absentRefused: false,
      defaultText: undefined as Uint8Array | undefined,
    };
    switch (field.mode) {
      case SINGLE:
        return {
          ...common,
          absentRefused:
            field.slot.rule !== undefined &&
            refusalBy(field.slot.rule, scalarDefault(field.slot)) !== undefined,
          defaultText: defaultTextOf(value),
        };
      case PRESENT:
        return { ...common, absentRefused: !field.acceptsUndefined && !field.acceptsNull };
      case REPEATED:
        return {
          ...common,
          absentRefused: refusalBy(field.items as Rule<never> | undefined, 0) !== undefined,
        };
      case MAP: {
        const mapKey = this.value(field.key as Slot);
        if (!keyTypes.has(mapKey.type)) throw new Unsupported();
        return { ...common, mapKey };
      }
      default:
        throw new Unsupported();
    }
  }

  private value(slot: Slot): ValueStep {
    switch (slot.type) {
      case BOOL:
      case SINT32:
      case UINT32:
      case INT32:
      case SFIXED32:
      case UFIXED32:
      case SINT64:
      case UINT64:
      case INT64:
      case SFIXED64:
      case UFIXED64:
      case FLOAT:
      case DOUBLE:
      case STRING:
      case BYTES:
      case TIMESTAMP:
        return { type: slot.type, slot, message: undefined, enumNames: undefined, enumIndex: undefined };
      case ENUM: {
        const members = slot.members as readonly string[];
        const names = slot.protoNames as readonly string[];
        const enumIndex =
          slot.numbered === undefined
            ? undefined
            : new Map([...slot.numbered].map(([number, member]) => [number, members.indexOf(member)]));
        return {
          type: ENUM,
          slot,
          message: undefined,
          enumNames: members.map((_, i) => ascii(quote(names[i] as string))),
          enumIndex,
        };
      }
      case MESSAGE:
        return {
          type: MESSAGE,
          slot,
          message: this.messageStep(slot.message as MessagePlan),
          enumNames: undefined,
          enumIndex: undefined,
        };
      default:
        throw new Unsupported();
    }
  }
}

/** Bytes as little-endian 32-bit words, zeros after the last byte. */
function wordsOf(bytes: Uint8Array): Int32Array {
  const padded = new Uint8Array(Math.ceil(bytes.length / 4) * 4);
  padded.set(bytes);
  return new Int32Array(padded.buffer);
}

/** The types a map key can have in a `.proto`, which ProtoJSON writes as strings. */
const keyTypes = new Set([
  BOOL,
  SINT32,
  UINT32,
  INT32,
  SFIXED32,
  UFIXED32,
  SINT64,
  UINT64,
  INT64,
  SFIXED64,
  UFIXED64,
  STRING,
]);

/** The text emitDefaults writes for an absent scalar field without presence; undefined for messages. */
function defaultTextOf(value: ValueStep): Uint8Array | undefined {
  switch (value.type) {
    case BOOL:
      return ascii('false');
    case SINT64:
    case UINT64:
    case INT64:
    case SFIXED64:
    case UFIXED64:
      return ascii('"0"');
    case STRING:
    case BYTES:
      return ascii('""');
    case ENUM:
      return (value.enumNames as readonly Uint8Array[])[0];
    case TIMESTAMP:
      // Not a default to proto3: written whether or not emitDefaults is set.
      return ascii('"1970-01-01T00:00:00Z"');
    case MESSAGE:
      return undefined;
    default:
      return ascii('0');
  }
}
