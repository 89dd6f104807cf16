/**
 * JSON text held to the limits, around `JSON.parse`: the checks before it (scan.ts) and the
 * repeated-key check after it. The JSON codec reads every document this way, and the formats that
 * carry a json value as JSON text (Protocol Buffers, Avro, FlatBuffers, Arrow) read that text this
 * way too, so the limits mean the same whichever format carried the value.
 *
 * Before the parse, a text long enough to break a limit on size (maxElements, maxStringBytes, the
 * allocation budget) gets the full scan, which checks everything and charges the budget; any other
 * text only has its keys counted (`keyCount`). After the parse, the caller walks the value (the
 * schema's reader, or the json kind's walk), which checks nesting and keys and counts the keys it
 * finds; `afterParse` compares the two counts, and where they differ (a key that appeared twice)
 * runs the full scan, which says where.
 */
import { type AllocationBudget, cost } from '../budget.js';
import type { DecodeLimits } from '../limits.js';
import { fitsLimits, keyCount, maxHeapPerChar, scanJson } from './scan.js';

export interface TextCheckOptions {
  /** Containers around the text's value (a json field's nesting; 0 for a document). */
  readonly depth: number;
  readonly limits: DecodeLimits;
  /** Elements already counted in the decode around the text. */
  readonly elements: number;
  readonly budget: AllocationBudget;
  /** Refuse unsafe keys in the scan (no key can be a schema's field name). */
  readonly refuseUnsafeKeys: boolean;
  /**
   * Whether base64 of bytes fields may be among the strings: such text may hold strings past
   * maxStringBytes (up to what maxBytesLength allows, flagged for the reader), and a string may
   * turn into a byte array, which costs more than the string.
   */
  readonly base64: boolean;
  /** The byte offset of the text in the input, for error offsets. */
  readonly offset: number;
}

/** What the checks before the parse found, for `afterParse`. */
export interface TextCheck {
  /** The full scan ran: it counted, measured and compared every key already. */
  readonly scanned: boolean;
  /** The keys the text holds (at least), when it did not. */
  readonly keys: number;
  /** A string past maxStringBytes, within what base64 of maxBytesLength takes (full scan only). */
  readonly longString: boolean;
}

const heapPerChar = maxHeapPerChar();
/** With base64 text, an empty string becomes a byte array: its objects cost `cost.bytes`. */
const heapPerCharWithBytes = maxHeapPerChar(cost.bytes);

/** The checks before JSON.parse (see the module comment). */
export function beforeParse(text: string, options: TextCheckOptions): TextCheck {
  const perChar = options.base64 ? heapPerCharWithBytes : heapPerChar;
  if (fitsLimits(text.length, options.limits, options.elements, options.budget, perChar)) {
    const keys = keyCount(text);
    if (keys >= 0) return { scanned: false, keys, longString: false };
  }
  return { scanned: true, keys: 0, longString: fullScan(text, options) };
}

/**
 * After the parse and the walk: refuses a key that appeared twice, which the walk cannot see (it
 * found fewer keys than the text holds). Call it with the walk's error too, when the walk failed:
 * a repeated key is refused before whatever else is wrong with the value it was read into.
 */
export function afterParse(text: string, check: TextCheck, keysFound: number, options: TextCheckOptions): void {
  if (!check.scanned && keysFound !== check.keys) fullScan(text, options);
}

function fullScan(text: string, options: TextCheckOptions): boolean {
  const { limits } = options;
  // Base64 of maxBytesLength bytes takes 4 characters for each 3.
  const stringBound = options.base64
    ? Math.max(limits.maxStringBytes, Math.ceil(limits.maxBytesLength / 3) * 4)
    : limits.maxStringBytes;
  return scanJson(text, {
    depth: options.depth,
    limits,
    stringBound,
    refuseUnsafeKeys: options.refuseUnsafeKeys,
    elements: options.elements,
    budget: options.budget,
    offset: options.offset,
  }).longString;
}
