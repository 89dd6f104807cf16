/**
 * Reading Avro Object Container Files: the framing `decodeStream` reads, and whole-file
 * `readContainer`. Readers resolve the file's embedded writer schema against the caller's wirekit
 * schema, so files written with an older schema (by any implementation) read into the current
 * shape. The layout both directions follow is container-format.ts; writing is encode/container.ts.
 */
import { WirekitError } from '../../../errors/index.js';
import type { AvroSchemaJson } from '../../../schema/export/avro.js';
import type { Schema } from '../../../schema/index.js';
import { resolveRatio } from '../../../util/decompression-ratio.js';
import { type AllocationBudget, budgetOf, cost } from '../../core/budget.js';
import { rejectsUnknownKeys, type UnknownKeys } from '../../core/codec.js';
import { malformed, tooManyElements, truncated } from '../../core/errors.js';
import { checkInputSize, type DecodeLimits, resolveLimits } from '../../core/limits.js';
import { checkSequenceInput } from '../../core/sequence.js';
import { chunksOf } from '../../core/stream.js';
import { compileAvro } from '../compiled.js';
import { type ContainerCodec, decompressBlock, decompressBlockSync } from '../compress.js';
import {
  type ContainerHeader,
  checkSync,
  measureBlock,
  measureHeader,
  parseHeader,
} from '../container-format.js';
import { plansOf, readPlanFor, type SchemaPlans } from '../schema-plans.js';
import { readRoot } from './datum.js';
import { AvroReader } from './reader.js';
import type { RootReadPlan } from './resolve.js';

/**
 * Bytes that arrive in chunks, kept in one growable buffer so that measuring and decoding read
 * contiguous bytes however the chunks were cut, at amortised O(1) per byte.
 */
class ByteQueue {
  private buf: Uint8Array = new Uint8Array(0);
  private start = 0;
  private end = 0;
  /** False while `buf` is the caller's chunk, which must never be written to. */
  private owned = false;

  get length(): number {
    return this.end - this.start;
  }

  view(): Uint8Array {
    return this.buf.subarray(this.start, this.end);
  }

  push(chunk: Uint8Array): void {
    if (this.length === 0) {
      this.buf = chunk;
      this.start = 0;
      this.end = chunk.length;
      this.owned = false;
      return;
    }
    const needed = this.length + chunk.length;
    if (!this.owned || needed > this.buf.length) {
      const next = new Uint8Array(Math.max(needed * 2, 4096));
      next.set(this.view());
      this.buf = next;
      this.end = this.length;
      this.start = 0;
      this.owned = true;
    } else if (this.end + chunk.length > this.buf.length) {
      // Consumed bytes at the front make room: reuse it rather than grow without bound.
      this.buf.copyWithin(0, this.start, this.end);
      this.end -= this.start;
      this.start = 0;
    }
    this.buf.set(chunk, this.end);
    this.end += chunk.length;
  }

  consume(count: number): void {
    this.start += count;
  }
}

function tooLarge(length: number, limits: DecodeLimits): WirekitError {
  return new WirekitError(
    'WK_LIMIT_INPUT',
    `an Avro container header or block of ${length} bytes exceeds maxInputBytes (${limits.maxInputBytes}).`,
  );
}

/**
 * Decodes the values of a container as its bytes arrive. `planFor` turns the header (with the
 * writer's schema) into a read plan; values are decoded one at a time as they are consumed, by the
 * plan's generated reader where `compiledFor` gives one.
 */
/** How the values of a container are read beyond its limits. */
export interface ValuesOptions {
  /** The plan's generated reader, where there is one. */
  readonly compiledFor?: (plan: RootReadPlan) => ((r: AvroReader) => unknown) | undefined;
  /** How many times its compressed size a block may inflate to (default 1,000). */
  readonly maxDecompressionRatio?: number | undefined;
}

export async function* readContainerValues(
  source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  planFor: (header: ContainerHeader) => RootReadPlan,
  limits: DecodeLimits,
  options: ValuesOptions = {},
  /** For a caller that keeps every value: one budget for all of them (else one per value). */
  held?: AllocationBudget,
): AsyncGenerator<unknown, void, undefined> {
  const ratio = resolveRatio(options.maxDecompressionRatio);
  const queue = new ByteQueue();
  let header: ContainerHeader | undefined;
  let read: RootReadPlan | undefined;
  let compiled: ((r: AvroReader) => unknown) | undefined;
  let offset = 0;
  for await (const chunk of chunksOf(source)) {
    if (chunk.length === 0) continue;
    queue.push(chunk);
    for (;;) {
      const pending = queue.view();
      if (header === undefined || read === undefined) {
        const length = measureHeader(pending, limits);
        if (length === undefined) {
          if (pending.length > limits.maxInputBytes) throw tooLarge(pending.length, limits);
          break;
        }
        if (length > limits.maxInputBytes) throw tooLarge(length, limits);
        header = parseHeader(pending.subarray(0, length), limits);
        read = planFor(header);
        compiled = options.compiledFor?.(read);
        queue.consume(length);
        offset += length;
        continue;
      }
      if (pending.length === 0) break;
      const block = measureBlock(pending);
      if (block === undefined || block.total > pending.length) {
        const size = Math.max(block?.total ?? 0, pending.length);
        if (size > limits.maxInputBytes) throw tooLarge(size, limits);
        break;
      }
      checkSync(pending, block, header.sync);
      if (block.count > limits.maxElements) throw tooManyElements(offset, limits);
      const data = await decompressBlock(
        header.codec,
        pending.subarray(block.start, block.start + block.size),
        limits.maxInputBytes,
        ratio,
      );
      yield* blockValues(data, block.count, read, compiled, limits, offset, held);
      queue.consume(block.total);
      offset += block.total;
    }
  }
  if (header === undefined) throw truncated(offset + queue.length, 'an Avro container header');
  if (queue.length > 0) throw truncated(offset + queue.length, 'an Avro container block');
}

