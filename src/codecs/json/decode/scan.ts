/**
 * The checks JSON text gets before `JSON.parse` builds anything. V8's JSON.parse is native and
 * iterative, so deep text cannot hurt it, but it builds the whole value with no bound of its own
 * (16 MB of `[[],[],…]` is 16 million arrays, 1.8 GB), and it keeps the last of two equal keys
 * without a word, so what it returns can no longer tell that the text had them.
 *
 * Most texts are too short to break a limit on size: an element takes at least two characters
 * (`0,`), a string's UTF-8 bytes are at most three per character, and no character makes JSON.parse
 * allocate more than `heapPerChar` bytes (see `maxHeapPerChar`). `fitsLimits` answers that from the
 * text's length alone; such a text needs only `keyCount`, a native search for the colons that end
 * its keys, which the walk after the parse compares with the keys it finds: fewer keys found means
 * a key appeared twice, and the full scan then says where (it also settles the odd text whose colons
 * cannot be counted that way, and the rare one whose strings start with a colon).
 *
 * A longer text, or one under tight limits, gets the full scan (`scanJson`): one pass over the
 * characters (strings skipped with a native `indexOf` for the closing quote, walked only when they
 * hold an escape) that checks the limits it is given (nesting against maxDepth, items and members
 * against maxElements, every string's UTF-8 length, keys included, against `stringBound`: a
 * schemaless caller's own limits; a schema's reader checks these itself, in the value's order, and
 * gives the scan none, see text-checks.ts), keys that appear twice in one object
 * (WK_DECODE_MALFORMED, as MessagePack and CBOR refuse them: readers that keep the first and readers
 * that keep the last would read different values), the unsafe keys when the caller refuses them
 * here, and charges what JSON.parse will build (core/budget.ts: each object, array, element and string,
 * a key as a string and a slot, as the MessagePack and CBOR scanners charge a map's keys) to the
 * decode's allocation budget. It costs about half a JSON.parse, which is why shorter texts skip
 * it. Valid text is read exactly; on malformed text the scan may stop early or refuse with a limit,
 * and JSON.parse then reports what it finds: either way a WirekitError.
 *
 * The full scan allocates nothing per value but the keys of objects with more than 16 members (a
 * set of them, for the repeated-key check). Its state lives in one module-level scanner: a scan runs
 * to its end without calling out, so no two scans ever overlap.
 */
import { isUnsafeKey } from '../../../util/unsafe-keys.js';
import { utf8Length } from '../../../util/utf8-length.js';
import { type AllocationBudget, cost, overBudget, stringCost } from '../../core/budget.js';
import { malformed, tooDeep, tooLong, tooManyElements, unsafeKey } from '../../core/errors.js';
import { grown } from '../../core/grow.js';
import type { DecodeLimits } from '../../core/limits.js';

export interface JsonScanOptions {
  readonly limits: DecodeLimits;
  /**
   * Strings longer than this (UTF-8 bytes) are refused; those between maxStringBytes and this bound
   * only set `longString`, for a reader that measures the strings it keeps (a schema's: field names
   * and base64 are not held to maxStringBytes). maxStringBytes where every string is a string.
   */
  readonly stringBound: number;
  /** Refuse the three unsafe keys here (WK_DECODE_UNSAFE_KEY): where no schema can make them field names. */
  readonly refuseUnsafeKeys: boolean;
  /**
   * Refuse a key that appears twice in one object (WK_DECODE_MALFORMED), as the schema-driven
   * MessagePack and CBOR decoders do; schemaless, JSON.parse keeps the last, as msgpackr and cbor-x do.
   */
  readonly refuseRepeatedKeys: boolean;
  /** The decode's allocation budget, charged for what JSON.parse will build. */
  readonly budget: AllocationBudget;
}

/** What a full scan found. */
export interface JsonScanResult {
  /** A string longer than maxStringBytes but within `stringBound` (its reader decides). */
  readonly longString: boolean;
}

const quote = 0x22;
const backslashCode = 0x5c;
const comma = 0x2c;
const colon = 0x3a;
const openBrace = 0x7b;
const closeBrace = 0x7d;
const openBracket = 0x5b;
const closeBracket = 0x5d;

/** Members of one object compared pairwise before a set of its keys takes over. */
const linearKeys = 16;

class JsonScanner implements JsonScanResult {
  longString = false;

