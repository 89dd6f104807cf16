/**
 * Sequences held whole: what `encodeStream` writes, produced in one call, and read back in one
 * call. A caller that has every byte already (an HTTP list reply read to its end, a file) then
 * needs neither streams nor promises, and gets the same bytes and the same checks as the stream
 * methods give.
 *
 * Limits apply as they would to one value holding the items: `maxInputBytes` bounds the whole
 * input, `maxElements` the number of items (each item's own arrays and maps are checked by its
 * decode, as in a stream), and `maxAllocatedBytes` what all the items and their array cost
 * together, since all of them are held at once (a stream's items, handed out one at a time, are
 * charged one at a time). Errors carry offsets into the whole input, as a stream's do.
 */
import { WirekitError } from '../../errors/index.js';
import type { Schema } from '../../schema/index.js';
import { deref } from '../../schema/walk.js';
import { joinBytes } from '../../util/join-bytes.js';
import { type AllocationBudget, budgetOf, cost } from './budget.js';
import type { FormatName } from './codec.js';
import { tooManyElements, truncated } from './errors.js';
import { checkInputSize, type DecodeLimits } from './limits.js';
import { type FrameMeasure, withOffset } from './stream.js';

/** The values encoded one after another, between an optional head and tail, as one array. */
export function encodeSequenceOf<T>(
  values: Iterable<T>,
  encodeOne: (value: T) => Uint8Array,
  framing: { readonly head?: Uint8Array; readonly tail?: Uint8Array } = {},
): Uint8Array {
  checkIterable(values);
  const parts: Uint8Array[] = [];
  let size = 0;
  const add = (bytes: Uint8Array) => {
    parts.push(bytes);
    size += bytes.length;
  };
  if (framing.head !== undefined) add(framing.head);
  for (const value of values) add(encodeOne(value));
  if (framing.tail !== undefined) add(framing.tail);
  // A part may be a view into a codec's reusable buffer, so even a single part is copied out.
  return joinBytes(parts, size);
}

/** Refuses what `for … of` cannot walk, with a WirekitError rather than a TypeError. */
export function checkIterable(values: unknown): void {
  if (typeof (values as Partial<Iterable<unknown>> | null)?.[Symbol.iterator] !== 'function') {
    throw new WirekitError('WK_VALIDATION_FAILED', 'encodeSequence takes an iterable of values (an array).', {
      path: [],
    });
  }
}

export interface FrameOptions<T> {
  /** For framings whose last frame may lack its terminator (an NDJSON file without a final newline). */
  readonly decodeTail?: FrameDecoder<T>;
  /** Frames that hold no value (NDJSON's blank lines): measured and passed over, not counted. */
  readonly isEmpty?: (frame: Uint8Array) => boolean;
}

/**
 * Decodes one frame, charging what it builds to `budget` (the sequence's, shared by its items).
 * A decoder that keeps a budget per value of its own may leave the argument unused.
 */
export type FrameDecoder<T> = (frame: Uint8Array, budget: AllocationBudget) => T;

/**
 * The values of a whole input cut into frames by `measure`, decoded one at a time as the iterator
 * is read; each item and its slot in the array they go to are charged to `budget`.
 */
function* framesOf<T>(
  bytes: Uint8Array,
  measure: FrameMeasure,
  decodeOne: FrameDecoder<T>,
  limits: DecodeLimits,
  budget: AllocationBudget,
  options: FrameOptions<T>,
): Generator<T, void, undefined> {
  checkSequenceInput(bytes, limits);
  let at = 0;
  let items = 0;
  while (at < bytes.length) {
    const rest = bytes.subarray(at);
    const length = withOffset(at, () => measure(rest));
    if (length === undefined || length > rest.length) {
      if (options.decodeTail === undefined)
        throw truncated(bytes.length, `the frame that starts at byte ${at}`);
      if (options.isEmpty?.(rest) !== true) {
        countItem(++items, at, limits);
        budget.charge(cost.slot, at);
        yield withOffset(at, () => (options.decodeTail as FrameDecoder<T>)(rest, budget));
      }
      return;
    }
    const frame = rest.subarray(0, length);
    if (options.isEmpty?.(frame) !== true) {
      countItem(++items, at, limits);
      budget.charge(cost.slot, at);
      yield withOffset(at, () => decodeOne(frame, budget));
    }
    at += length;
  }
}

/** Every value of a whole input cut into frames by `measure`, in an array. */
export function decodeFramesOf<T>(
  bytes: Uint8Array,
  measure: FrameMeasure,
  decodeOne: FrameDecoder<T>,
  limits: DecodeLimits,
  options: FrameOptions<T> = {},
): T[] {
  const budget = budgetOf(limits);
  budget.charge(cost.array, 0);
  return Array.from(framesOf(bytes, measure, decodeOne, limits, budget, options));
}

/** The checks every decodeSequence starts with: bytes, and no more of them than maxInputBytes. */
export function checkSequenceInput(bytes: Uint8Array, limits: DecodeLimits): void {
  if (!(bytes instanceof Uint8Array)) {
    throw new WirekitError('WK_DECODE_MALFORMED', 'decodeSequence expects a Uint8Array.', { offset: 0 });
  }
  checkInputSize(bytes, limits);
}

/** Refuses the item past maxElements; `offset` is where it starts. */
export function countItem(items: number, offset: number, limits: DecodeLimits): void {
  if (items > limits.maxElements) throw tooManyElements(offset, limits);
}

/**
 * For a codec whose root is an array of records in a format whose root is one record (Protocol
 * Buffers, Avro, FlatBuffers): what to say when its decode fails. Such a codec reads one message
 * whose field holds the list (what `toProto(t.array(Item))` declares), not the sequence of
 * records that an HTTP list reply is, and the two are easily confused.
 */
export function listHintOf(
  schema: Schema,
  format: FormatName,
  sequenceMediaType: string,
): string | undefined {
  const node = deref(schema);
  if (node.kind !== 'array') return undefined;
  const item = deref(node.items);
  if (item.kind !== 'object') return undefined;
  return `; this codec reads one ${format} value holding a list of ${item.name}: if the bytes are a sequence of ${item.name} (${sequenceMediaType}, as wirekit's HTTP server sends a list), read them with createCodec('${format}', { schema: ${item.name} }).decodeSequence(bytes)`;
}

const hinted = new Set([
  'WK_DECODE_MALFORMED',
  'WK_DECODE_TRUNCATED',
  'WK_DECODE_TRAILING',
  'WK_DECODE_SCHEMA_MISMATCH',
]);

/** `error` with the list hint appended to its message, when there is one and the error is about the bytes. */
export function withListHint(error: unknown, hint: string | undefined): unknown {
  if (hint === undefined || !(error instanceof WirekitError) || !hinted.has(error.code)) return error;
  const message = error.message.endsWith('.') ? error.message.slice(0, -1) : error.message;
  return new WirekitError(error.code, `${message}${hint}.`, {
    path: error.path,
    offset: error.offset,
    format: error.format,
    cause: error,
  });
}
