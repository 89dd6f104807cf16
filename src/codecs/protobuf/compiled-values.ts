/**
 * Protocol Buffers, compiled: the code that writes or reads one value of a slot, with no field key
 * (a map entry's key or value, a field's value once its key is read). It does what the
 * interpreter's `writeSlot` and `readSlot` do (encode/message.ts, decode/message.ts): the same
 * checks, the same errors from the same helpers, the same bytes and values. The common kinds are
 * written out; every other slot calls the interpreter's function for it, so rare kinds cannot drift
 * from it.
 */
import type { SourceBuilder } from '../core/codegen.js';
import { isMessageLike } from './decode/message.js';
import {
  BOOL,
  DECIMAL,
  DOUBLE,
  ENUM,
  INT32,
  MESSAGE,
  type MessagePlan,
  SFIXED32,
  SINT32,
  type Slot,
  STRING,
  UFIXED32,
  UINT32,
} from './layout.js';

/** What the value code needs from the compilation it is part of. */
export interface ValueCompiler {
  readonly source: SourceBuilder;
  /** The names of the compiled encoder and decoder of a message, queued for emission. */
  functionsOf(plan: MessagePlan): { readonly encode: string; readonly decode: string };
}

/** The 32-bit integer slots and how each writes a value already checked against its range. */
const smallIntWrites: Readonly<Record<number, (x: string) => string>> = {
  [UINT32]: (x) => `w.varint(${x});`,
  [SINT32]: (x) => `w.varint(((${x} << 1) ^ (${x} >> 31)) >>> 0);`,
  // int32 sign-extends a negative number to 64 bits, as protobuf's runtimes do: ten bytes.
  [INT32]: (x) => `w.int64(${x});`,
  [SFIXED32]: (x) => `w.fixed32(${x});`,
  [UFIXED32]: (x) => `w.fixed32(${x});`,
};

/** Statements writing `x` (an identifier) as one value of `slot`, checking its type: `writeSlot`. */
export function writeValueCode(c: ValueCompiler, slot: Slot, x: string): string {
  const s = c.source;
  const keep = slot.rule === undefined ? '' : ` h.keep(${s.dep(slot.rule)}, ${x});`;
  switch (slot.type) {
    case STRING:
      return `if (typeof ${x} !== 'string') throw h.wrong('a string', ${x});${keep} w.string(${x});`;
    case DECIMAL: {
      // Hot: a decimal within its bounds is what its rule lets through; the rule (which throws the
      // refusal) runs only for the rest, where writeSlot called it on every value, by dispatch.
      const [integer, fraction] = slot.decimalBounds as readonly [number, number];
      return `if (typeof ${x} !== 'string') throw h.wrong('a decimal string', ${x}); if (!h.decimalFits(${x}, ${integer}, ${fraction})) {${keep} } w.string(${x});`;
    }
    case BOOL:
      return `if (${x} === true) w.byte(1); else if (${x} === false) w.byte(0); else throw h.wrong('a boolean', ${x});`;
    case DOUBLE:
      return `if (typeof ${x} !== 'number') throw h.wrong('a number', ${x});${keep} w.double(${x});`;
    case UINT32:
    case SINT32:
    case INT32:
    case SFIXED32:
    case UFIXED32: {
      const write = smallIntWrites[slot.type] as (x: string) => string;
      return `if (typeof ${x} !== 'number' || !(${x} >= ${slot.min} && ${x} <= ${slot.max}) || Math.floor(${x}) !== ${x}) throw h.wrong(${s.dep(`an integer in ${slot.kind}'s range`)}, ${x}); ${write(x)}`;
    }
    case ENUM: {
      const members = slot.members as readonly string[];
      return `{ const index = ${s.dep(slot.memberIndex)}.get(${x}); if (index === undefined) throw h.wrong(${s.dep(`one of ${members.join(', ')}`)}, ${x}); w.int64(index); }`;
    }
    case MESSAGE: {
      // Behind its length, `levels` deeper, as writeSlot enters every nested body.
      const { encode } = c.functionsOf(slot.message as MessagePlan);
      return `h.enter(w, ${slot.levels}, ${slot.need}); { const start = w.begin(); ${encode}(w, ${x}); w.end(start); } w.depth -= ${slot.levels};`;
    }
    default:
      return `h.writeSlot(w, ${s.dep(slot)}, ${x});`;
  }
}

