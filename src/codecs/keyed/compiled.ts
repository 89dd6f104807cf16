/**
 * MessagePack (and CBOR), compiled: for each schema, an encoder and a decoder specialised to it,
 * producing exactly the bytes and values of the shared interpreter (src/codecs/keyed/).
 *
 * One generator serves both formats: a map key is the same bytes in every record, so the format
 * only supplies its emitter, with which the keys, map headers and constants are encoded once, at
 * compile time, by the interpreter's own code; the generated code copies them (encoding) or
 * compares them (decoding) and calls the format's emitter and source for everything else.
 *
 * What the specialisation buys: fields read by constant name (`v["id"]`, one inline cache per
 * field), no dispatch on the plan's kind, the map header and keys copied (and compared) as
 * pre-encoded bytes, inline, and decoded objects built by constant-name stores in the schema's
 * order (see emitBuild for why not one literal). The common kinds (integers, floats, booleans,
 * strings, enums, timestamps, nested objects, arrays and optionals of those) are written inline;
 * every other one calls the interpreter's own function for it, so rare kinds cannot drift from it.
 *
 * Decoding keeps every check of the interpreter: the source's reads check lengths, limits and
 * UTF-8 as before. Keys are compared byte-wise with the pre-encoded ones, in the schema's order
 * (as wirekit writes them); at the first entry that is not the next field (another writer's
 * order, an unknown or repeated key, a non-minimal header, an indefinite CBOR map), the entries
 * left go to the interpreter's loop (`SchemaReader.objectFrom`) with the state so far, so nothing
 * is read twice and unknown and duplicate keys are handled by the interpreter itself. Errors are
 * the interpreter's, raised by the same functions with the same messages and paths.
 */

import { describeValue, prependPath } from '../../errors/index.js';
import { decimalFits, isDecimalText } from '../../schema/decimal.js';
import { fitsFloat32, isRecord, type Rule, refused } from '../../schema/value-rules.js';
import { latin1Slice } from '../../util/node-runtime.js';
import { asciiByCodes, asciiByCodesUpTo } from '../core/ascii.js';
import { cost } from '../core/budget.js';
import {
  CompiledCache,
  codegenAvailable,
  functionPairs,
  keysAreSafe,
  SourceBuilder,
} from '../core/codegen.js';
import { isUnsafeKey, malformed, unsafeKey } from '../core/errors.js';
import type { DecodeLimits } from '../core/limits.js';
import type { TextReader } from '../core/utf8.js';
import type { SchemaReader } from './decode/schema-reader.js';
import { checked, finiteBesideText, seenBitsUpTo } from './decode/schema-reader.js';
import { eitherBranch, presenceMaskUpTo, presentFields, SchemaWriter } from './encode/schema-writer.js';
import { refusedKey, schemaMismatch, wrongValue } from './failures.js';
import { type FieldPlan, Op, type Plan } from './plan.js';
import type { WireEmitter, WireSource } from './wire.js';

/** An emitter that can also copy bytes already in its format (pre-encoded keys). */
export interface RawEmitter extends WireEmitter {
  raw(bytes: Uint8Array): void;
  /** The buffer, its write position and its growth (core/byte-writer.ts), for constant bytes written inline. */
  buf: Uint8Array;
  pos: number;
  ensure(extra: number): void;
}

/** A source whose input the generated code may compare keys and read short strings in. */
export interface InputSource extends WireSource {
  readonly input: Uint8Array;
  readonly end: number;
  readonly limits: DecodeLimits;
  /** The input's strings (src/codecs/utf8.ts). */
  readonly text: TextReader;
}

/** The compiled encoder and decoder of one root plan. */
export interface CompiledPlan {
  /** Writes `value` as `writer.write(plan, value, 0)` does, into `out` (the writer's emitter). */
  encode(writer: SchemaWriter, out: RawEmitter, value: unknown): void;
  /** Reads one value as `reader.read(plan, 0)` does, from `src` (the reader's source). */
  decode(reader: SchemaReader, src: InputSource): unknown;
}

/** What a format gives the generator. */
export interface CompiledFormat {
  /** A fresh emitter of the format, to pre-encode keys, headers and constants with. */
  readonly emitter: () => RawEmitter & { begin(): void; finish(): Uint8Array };
  /** Compiled units of this format, by plan (the pre-encoded bytes differ between formats). */
  readonly cache: CompiledCache<Plan, CompiledPlan>;
  /** Reads a string item exactly as `src.string()` does, faster where it can; default `src.string()`. */
  readonly readString?: (src: InputSource) => string;
  /** Reads a decimal exactly as `src.decimal()` does, faster where it can; default `src.decimal()`. */
  readonly readDecimal?: (src: InputSource) => string;
  /**
   * Objects as records (MessagePack's records mode): the structures of an object plan, whose
   * heads the emitter writes (`record(shape)`) in place of map headers and keys.
   */
  readonly records?: (plan: Plan) => RecordStructures;
}

/** An object plan's record structures, as records-emitter.ts writes their heads. */
export interface RecordStructures {
  readonly hasOptional: boolean;
  /** The structure with every field present. */
  readonly all: unknown;
  /** The structure with the optional fields `present` marks (schema-writer.ts's `presentFields`). */
  of(present: number | string): unknown;
}

