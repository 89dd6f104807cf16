/**
 * The transcoder's hot loop: reads a protobuf message body by its transcode plan (plan.ts) and
 * writes its canonical ProtoJSON as bytes in the same pass, never building the value. It takes only
 * the canonical form of an input — fields in number order, each once, a list in one run (packed
 * where the plan packs it), every value in range — and throws `bail` at anything else, where the
 * caller runs the codecs themselves: so it never has to follow protobuf's merging rules, nor make
 * any error. What it does keep, exactly as the decoder keeps it, is what decides that the decoder
 * would refuse an input: depth, element count, string and byte lengths, the allocation budget (a
 * total: charges only add up, so the total passing the budget means no charge ever did), every
 * value's range and rule.
 *
 * Interpreted: one `switch` per value over the plan's type. A generated function per message that
 * walks its fields in straight-line code (as compiled.ts does for the codec) measured no faster on
 * the user list (0.55-0.65 against 0.52-0.58 of JSON.parse + JSON.stringify, interleaved), since
 * the time goes to the bytes (strings, keys, numbers, timestamps written) rather than to choosing
 * what to do with them; so there is one implementation, which needs no `new Function` (CSP). What
 * made it faster was moving bytes in words and writing digits without strings (copyPlain,
 * writeKey, writeUint, timestamp.ts). The hot loop is this class alone: every fallback, error and
 * option is decided outside it (protojson-transcode.ts, plan.ts).
 */

import type { TimePrecision } from '../../../schema/types.js';
import { maxEpochMillis, refusalBy } from '../../../schema/value-rules.js';
import { cost, stringCost } from '../../core/budget.js';
import type { DecodeLimits } from '../../core/limits.js';
import { decodeUtf8 } from '../../core/utf8.js';
import { floatText } from '../encode/protojson.js';
import {
  BOOL,
  BYTES,
  DOUBLE,
  ENUM,
  FIXED32,
  FIXED64,
  FLOAT,
  INT32,
  INT64,
  LEN,
  MAP,
  MESSAGE,
  PRESENT,
  REPEATED,
  SFIXED32,
  SFIXED64,
  SINGLE,
  SINT32,
  SINT64,
  STRING,
  TIMESTAMP,
  UFIXED32,
  UFIXED64,
  UINT32,
  UINT64,
  VARINT,
} from '../layout.js';
import { maxMillis, minMillis } from '../protojson-time.js';
import { base64Length, writeBase64 } from './base64.js';
import type { FieldStep, MessageStep, ValueStep } from './plan.js';
import { ones, tens, timestampLength, writeTimestamp } from './timestamp.js';

/** Thrown wherever the input needs the codecs: never seen outside protojson-transcode.ts. */
const bail: unique symbol = Symbol('bail');

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const QUOTE = 0x22;

/** 1 for the bytes a JSON string holds as they are: printable ASCII but `"` and `\`. */
const plain = new Uint8Array(256);
for (let b = 0x20; b < 0x80; b++) plain[b] = b === QUOTE || b === 0x5c ? 0 : 1;

const encoder = new TextEncoder();

/** The output buffer a transcoder starts with, and the most it keeps between calls. */
const initialOutputBytes = 64 * 1024;
const keptOutputBytes = 4 * 1024 * 1024;

/**
 * One transcode's state. Made once per transcoder and reset per input (`start`): the output
 * buffer is kept between inputs, and only the bytes of one output are copied out.
 */
export class BodyTranscoder {
  private buf: Uint8Array = new Uint8Array(0);
  private view: DataView = new DataView(new ArrayBuffer(0));
  private pos = 0;
  /** The output so far: `out[0, o)`. */
  private out = new Uint8Array(initialOutputBytes);
  /** `out` as a DataView, for writing keys a word at a time. */
  private outView = new DataView(this.out.buffer);
  private o = 0;
  private depth = 0;
  private elements = 0;
  /** What the decoder would have charged its allocation budget so far. */
  private used = 0;