  // The open containers, innermost last: whether each is an object, and where its keys start.
  private isObject = new Uint8Array(64);
  private keyBase = new Int32Array(64);
  private keySets: (Set<string> | undefined)[] = [];
  // The keys of the open objects, one after another: where each starts and ends, and a cheap hash.
  private keyStart = new Int32Array(256);
  private keyEnd = new Int32Array(256);
  private keyHash = new Int32Array(256);
  /** Keys that hold an escape, decoded, by index (sparse: most keys have none). */
  private decoded: (string | undefined)[] = [];
  private keyTop = 0;

  private text = '';
  private options!: JsonScanOptions;

  scan(text: string, options: JsonScanOptions): JsonScanResult {
    this.text = text;
    this.options = options;
    this.longString = false;
    this.keyTop = 0;
    if (this.decoded.length > 0) this.decoded = [];
    const { limits, stringBound } = options;
    const { maxDepth, maxElements, maxStringBytes } = limits;
    // A string of `units` UTF-16 units has at most 3 × units bytes: only longer ones are measured.
    const stringUnits = Math.floor(Math.min(maxStringBytes, stringBound) / 3);
    const n = text.length;
    let elements = 0;
    let depth = 0;
    let level = 0;
    let heap = 0;
    const keys = options.refuseUnsafeKeys || options.refuseRepeatedKeys;
    let backslash = text.indexOf('\\');
    if (backslash < 0) backslash = n;
    let i = 0;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === quote) {
        const start = i + 1;
        let end = text.indexOf('"', start);
        if (end < 0) break; // unterminated: JSON.parse says where
        let escaped = false;
        if (backslash < end) {
          if (backslash < start) backslash = nextBackslash(text, start);
          if (backslash < end) {
            escaped = true;
            end = escapedEnd(text, backslash);
            if (end < 0) break;
            backslash = nextBackslash(text, end + 1);
          }
        }
        const units = end - start;
        if (units > stringUnits) this.checkLength(start, end, escaped);
        // A key is a string followed by a colon (JSON.stringify writes no space before it).
        let next = end + 1;
        let after = text.charCodeAt(next);
        while (after === 0x20 || after === 0x0a || after === 0x0d || after === 0x09)
          after = text.charCodeAt(++next);
        // Every string is charged, keys too (as the MessagePack and CBOR scanners charge them);
        // a key also takes a slot of its own besides its value's, as a map entry is two items there.
        heap += stringCost(units);
        if (after === colon) {
          if (keys && level > 0 && this.isObject[level] === 1) this.key(start, end, escaped, level);
          heap += cost.slot;
          i = next + 1;
        } else i = end + 1;
        continue;
      }
      if (c === comma) {
        if (++elements > maxElements) throw tooManyElements(this.at(i), limits);
        i++;
        continue;
      }
      if (c === openBrace || c === openBracket) {
        if (++depth > maxDepth) throw tooDeep(this.at(i), limits);
        level++;
        if (level >= this.isObject.length) this.grow();
        if (c === openBrace) {
          this.isObject[level] = 1;
          this.keyBase[level] = this.keyTop;
          this.keySets[level] = undefined;
          heap += cost.object;
        } else {
          this.isObject[level] = 0;
          heap += cost.array;
        }
        // A container holds as many elements as commas, plus one unless it is empty.
        let next = i + 1;
        let first = text.charCodeAt(next);
        while (first === 0x20 || first === 0x0a || first === 0x0d || first === 0x09)
          first = text.charCodeAt(++next);
        if (first !== closeBrace && first !== closeBracket && ++elements > maxElements)
          throw tooManyElements(this.at(i), limits);
        // The slots of what is open so far: checked as containers open, the rest at the end.
        this.charge(heap + elements * cost.slot, i);
        i = next;
        continue;
      }
      if (c === closeBrace || c === closeBracket) {
        if (level > 0) {
          if (this.isObject[level] === 1) {
            this.keyTop = this.keyBase[level] as number;
            this.keySets[level] = undefined;
          }
          level--;
          depth--;
        }
        i++;
        continue;
      }
      i++;
    }
    const total = heap + elements * cost.slot;
    this.charge(total, n);
    options.budget.used += total;
    // Keys of large objects and decoded keys are dropped with the text they came from.
    this.text = '';
    this.keySets.length = 0;
    return this;
  }

  /**
   * Refuses a string whose decoded UTF-8 length is past `stringBound`, and flags one past
   * maxStringBytes (`longString`).
   */
  private checkLength(start: number, end: number, escaped: boolean): void {
    const { limits, stringBound } = this.options;
    const bytes = escaped ? escapedUtf8Length(this.text, start, end) : utf8Length(this.text, start, end);
    if (bytes > stringBound) throw tooLong(this.at(start - 1), bytes, limits.maxStringBytes, 'string');
    if (bytes > limits.maxStringBytes) this.longString = true;
  }

  /** A key of the object open at `level`: refused if unsafe (when the caller says so) or if the object has it already. */
  private key(start: number, end: number, escaped: boolean, level: number): void {
    const text = this.text;
    const length = end - start;
    let value: string | undefined;
    const refuse = this.options.refuseUnsafeKeys;
    if (escaped) {
      value = decodeString(text, start, end);
      if (refuse && value !== undefined && isUnsafeKey(value)) throw unsafeKey(this.at(start - 1), value);
    } else if (
      refuse &&
      ((length === 9 && (text.startsWith('__proto__', start) || text.startsWith('prototype', start))) ||
        (length === 11 && text.startsWith('constructor', start)))
    ) {
      throw unsafeKey(this.at(start - 1), text.slice(start, end));
    }
    if (!this.options.refuseRepeatedKeys) return;
    const base = this.keyBase[level] as number;
    const top = this.keyTop;
    let set = this.keySets[level];
    if (set === undefined && top - base < linearKeys) {
      const hash = value === undefined ? rawHash(text, start, end) : stringHash(value);
      const hashes = this.keyHash;
      for (let k = base; k < top; k++) {
        if (hashes[k] === hash && this.sameKey(k, start, end, value)) this.repeated(start, end, value);
      }
      if (top >= hashes.length) this.growKeys();
      this.keyStart[top] = start;
      this.keyEnd[top] = end;
      this.keyHash[top] = hash;
      // A slot of a closed object may hold its decoded key still.
      if (value !== undefined || top < this.decoded.length) this.decoded[top] = value;
      this.keyTop = top + 1;
      return;
    }
    if (set === undefined) {
      set = new Set();
      for (let k = base; k < top; k++) set.add(this.keyText(k));
      this.keySets[level] = set;
    }
    const name = value ?? text.slice(start, end);
    if (set.has(name)) this.repeated(start, end, value);
    set.add(name);
  }

  private sameKey(k: number, start: number, end: number, value: string | undefined): boolean {
    const known = this.decoded[k];
    if (value === undefined && known === undefined) {
      const from = this.keyStart[k] as number;
      const length = end - start;
      if ((this.keyEnd[k] as number) - from !== length) return false;
      const text = this.text;
      for (let j = 0; j < length; j++)
        if (text.charCodeAt(from + j) !== text.charCodeAt(start + j)) return false;
      return true;
    }
    return this.keyText(k) === (value ?? this.text.slice(start, end));
  }

  private keyText(k: number): string {
    return this.decoded[k] ?? this.text.slice(this.keyStart[k], this.keyEnd[k]);
  }

  private repeated(start: number, end: number, value: string | undefined): never {
    const name = value ?? this.text.slice(start, end);
    throw malformed(
      this.at(start - 1),
      `the key ${JSON.stringify(name.slice(0, 60))} appears twice in one object`,
    );
  }

  private charge(heap: number, position: number): void {
    const budget = this.options.budget;
    if (budget.used + heap > budget.max) throw overBudget(budget.max, this.at(position));
  }

  /** The byte offset in the input of character `position` of the text (computed only for errors). */
  private at(position: number): number {
    const text = this.text;
    let bytes = 0;
    for (let i = 0; i < position && i < text.length; i++) {
      const unit = text.charCodeAt(i);
      if (unit < 0x80) bytes += 1;
      else if (unit < 0x800) bytes += 2;
      else if (unit >= 0xd800 && unit <= 0xdbff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    }
    return bytes;
  }

  private grow(): void {
    const size = this.isObject.length * 2;
    this.isObject = grown(this.isObject, size);
    this.keyBase = grown(this.keyBase, size);
  }

  private growKeys(): void {
    const size = this.keyStart.length * 2;
    for (const name of ['keyStart', 'keyEnd', 'keyHash'] as const) this[name] = grown(this[name], size);
  }
}