/**
 * Where a format's short text strings are: a head from `fixFrom` up to `fixTo` carries the length
 * in its low 5 bits (MessagePack's fixstr, CBOR's major type 3 with a direct argument), and
 * `oneByteHead` has it in the byte after (str 8, CBOR's 0x78).
 */
export interface ShortStringHeads {
  readonly fixFrom: number;
  readonly fixTo: number;
  readonly oneByteHead: number;
}

/**
 * A keyed format as the generator takes it: its emitter, a cache of its own, and a string reader
 * that reads short ASCII strings in the two short forms here. Anything else (other forms, a limit
 * exceeded, the input cut, a byte above 0x7f, a CBOR tag in front) is left to the source from the
 * same position, so its checks and errors are the interpreter's.
 */
export function keyedFormat(
  emitter: CompiledFormat['emitter'],
  heads: ShortStringHeads,
  records?: CompiledFormat['records'],
): CompiledFormat {
  const { fixFrom, fixTo, oneByteHead } = heads;
  const readString = (src: InputSource): string => {
    const bytes = src.input;
    const pos = src.pos;
    const head = bytes[pos] as number;
    if (head >= fixFrom && head < fixTo) return readShortAscii(src, pos + 1, head & 0x1f);
    if (head === oneByteHead && pos + 1 < src.end)
      return readShortAscii(src, pos + 2, bytes[pos + 1] as number);
    return src.string();
  };
  // A decimal spelt as a short string is read as one, and held to the spelling as the source holds
  // it (KeyedSource.decimalText); any other text, and every other item (CBOR's tag 4), is the
  // source's from the same position, with the budget as it was, so a refusal is the source's.
  const readDecimal = (src: InputSource): string => {
    const at = src.pos;
    const head = src.input[at] as number;
    if ((head >= fixFrom && head < fixTo) || head === oneByteHead) {
      const used = src.budget.used;
      const text = readString(src);
      if (isDecimalText(text)) return text;
      src.pos = at;
      src.budget.used = used;
    }
    return src.decimal();
  };
  return { emitter, cache: new CompiledCache<Plan, CompiledPlan>(256), readString, readDecimal, records };
}

/**
 * The compiled encoder and decoder of `plan`, or undefined where code cannot be generated (no
 * `new Function` here, or a field named like `__proto__` anywhere in the schema).
 */
export function compilePlan(plan: Plan, format: CompiledFormat): CompiledPlan | undefined {
  if (!codegenAvailable || !allKeysSafe(plan, new Set())) return undefined;
  return format.cache.get(plan, () => new PlanCompiler(format).build(plan));
}

function allKeysSafe(plan: Plan, seen: Set<Plan>): boolean {
  if (seen.has(plan)) return true;
  seen.add(plan);
  if (!keysAreSafe(plan.fields.map((field) => field.name))) return false;
  const children = [
    ...plan.fields.map((field) => field.plan),
    ...plan.variants.map((variant) => variant.plan),
    ...plan.branches,
    plan.inner,
    plan.keys,
  ];
  return children.every((child) => child === undefined || allKeysSafe(child, seen));
}

const maxDateMillis = 8.64e15;

/** Enums of up to this many members have them compared inline by compiled decoders. */
const maxInlineMembers = 8;

/** One compilation: a function pair per object plan reached, all in one unit so they can call each other. */
class PlanCompiler {
  private readonly source = new SourceBuilder();
  /** An encoder and a decoder per object plan reached, named at the first call site. */
  private readonly functions = functionPairs(this.source, (plan: Plan) => plan.label);
  /** The interpreter's writer over a scratch emitter, to pre-encode constants with its own code. */
  private readonly scratch: ReturnType<CompiledFormat['emitter']>;
  private readonly scratchWriter: SchemaWriter;

  constructor(private readonly format: CompiledFormat) {
    this.scratch = format.emitter();
    this.scratchWriter = new SchemaWriter(this.scratch, Number.POSITIVE_INFINITY);
  }

  build(root: Plan): CompiledPlan {
    const s = this.source;
    const helpers = {
      isRecord,
      fitsFloat32,
      refused,
      checked,
      wrongValue,
      prependPath,
      schemaMismatch,
      describeValue,
      match,
      isUnsafeKey,
      refusedKey,
      unsafeKey,
      malformed,
      decimalFits,
      eitherBranch,
      presentFields,
      wideSeen,
      finiteBesideText,
      readString: this.format.readString ?? ((src: InputSource) => src.string()),
      readDecimal: this.format.readDecimal ?? ((src: InputSource) => src.decimal()),
    };
    s.line(`const h = ${s.dep(helpers)};`);
    s.line('function encode(sw, w, v) {');
    s.line('  const depth = 0;');
    this.emitWrite(root, 'v', 'depth', '  ');
    s.line('}');
    s.line('function decode(sr, src) {');
    s.line('  const depth = 0;');
    s.line('  const bytes = src.input;');
    s.line('  const end = src.end;');
    s.line('  let p = 0;');
    s.line('  let r;');
    this.emitRead(root, 'r', 'depth', '  ');
    s.line('  return r;');
    s.line('}');
    this.functions.drain((plan) => {
      this.emitObjectEncoder(plan);
      this.emitObjectDecoder(plan);
    });
    const unit = s.compile<CompiledPlan>('{ encode, decode }');
    return { encode: unit.encode, decode: unit.decode };
  }

