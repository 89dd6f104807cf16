/**
 * Writes a value as canonical ProtoJSON text, following the protobuf codec's plan (the message the
 * printed `.proto` declares). The value has been held to the schema already (the codec encodes it
 * with the Protocol Buffers codec first), so this only chooses each value's JSON form: 64-bit
 * integers as decimal strings, bytes as standard base64, enums by their `.proto` value names,
 * NaN and the infinities as strings, Timestamps and Durations as text, wrappers as their bare
 * value, Struct/Value/ListValue as plain JSON, a union or either as its one set oneof member.
 * Fields are written under their JSON names in field-number order; a field without presence at its
 * default is left out unless `emitDefaults` is set, as protobuf's printers do.
 */
import { prependPath, WirekitError } from '../../../errors/index.js';
import { selectBranch } from '../../../schema/either.js';
import { toBase64 } from '../../../util/base64.js';
import {
  BOOL,
  BYTES,
  DECIMAL,
  DOUBLE,
  EITHER,
  type EitherPlan,
  ENUM,
  type FieldPlan,
  FLOAT,
  INT32,
  INT64,
  JSON_MESSAGE,
  JSON_TEXT,
  LITERAL,
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
  UNION,
  type UnionPlan,
  WRAPPER,
} from '../layout.js';
import { jsonNameOf, wellKnownOf } from '../protojson-names.js';
import { durationText, timestampText } from '../protojson-time.js';
import { isDefault } from './implicit-presence.js';

export interface WriteOptions {
  /** Write fields without presence even at their default (0, '', false, [], {}). */
  readonly emitDefaults: boolean;
}

/** A root wrapper's field, named `value` as the `.proto` names it (the plan names it for messages). */
const valueKey = '"value":';
const rootFields = new WeakMap<Slot, FieldPlan>();

/** The ProtoJSON text of the root value. A root that is not a message is the `{ value }` message toProto declares. */
export function writeRoot(root: Slot, value: unknown, options: WriteOptions): string {
  if (root.type === WRAPPER && root.protoNames === undefined) {
    let field = rootFields.get(root);
    if (field === undefined) {
      field = { ...(root.wrapped as FieldPlan), name: 'value' };
      rootFields.set(root, field);
    }
    return `{${fieldText(field, valueKey, value, options) ?? ''}}`;
  }
  return slotText(root, value, options);
}