const scanner = new JsonScanner();

/**
 * Scans JSON text before it is parsed (see the module comment) and throws the first limit, repeated
 * key or refused key it meets. The result is valid until the next scan: read it at once.
 */
export function scanJson(text: string, options: JsonScanOptions): JsonScanResult {
  return scanner.scan(text, options);
}

/**
 * The most heap JSON.parse builds per character of text, by core/budget.ts's estimates: an object costs
 * `cost.object` for its two braces, and each element a slot for the comma or bracket before it; a
 * string costs `stringCost` of its length for that length plus two quotes. `{}` is the worst case:
 * 56 bytes and a slot in its parent for two characters. The extras are what a schema's reader may
 * build on top, per string (a byte array for an empty base64 string) and per container (a map's
 * new object or `Map`).
 */
export function maxHeapPerChar(extraPerString = 0, extraPerContainer = 0): number {
  const container = (Math.max(cost.object, cost.array) + cost.slot + extraPerContainer) / 2;
  const string = (stringCost(0) + cost.slot + extraPerString) / 2;
  return Math.ceil(Math.max(container, string, cost.slot));
}

/**
 * Whether text of `length` characters cannot break maxElements, maxStringBytes or the budget,
 * whatever it holds: an element takes two characters at least (`0,`), a character is at most three
 * UTF-8 bytes, and JSON.parse allocates at most `heapPerChar` bytes per character. Such text needs
 * no full scan.
 */