  private namesOf(plan: Plan) {
    return this.functions.nameFor(plan);
  }

  /** The bytes the interpreter's emitter writes for `write` (a key, a header, a constant). */
  private preEncode(write: (out: RawEmitter) => void): Uint8Array {
    this.scratch.begin();
    write(this.scratch);
    return this.scratch.finish();
  }

  /** A fresh local name. */
  private local(prefix: string): string {
    return this.source.fn(prefix);
  }

  /** A statement refusing `x` where `rule` does (value-rules.ts), as the interpreter's `keep`; none without a rule. */
  private keep(rule: Rule<never> | undefined, x: string, indent: string): void {
    if (rule === undefined) return;
    this.source.line(
      `${indent}{ const r = ${this.source.dep(rule)}(${x}); if (r !== undefined) throw h.refused(r); }`,
    );
  }

  /** The expression reading `read` (a value starting at `src.pos`) held to `rule`, as the interpreter's `checked`. */
  private checked(rule: Rule<never> | undefined, read: string): string {
    return rule === undefined ? read : `h.checked(${this.source.dep(rule)}, src.pos, ${read})`;
  }

  // Encoding --------------------------------------------------------------------------------------

  /** Statements doing `sw.write(plan, x, depth)`; `x` and `depth` are plain identifiers. */
  private emitWrite(plan: Plan, x: string, depth: string, indent: string): void {
    const s = this.source;
    const line = (text: string) => s.line(indent + text);
    switch (plan.op) {
      case Op.bool:
        line(`if (typeof ${x} !== 'boolean') throw h.wrongValue('a boolean', ${x});`);
        line(`w.bool(${x});`);
        return;
      case Op.int:
        line(
          `if (typeof ${x} !== 'number' || !Number.isInteger(${x}) || ${x} < ${Number(plan.min)} || ${x} > ${Number(plan.max)}) throw h.wrongValue(${s.dep(`an integer in ${plan.label} (${plan.min}..${plan.max})`)}, ${x});`,
        );
        line(`w.int(${x});`);
        return;
      case Op.float32:
        line(`if (typeof ${x} !== 'number') throw h.wrongValue('a number', ${x});`);
        line(`if (!h.fitsFloat32(${x})) throw h.wrongValue('a number within float32', ${x});`);
        this.keep(plan.rule, x, indent);
        line(`w.float32(${x});`);
        return;
      case Op.float64:
        line(`if (typeof ${x} !== 'number') throw h.wrongValue('a number', ${x});`);
        this.keep(plan.rule, x, indent);
        line(`w.float64(${x});`);
        return;
      case Op.string:
        line(`if (typeof ${x} !== 'string') throw h.wrongValue('a string', ${x});`);
        this.keep(plan.rule, x, indent);
        line(`w.string(${x});`);
        return;
      case Op.decimal:
        line(
          `if (typeof ${x} !== 'string') throw h.wrongValue(${s.dep('a decimal string such as "-12.50"')}, ${x});`,
        );
        if (plan.rule === undefined) {
          line(`w.decimal(${x});`);
          return;
        }
        // Hot: the emitter checks the bounds as it writes (one scan of the text); what it leaves
        // is held to the rule, which throws the refusal, and written by `decimal`.
        line(`if (!w.decimalWithin(${x}, ${plan.decimalInteger}, ${plan.decimalScale})) {`);
        this.keep(plan.rule, x, `${indent}  `);
        line(`  w.decimal(${x});`);
        line('}');
        return;
      case Op.bytes:
        line(`if (!(${x} instanceof Uint8Array)) throw h.wrongValue('a Uint8Array', ${x});`);
        this.keep(plan.rule, x, indent);
        line(`w.bytes(${x});`);
        return;
      case Op.timestamp: {
        const ms = this.local('ms');
        line(`const ${ms} = ${x} instanceof Date ? ${x}.getTime() : Number.NaN;`);
        line(`if (!(Math.abs(${ms}) <= ${maxDateMillis})) throw h.wrongValue('a valid Date', ${x});`);
        this.keep(plan.rule, x, indent);
        line(`w.timestamp(${ms});`);
        return;
      }
      case Op.enum: {
        // Each member as the interpreter writes it, by member name.
        const encoded = new Map(
          plan.members.map((member) => [member, this.preEncode((out) => out.string(member))]),
        );
        const bytes = this.local('member');
        line(`const ${bytes} = typeof ${x} === 'string' ? ${s.dep(encoded)}.get(${x}) : undefined;`);
        line(
          `if (${bytes} === undefined) throw h.wrongValue(${s.dep(`one of ${plan.members.join(', ')}`)}, ${x});`,
        );
        line(`w.raw(${bytes});`);
        return;
      }
      case Op.literal: {
        const encoded = this.preEncode(() => this.scratchWriter.write(plan, plan.literal, 0));
        line(
          `if (${x} !== ${s.dep(plan.literal)}) throw h.wrongValue(${s.dep(JSON.stringify(plan.literal))}, ${x});`,
        );
        line(`w.raw(${s.dep(encoded)});`);
        return;
      }
      case Op.object:
        line(`if (!h.isRecord(${x})) throw h.wrongValue(${s.dep(`an object (${plan.label})`)}, ${x});`);
        line(`${this.namesOf(plan).encode}(sw, w, ${x}, sw.enter(${depth}));`);
        return;
      case Op.array: {
        const d = this.local('depth');
        const i = this.local('i');
        const item = this.local('item');
        line(`if (!Array.isArray(${x})) throw h.wrongValue('an array', ${x});`);
        this.keep(plan.rule, `${x}.length`, indent);
        line(`const ${d} = sw.enter(${depth});`);
        line(`w.arrayHeader(${x}.length);`);
        line(`for (let ${i} = 0; ${i} < ${x}.length; ${i}++) {`);
        line(`  const ${item} = ${x}[${i}];`);
        line('  try {');
        this.emitWrite(plan.inner as Plan, item, d, `${indent}    `);
        line('  } catch (error) {');
        line(`    throw h.prependPath(error, ${i});`);
        line('  }');
        line('}');
        return;
      }
      case Op.map: {
        // String keys only (as SchemaWriter.map); integer-keyed Maps, and maps written as records,
        // stay with the interpreter.
        if ((plan.keys as Plan).op !== Op.string || this.format.records !== undefined) break;
        const d = this.local('depth');
        const name = this.local('name');
        const item = this.local('item');
        line(`if (!h.isRecord(${x})) throw h.wrongValue('an object (a map with string keys)', ${x});`);
        line(`const ${d} = sw.enter(${depth});`);
        line(`const ${name}s = Object.keys(${x});`);
        line(`w.mapHeader(${name}s.length);`);
        line(`for (const ${name} of ${name}s) {`);
        line('  try {');
        line(`    if (h.isUnsafeKey(${name})) throw h.refusedKey(${name});`);
        this.keep((plan.keys as Plan).rule, name, `${indent}    `);
        line(`    w.string(${name});`);
        line(`    const ${item} = ${x}[${name}];`);
        this.emitWrite(plan.inner as Plan, item, d, `${indent}    `);
        line('  } catch (error) {');
        line(`    throw h.prependPath(error, ${name});`);
        line('  }');
        line('}');
        return;
      }
      case Op.optional:
        line(`if (${x} === undefined) w.undef();`);
        line('else {');
        this.emitWrite(plan.inner as Plan, x, depth, `${indent}  `);
        line('}');
        return;
      case Op.nullable:
        line(`if (${x} === null) w.nil();`);
        line('else {');
        this.emitWrite(plan.inner as Plan, x, depth, `${indent}  `);
        line('}');
        return;
      case Op.either: {
        // The interpreter's choice of branch, then each branch written inline.
        const branch = this.local('branch');
        line(`const ${branch} = h.eitherBranch(${s.dep(plan)}, ${x});`);
        plan.branches.forEach((inner, i) => {
          line(`${i === 0 ? '' : 'else '}if (${branch} === ${i}) {`);
          this.emitWrite(inner, x, depth, `${indent}  `);
          line('}');
        });
        return;
      }
      default:
        break;
    }
    // 64-bit integers, unions, integer-keyed maps, json: the interpreter's own code.
    line(`sw.write(${s.dep(plan)}, ${x}, ${depth});`);
  }

