/**
 * What the MessagePack and the CBOR source (each format's decode/source.ts) share: the input and the
 * read position, the span and budget the schema decoders read through, the bounds check, the
 * wrong-type error, skipping an item with the format's own scanner, and a decimal read as its
 * text. Each format reads its own head bytes in the subclass; these members are the same bytes of
 * logic whatever the wire, and inherited methods cost the compiled decoders nothing (each source
 * class is still one hidden class at each call site).
 */
import type { WirekitError } from '../../../errors/index.js';
import { isDecimalText } from '../../../schema/decimal.js';
import { AllocationBudget } from '../../core/budget.js';
import { truncated } from '../../core/errors.js';
import type { DecodeLimits } from '../../core/limits.js';
import { TextReader } from '../../core/utf8.js';
import { schemaMismatch } from '../failures.js';
import type { RecordKeys } from './record-keys.js';

/** The scanner a source skips items with (the format's, checking nothing but lengths and limits). */
export interface ItemSkipper {
  elements: number;
  readonly endedAt: number;
  scan(bytes: Uint8Array, start: number, end: number, depth: number): number;
}

export abstract class KeyedSource {
  /** The bytes being read, and where they end (compiled decoders match keys in them directly). */
  input: Uint8Array = new Uint8Array(0);
  end = 0;
  pos = 0;
  elements = 0;
  spanBytes: Uint8Array = this.input;
  spanStart = 0;
  spanEnd = 0;
  /** What the value decoded so far costs the heap; given by `reset`. */
  budget = new AllocationBudget(0);
  /** The input's strings (short ASCII strings cut from windows of it). */
  readonly text = new TextReader();

  constructor(
    readonly limits: DecodeLimits,
    private readonly skipper: ItemSkipper,
    /** What a head byte starts, in words (the format's `typeName`). */
    private readonly typeName: (head: number) => string,
  ) {}

  reset(input: Uint8Array, budget: AllocationBudget): void {
    // A Buffer's slice() is a view, not a copy: read through a plain Uint8Array so that the byte
    // strings decoded (slices of the input) are copies, never views into a buffer the caller reuses.
    const bytes =
      input.constructor === Uint8Array
        ? input
        : new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    this.budget = budget;
    this.input = bytes;
    this.text.use(bytes);
    this.spanBytes = bytes;
    this.end = bytes.length;
    this.pos = 0;
    this.elements = 0;
  }

  abstract string(): string;

  protected abstract mapHeader(level: number, entriesCount: boolean): number;

  protected need(bytes: number): void {
    if (this.pos + bytes > this.end) throw truncated(this.end);
  }

  protected wrongType(expected: string): WirekitError {
    return schemaMismatch(this.pos, `expected ${expected}, got ${this.describeNext()}`);
  }

  /** A decimal spelt as text, held to wirekit's canonical form (schema/decimal.ts). */
  protected decimalText(): string {
    const at = this.pos;
    const text = this.string();
    if (!isDecimalText(text))
      throw schemaMismatch(at, `${JSON.stringify(text.slice(0, 40))} is not a decimal`);
    return text;
  }

  mapStart(level: number): number {
    return this.mapHeader(level, true);
  }

  recordStart(level: number): number {
    return this.mapHeader(level, false);
  }

  /** Only MessagePack's records mode has records (its source overrides this). */
  recordAhead(_depth: number, _entries: boolean): RecordKeys | undefined {
    return undefined;
  }

  skip(depth: number): void {
    const skipper = this.skipper;
    skipper.elements = this.elements;
    const end = skipper.scan(this.input, this.pos, this.end, depth);
    if (end < 0) throw truncated(skipper.endedAt);
    this.elements = skipper.elements;
    this.pos = end;
  }

  describeNext(): string {
    return this.typeName(this.input[this.pos] as number);
  }
}
