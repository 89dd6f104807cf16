/**
 * Lazy, zero-copy views. `viewOf` first runs the checked Reader over the buffer without building
 * anything (the Verifier pass: every offset, vtable, length, union type, enum index, the depth and
 * element limits, the keys of string maps), then hands out objects whose fields are getters that
 * read the buffer through the runtime's ByteBuffer when accessed, unchecked because already checked.
 *
 * What a getter can still throw is what the verifier leaves to access time so that it stays cheap:
 * WK_DECODE_MALFORMED for a string that is not UTF-8 or a json field that is not JSON text,
 * WK_DECODE_SCHEMA_MISMATCH for a value its schema's constraints refuse (value-rules.ts: a decimal
 * that is none or breaks its scale, a string's lengths or pattern, a vector's item counts...), and
 * for a json field the checks of its parsed value (depth, elements, unsafe keys).
 *
 * Objects are views; arrays and maps are built when their field is read, their objects being views
 * again; bytes are subarrays of the buffer. Nothing is cached: each read decodes again, as generated
 * FlatBuffers code does, so keep what you read often.
 */
import { ByteBuffer } from 'flatbuffers';
import type { DecodeLimits } from '../../core/limits.js';
import { decodeUtf8 } from '../../core/utf8.js';
import type { FieldPlan, RootPlan, TablePlan, ValuePlan } from '../plan.js';
import { dateOf, safeInteger } from '../values.js';
import { parseJsonText } from './json-text.js';
import { kept, Reader } from './reader.js';

interface Source {
  readonly bb: ByteBuffer;
  readonly bytes: Uint8Array;
  readonly limits: DecodeLimits;
}

export function viewOf(
  plan: RootPlan,
  bytes: Uint8Array,
  limits: DecodeLimits,
  rejectUnknown = false,
): unknown {
  // The verifier: every check decode makes, the unknown-key rule included, before any access.
  const verifier = new Reader(bytes, limits, false);
  verifier.rejectUnknown = rejectUnknown;
  verifier.root(plan);
  const source: Source = { bb: new ByteBuffer(bytes), bytes, limits };
  const root = source.bb.__indirect(0);
  if (!plan.wrapped) return objectView(source, plan.table, root, 0);
  const stored = plan.table.fields[0];
  // A literal root is not stored: its wrapper table is empty.
  return stored === undefined ? plan.table.literals[0]?.literal : field(source, root, stored, 0);
}

/** The state of a view sits in private fields, so that a view's own keys are none but its fields'. */
class TableView {
  readonly #source: Source;
  readonly #pos: number;
  readonly #depth: number;

  constructor(source: Source, pos: number, depth: number) {
    this.#source = source;
    this.#pos = pos;
    this.#depth = depth;
  }