  /** `encode_X(sw, w, v, depth)`: the map of an object already checked and entered, as `SchemaWriter.object`. */
  private emitObjectEncoder(plan: Plan): void {
    const s = this.source;
    const { encode } = this.namesOf(plan);
    const fields = plan.fields;
    s.line(`function ${encode}(sw, w, v, depth) {`);
    this.keep(plan.rule, 'v', '  ');
    const optional = fields.some((field) => field.optional);
    if (this.format.records !== undefined) {
      this.emitRecordHead(plan, this.format.records(plan));
      for (let index = 0; index < fields.length; index++) {
        const field = fields[index] as FieldPlan;
        const x = `x${index}`;
        s.line(`  const ${x} = ${s.field('v', field.name)};`);
        if (field.optional) s.line(`  if (${x} !== undefined) {`);
        this.emitFieldWrite(field, x);
        if (field.optional) s.line('  }');
      }
      s.line('}');
      return;
    }
    const keys = fields.map((field) => this.preEncode((out) => out.key(field.key)));
    let first = 0;
    if (optional) {
      // As the interpreter counts: each absent optional field is one entry fewer.
      s.line(`  let count = ${fields.length};`);
      for (const field of fields) {
        if (field.optional) s.line(`  if (${s.field('v', field.name)} === undefined) count--;`);
      }
      s.line('  w.mapHeader(count);');
    } else if (fields.length > 0) {
      // No optional field: the header is a constant, copied with the first key.
      const header = this.preEncode((out) => {
        out.mapHeader(fields.length);
        out.raw(keys[0] as Uint8Array);
      });
      s.line(`  const x0 = ${s.field('v', (fields[0] as FieldPlan).name)};`);
      this.emitRaw(header, '  ');
      this.emitFieldWrite(fields[0] as FieldPlan, 'x0');
      first = 1;
    } else {
      s.line(`  w.raw(${s.dep(this.preEncode((out) => out.mapHeader(0)))});`);
    }
    for (let index = first; index < fields.length; index++) {
      const field = fields[index] as FieldPlan;
      const x = `x${index}`;
      s.line(`  const ${x} = ${s.field('v', field.name)};`);
      if (field.optional) s.line(`  if (${x} !== undefined) {`);
      this.emitRaw(keys[index] as Uint8Array, '  ');
      this.emitFieldWrite(field, x);
      if (field.optional) s.line('  }');
    }
    s.line('}');
  }