/** The expression reading a string held to `rule` (the interpreter's `kept`). */
export function readStringCode(c: ValueCompiler, slot: Slot): string {
  return slot.rule === undefined
    ? 'h.readString(r)'
    : `h.kept(${c.source.dep(slot.rule)}, r.pos, h.readString(r))`;
}

/**
 * A statement reading one value of `slot` into `v`: `readSlot`, or for a message-like slot
 * `readOrMerge`, merging into the earlier value `v` holds where `merge` (an expression, `true` for a
 * field of a message) says there is one.
 */
export function readValueCode(c: ValueCompiler, slot: Slot, v: string, merge: string): string {
  const s = c.source;
  const previous = merge === 'true' ? v : `${merge} ? ${v} : undefined`;
  const mergeable = merge === 'true' ? `${v} !== undefined` : `${merge} && ${v} !== undefined`;
  switch (slot.type) {
    case STRING:
      return `${v} = ${readStringCode(c, slot)};`;
    case DECIMAL: {
      // As the interpreter reads it (a string held to the rule), with the rule called only for text
      // out of the bounds, which it refuses.
      const [integer, fraction] = slot.decimalBounds as readonly [number, number];
      return `{ const at = r.pos; const text = h.readString(r); ${v} = h.decimalFits(text, ${integer}, ${fraction}) ? text : h.kept(${s.dep(slot.rule)}, at, text); }`;
    }
    case DOUBLE:
      return slot.rule === undefined ? `${v} = r.double();` : `${v} = h.readSlot(r, ${s.dep(slot)});`;
    case BOOL:
      return `${v} = r.varint64() !== 0 || r.hi !== 0;`;
    case UINT32:
    case SINT32:
    case INT32:
    case SFIXED32:
    case UFIXED32: {
      const raw = {
        [UINT32]: 'r.uint32()',
        [SINT32]: 'r.uint32()',
        // int32 keeps the low 32 bits of its varint, as protobuf's parsers do.
        [INT32]: '(r.uint32() | 0)',
        [SFIXED32]: '(r.fixed32() | 0)',
        [UFIXED32]: 'r.fixed32()',
      }[slot.type] as string;
      const value =
        slot.type === SINT32
          ? `const raw = ${raw}; const x = (raw >>> 1) ^ -(raw & 1);`
          : `const x = ${raw};`;
      return `{ const at = r.pos; ${value} if (x < ${slot.min} || x > ${slot.max}) throw h.outOfRange(at, ${s.dep(slot.kind)}, x); ${v} = x; }`;
    }
    case ENUM:
      if (slot.numbered !== undefined) return `${v} = h.readSlot(r, ${s.dep(slot)});`;
      return `{ const at = r.pos; const index = r.uint32(); const members = ${s.dep(slot.members)}; if (index >= members.length) throw h.notAMember(at, ${s.dep(slot)}, index); ${v} = members[index]; }`;
    case MESSAGE: {
      // A second occurrence merges into the first: the interpreter's merge, on a rare path.
      const { decode } = c.functionsOf(slot.message as MessagePlan);
      return `if (${mergeable} && ${v} !== null) ${v} = h.readOrMerge(r, ${s.dep(slot)}, ${v}); else { const length = r.length('a nested message'); const saved = r.end; r.end = r.pos + length; r.enter(${slot.levels}, ${slot.need}); ${v} = ${decode}(r); r.leave(${slot.levels}); r.end = saved; }`;
    }
    default:
      // A message (a union, a Timestamp, a wrapper) merges a second occurrence; anything else replaces.
      return isMessageLike(slot)
        ? `${v} = h.readOrMerge(r, ${s.dep(slot)}, ${previous});`
        : `${v} = h.readSlot(r, ${s.dep(slot)});`;
  }
}