  static read(view: TableView, plan: FieldPlan): unknown {
    return field(view.#source, view.#pos, plan, view.#depth + 1);
  }

  /** console.log shows the fields (read for the occasion), not an empty object. */
  [Symbol.for('nodejs.util.inspect.custom')](
    _depth: number,
    options: object,
    inspect: (value: unknown, options: object) => string,
  ): string {
    const fields: Record<string, unknown> = {};
    for (const key in this) fields[key] = this[key];
    return `${(this as unknown as Record<symbol, string>)[typeName]} ${inspect(fields, options)}`;
  }
}

/** Where a view keeps its type's name: a field may be called `constructor`, a symbol cannot. */
const typeName = Symbol('wirekit.flatbuffers.type');

type ViewClass = new (source: Source, pos: number, depth: number) => TableView;

const classes = new WeakMap<TablePlan, ViewClass>();

/** One class per object type, with a getter per field on its prototype (literals are plain values). */
function classOf(table: TablePlan): ViewClass {
  let View = classes.get(table);
  if (View === undefined) {
    View = class extends TableView {};
    Object.defineProperty(View, 'name', { value: table.name });
    Object.defineProperty(View.prototype, typeName, { value: table.name });
    for (const member of table.members) {
      const plan = member.field;
      Object.defineProperty(
        View.prototype,
        member.name,
        plan === undefined
          ? { value: member.literal, enumerable: true }
          : {
              get(this: TableView) {
                return TableView.read(this, plan);
              },
              enumerable: true,
            },
      );
    }
    classes.set(table, View);
  }
  return View;
}

function objectView(source: Source, table: TablePlan, pos: number, depth: number): unknown {
  return new (classOf(table))(source, pos, depth);
}

/** Where a slot's data is, or -1; the vtable was checked by the verifier. */
function slot(bb: ByteBuffer, table: number, index: number): number {
  const vtable = table - bb.readInt32(table);
  const entry = 4 + 2 * index;
  // Unsigned reads: the runtime's __offset reads vtable entries as signed 16-bit numbers.
  if (entry >= bb.readUint16(vtable)) return -1;
  const offset = bb.readUint16(vtable + entry);
  return offset === 0 ? -1 : table + offset;
}

function field(source: Source, table: number, plan: FieldPlan, depth: number): unknown {
  const { bb } = source;
  const value = plan.value;
  if (value.k === 'union') {
    const typeAt = slot(bb, table, plan.slot);
    const type = typeAt < 0 ? 0 : bb.readUint8(typeAt);
    if (type === 0) return absent(plan);
    const variant = value.union.variants[type - 1] as TablePlan;
    const at = bb.__indirect(slot(bb, table, plan.slot + 1));
    if (variant.kind === 'object') return objectView(source, variant, at, depth);
    // An either's wrapper member holds the value itself; a literal's holds nothing.
    const stored = variant.fields[0];
    return stored === undefined ? variant.literals[0]?.literal : field(source, at, stored, depth);
  }
  const at = slot(bb, table, plan.slot);
  return at < 0 ? absent(plan) : read(source, value, at, depth);
}

/** As the Reader's: the verifier has refused the absent required fields that have no default. */
function absent(plan: FieldPlan): unknown {
  if (plan.presence === 'optional') return undefined;
  if (plan.presence === 'nullable') return null;
  const value = plan.value;
  switch (value.k) {
    case 'scalar':
      if (value.kind === 'bool') return false;
      return (value.kind === 'int64' || value.kind === 'uint64') && !value.asNumber ? 0n : 0;
    case 'timestamp':
      return new Date(0);
    case 'enum':
      return value.members[0];
    case 'literal':
      return value.value;
    case 'string':
      return '';
    case 'bytes':
      return new Uint8Array(0);
    case 'vector':
      return [];
    case 'map':
      return value.stringKeys ? {} : new Map();
    default:
      return undefined;
  }
}

function read(source: Source, plan: ValuePlan, at: number, depth: number): unknown {
  const { bb } = source;
  switch (plan.k) {
    case 'scalar':
      switch (plan.kind) {
        case 'bool':
          return bb.readUint8(at) !== 0;
        case 'int8':
          return bb.readInt8(at);
        case 'uint8':
          return bb.readUint8(at);
        case 'int16':
          return bb.readInt16(at);
        case 'uint16':
          return bb.readUint16(at);
        case 'int32':
          return bb.readInt32(at);
        case 'uint32':
          return bb.readUint32(at);
        case 'float32':
          return bb.readFloat32(at);
        case 'float64':
          return bb.readFloat64(at);
        case 'int64':
          return plan.asNumber ? safeInteger(bb.readUint32(at), bb.readInt32(at + 4)) : bb.readInt64(at);
        case 'uint64':
          return plan.asNumber ? safeInteger(bb.readUint32(at), bb.readUint32(at + 4)) : bb.readUint64(at);
      }
      return undefined;
    case 'timestamp': {
      const date = dateOf(bb.readUint32(at), bb.readInt32(at + 4), plan.precision);
      return plan.rule === undefined ? date : kept(plan.rule, at, date);
    }
    case 'enum':
      return plan.members[
        plan.size === 1 ? bb.readUint8(at) : plan.size === 2 ? bb.readUint16(at) : bb.readUint32(at)
      ];
    case 'literal':
      return plan.value;
    case 'string':
      return plan.rule === undefined ? text(source, at) : kept(plan.rule, at, text(source, at));
    case 'decimal':
      return kept(plan.rule, at, text(source, at));
    case 'json': {
      const value = parseJsonText(
        text(source, at),
        at,
        depth,
        source.limits,
        new Reader(source.bytes, source.limits, false),
      );
      // A declared Struct or ListValue holds an object or an array (JsonSchema.proto).
      return plan.rule === undefined ? value : kept(plan.rule, at, value);
    }
    case 'bytes': {
      const start = bb.__vector(at);
      const bytes = source.bytes.subarray(start, start + bb.readUint32(start - 4));
      return plan.rule === undefined ? bytes : kept(plan.rule, at, bytes);
    }
    case 'table': {
      const table = bb.__indirect(at);
      return plan.table.kind === 'object'
        ? objectView(source, plan.table, table, depth)
        : field(source, table, plan.table.fields[0] as FieldPlan, depth);
    }
    case 'vector': {
      const start = bb.__vector(at);
      const n = bb.readUint32(start - 4);
      if (plan.rule !== undefined) kept(plan.rule, at, n);
      const out = new Array(n);
      for (let i = 0; i < n; i++)
        out[i] = read(source, plan.element, start + i * plan.element.size, depth + 1);
      return out;
    }
    case 'map':
      return map(source, plan, at, depth);
    case 'union':
      return undefined;
  }
}

function text(source: Source, at: number): string {
  const start = source.bb.__vector(at);
  return decodeUtf8(source.bytes, start, start + source.bb.readUint32(start - 4));
}

function map(source: Source, plan: Extract<ValuePlan, { k: 'map' }>, at: number, depth: number): unknown {
  const { bb } = source;
  const start = bb.__vector(at);
  const n = bb.readUint32(start - 4);
  const [keyField, valueField] = plan.entry.fields as [FieldPlan, FieldPlan];
  const byString: Record<string, unknown> | undefined = plan.stringKeys ? {} : undefined;
  const byNumber = plan.stringKeys ? undefined : new Map<unknown, unknown>();
  for (let i = 0; i < n; i++) {
    const entry = bb.__indirect(start + 4 * i);
    // The verifier decoded every key and refused those that could reach a prototype.
    const key = field(source, entry, keyField, depth + 1);
    const value = field(source, entry, valueField, depth + 1);
    if (byString !== undefined) byString[key as string] = value;
    else byNumber?.set(key, value);
  }
  return byString ?? byNumber;
}