  constructor(
    private readonly limits: DecodeLimits,
    private readonly emitDefaults: boolean,
  ) {}

  /** The ProtoJSON bytes of a root message `bytes` holds, or `bail`. */
  transcode(root: MessageStep, levels: number, need: number, bytes: Uint8Array): Uint8Array {
    if (bytes.length > this.limits.maxInputBytes) throw bail;
    // A Buffer read through a plain Uint8Array: one kind of array at every access keeps the loops
    // below monomorphic (a Buffer among Uint8Arrays made the string copy three times slower).
    this.buf =
      bytes.constructor === Uint8Array
        ? bytes
        : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.pos = 0;
    this.o = 0;
    this.depth = 0;
    this.elements = 0;
    this.used = 0;
    this.enter(levels, need);
    this.body(root, bytes.length);
    if (this.used > this.limits.maxAllocatedBytes || this.elements > this.limits.maxElements) throw bail;
    const output = this.out.slice(0, this.o);
    // Don't keep a large input alive until the next call, nor the room a rare large output took.
    this.buf = new Uint8Array(0);
    this.view = new DataView(new ArrayBuffer(0));
    if (this.out.length > keptOutputBytes) {
      this.out = new Uint8Array(initialOutputBytes);
      this.outView = new DataView(this.out.buffer);
    }
    return output;
  }

  // -- output ------------------------------------------------------------------------------------

  /** Makes room for `n` more output bytes. */
  private reserve(n: number): void {
    if (this.o + n <= this.out.length) return;
    const grown = new Uint8Array(Math.max(this.out.length * 2, this.o + n));
    grown.set(this.out.subarray(0, this.o));
    this.out = grown;
    this.outView = new DataView(grown.buffer);
  }

  private writeBytes(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    const out = this.out;
    let o = this.o;
    // Keys and enum names are short: a loop beats `set`'s call for them.
    for (let i = 0; i < bytes.length; i++) out[o++] = bytes[i] as number;
    this.o = o;
  }

  /** An ASCII string (numbers, timestamps, escaped text): each char is its byte. */
  private writeAscii(text: string): void {
    this.reserve(text.length);
    const out = this.out;
    let o = this.o;
    for (let i = 0; i < text.length; i++) out[o++] = text.charCodeAt(i);
    this.o = o;
  }

  private writeByte(byte: number): void {
    this.reserve(1);
    this.out[this.o++] = byte;
  }

  /**
   * A field's key, after a comma unless it is the first member written since `open`: written a
   * word at a time (what follows overwrites the padding), as copying it byte by byte was a sixth
   * of a record's transcode.
   */
  private writeKey(field: FieldStep, open: number): void {
    const words = field.keyWords;
    this.reserve(words.length * 4 + 1);
    const view = this.outView;
    let o = this.o;
    if (o !== open) this.out[o++] = COMMA;
    for (let w = 0; w < words.length; w++) view.setInt32(o + w * 4, words[w] as number, true);
    this.o = o + field.key.length;
  }

  // -- input -------------------------------------------------------------------------------------

  /** A field key as reader.ts `tag` takes it; anything it refuses bails. */
  private tag(end: number): number {
    const pos = this.pos;
    if (pos < end) {
      const byte = this.buf[pos] as number;
      if (byte < 0x80) {
        this.pos = pos + 1;
        return byte;
      }
    }
    const tag = this.varint(end);
    if (this.hi !== 0 || this.pos - pos > 5) throw bail;
    return tag;
  }

  /** The high 32 bits of the last `varint`. */
  private hi = 0;

  /** A varint of up to 10 bytes: its low 32 bits unsigned, the high ones left in `hi`. */
  private varint(end: number): number {
    const buf = this.buf;
    let pos = this.pos;
    let lo = 0;
    let hi = 0;
    for (let i = 0; i < 10; i++) {
      if (pos >= end) throw bail;
      const byte = buf[pos++] as number;
      const bits = byte & 0x7f;
      if (i < 4) lo |= bits << (7 * i);
      else if (i === 4) {
        lo |= bits << 28;
        hi = bits >>> 4;
      } else hi |= bits << (7 * i - 32);
      if (byte < 0x80) {
        this.pos = pos;
        this.hi = hi >>> 0;
        return lo >>> 0;
      }
    }
    throw bail;
  }