  /** The record head of an object (records mode): its structure's, by which optional fields are present. */
  private emitRecordHead(plan: Plan, structures: RecordStructures): void {
    const s = this.source;
    if (!structures.hasOptional) {
      s.line(`  w.record(${s.dep(structures.all)});`);
      return;
    }
    const fields = plan.fields;
    if (fields.length > presenceMaskUpTo) {
      s.line(`  w.record(${s.dep(structures)}.of(h.presentFields(${s.dep(plan)}, v)));`);
      return;
    }
    // presentFields' sum of 2^i, inline.
    s.line('  let present = 0;');
    fields.forEach((field, i) => {
      if (field.optional) s.line(`  if (${s.field('v', field.name)} !== undefined) present += ${2 ** i};`);
    });
    s.line(`  w.record(${s.dep(structures)}.of(present));`);
  }

  /**
   * Statements copying the constant `bytes` (a key, a map header with the first key) to the output,
   * as `w.raw` does. Up to 16 bytes are stored one by one as constants: `raw`'s call and copy loop
   * per key were 8.5 % of a document's encode. The constants are bytes made here, never text.
   */
  private emitRaw(bytes: Uint8Array, indent: string): void {
    const s = this.source;
    if (bytes.length > 16) {
      s.line(`${indent}w.raw(${s.dep(bytes)});`);
      return;
    }
    const stores = Array.from(bytes, (byte, i) => `b[q${i === 0 ? '' : ` + ${i}`}] = ${byte};`);
    s.line(
      `${indent}{ w.ensure(${bytes.length}); const b = w.buf; const q = w.pos; ${stores.join(' ')} w.pos = q + ${bytes.length}; }`,
    );
  }

  private emitFieldWrite(field: FieldPlan, x: string): void {
    const s = this.source;
    s.line('  try {');
    this.emitWrite(field.plan, x, 'depth', '    ');
    s.line('  } catch (error) {');
    s.line(`    throw h.prependPath(error, ${s.key(field.name)});`);
    s.line('  }');
  }

  // Decoding --------------------------------------------------------------------------------------

