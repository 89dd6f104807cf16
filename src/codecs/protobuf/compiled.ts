/**
 * Protocol Buffers, compiled: for each message of a schema, an encoder and a decoder specialised to
 * its fields, producing exactly the interpreter's bytes and values (src/codecs/protobuf/).
 *
 * What the specialisation buys: fields read by constant name (`v["id"]`: one inline cache per
 * field instead of a keyed load that sees every name), a `switch` on the whole field key instead of
 * a lookup and a mode dispatch, and decoded objects built by one object literal (one hidden class,
 * no copying of a template). The common field kinds (32-bit integers, doubles, booleans, strings,
 * enums, nested messages, lists of messages and strings, maps: compiled-maps.ts) are written inline;
 * every other field calls the interpreter's own function for it, so rare kinds cannot drift from
 * it. Errors are the interpreter's, raised by the same helpers with the same messages and paths.
 */

import { prependPath } from '../../errors/index.js';
import { decimalFits } from '../../schema/decimal.js';
import { isRecord, type Rule, unreadableKey } from '../../schema/value-rules.js';
import {
  CompiledCache,
  codegenAvailable,
  functionPairs,
  keysAreSafe,
  SourceBuilder,
} from '../core/codegen.js';
import { isUnsafeKey, mismatch, unsafeKey } from '../core/errors.js';
import { readMapEntryCode, writeMapCode } from './compiled-maps.js';
import { readStringCode, readValueCode, type ValueCompiler, writeValueCode } from './compiled-values.js';
import {
  absentValue,
  checkCounts,
  fillAbsent,
  kept,
  messageCost,
  newList,
  newMap,
  readField,
  readOrMerge,
  readSlot,
  skipMistyped,
  skipUnknown,
  slotDefault,
  wireFits,
} from './decode/message.js';
import type { ProtobufReader } from './decode/reader.js';
import { notAMember, outOfRange, readString } from './decode/scalars.js';
import { encodeField, intKeysInOrder, stringKeysInOrder, writeSlot } from './encode/message.js';
import { enter, keep, wrong } from './encode/problem.js';
import type { ProtobufWriter } from './encode/writer.js';
import {
  BOOL,
  DECIMAL,
  DOUBLE,
  ENUM,
  FIXED32,
  FIXED64,
  type FieldPlan,
  LEN,
  MAP,
  MESSAGE,
  type MessagePlan,
  OMITTED,
  PRESENT,
  REPEATED,
  SINGLE,
  SINT32,
  STRING,
  UINT32,
} from './layout.js';

export interface CompiledMessage {
  encode(w: ProtobufWriter, value: unknown): void;
  decode(r: ProtobufReader): Record<string, unknown>;
}

const cache = new CompiledCache<MessagePlan, CompiledMessage>(256);

/**
 * The compiled encoder and decoder of `plan` and every message reachable from it, or undefined
 * where code cannot be generated (no `new Function` here, or a field named like `__proto__`).
 */
export function compileMessage(plan: MessagePlan): CompiledMessage | undefined {
  if (!codegenAvailable || !allKeysSafe(plan, new Set())) return undefined;
  return cache.get(plan, () => new MessageCompiler().build(plan));
}

function allKeysSafe(plan: MessagePlan, seen: Set<MessagePlan>): boolean {
  if (seen.has(plan)) return true;
  seen.add(plan);
  const names = [...Object.keys(plan.template), ...plan.fields.map((field) => field.name)];
  if (!keysAreSafe(names)) return false;
  return plan.fields.every((field) => {
    const compiled = field.mode !== OMITTED;
    const nested = compiled && field.slot.type === MESSAGE ? field.slot.message : undefined;
    return nested === undefined || allKeysSafe(nested, seen);
  });
}

/** One compilation: a function pair per message reached, all in one unit so they can call each other. */
class MessageCompiler implements ValueCompiler {
  readonly source = new SourceBuilder();
  /** An encoder and a decoder per message reached, named at the first call site. */
  private readonly functions = functionPairs(this.source, (plan: MessagePlan) => plan.name);