  /** The low 32 bits of a varint, unsigned (what reader.ts `uint32` keeps of a longer one). */
  private uint32(end: number): number {
    const pos = this.pos;
    if (pos < end) {
      const byte = this.buf[pos] as number;
      if (byte < 0x80) {
        this.pos = pos + 1;
        return byte;
      }
    }
    return this.varint(end);
  }

  /** A length prefix that fits in what is left before `end`. */
  private length(end: number): number {
    const pos = this.pos;
    let length: number;
    if (pos < end && (this.buf[pos] as number) < 0x80) {
      length = this.buf[pos] as number;
      this.pos = pos + 1;
    } else {
      length = this.varint(end);
      if (this.hi !== 0) throw bail;
    }
    if (length > end - this.pos) throw bail;
    return length;
  }

  /** The end of a length-delimited body that starts here (after its length). */
  private bodyEnd(end: number): number {
    const length = this.length(end);
    return this.pos + length;
  }

  private fixed32(end: number): number {
    const pos = this.pos;
    if (pos + 4 > end) throw bail;
    this.pos = pos + 4;
    return this.view.getUint32(pos, true);
  }

  private charge(bytes: number): void {
    this.used += bytes;
  }

  /** reader.ts `enter`: a nested body `levels` deeper that reaches `need` levels. */
  private enter(levels: number, need: number): void {
    if (this.depth + need > this.limits.maxDepth) throw bail;
    this.depth += levels;
  }

  private countElement(): void {
    this.elements++;
    this.used += cost.slot;
  }

  // -- messages ----------------------------------------------------------------------------------

  /**
   * A message body up to `end` as a JSON object. The plan's fields are walked once, in number
   * order, beside the wire's: a field the wire passes over is absent; a key that is not the next
   * field's (unknown, repeated, out of order, another wire type) bails.
   */
  private body(message: MessageStep, end: number): void {
    this.used += message.cost;
    this.writeByte(OPEN_BRACE);
    const open = this.o;
    const fields = message.fields;
    let next = 0;
    while (this.pos < end) {
      const tag = this.tag(end);
      const number = tag >>> 3;
      let field = fields[next];
      while (field !== undefined && field.number < number) {
        this.absent(field, open);
        field = fields[++next];
      }
      if (field === undefined || field.number !== number) {
        // A number the message knows, out of order or again: the codecs merge it.
        if (number === 0 || message.numbers.has(number)) throw bail;
        this.skip(tag, end);
        continue;
      }
      if (field.tag !== tag) throw bail;
      this.field(field, end, open);
      next++;
    }
    for (; next < fields.length; next++) this.absent(fields[next] as FieldStep, open);
    this.writeByte(CLOSE_BRACE);
  }

  /**
   * A field the schema does not name (a newer writer's), passed over as reader.ts `skip` passes
   * over it: the decoder skips it too, so the text does not show it. A group bails: the decoder
   * counts its nesting against maxDepth.
   */
  private skip(tag: number, end: number): void {
    switch (tag & 7) {
      case VARINT:
        this.varint(end);
        return;
      case FIXED64:
        if (this.pos + 8 > end) throw bail;
        this.pos += 8;
        return;
      case LEN: {
        const length = this.length(end);
        this.pos += length;
        return;
      }
      case FIXED32:
        if (this.pos + 4 > end) throw bail;
        this.pos += 4;
        return;
      default:
        throw bail;
    }
  }