  /** Statements doing `target = sr.read(plan, depth)`; `depth` is a plain identifier. */
  private emitRead(plan: Plan, target: string, depth: string, indent: string): void {
    const s = this.source;
    const line = (text: string) => s.line(indent + text);
    switch (plan.op) {
      case Op.bool:
        line(`${target} = src.bool();`);
        return;
      case Op.int: {
        const at = this.local('at');
        const n = this.local('n');
        line(`const ${at} = src.pos;`);
        line(`const ${n} = src.integer();`);
        line(
          `if (typeof ${n} !== 'number' || ${n} < ${Number(plan.min)} || ${n} > ${Number(plan.max)}) throw h.schemaMismatch(${at}, h.describeValue(${n}) + ${s.dep(` is outside ${plan.label}`)});`,
        );
        line(`${target} = ${n};`);
        return;
      }
      case Op.int64:
        line(`${target} = sr.int64(${s.dep(plan)});`);
        return;
      case Op.float32:
        line(`${target} = ${this.checked(plan.rule, 'sr.float32()')};`);
        return;
      case Op.float64:
        line(`${target} = ${this.checked(plan.rule, 'src.float()')};`);
        return;
      case Op.decimal: {
        if (plan.rule === undefined) {
          line(`${target} = h.readDecimal(src);`);
          return;
        }
        // Text within the bounds is what the rule lets through; the rule speaks for the rest.
        const at = this.local('at');
        const text = this.local('text');
        line(`const ${at} = src.pos;`);
        line(`const ${text} = h.readDecimal(src);`);
        line(
          `${target} = h.decimalFits(${text}, ${plan.decimalInteger}, ${plan.decimalScale}) ? ${text} : h.checked(${s.dep(plan.rule)}, ${at}, ${text});`,
        );
        return;
      }
      case Op.string:
        line(`${target} = ${this.checked(plan.rule, 'h.readString(src)')};`);
        return;
      case Op.bytes:
        line(`${target} = ${this.checked(plan.rule, 'src.bytes()')};`);
        return;
      case Op.timestamp:
        line(`${target} = ${this.checked(plan.rule, 'new Date(src.timestamp())')};`);
        return;
      case Op.enum: {
        // The members as the writer spells them, compared in place; any other spelling (a longer
        // header, a CBOR tag in front) or a string that is no member goes to the interpreter's.
        const members = plan.members.length <= maxInlineMembers ? plan.members : [];
        members.forEach((member, i) => {
          const key = this.matchKey(this.preEncode((out) => out.string(member)));
          line(`${i === 0 ? '' : 'else '}if (${key}) ${target} = ${s.dep(member)};`);
        });
        line(`${members.length === 0 ? '' : 'else '}${target} = sr.member(${s.dep(plan)});`);
        return;
      }
      case Op.literal:
        line(`${target} = sr.literal(${s.dep(plan)});`);
        return;
      case Op.object:
        line(`${target} = ${this.namesOf(plan).decode}(sr, src, ${depth} + 1);`);
        return;
      case Op.array: {
        const level = this.local('level');
        const count = this.local('count');
        const out = this.local('array');
        const i = this.local('i');
        const at = this.local('at');
        line(`const ${level} = ${depth} + 1;`);
        line(`const ${at} = src.pos;`);
        line(`const ${count} = src.arrayStart(${level});`);
        line(`const ${out} = ${count} >= 0 ? new Array(${count}) : [];`);
        line(`for (let ${i} = 0; ${count} < 0 ? src.more() : ${i} < ${count}; ${i}++) {`);
        line('  try {');
        this.emitRead(plan.inner as Plan, `${out}[${i}]`, level, `${indent}    `);
        line('  } catch (error) {');
        line(`    throw h.prependPath(error, ${i});`);
        line('  }');
        line('}');
        // The item count is known for certain once the items are read (a CBOR array may be indefinite).
        if (plan.rule !== undefined) line(`h.checked(${s.dep(plan.rule)}, ${at}, ${out}.length);`);
        line(`${target} = ${out};`);
        return;
      }
      case Op.map: {
        // String keys only (as SchemaReader.map); integer-keyed Maps, and maps that may come as
        // records, stay with the interpreter.
        if ((plan.keys as Plan).op !== Op.string || this.format.records !== undefined) break;
        const level = this.local('level');
        const count = this.local('count');
        const out = this.local('map');
        const i = this.local('i');
        const key = this.local('key');
        const keyAt = this.local('keyAt');
        line(`const ${level} = ${depth} + 1;`);
        line(`const ${count} = src.mapStart(${level});`);
        line(`const ${out} = {};`);
        line(`for (let ${i} = 0; ${count} < 0 ? src.more() : ${i} < ${count}; ${i}++) {`);
        line(`  const ${keyAt} = src.pos;`);
        line(`  const ${key} = ${this.checked((plan.keys as Plan).rule, 'h.readString(src)')};`);
        line(`  if (h.isUnsafeKey(${key})) throw h.unsafeKey(${keyAt}, ${key});`);
        line(
          `  if (Object.hasOwn(${out}, ${key})) throw h.malformed(${keyAt}, 'the key ' + h.describeValue(${key}) + ' appears twice');`,
        );
        line('  try {');
        this.emitRead(plan.inner as Plan, `${out}[${key}]`, level, `${indent}    `);
        line('  } catch (error) {');
        line(`    throw h.prependPath(error, ${key});`);
        line('  }');
        line('}');
        line(`${target} = ${out};`);
        return;
      }
      case Op.optional: {
        const inner = plan.inner as Plan;
        const none = this.local('none');
        line(`const ${none} = src.nullish();`);
        line(`if (${none} === 0) {`);
        this.emitRead(inner, target, depth, `${indent}  `);
        line(
          inner.op === Op.nullable
            ? `} else ${target} = ${none} === 1 ? null : undefined;`
            : `} else ${target} = undefined;`,
        );
        return;
      }
      case Op.nullable:
        line('if (src.nullish() === 0) {');
        this.emitRead(plan.inner as Plan, target, depth, `${indent}  `);
        line(`} else ${target} = null;`);
        return;
      case Op.either: {
        // The interpreter's choice of branch from the item ahead, then each branch read inline.
        const at = this.local('at');
        const branch = this.local('branch');
        line(`const ${at} = src.pos;`);
        line(`const ${branch} = sr.eitherBranch(${s.dep(plan)}, ${depth});`);
        plan.branches.forEach((inner, i) => {
          line(`${i === 0 ? '' : 'else '}if (${branch} === ${i}) {`);
          this.emitRead(inner, target, depth, `${indent}  `);
          line('}');
        });
        if (plan.finiteOnly) line(`h.finiteBesideText(${at}, ${target});`);
        return;
      }
      default:
        break;
    }
    // Unions, integer-keyed maps, json: the interpreter's own code.
    line(`${target} = sr.read(${s.dep(plan)}, ${depth});`);
  }

  /**
   * `decode_X(sr, src, level)`: one object's map, as `SchemaReader.object`. The fields that
   * arrive in the schema's order are read here; from the first entry that does not, the
   * interpreter's loop takes over with the state so far.
   */
  private emitObjectDecoder(plan: Plan): void {
    if (this.format.records !== undefined) {
      this.emitRecordDecoder(plan);
      return;
    }
    const s = this.source;
    const { decode } = this.namesOf(plan);
    const fields = plan.fields;
    const keys = fields.map((field) => this.preEncode((out) => out.key(field.key)));
    s.line(`function ${decode}(sr, src, level) {`);
    s.line('  const start = src.pos;');
    s.line('  const count = src.recordStart(level);');
    // The input and its end stay the same for the whole decode: the inline key matches read them once.
    s.line('  const bytes = src.input;');
    s.line('  const end = src.end;');
    s.line('  let p = 0;');
    s.line('  let e = 0;');
    for (const word of seenWords(fields.length)) s.line(`  let ${word} = 0;`);
    s.line('  let found = 0;');
    s.line('  let hint = 0;');
    fields.forEach((field, i) => {
      s.line(`  let v${i};`);
      if (field.optional) s.line(`  let p${i} = false;`);
    });
    s.line('  fast: {');
    s.line('    if (count < 0) break fast;');
    this.emitFieldsInOrder(fields, (i) => this.matchKey(keys[i] as Uint8Array), true);
    s.line('    if (e !== count) break fast;');
    this.emitBuild(fields, '    ', true, plan.rule);
    s.line('  }');
    // The rest, by the interpreter's loop: the fields read so far go in as it would have set them.
    this.emitBuild(fields, '  ', false);
    s.line(
      `  return sr.objectFrom(${s.dep(plan)}, level, start, count, out, ${seenHandedOver(fields.length, 'found, hint, e')});`,
    );
    s.line('}');
  }