  build(root: MessagePlan): CompiledMessage {
    const s = this.source;
    const helpers = {
      decimalFits,
      readField,
      readOrMerge,
      readSlot,
      readString,
      absentValue,
      fillAbsent,
      skipMistyped,
      wireFits,
      notAMember,
      outOfRange,
      encodeField,
      writeSlot,
      prependPath,
      wrong,
      enter,
      mismatch,
      isRecord,
      keep,
      kept,
      checkCounts,
      newList,
      skipUnknown,
      newMap,
      slotDefault,
      stringKeysInOrder,
      intKeysInOrder,
      unreadableKey,
      isUnsafeKey,
      unsafeKey,
    };
    s.line(`const h = ${s.dep(helpers)};`);
    const rootNames = this.functionsOf(root);
    this.functions.drain((plan) => {
      this.emitEncoder(plan);
      this.emitDecoder(plan);
    });
    return s.compile<CompiledMessage>(`{ encode: ${rootNames.encode}, decode: ${rootNames.decode} }`);
  }

  /** The names of a message's encoder and decoder, queued to be emitted in this unit. */
  functionsOf(plan: MessagePlan) {
    return this.functions.nameFor(plan);
  }

  /** The message of a repeated message field, whose items are compiled inline. */
  private repeatedPlan(field: FieldPlan): MessagePlan | undefined {
    return field.mode === REPEATED && field.slot.type === MESSAGE ? field.slot.message : undefined;
  }

  /** A nested message field compiled inline: SINGLE or PRESENT mode, a plain message slot. */
  private nestedPlan(field: FieldPlan): MessagePlan | undefined {
    if (field.mode !== SINGLE && field.mode !== PRESENT) return undefined;
    return field.slot.type === MESSAGE ? field.slot.message : undefined;
  }

  private emitEncoder(plan: MessagePlan): void {
    const s = this.source;
    const { encode } = this.functionsOf(plan);
    s.line(`function ${encode}(w, v) {`);
    s.line(`  if (!h.isRecord(v)) throw h.wrong('an object', v);`);
    if (plan.oneofs !== undefined) s.line(`  h.keep(${s.dep(plan.oneofs)}, v);`);
    for (const literal of plan.literals) {
      const key = s.key(literal.name);
      s.line(
        `  if (v[${key}] !== ${s.dep(literal.value)}) throw h.prependPath(h.wrong(${s.dep(JSON.stringify(literal.value))}, v[${key}]), ${key});`,
      );
    }
    s.line('  let at = 0;');
    s.line('  try {');
    plan.fields.forEach((field, index) => {
      s.line(`    at = ${index};`);
      s.line(`    const x${index} = ${s.field('v', field.name)};`);
      this.emitFieldWrite(field, `x${index}`);
    });
    s.line('  } catch (error) {');
    s.line(`    throw h.prependPath(error, ${s.dep(plan.fields.map((field) => field.name))}[at]);`);
    s.line('  }');
    s.line('}');
  }

  /** A statement refusing `x` where `rule` does (the interpreter's `keep`); nothing without a rule. */
  private keep(rule: Rule<never> | undefined, x: string): string {
    return rule === undefined ? '' : ` h.keep(${this.source.dep(rule)}, ${x});`;
  }