  /** A field the wire does not hold, as the decoder fills it in and the writer writes it. */
  private absent(field: FieldStep, open: number): void {
    if (field.absentRefused) throw bail;
    switch (field.mode) {
      case SINGLE: {
        const value = field.value;
        if (value.type === MESSAGE) {
          // Decoded from no bytes, and written whatever emitDefaults says (a message has presence).
          this.writeKey(field, open);
          const slot = value.slot;
          this.enter(slot.levels, slot.need);
          this.body(value.message as MessageStep, this.pos);
          this.depth -= slot.levels;
          return;
        }
        if (value.type === BYTES) this.charge(cost.bytes);
        if (value.type === TIMESTAMP) this.charge(cost.date);
        if (this.emitDefaults || value.type === TIMESTAMP) {
          this.writeKey(field, open);
          this.writeBytes(field.defaultText as Uint8Array);
        }
        return;
      }
      case REPEATED:
        this.charge(cost.array);
        if (this.emitDefaults) {
          this.writeKey(field, open);
          this.writeByte(OPEN_BRACKET);
          this.writeByte(CLOSE_BRACKET);
        }
        return;
      case MAP:
        this.charge(field.intKeys ? cost.map : cost.object);
        if (this.emitDefaults) {
          this.writeKey(field, open);
          this.writeByte(OPEN_BRACE);
          this.writeByte(CLOSE_BRACE);
        }
        return;
      default:
        // PRESENT, not required: left out of the object and of the text.
        return;
    }
  }

  /** A field whose key was just read: its value, or all of its run of items or entries. */
  private field(field: FieldStep, end: number, open: number): void {
    const mark = this.o;
    this.writeKey(field, open);
    switch (field.mode) {
      case SINGLE:
        // proto3 leaves a default out, written or not: the writer too, unless emitDefaults.
        if (this.value(field.value, end) && !this.emitDefaults) this.o = mark;
        return;
      case PRESENT:
        this.value(field.value, end);
        return;
      case REPEATED:
        this.list(field, end, mark);
        return;
      case MAP:
        this.map(field, end, mark);
        return;
    }
  }

  /** The next key, consumed if it is `tag` (another item of the same run), else left. */
  private nextIs(tag: number, end: number): boolean {
    if (this.pos >= end) return false;
    const pos = this.pos;
    if (this.tag(end) === tag) return true;
    this.pos = pos;
    return false;
  }

  private list(field: FieldStep, end: number, mark: number): void {
    this.charge(cost.array);
    this.writeByte(OPEN_BRACKET);
    let count = 0;
    if (field.packed) {
      const stop = this.bodyEnd(end);
      while (this.pos < stop) {
        this.countElement();
        if (count++ > 0) this.writeByte(COMMA);
        this.value(field.value, stop);
      }
    } else {
      do {
        this.countElement();
        if (count++ > 0) this.writeByte(COMMA);
        this.value(field.value, end);
      } while (this.nextIs(field.tag, end));
    }
    this.writeByte(CLOSE_BRACKET);
    if (field.items !== undefined && refusalBy(field.items, count) !== undefined) throw bail;
    if (count === 0 && !this.emitDefaults) this.o = mark;
  }

  /**
   * A run of map entries, each exactly `key = 1` then `value = 2`. The writer writes a plain
   * object's entries in Object.entries order, which puts integer-like keys first: such a key bails,
   * as do a repeated key (the first position, the last value), and the keys the decoder refuses.
   */
  private map(field: FieldStep, end: number, mark: number): void {
    this.charge(field.intKeys ? cost.map : cost.object);
    this.writeByte(OPEN_BRACE);
    const keyStep = field.mapKey as ValueStep;
    const keyTag = 8 | keyStep.slot.wire;
    const valueTag = 16 | field.value.slot.wire;
    const quoted = keyStep.type !== STRING && !isLargeInt(keyStep.type);
    const seen = new Set<string>();
    let count = 0;
    do {
      this.countElement();
      const stop = this.bodyEnd(end);
      if (this.tag(stop) !== keyTag) throw bail;
      if (count++ > 0) this.writeByte(COMMA);
      const keyStart = this.o;
      if (quoted) this.writeByte(QUOTE);
      this.value(keyStep, stop);
      if (quoted) this.writeByte(QUOTE);
      const key = this.keyText(keyStart);
      if (seen.has(key) || (keyStep.type === STRING && !safeStringKey(key))) throw bail;
      seen.add(key);
      this.writeByte(COLON);
      if (this.tag(stop) !== valueTag) throw bail;
      this.value(field.value, stop);
      if (this.pos !== stop) throw bail;
      this.charge(field.intKeys ? cost.mapEntry - cost.slot : cost.slot);
    } while (this.nextIs(field.tag, end));
    this.writeByte(CLOSE_BRACE);
    if (count === 0 && !this.emitDefaults) this.o = mark;
  }

