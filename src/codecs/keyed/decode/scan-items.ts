/**
 * What the MessagePack and the CBOR scanner share: their options, the counts and charges a scan
 * carries in and out (elements, the heap the value will take, where a cut input ended), the check
 * every text string gets (UTF-8, unsafe keys) and the charges their hot loops make. The hot
 * loops check short strings inline instead of calling `checkText`: measured, the call costs them.
 * The walks themselves stay in their formats: they read different head bytes, and CBOR's
 * indefinite containers keep state (stack, cut, `stop`) MessagePack has none of.
 */
import { cost } from '../../core/budget.js';
import { malformed } from '../../core/errors.js';
import type { DecodeLimits } from '../../core/limits.js';
import { checkKey } from './keys.js';
import { isUtf8 } from './utf8-check.js';

export interface KeyedScanOptions {
  /** Check that strings are UTF-8 (the schema decoder does it as it decodes instead). */
  readonly utf8: boolean;
  /** Refuse `__proto__`, `constructor` and `prototype` as string map keys. */
  readonly unsafeKeys: boolean;
  /**
   * Charge what the library will build from the value against maxAllocatedBytes (core/budget.ts): on
   * for the scanner that precedes the library, off where a scan only measures or skips.
   */
  readonly charge: boolean;
}

/** The scan that precedes the library's decode: it checks and charges everything. */
export const checkingScan = { utf8: true, unsafeKeys: true, charge: true } as const;
/** The scan that only measures a value (to cut a stream, or to skip an item in a schema decode). */
export const measuringScan = { utf8: false, unsafeKeys: false, charge: false } as const;

/**
 * A container of this many items or more is refused as too many elements whatever maxElements
 * says, so that every count the walk keeps fits an int32 (V8 then keeps the walk's counters in
 * integer registers instead of converting doubles on every item). No JavaScript array or object
 * that large can be built anyway.
 */
const maxCount = 0x3fff_ffff;

/** The charges the hot loops make, as plain constants (core/budget.ts). */
export const arrayCharge = cost.array;
export const slotCharge = cost.slot;
export const stringCharge = cost.string;
/**
 * A map with a key that is not a text string is built as a Map (decoded-map.ts): each such key is
 * charged as a Map of its own plus a Map's entry, over the object and two slots charged already
 * (too much for a Map of many entries, never too little).
 */
export const mapKeyExtra = cost.map - cost.object + cost.mapEntry - 2 * cost.slot;

export abstract class KeyedScanItems<Options extends KeyedScanOptions> {
  /** Array items and map entries seen; carried in and out by callers that count across scans. */
  elements = 0;
  /** A map key that is not a text string: maps are then read by wirekit (as Map where needed). */
  nonStringKey = false;
  /** An integer beyond the safe range in a 64-bit form, which the library would round. */
  wideInteger = false;
  /** Where the input ended, when a scan returned -1. */
  endedAt = 0;
  /**
   * The heap the scanned value will take once built (core/budget.ts), carried in and out like
   * `elements`; `charged` holds what the helpers add for the item they read.
   */
  allocated = 0;
  protected charged = 0;
  /** maxAllocatedBytes when the options charge, else no bound. */
  protected readonly maxAllocated: number;
  /** maxElements, or maxCount where that is lower (see maxCount). */
  protected readonly maxContainer: number;

  constructor(
    protected readonly limits: DecodeLimits,
    protected readonly options: Options,
  ) {
    this.maxAllocated = options.charge ? limits.maxAllocatedBytes : Number.POSITIVE_INFINITY;
    this.maxContainer = Math.min(limits.maxElements, maxCount);
  }

  protected ended(at: number, elements = this.elements): number {
    this.endedAt = at;
    this.elements = elements;
    return -1;
  }

  /** Checks the text string in [start, stop), a map key when `key`, as the options say. */
  protected checkText(bytes: Uint8Array, start: number, stop: number, key: boolean): void {
    if (this.options.utf8 && !isUtf8(bytes, start, stop))
      throw malformed(start, 'a string is not valid UTF-8');
    if (key && this.options.unsafeKeys) checkKey(bytes, start, stop - start);
  }
}