  private emitFieldWrite(field: FieldPlan, x: string): void {
    const s = this.source;
    const slot = field.slot;
    const count = this.keep(field.items as Rule<never> | undefined, `${x}.length`);
    const nested = this.nestedPlan(field);
    if (nested !== undefined && field.mode === SINGLE) {
      // A message field without presence is always written (proto3 writes set messages; wirekit
      // always sets them), behind its length, one level deeper.
      s.line(
        `    w.varint(${field.tag}); h.enter(w, ${slot.levels}, ${slot.need}); { const start = w.begin(); ${this.functionsOf(nested).encode}(w, ${x}); w.end(start); } w.depth -= ${slot.levels};`,
      );
      return;
    }
    const listed = this.repeatedPlan(field);
    if (listed !== undefined) {
      // A list of messages (the shape of most payloads): each behind its key and length.
      const encode = this.functionsOf(listed).encode;
      s.line(`    if (!Array.isArray(${x})) throw h.wrong('an array', ${x});${count}`);
      s.line(`    for (let i = 0; i < ${x}.length; i++) {`);
      s.line(
        `      try { w.varint(${field.tag}); h.enter(w, ${slot.levels}, ${slot.need}); const start = w.begin(); ${encode}(w, ${x}[i]); w.end(start); w.depth -= ${slot.levels}; }`,
      );
      s.line('      catch (error) { throw h.prependPath(error, i); }');
      s.line('    }');
      return;
    }
    if (field.mode === REPEATED && field.slot.type === STRING) {
      s.line(`    if (!Array.isArray(${x})) throw h.wrong('an array', ${x});${count}`);
      s.line(`    for (let i = 0; i < ${x}.length; i++) {`);
      s.line(`      const item = ${x}[i];`);
      s.line(`      w.varint(${field.tag});`);
      // Inside the try: a lone surrogate raised by w.string needs the item's index in its path too.
      s.line(
        `      try { if (typeof item !== 'string') throw h.wrong('a string', item);${this.keep(slot.rule, 'item')} w.string(item); }`,
      );
      s.line('      catch (error) { throw h.prependPath(error, i); }');
      s.line('    }');
      return;
    }
    if (field.mode === REPEATED && slot.wire !== LEN) {
      // Numbers, booleans and enums (id lists): encodeRepeated's writes, each item by the value code.
      const item = writeValueCode(this, slot, 'item');
      s.line(`    if (!Array.isArray(${x})) throw h.wrong('an array', ${x});${count}`);
      s.line(`    if (${x}.length > 0) {`);
      s.line('      let i = 0;');
      s.line('      try {');
      if (!field.packed) {
        s.line(
          `        for (; i < ${x}.length; i++) { const item = ${x}[i]; w.varint(${field.tag}); ${item} }`,
        );
      } else {
        const fixed = slot.wire === FIXED32 ? 4 : slot.wire === FIXED64 ? 8 : 0;
        s.line(`        w.varint(${field.tag});`);
        // Fixed-width items: the length is known up front.
        s.line(fixed > 0 ? `        w.varint(${x}.length * ${fixed});` : '        const start = w.begin();');
        s.line(`        for (; i < ${x}.length; i++) { const item = ${x}[i]; ${item} }`);
        if (fixed === 0) s.line('        w.end(start);');
      }
      s.line('      } catch (error) { throw h.prependPath(error, i); }');
      s.line('    }');
      return;
    }
    if (field.mode === MAP) {
      for (const line of writeMapCode(this, field, x)) s.line(line);
      return;
    }
    if (field.mode !== SINGLE) {
      s.line(`    h.encodeField(w, ${s.dep(field)}, ${x});`);
      return;
    }
    const tag = field.tag;
    switch (slot.type) {
      case STRING: {
        // '' is not written (proto3's default), but is held to the rule as any other value.
        const rule = this.keep(slot.rule, x);
        s.line(
          `    if (${x} !== '') { w.varint(${tag}); if (typeof ${x} !== 'string') throw h.wrong('a string', ${x});${rule} w.string(${x}); }${rule === '' ? '' : ` else${rule}`}`,
        );
        return;
      }
      case DECIMAL:
        // Always written (no decimal is proto3's default: isDefault), then as writeSlot writes it.
        s.line(`    w.varint(${tag}); ${writeValueCode(this, slot, x)}`);
        return;
      case DOUBLE:
        // Without a rule: a rule's check of a default value stays in encodeField.
        if (slot.rule !== undefined) break;
        s.line(
          `    if (!Object.is(${x}, 0)) { w.varint(${tag}); if (typeof ${x} !== 'number') throw h.wrong('a number', ${x}); w.double(${x}); }`,
        );
        return;
      case BOOL:
        s.line(
          `    if (${x} !== false) { w.varint(${tag}); if (${x} === true) w.byte(1); else throw h.wrong('a boolean', ${x}); }`,
        );
        return;
      case UINT32:
        // Without a rule: a rule's check of a default value stays in encodeField.
        if (slot.rule !== undefined) break;
        s.line(
          `    if (${x} !== 0) { w.varint(${tag}); if (typeof ${x} !== 'number' || !(${x} >= ${slot.min} && ${x} <= ${slot.max}) || Math.floor(${x}) !== ${x}) throw h.wrong(${s.dep(`an integer in ${slot.kind}'s range`)}, ${x}); w.varint(${x}); }`,
        );
        return;
      case SINT32:
        // Without a rule: a rule's check of a default value stays in encodeField.
        if (slot.rule !== undefined) break;
        s.line(
          `    if (${x} !== 0) { w.varint(${tag}); if (typeof ${x} !== 'number' || !(${x} >= ${slot.min} && ${x} <= ${slot.max}) || Math.floor(${x}) !== ${x}) throw h.wrong(${s.dep(`an integer in ${slot.kind}'s range`)}, ${x}); w.varint(((${x} << 1) ^ (${x} >> 31)) >>> 0); }`,
        );
        return;
      case ENUM: {
        // The first member is proto3's default, not written; the lookup is the membership check.
        const members = slot.members as readonly string[];
        s.line(
          `    if (${x} !== ${s.dep(members[0])}) { const index = ${s.dep(slot.memberIndex)}.get(${x}); if (index === undefined) throw h.wrong(${s.dep(`one of ${members.join(', ')}`)}, ${x}); w.varint(${tag}); w.int64(index); }`,
        );
        return;
      }
    }
    s.line(`    h.encodeField(w, ${s.dep(field)}, ${x});`);
  }