  /** The key just written from `start`, quotes included, as a string of its bytes (one char each). */
  private keyText(start: number): string {
    let text = '';
    for (let i = start; i < this.o; i++) text += String.fromCharCode(this.out[i] as number);
    return text;
  }

  // -- values ------------------------------------------------------------------------------------

  /** Writes one value of `step` read from the input; returns whether it is proto3's default. */
  private value(step: ValueStep, end: number): boolean {
    const slot = step.slot;
    switch (step.type) {
      case BOOL: {
        const lo = this.varint(end);
        const set = lo !== 0 || this.hi !== 0;
        this.writeAscii(set ? 'true' : 'false');
        return !set;
      }
      case UINT32:
      case UFIXED32: {
        const value = step.type === UINT32 ? this.uint32(end) : this.fixed32(end);
        if (value < slot.min || value > slot.max) throw bail;
        this.writeUint(value);
        return value === 0;
      }
      case SINT32:
      case INT32:
      case SFIXED32: {
        const raw = step.type === SFIXED32 ? this.fixed32(end) : this.uint32(end);
        const value = step.type === SINT32 ? (raw >>> 1) ^ -(raw & 1) : raw | 0;
        if (value < slot.min || value > slot.max) throw bail;
        if (value < 0) {
          this.writeByte(0x2d);
          this.writeUint(-value);
        } else this.writeUint(value);
        return value === 0;
      }
      case INT64:
      case SINT64:
      case SFIXED64:
      case UINT64:
      case UFIXED64:
        return this.largeInt(step, end);
      case FLOAT: {
        const pos = this.pos;
        if (pos + 4 > end) throw bail;
        this.pos = pos + 4;
        const value = this.view.getFloat32(pos, true);
        if (slot.rule !== undefined && refusalBy(slot.rule, value) !== undefined) throw bail;
        this.writeAscii(floatText(value, true));
        return Object.is(value, 0);
      }
      case DOUBLE: {
        const pos = this.pos;
        if (pos + 8 > end) throw bail;
        this.pos = pos + 8;
        const value = this.view.getFloat64(pos, true);
        if (slot.rule !== undefined && refusalBy(slot.rule, value) !== undefined) throw bail;
        this.writeAscii(floatText(value, false));
        return Object.is(value, 0);
      }
      case STRING:
        return this.string(step, end);
      case BYTES: {
        const length = this.length(end);
        if (length > this.limits.maxBytesLength) throw bail;
        const from = this.pos;
        this.pos = from + length;
        this.charge(cost.bytes + length);
        if (
          slot.rule !== undefined &&
          refusalBy(slot.rule, this.buf.slice(from, from + length)) !== undefined
        )
          throw bail;
        this.reserve(base64Length(length) + 2);
        this.out[this.o++] = QUOTE;
        this.o = writeBase64(this.buf, from, from + length, this.out, this.o);
        this.out[this.o++] = QUOTE;
        return length === 0;
      }
      case ENUM: {
        const number = this.uint32(end);
        const index = step.enumIndex === undefined ? number : step.enumIndex.get(number | 0);
        const names = step.enumNames as readonly Uint8Array[];
        if (index === undefined || index >= names.length) throw bail;
        this.writeBytes(names[index] as Uint8Array);
        return index === 0;
      }
      case TIMESTAMP:
        this.timestamp(step, end);
        return false;
      default: {
        // MESSAGE
        const stop = this.bodyEnd(end);
        this.enter(slot.levels, slot.need);
        this.body(step.message as MessageStep, stop);
        this.depth -= slot.levels;
        return false;
      }
    }
  }

