/**
 * JSON text held to the limits around `JSON.parse`: the checks before it (scan.ts) and, for a
 * schema's reader, the repeated-key check after it. The flow is the JSON codec's `fromText`
 * (index.ts), inline there because its objects cost more per call than a small text's reading.
 *
 * Before the parse, a text long enough to break a limit on size (maxElements, maxStringBytes, the
 * allocation budget) gets the full scan, which checks everything and charges the budget. A shorter
 * text cannot break them whatever it holds (`fitsLimits`), so it is parsed at once and the walk
 * after the parse (the schema's reader, or the schemaless check) looks after nesting and keys. A
 * schema's reader also counts the keys it meets; when the text holds more (`keyCount`), a key
 * appeared twice and JSON.parse kept the last, so the full scan (`fullScan`) runs, which says where.
 */
import type { AllocationBudget } from '../../core/budget.js';
import type { DecodeLimits } from '../../core/limits.js';
import { scanJson } from './scan.js';

/** What a schema's reader may build beyond the tree JSON.parse made (see `readerExtras`). */
export interface ReaderExtras {
  /** The most the reader adds for one string (a byte array) and for one object (a map's new one). */
  readonly perString: number;
  readonly perContainer: number;
}

export const noExtras: ReaderExtras = Object.freeze({ perString: 0, perContainer: 0 });

export interface TextCheckOptions {
  readonly limits: DecodeLimits;
  readonly budget: AllocationBudget;
  /** Schemaless: the scan refuses unsafe keys (no schema can make them field names) and keeps repeated ones. */
  readonly schemaless: boolean;
  readonly extras: ReaderExtras;
}

/**
 * What the scan holds text to when a schema's reader follows it: the budget and repeated keys only.
 * Nesting, elements and string lengths depend on what the schema makes of the text (an object is a
 * record, whose fields are no elements and whose keys are no strings of the value, or a map; a
 * string may be base64 of bytes), so the reader checks them, in the value's order as every format
 * does, and the scan only flags strings long enough to need measuring (`longString`).
 */
function forSchemaReader(limits: DecodeLimits): DecodeLimits {
  const unbounded = Number.MAX_SAFE_INTEGER;
  return { ...limits, maxDepth: unbounded, maxElements: unbounded };
}

/** The full scan (scan.ts) under `options`; whether the text holds a string past maxStringBytes. */
export function fullScan(text: string, options: TextCheckOptions): boolean {
  const { limits } = options;
  return scanJson(text, {
    limits: options.schemaless ? limits : forSchemaReader(limits),
    // Schemaless, every string is a string of the value; a schema's reader decides which are.
    stringBound: options.schemaless ? limits.maxStringBytes : Number.POSITIVE_INFINITY,
    refuseUnsafeKeys: options.schemaless,
    refuseRepeatedKeys: !options.schemaless,
    budget: options.budget,
  }).longString;
}