  private emitDecoder(plan: MessagePlan): void {
    const s = this.source;
    const { decode } = this.functionsOf(plan);
    // Fields in the template are keys of every decoded object; the others (optional fields) get a
    // key only when they were on the wire, as the interpreter does.
    const keys = Object.keys(plan.template);
    const local = new Map<string, string>(keys.map((key, i) => [key, `v${i}`]));
    const extra = plan.fields.filter((field) => !local.has(field.name));
    extra.forEach((field, i) => {
      local.set(field.name, `e${i}`);
    });
    s.line(`function ${decode}(r) {`);
    // Charged as the interpreter charges a message, before its fields are read.
    s.line(`  r.budget.charge(${messageCost(plan)}, r.pos);`);
    if (plan.counted.length > 0) s.line('  const begin = r.pos;');
    keys.forEach((key, i) => {
      const value = plan.template[key];
      s.line(`  let v${i} = ${value === undefined ? 'undefined' : s.dep(value)};`);
    });
    for (let i = 0; i < extra.length; i++) s.line(`  let e${i} = undefined;`);
    s.line('  let seen = 0;');
    s.line('  while (r.pos < r.end) {');
    s.line('    const start = r.pos;');
    s.line('    const tag = r.tag();');
    s.line('    switch (tag) {');
    for (const field of plan.fields) {
      const v = local.get(field.name) as string;
      const set = field.bit !== 0 ? ` seen |= ${field.bit};` : '';
      s.line(
        `      case ${field.mode === SINGLE || field.mode === PRESENT ? field.number * 8 + field.slot.wire : field.tag}: {`,
      );
      // A oneof member clears the group's others (the last on the wire wins), before a message merges.
      const cleared = (field.rivals ?? []).map((rival) => `${local.get(rival)} = undefined; `).join('');
      s.line(`        ${cleared}${this.readExpression(field, v)}${set}`);
      s.line('        break;');
      s.line('      }');
    }
    s.line('      default: {');
    s.line('        const number = tag >>> 3;');
    s.line('        switch (number) {');
    for (const field of plan.fields) {
      const v = local.get(field.name) as string;
      const set = field.bit !== 0 ? ` seen |= ${field.bit};` : '';
      // The field's number with a key the first switch did not take: another wire type, an
      // unknown field (skipped, or refused with unknown keys), or the other form of a list.
      if (field.mode === SINGLE || field.mode === PRESENT) {
        s.line(`          case ${field.number}: h.skipMistyped(r, ${s.dep(field)}, tag, start); break;`);
      } else {
        s.line(
          `          case ${field.number}: if (h.wireFits(${s.dep(field)}, tag & 7)) { ${v} = h.readField(r, ${s.dep(field)}, tag & 7, ${v}, start);${set} } else h.skipMistyped(r, ${s.dep(field)}, tag, start); break;`,
        );
      }
    }
    s.line(`          default: h.skipUnknown(r, ${s.dep(plan)}, tag, start);`);
    s.line('        }');
    s.line('      }');
    s.line('    }');
    s.line('  }');
    // The first 31 fields that must have a value (those with a bit), not on the wire (a proto3
    // default, an empty list): their absent values, in fillAbsent's order, before the object is
    // made. The loop over every field in fillAbsent had cost more than the reads on documents
    // with many empty fields (issue 35's catalogs).
    const bitted = plan.required.filter((field) => field.bit !== 0);
    if (bitted.length > 0) {
      s.line(`  if (seen !== ${plan.requiredMask}) {`);
      for (const field of bitted) {
        const absent = field.mode === REPEATED ? 'h.newList(r)' : `h.absentValue(r, ${s.dep(field)})`;
        s.line(`    if ((seen & ${field.bit}) === 0) ${local.get(field.name)} = ${absent};`);
      }
      s.line('  }');
    }
    s.line(`  const out = { ${keys.map((key) => `${s.key(key)}: ${local.get(key)}`).join(', ')} };`);
    extra.forEach((field, i) => {
      s.line(`  if (e${i} !== undefined) out[${s.key(field.name)}] = e${i};`);
    });
    // The others, past 31, are found by their value.
    if (plan.required.length > 31) s.line(`  h.fillAbsent(r, ${s.dep(plan)}, out, ${plan.requiredMask});`);
    if (plan.counted.length > 0) s.line(`  h.checkCounts(${s.dep(plan)}, out, begin);`);
    s.line('  return out;');
    s.line('}');
  }