  /**
   * The fast path's body, shared by the map and the record decoder: each field read in the schema's
   * order while `isNext(i)` (an inline key match, or the record structure's field index) says it is
   * the next entry, leaving the block at the first that is not. A required field not next ends the
   * fast path; an optional one is skipped. `withHint` keeps the map decoder's `hint`, where the
   * interpreter resumes its key search.
   */
  private emitFieldsInOrder(fields: Plan['fields'], isNext: (i: number) => string, withHint: boolean): void {
    const s = this.source;
    fields.forEach((field, i) => {
      const next = isNext(i);
      const name = s.key(field.name);
      const [word, bit] = seenBit(fields.length, i);
      const took = `e++; ${word} |= ${bit}; found++;${withHint ? ` hint = ${i + 1};` : ''}`;
      if (!field.optional) {
        s.line(`    if (e === count || !(${next})) break fast;`);
        s.line(`    ${took}`);
        s.line('    try {');
        this.emitRead(field.plan, `v${i}`, 'level', '      ');
      } else {
        // Present when its key is next; a nil for it means absent, as in the interpreter.
        s.line(`    if (e < count && (${next})) {`);
        s.line(`      ${took}`);
        s.line('      try {');
        if (field.plan.op !== Op.nullable) s.line('        if (src.nullish() === 0) {');
        else s.line('        {');
        s.line(`          p${i} = true;`);
        this.emitRead(field.plan, `v${i}`, 'level', '          ');
        s.line('        }');
      }
      const close = field.optional ? '  ' : '';
      s.line(`${close}    } catch (error) {`);
      s.line(`${close}      throw h.prependPath(error, ${name});`);
      s.line(`${close}    }`);
      if (field.optional) s.line('    }');
    });
  }

  /**
   * `decode_X(sr, src, level)` in records mode: one object's record, as `SchemaReader.object`.
   * The keys are the record's structure, so a field is next when the structure says so (its
   * field indexes, `ix`), without a byte compared; the values that arrive in the schema's order
   * are read here, and from the first that does not, the interpreter's `recordFrom` takes over.
   * An object that comes as a map is the interpreter's throughout.
   */
  private emitRecordDecoder(plan: Plan): void {
    const s = this.source;
    const { decode } = this.namesOf(plan);
    const fields = plan.fields;
    const planRef = s.dep(plan);
    s.line(`function ${decode}(sr, src, level) {`);
    s.line('  const start = src.pos;');
    s.line('  const keys = src.recordAhead(level, false);');
    s.line(
      `  if (keys === undefined) return sr.objectFrom(${planRef}, level, start, src.recordStart(level), {}, 0, 0, 0, 0);`,
    );
    s.line(`  const ix = keys.fieldsOf(${planRef});`);
    // What the inline enum matches read (matchKey).
    s.line('  const bytes = src.input;');
    s.line('  const end = src.end;');
    s.line('  let p = 0;');
    s.line('  const count = ix.length;');
    s.line('  let e = 0;');
    for (const word of seenWords(fields.length)) s.line(`  let ${word} = 0;`);
    s.line('  let found = 0;');
    fields.forEach((field, i) => {
      s.line(`  let v${i};`);
      if (field.optional) s.line(`  let p${i} = false;`);
    });
    s.line('  fast: {');
    this.emitFieldsInOrder(fields, (i) => `ix[e] === ${i}`, false);
    s.line('    if (e !== count) break fast;');
    this.emitBuild(fields, '    ', true, plan.rule);
    s.line('  }');
    this.emitBuild(fields, '  ', false);
    s.line(
      `  return sr.recordFrom(${planRef}, level, start, keys, out, ${seenHandedOver(fields.length, 'found, e')});`,
    );
    s.line('}');
  }

  /**
   * An expression that is true when the next item is the pre-encoded `key`, and then moves past
   * it (what `match` does), over the decoder's `bytes`, `end` and `p`. Keys up to 16 bytes are
   * compared inline, byte by byte against constants: a call and a loop per field cost about 3 % of
   * a document's decode. The constants are the key's bytes, integers made here, never text.
   */
  private matchKey(key: Uint8Array): string {
    if (key.length > 16) return `h.match(src, ${this.source.dep(key)})`;
    const tests = Array.from(key, (byte, i) => `bytes[p${i === 0 ? '' : ` + ${i}`}] === ${byte}`);
    return `((p = src.pos) + ${key.length} <= end && ${tests.join(' && ')} && ((src.pos = p + ${key.length}), true))`;
  }