function unsupported(message: string): WirekitError {
  return new WirekitError('WK_ENCODE_UNSUPPORTED', message, { path: [] });
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON escapes the control characters.
const needsEscape = /[\u0000-\u001f"\\\ud800-\udfff]/;

/**
 * A string as JSON.stringify writes it, quoted by hand where it has nothing to escape (most
 * strings of most records), which costs about a third less than the call.
 */
export function quote(text: string): string {
  return needsEscape.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/**
 * What a message's text needs of its plan, found once per plan rather than once per value: which
 * well-known message it is (a pattern on its name), and each field's `"jsonName":`.
 */
interface MessageForm {
  readonly wellKnown: ReturnType<typeof wellKnownOf>;
  readonly keys: readonly string[];
}

const forms = new WeakMap<MessagePlan, MessageForm>();

function formOf(plan: MessagePlan): MessageForm {
  let form = forms.get(plan);
  if (form === undefined) {
    form = {
      wellKnown: wellKnownOf(plan.name),
      keys: plan.fields.map((field) => `${quote(jsonNameOf(field.name))}:`),
    };
    forms.set(plan, form);
  }
  return form;
}

function messageText(plan: MessagePlan, value: Record<string, unknown>, options: WriteOptions): string {
  const { keys } = formOf(plan);
  const { fields } = plan;
  let out = '{';
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i] as FieldPlan;
    let text: string | undefined;
    try {
      text = fieldText(field, keys[i] as string, value[field.name], options);
    } catch (error) {
      throw prependPath(error, field.name);
    }
    if (text !== undefined) out += out.length === 1 ? text : `,${text}`;
  }
  return `${out}}`;
}

/** `"jsonName":value` (`key` is `"jsonName":`), or undefined where the field is left out. */
function fieldText(field: FieldPlan, key: string, value: unknown, options: WriteOptions): string | undefined {
  switch (field.mode) {
    case SINGLE:
      if (!options.emitDefaults && isDefault(field.slot, value)) return undefined;
      return key + slotText(field.slot, value, options);
    case PRESENT:
      // null is no value where the field takes null (nullable); a json field's null is a Value.
      if (value === undefined || (value === null && field.acceptsNull)) return undefined;
      return key + slotText(field.slot, value, options);
    case REPEATED: {
      const items = value as unknown[];
      if (items.length === 0 && !options.emitDefaults) return undefined;
      let out = `${key}[`;
      for (let i = 0; i < items.length; i++) {
        try {
          if (i > 0) out += ',';
          out += slotText(field.slot, items[i], options);
        } catch (error) {
          throw prependPath(error, i);
        }
      }
      return `${out}]`;
    }
    case MAP: {
      const entries =
        value instanceof Map ? [...value.entries()] : Object.entries(value as Record<string, unknown>);
      if (entries.length === 0 && !options.emitDefaults) return undefined;
      const texts: string[] = [];
      for (const [entryKey, item] of entries) {
        try {
          texts.push(`${quote(String(entryKey))}:${slotText(field.slot, item, options)}`);
        } catch (error) {
          throw prependPath(error, String(entryKey));
        }
      }
      return `${key}{${texts.join(',')}}`;
    }
    default:
      return undefined; // a literal: not stored
  }
}

function slotText(slot: Slot, value: unknown, options: WriteOptions): string {
  switch (slot.type) {
    case BOOL:
      return value ? 'true' : 'false';
    case SINT32:
    case UINT32:
    case INT32:
    case SFIXED32:
    case UFIXED32:
      return String(value);
    case SINT64:
    case UINT64:
    case INT64:
    case SFIXED64:
    case UFIXED64:
      return `"${String(value)}"`;
    case FLOAT:
      return floatText(value as number, true);
    case DOUBLE:
      return floatText(value as number, false);
    case STRING:
    case DECIMAL:
      return quote(value as string);
    case JSON_TEXT:
      return quote(JSON.stringify(value));
    case BYTES:
      return `"${toBase64(value as Uint8Array)}"`;
    case ENUM:
      return enumText(slot, value);
    case LITERAL:
      return typeof value === 'number' ? floatText(value, false) : JSON.stringify(value);
    case TIMESTAMP: {
      const text = timestampText(value as Date);
      if (text === undefined) {
        throw unsupported(
          `${(value as Date).toISOString()} is outside the years 0001-9999 ProtoJSON writes.`,
        );
      }
      return `"${text}"`;
    }
    case JSON_MESSAGE:
      return JSON.stringify(value);
    case MESSAGE:
      return messageSlotText(slot.message as MessagePlan, value as Record<string, unknown>, options);
    case UNION:
      return unionText(slot.union as UnionPlan, value as Record<string, unknown>, options);
    case EITHER:
      return eitherText(slot.either as EitherPlan, value, options);
    default: {
      // WRAPPER: a well-known wrapper is its bare value; a generated one the message `{ field }`.
      const field = slot.wrapped as FieldPlan;
      if (slot.protoNames !== undefined) return slotText(field.slot, value, options);
      return `{${fieldText(field, `${quote(jsonNameOf(field.name))}:`, value, options) ?? ''}}`;
    }
  }
}

/** Each enum's members' quoted `.proto` names, made once per plan. */
const enumTexts = new WeakMap<Slot, Map<unknown, string>>();

function enumText(slot: Slot, value: unknown): string {
  let texts = enumTexts.get(slot);
  if (texts === undefined) {
    const names = slot.protoNames as readonly string[];
    texts = new Map(
      (slot.members as readonly unknown[]).map((member, i) => [member, quote(names[i] as string)]),
    );
    enumTexts.set(slot, texts);
  }
  // A member always: the binary encoder has refused anything else.
  return texts.get(value) as string;
}

function messageSlotText(plan: MessagePlan, value: Record<string, unknown>, options: WriteOptions): string {
  switch (formOf(plan).wellKnown) {
    case 'Duration': {
      const text = durationText(BigInt(value.seconds as bigint), Number(value.nanos));
      if (text === undefined)
        throw unsupported('a Duration out of range, or with seconds and nanos of opposite signs.');
      return `"${text}"`;
    }
    case 'FieldMask':
      return quote((value.paths as string[]).map(fieldMaskPath).join(','));
    case 'wrapper':
      return slotText((plan.fields[0] as FieldPlan).slot, value.value, options);
    case 'Any':
      throw unsupported(
        'google.protobuf.Any has no ProtoJSON form without the packed type, which wirekit keeps as bytes.',
      );
    default:
      return messageText(plan, value, options);
  }
}

/** A FieldMask path in lowerCamelCase; protobuf refuses one that would not convert back. */
function fieldMaskPath(path: string): string {
  if (/[A-Z]|_(?![a-z])/.test(path)) {
    throw unsupported(
      `the FieldMask path ${JSON.stringify(path)} has no lowerCamelCase form that converts back.`,
    );
  }
  return jsonNameOf(path);
}

function unionText(plan: UnionPlan, value: Record<string, unknown>, options: WriteOptions): string {
  const index = plan.byTag.get(value[plan.tag]) as number;
  return `{${quote(jsonNameOf(plan.fieldNames[index] as string))}:${messageText(plan.variants[index] as MessagePlan, value, options)}}`;
}

function eitherText(plan: EitherPlan, value: unknown, options: WriteOptions): string {
  const index = selectBranch(plan.schema, value) as number;
  return `{${quote(jsonNameOf(plan.fieldNames[index] as string))}:${slotText(plan.slots[index] as Slot, value, options)}}`;
}

const float32Max = 3.4028234663852886e38;

/** A number as ProtoJSON writes it: NaN and the infinities as strings, a float at float precision. */
export function floatText(value: number, single: boolean): string {
  if (Number.isNaN(value)) return '"NaN"';
  if (value === Number.POSITIVE_INFINITY) return '"Infinity"';
  if (value === Number.NEGATIVE_INFINITY) return '"-Infinity"';
  // -0.0, not -0: a reader that parses integers apart (Python's json) would read -0 as the integer 0.
  if (Object.is(value, -0)) return '-0.0';
  if (!single) return String(value);
  // The shortest decimal that reads back as the same float32, as protobuf's printers write floats.
  // Near the largest float the shortest one lies past it as a double, which parsers that check the
  // range before rounding (Python's) refuse: there the double's own digits are written.
  for (let digits = 1; digits <= 9; digits++) {
    const shorter = Number(value.toPrecision(digits));
    if (Math.fround(shorter) === value)
      return Math.abs(shorter) > float32Max ? String(value) : String(shorter);
  }
  return String(value);
}