export function fitsLimits(
  length: number,
  limits: DecodeLimits,
  budget: AllocationBudget,
  heapPerChar: number,
): boolean {
  return (
    length * 3 <= limits.maxStringBytes &&
    length / 2 <= limits.maxElements &&
    budget.used + length * heapPerChar <= budget.max
  );
}

/**
 * How many keys JSON text holds, counted from the colons that follow a closing quote (one native
 * search per colon); -1 where colons cannot be counted that way: a space before a colon (pretty
 * printers that write `"key" : value`, or a string holding " :") or an escaped quote before one.
 * A string that starts with a colon (`":)"`) counts as a key too, so the count may be too high,
 * never too low: a walk that finds fewer keys than this (a repeated key, or such a string) sends the
 * text to the full scan, which decides.
 */
export function keyCount(text: string): number {
  let count = 0;
  for (let i = text.indexOf(':'); i >= 0; i = text.indexOf(':', i + 1)) {
    const before = text.charCodeAt(i - 1);
    if (before === quote) {
      if (text.charCodeAt(i - 2) === backslashCode) return -1;
      count++;
    } else if (before === 0x20 || before === 0x0a || before === 0x0d || before === 0x09) return -1;
  }
  return count;
}

/** Where the next backslash at or after `from` is, or the text's length. */
function nextBackslash(text: string, from: number): number {
  const at = text.indexOf('\\', from);
  return at < 0 ? text.length : at;
}

/** The closing quote of a string that holds a backslash at `from`, or -1 when it has none. */
function escapedEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === backslashCode) i++;
    else if (c === quote) return i;
  }
  return -1;
}

/** UTF-8 bytes of the string whose escaped text is text[start, end). */
function escapedUtf8Length(text: string, start: number, end: number): number {
  const value = decodeString(text, start, end);
  // An escape JSON.parse refuses: the parse reports it, and the raw text bounds the length.
  return value === undefined ? utf8Length(text, start, end) : utf8Length(value, 0, value.length);
}

/** The string whose escaped text is text[start, end), or undefined where the escapes are not JSON. */
function decodeString(text: string, start: number, end: number): string | undefined {
  try {
    return JSON.parse(text.slice(start - 1, end + 1)) as string;
  } catch {
    return undefined;
  }
}

/** A hash of a key from its length and three of its characters: equal keys always agree. */
function rawHash(text: string, start: number, end: number): number {
  const length = end - start;
  if (length === 0) return 0;
  return (
    (length * 0x01000193) ^
    (text.charCodeAt(start) << 16) ^
    (text.charCodeAt(start + (length >> 1)) << 8) ^
    text.charCodeAt(end - 1)
  );
}

function stringHash(value: string): number {
  return rawHash(value, 0, value.length);
}
