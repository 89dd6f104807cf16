/**
 * Protocol Buffers, compiled: map fields. A map is a repeated entry message `{ key = 1; value = 2; }`;
 * the compiled code writes and reads each entry inline, its key and value by the value code
 * (compiled-values.ts), where the interpreter goes through `writeEntry` and `readEntry` per entry.
 * Everything observable is the interpreter's: entries in the order deterministic serialization
 * writes them (string keys by UTF-8 bytes, integer keys by value, from the same helpers), key and
 * value written even at their defaults, a missing key or value read as its default, a later entry
 * with the same key replacing the earlier one, an entry's key or value with another wire type
 * skipped, each entry counted against maxElements and charged to the budget at the same points,
 * the same errors with the same paths and offsets.
 */
import { cost } from '../core/budget.js';
import { readValueCode, type ValueCompiler, writeValueCode } from './compiled-values.js';
import type { FieldPlan, Slot } from './layout.js';

/** Statements writing map field `field` from `x` (an identifier): `encodeStringMap`/`encodeIntMap`. */
export function writeMapCode(c: ValueCompiler, field: FieldPlan, x: string): string[] {
  const keySlot = field.key as Slot;
  const entry = (key: string, item: string) =>
    `w.varint(${field.tag}); const start = w.begin(); w.varint(${8 + keySlot.wire}); ${writeValueCode(c, keySlot, key)} w.varint(${16 + field.slot.wire}); ${writeValueCode(c, field.slot, item)} w.end(start);`;
  if (!field.intKeys) {
    return [
      `    if (!h.isRecord(${x})) throw h.wrong('an object (a map with string keys)', ${x});`,
      `    { const keys = h.stringKeysInOrder(${x}); let key = '';`,
      '      try {',
      '        for (let i = 0; i < keys.length; i++) {',
      '          key = keys[i];',
      '          const unreadable = h.unreadableKey(key); if (unreadable !== undefined) throw unreadable;',
      `          const item = ${x}[key];`,
      `          ${entry('key', 'item')}`,
      '        }',
      '      } catch (error) { throw h.prependPath(error, key); } }',
    ];
  }
  // A Map already in key order is walked as it is; otherwise its keys, sorted, are looked up.
  return [
    `    if (!(${x} instanceof Map)) throw h.wrong('a Map (integer keys)', ${x});`,
    `    { const keys = h.intKeysInOrder(${x}); let current;`,
    '      try {',
    `        if (keys === undefined) for (const [key, item] of ${x}) { current = key; ${entry('key', 'item')} }`,
    `        else for (const key of keys) { current = key; const item = ${x}.get(key); ${entry('key', 'item')} }`,
    "      } catch (error) { throw h.prependPath(error, typeof current === 'bigint' ? current.toString() : String(current)); } }",
  ];
}

/**
 * A statement reading one entry of map field `field` (its key already read, at `start`) into the
 * map `v` holds, made on the first entry: `readField` and `readEntry`.
 */
export function readMapEntryCode(c: ValueCompiler, field: FieldPlan, v: string): string {
  const s = c.source;
  const keySlot = field.key as Slot;
  const valueSlot = field.slot;
  // A key and a value: the slot countElement charged and one more, or a Map's entry.
  const charge = field.intKeys ? cost.mapEntry - cost.slot : cost.slot;
  const store = field.intKeys
    ? 'map.set(key, value);'
    : 'if (h.isUnsafeKey(key)) throw h.unsafeKey(start, key); map[key] = value;';
  return [
    `{ const map = ${v} === undefined ? (${v} = h.newMap(r, ${field.intKeys})) : ${v};`,
    "r.countElement(); const length = r.length('a map entry'); const saved = r.end; r.end = r.pos + length;",
    'let key; let value; let hasKey = false; let hasValue = false;',
    'while (r.pos < r.end) { const inner = r.tag();',
    `if (inner === ${8 + keySlot.wire}) { ${readValueCode(c, keySlot, 'key', 'false')} hasKey = true; }`,
    `else if (inner === ${16 + valueSlot.wire}) { ${readValueCode(c, valueSlot, 'value', 'hasValue')} hasValue = true; }`,
    'else r.skip(inner & 7, inner >>> 3); }',
    `if (!hasKey) key = h.slotDefault(r, ${s.dep(keySlot)});`,
    `if (!hasValue) value = h.slotDefault(r, ${s.dep(valueSlot)});`,
    `r.end = saved; r.budget.charge(${charge}, start); ${store} }`,
  ].join(' ');
}