  /**
   * A non-negative integer below 2^32 in decimal digits, written from the last two back: no string
   * made (String(value) and copying it out cost about twice this), and `>>> 0` for the division,
   * exact on these integers where Math.floor on a double costs more.
   */
  private writeUint(value: number): void {
    let digits = 1;
    for (let power = 10; power <= value && digits < 10; power *= 10) digits++;
    this.reserve(digits);
    const out = this.out;
    let rest = value;
    let i = this.o + digits;
    while (rest >= 100) {
      const next = (rest / 100) >>> 0;
      const pair = rest - next * 100;
      out[--i] = ones[pair] as number;
      out[--i] = tens[pair] as number;
      rest = next;
    }
    if (rest >= 10) {
      out[--i] = ones[rest] as number;
      out[--i] = tens[rest] as number;
    } else out[--i] = 0x30 + rest;
    this.o += digits;
  }

  /**
   * A 64-bit integer as scalars.ts reads it (a number where `as: 'number'`, which must then be a
   * safe integer, else a bigint, which costs the budget), written as the writer writes either: its
   * decimal digits in quotes.
   */
  private largeInt(step: ValueStep, end: number): boolean {
    let lo: number;
    let hi: number;
    if (step.type === SFIXED64 || step.type === UFIXED64) {
      lo = this.fixed32(end);
      hi = this.fixed32(end);
    } else {
      lo = this.varint(end);
      hi = this.hi;
    }
    if (step.type === SINT64) {
      const negative = lo & 1;
      lo = ((lo >>> 1) | (hi << 31)) >>> 0;
      hi >>>= 1;
      if (negative) {
        lo = ~lo >>> 0;
        hi = ~hi;
      }
    }
    const signed = step.type !== UINT64 && step.type !== UFIXED64;
    if (signed) hi |= 0;
    const value = hi * 4294967296 + lo;
    const safe = signed ? Number.isSafeInteger(value) : hi < 0x200000;
    if (step.slot.asNumber) {
      if (!safe) throw bail;
    } else this.charge(cost.bigint);
    this.writeByte(QUOTE);
    this.writeAscii(safe ? String(value) : String((BigInt(hi) << 32n) + BigInt(lo)));
    this.writeByte(QUOTE);
    return value === 0;
  }

  /**
   * A string: its bytes copied between quotes where every one is printable ASCII but `"` and `\`
   * (most strings); else checked as strict UTF-8 as the decoder checks it, copied where nothing
   * needs escaping (valid UTF-8 holds no lone surrogate, the only non-ASCII JSON.stringify
   * escapes), and escaped by JSON.stringify, as the writer's `quote`, where something does.
   */
  private string(step: ValueStep, end: number): boolean {
    const length = this.length(end);
    if (length > this.limits.maxStringBytes) throw bail;
    const from = this.pos;
    const to = from + length;
    this.pos = to;
    this.charge(stringCost(length));
    const buf = this.buf;
    if (step.slot.rule !== undefined && refusalBy(step.slot.rule, decodeUtf8(buf, from, to)) !== undefined)
      throw bail;
    this.reserve(length + 2);
    const out = this.out;
    const start = this.o;
    out[start] = QUOTE;
    if (copyPlain(this.view, from, to, this.outView, start + 1)) {
      out[start + 1 + length] = QUOTE;
      this.o = start + length + 2;
      return length === 0;
    }
    // Throws on bytes that are not UTF-8, as the decoder does: the caller then runs it.
    const text = decodeUtf8(buf, from, to);
    let escapes = false;
    for (let i = from; i < to; i++) {
      const byte = buf[i] as number;
      if (byte < 0x20 || byte === QUOTE || byte === 0x5c) escapes = true;
    }
    if (!escapes) {
      out.set(buf.subarray(from, to), start + 1);
      out[start + 1 + length] = QUOTE;
      this.o = start + length + 2;
      return false;
    }
    const json = JSON.stringify(text);
    this.reserve(json.length * 3);
    this.o += encoder.encodeInto(json, this.out.subarray(this.o)).written;
    return false;
  }