  /**
   * The decoded object in the interpreter's key order (the wire's, which is the schema's here): an
   * empty object, then one assignment per field. When `complete`, every required field was read
   * and the object is returned; else `out` gets the fields read so far.
   *
   * Not one object literal, although a literal is built faster: V8 tracks each literal's
   * allocation site, and since decoded objects outlive the scavenges of a large decode, it soon
   * allocates them straight in the old generation (pretenuring), while their strings, arrays and
   * Dates are still made young. Every store of a young value into an old object then goes through
   * the write barrier into the remembered set, and each scavenge copies all of those values. An
   * empty literal has no allocation site, so the objects stay young with their contents: on the
   * order documents as one array of 2,000, 99-103 -> 119-135 decodes in 4 s (a scavenge took
   * 25-37 ms, 12-17 without pretenuring); one document per call, products and messages unchanged.
   */
  private emitBuild(
    fields: readonly FieldPlan[],
    indent: string,
    complete: boolean,
    rule?: Rule<never>,
  ): void {
    const s = this.source;
    s.line(`${indent}const out = {};`);
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i] as FieldPlan;
      const name = s.key(field.name);
      if (field.optional) s.line(`${indent}if (p${i}) out[${name}] = v${i};`);
      else if (complete) s.line(`${indent}out[${name}] = v${i};`);
      else s.line(`${indent}if (${seenBit(fields.length, i).join(' & ')}) out[${name}] = v${i};`);
    }
    if (!complete) return;
    // A complete object is returned here, so its oneof groups (`rule`) are checked here; objectFrom checks the rest.
    if (rule !== undefined) s.line(`${indent}h.checked(${s.dep(rule)}, start, out);`);
    s.line(`${indent}return out;`);
  }
}

// The fields a decoder has read ----------------------------------------------------------------

/**
 * A compiled decoder marks each field it reads in ints of `seenBitsUpTo` bits, the interpreter's own
 * bit set: `seen` for an object that fits one (handed over as it is), `seen0`, `seen1`… for wider
 * ones, whose fields go to the interpreter as its byte per field (`wideSeen`).
 */
function seenWords(fieldCount: number): string[] {
  if (fieldCount <= seenBitsUpTo) return ['seen'];
  return Array.from({ length: Math.ceil(fieldCount / seenBitsUpTo) }, (_, word) => `seen${word}`);
}

/** The word and the bit that mark field `index` as read. */
function seenBit(fieldCount: number, index: number): [word: string, bit: number] {
  if (fieldCount <= seenBitsUpTo) return ['seen', 2 ** index];
  return [`seen${Math.floor(index / seenBitsUpTo)}`, 2 ** (index % seenBitsUpTo)];
}

/**
 * The arguments of objectFrom or recordFrom from `seenBefore` on, with `rest` (the counts after
 * it) in between: a wide object's words go last, as the byte per field the interpreter keeps.
 */
function seenHandedOver(fieldCount: number, rest: string): string {
  if (fieldCount <= seenBitsUpTo) return `seen, ${rest}`;
  return `0, ${rest}, h.wideSeen(${fieldCount}, [${seenWords(fieldCount).join(', ')}])`;
}

/** The fields marked in `words`, as the interpreter's byte per field. */
function wideSeen(fieldCount: number, words: readonly number[]): Uint8Array {
  const out = new Uint8Array(fieldCount);
  for (let i = 0; i < fieldCount; i++)
    out[i] = ((words[Math.floor(i / seenBitsUpTo)] as number) >>> (i % seenBitsUpTo)) & 1;
  return out;
}

/** Whether the next item is the pre-encoded `key`; if so, moves past it. */
function match(src: InputSource, key: Uint8Array): boolean {
  const bytes = src.input;
  const at = src.pos;
  const length = key.length;
  if (at + length > src.end) return false;
  for (let i = 0; i < length; i++) if (bytes[at + i] !== key[i]) return false;
  src.pos = at + length;
  return true;
}

// Short strings, read in place -----------------------------------------------------------------

/** Longest string read here; longer ones go through the source, from their header on. */
const shortString = 64;

/** What a string costs beyond its characters (core/budget.ts's stringCost, inline). */
const stringCharge = cost.string;

/**
 * The string of `length` bytes at `start` (its header read by the caller, from `src.pos`), when
 * it is short, ASCII, within the input and within maxStringBytes; else `src.string()` reads it,
 * from the header on, with all its checks. The same string either way (ASCII bytes are its code
 * units); the strings records hold are mostly short and ASCII, and skipping the source's header
 * parsing and limit checks for them shows in profiles.
 */
function readShortAscii(src: InputSource, start: number, length: number): string {
  const end = start + length;
  if (length > shortString || end > src.end || length > src.limits.maxStringBytes) return src.string();
  const bytes = src.input;
  let ascii = 0;
  for (let i = start; i < end; i++) ascii |= bytes[i] as number;
  if (ascii >= 0x80) return src.string();
  // As src.string() charges it, from the header's position.
  src.budget.charge(stringCharge + ((length + 7) & ~7), src.pos);
  src.pos = end;
  // Checked ASCII already, so no reader needs to check it again.
  if (length <= asciiByCodesUpTo && asciiByCodes !== undefined) return asciiByCodes(bytes, start, length);
  if (latin1Slice !== undefined) return latin1Slice.call(bytes, start, end);
  return src.text.read(start, end);
}