/**
 * The values of a whole container in memory, synchronously, decoded block by block as the
 * iterator is read. `maxElements` bounds the values of the whole file (a stream bounds each block),
 * and `maxAllocatedBytes` what they cost together, as the array the caller keeps them in.
 */
export function* containerValuesOf(
  bytes: Uint8Array,
  planFor: (header: ContainerHeader) => RootReadPlan,
  limits: DecodeLimits,
  options: ValuesOptions = {},
): Generator<unknown, void, undefined> {
  checkSequenceInput(bytes, limits);
  const ratio = resolveRatio(options.maxDecompressionRatio);
  const headerLength = measureHeader(bytes, limits);
  if (headerLength === undefined) throw truncated(bytes.length, 'an Avro container header');
  const header = parseHeader(bytes.subarray(0, headerLength), limits);
  const read = planFor(header);
  const compiled = options.compiledFor?.(read);
  const held = heldBudget(limits);
  let values = 0;
  for (let offset = headerLength; offset < bytes.length; ) {
    const pending = bytes.subarray(offset);
    const block = measureBlock(pending);
    if (block === undefined || block.total > pending.length)
      throw truncated(bytes.length, 'an Avro container block');
    checkSync(pending, block, header.sync);
    values += block.count;
    if (values > limits.maxElements) throw tooManyElements(offset, limits);
    const data = decompressBlockSync(
      header.codec,
      pending.subarray(block.start, block.start + block.size),
      limits.maxInputBytes,
      ratio,
    );
    yield* blockValues(data, block.count, read, compiled, limits, offset, held);
    offset += block.total;
  }
}

/** The budget of values all held at once: theirs and the array's that holds them. */
function heldBudget(limits: DecodeLimits): AllocationBudget {
  const budget = budgetOf(limits);
  budget.charge(cost.array, 0);
  return budget;
}

/**
 * The `count` values of one block's (decompressed) data, which must hold nothing more. Each value
 * is charged to a budget of its own, or with its slot in the caller's array to `held`.
 */
function* blockValues(
  data: Uint8Array,
  count: number,
  read: RootReadPlan,
  compiled: ((r: AvroReader) => unknown) | undefined,
  limits: DecodeLimits,
  offset: number,
  held: AllocationBudget | undefined,
): Generator<unknown, void, undefined> {
  const r = new AvroReader(data, limits);
  if (held !== undefined) r.budget = held;
  for (let i = 0; i < count; i++) {
    if (held === undefined) r.budget = budgetOf(limits);
    else held.charge(cost.slot, offset);
    yield readRoot(r, read, compiled);
  }
  if (r.pos !== data.length) {
    throw malformed(offset, `an Avro container block holds ${data.length - r.pos} bytes after its values`);
  }
}

/** The read plan for a container's header: the codec's own when the file carries the same schema. */
export function containerReadPlan(
  plans: SchemaPlans,
  header: ContainerHeader,
  rejectUnknown = false,
): RootReadPlan {
  return readPlanFor(plans, header.schemaText, rejectUnknown);
}

export interface ReadContainerOptions {
  /** The reader's schema: values come out in its shape, resolved from the file's writer schema. */
  readonly schema: Schema;
  readonly limits?: Partial<DecodeLimits>;
  /**
   * How many times its compressed size a block may inflate to (default 1,000; never less than
   * 1 MiB; Infinity for no ratio cap), besides maxInputBytes. WK_LIMIT_DECOMPRESSED past it.
   */
  readonly maxDecompressionRatio?: number;
  /** A writer field the reader's schema lacks: skipped (default) or refused (see CodecOptions). */
  readonly unknownKeys?: UnknownKeys;
}

export interface AvroContainer<T> {
  readonly values: T[];
  /** The writer's schema that the file embeds. */
  readonly writerSchema: AvroSchemaJson;
  readonly codec: ContainerCodec;
  readonly metadata: ReadonlyMap<string, Uint8Array>;
}

/** Reads a whole Object Container File. */
export async function readContainer<T = unknown>(
  bytes: Uint8Array,
  options: ReadContainerOptions,
): Promise<AvroContainer<T>> {
  const limits = resolveLimits(options.limits);
  checkInputSize(bytes, limits);
  const plans = plansOf(options.schema);
  let header: ContainerHeader | undefined;
  const values: T[] = [];
  const planFor = (found: ContainerHeader): RootReadPlan => {
    header = found;
    return containerReadPlan(plans, found, rejectsUnknownKeys(options));
  };
  const compiledFor = (plan: RootReadPlan) => (plan === plans.read ? compileAvro(plans)?.decode : undefined);
  const held = heldBudget(limits);
  const valuesOptions = { compiledFor, maxDecompressionRatio: options.maxDecompressionRatio };
  for await (const value of readContainerValues(once(bytes), planFor, limits, valuesOptions, held)) {
    values.push(value as T);
  }
  const found = header as ContainerHeader;
  return {
    values,
    writerSchema: schemaJson(found.schemaText),
    codec: found.codec,
    metadata: found.metadata,
  };
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/** The header's schema as JSON; a bare primitive name (which readers accept unquoted) as that string. */
function schemaJson(text: string): AvroSchemaJson {
  try {
    return JSON.parse(text) as AvroSchemaJson;
  } catch {
    return text;
  }
}