  /**
   * google.protobuf.Timestamp as scalars.ts `decodeTimestamp` reads it (seconds = 1 and nanos = 2,
   * varints, in any order, the last of each winning), held to the same checks and to ProtoJSON's
   * years, and written from its epoch milliseconds (a Date holds no more) as protojson-time.ts
   * writes a Date.
   */
  private timestamp(step: ValueStep, end: number): void {
    const slot = step.slot;
    const stop = this.bodyEnd(end);
    this.enter(slot.levels, slot.need);
    let seconds = 0;
    let nanos = 0;
    while (this.pos < stop) {
      const tag = this.tag(stop);
      if (tag === 8) {
        const lo = this.varint(stop);
        seconds = (this.hi | 0) * 4294967296 + lo;
      } else if (tag === 16) {
        nanos = this.uint32(stop) | 0;
      } else throw bail;
    }
    this.depth -= slot.levels;
    if (nanos < 0 || nanos > 999_999_999) throw bail;
    const millis = seconds * 1000 + Math.floor(nanos / 1_000_000);
    if (!(Math.abs(millis) <= maxEpochMillis[slot.precision as TimePrecision])) throw bail;
    if (slot.rule !== undefined && refusalBy(slot.rule, new Date(millis)) !== undefined) throw bail;
    this.charge(cost.date);
    if (!(millis >= minMillis && millis <= maxMillis)) throw bail;
    this.reserve(timestampLength(millis) + 2);
    const out = this.out;
    out[this.o] = QUOTE;
    const o = writeTimestamp(out, this.o + 1, millis);
    out[o] = QUOTE;
    this.o = o + 1;
  }
}

/**
 * Copies input bytes [from, to) to the output at `at`, four at a time, and says whether every one
 * is printable ASCII but `"` and `\\` (what JSON holds as it is). The test runs on each word at
 * once: a byte with its high bit set, below 0x20, or equal to 0x22 or 0x5c sets a high bit of
 * `bad` (the has-less-than and has-zero-byte tricks; exact as a yes or no). Byte by byte, the copy
 * and test were half of transcoding a record of two strings.
 */
function copyPlain(input: DataView, from: number, to: number, output: DataView, at: number): boolean {
  let bad = 0;
  let i = from;
  let o = at;
  for (; i + 4 <= to; i += 4, o += 4) {
    const word = input.getInt32(i, true);
    output.setInt32(o, word, true);
    const quotes = word ^ 0x22222222;
    const backslashes = word ^ 0x5c5c5c5c;
    bad |=
      word |
      ((word - 0x20202020) & ~word) |
      ((quotes - 0x01010101) & ~quotes) |
      ((backslashes - 0x01010101) & ~backslashes);
  }
  for (; i < to; i++, o++) {
    const byte = input.getUint8(i);
    output.setUint8(o, byte);
    bad |= plain[byte] === 1 ? 0 : 0x80;
  }
  return (bad & 0x80808080) === 0;
}

function isLargeInt(type: number): boolean {
  return type === INT64 || type === SINT64 || type === SFIXED64 || type === UINT64 || type === UFIXED64;
}

/**
 * A string key, as written (quoted), that a plain object keeps in its place and the decoder takes:
 * not integer-like (Object.entries puts those first), not one the decoder refuses (`__proto__`…).
 */
function safeStringKey(quoted: string): boolean {
  if (/^"\d+"$/.test(quoted)) return false;
  return quoted !== '"__proto__"' && quoted !== '"constructor"' && quoted !== '"prototype"';
}