  /** Statement reading one occurrence of `field` (its key already read and matching) into `v`. */
  private readExpression(field: FieldPlan, v: string): string {
    const s = this.source;
    const slot = field.slot;
    const listed = this.repeatedPlan(field);
    if (listed !== undefined) {
      const { decode } = this.functionsOf(listed);
      return `{ const list = ${v} === undefined ? (${v} = h.newList(r)) : ${v}; r.countElement(); const length = r.length('a nested message'); const saved = r.end; r.end = r.pos + length; r.enter(${slot.levels}, ${slot.need}); list.push(${decode}(r)); r.leave(${slot.levels}); r.end = saved; }`;
    }
    if (field.mode === REPEATED && slot.type === STRING) {
      return `{ const list = ${v} === undefined ? (${v} = h.newList(r)) : ${v}; r.countElement(); list.push(${readStringCode(this, slot)}); }`;
    }
    if (field.mode === REPEATED && slot.wire !== LEN) {
      // Numbers, booleans and enums, each read as a single field's (readValueCode) where the
      // interpreter's readField went through readSlot per item: id lists, packed (the key
      // `field.tag` names) or one key per item.
      const list = `const list = ${v} === undefined ? (${v} = h.newList(r)) : ${v};`;
      const item = `r.countElement(); let item; ${readValueCode(this, slot, 'item', 'false')} list.push(item);`;
      return (field.tag & 7) === LEN
        ? `{ ${list} const length = r.length('a packed field'); const saved = r.end; r.end = r.pos + length; while (r.pos < r.end) { ${item} } r.end = saved; }`
        : `{ ${list} ${item} }`;
    }
    if (field.mode === MAP) return readMapEntryCode(this, field, v);
    if (field.mode !== SINGLE && field.mode !== PRESENT) {
      return `${v} = h.readField(r, ${s.dep(field)}, ${field.tag & 7}, ${v}, start);`;
    }
    return readValueCode(this, slot, v, 'true');
  }
}
