/**
 * Avro Object Container Files: the framing of `encodeStream`/`decodeStream`, and whole-file
 * `writeContainer`/`readContainer`. Readers resolve the file's embedded writer schema against the
 * caller's wirekit schema, so files written with an older schema (by any implementation) read into
 * the current shape.
 */
import { WirekitError } from '../../errors/index.js';
import type { AvroSchemaJson } from '../../schema/export/avro.js';
import type { Schema } from '../../schema/index.js';
import { resolveRatio } from '../../util/decompression-ratio.js';
import { type AllocationBudget, budgetOf, cost } from '../core/budget.js';
import { rejectsUnknownKeys, type UnknownKeys } from '../core/codec.js';
import { malformed, tooManyElements, truncated } from '../core/errors.js';
import { checkInputSize, type DecodeLimits, resolveLimits } from '../core/limits.js';
import { checkIterable, checkSequenceInput, encodeSequenceOf } from '../core/sequence.js';
import { chunksOf, encodeValues } from '../core/stream.js';
import { compileAvro } from './compiled.js';
import {
  type ContainerCodec,
  compressBlock,
  decompressBlock,
  decompressBlockSync,
  isContainerCodec,
} from './compress.js';
import {
  type ContainerHeader,
  checkSync,
  headerBytes,
  measureBlock,
  measureHeader,
  newSyncMarker,
  parseHeader,
  writeBlock,
} from './container-format.js';
import { readRoot } from './decode.js';
import { AvroReader } from './reader.js';
import type { RootReadPlan } from './resolve.js';
import { type CompiledWrite, plansOf, readPlanFor, type SchemaPlans, writeValue } from './schema-plans.js';
import { AvroWriter } from './writer.js';

/** Values per block are cut once the block's uncompressed bytes pass this (Java's default is 64000). */
const defaultBlockSize = 64 * 1024;

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

export interface StreamOptions {
  readonly maxDepth: number;
  readonly validate: boolean;
  /** The schema's generated writer, when the codec compiles. */
  readonly compiled?: CompiledWrite | undefined;
}

/** Writes an uncompressed container: its header, then values gathered into blocks. */
class BlockWriter<T> {
  private readonly sync = newSyncMarker();
  private readonly body = new AvroWriter();
  private count = 0;

  constructor(
    private readonly plans: SchemaPlans,
    private readonly options: StreamOptions,
  ) {}

  head(): Uint8Array {
    return headerBytes(this.plans.avroText, 'null', this.sync);
  }

  put(value: T): void {
    const { maxDepth, validate, compiled } = this.options;
    writeValue(this.plans, this.body, value, maxDepth, validate, compiled);
    this.count++;
  }

  /** Whether the pending block has reached the block size. */
  get full(): boolean {
    return this.body.pos >= defaultBlockSize;
  }

  get pending(): number {
    return this.count;
  }

  /** The pending values as one block (count, size, data, sync marker). */
  block(): Uint8Array {
    const out = new AvroWriter(this.body.pos + 40);
    writeBlock(out, this.count, this.body.buf.subarray(0, this.body.pos), this.sync);
    this.body.rewind();
    this.count = 0;
    return out.finish();
  }

  /** Blocks of about 64 KiB from a synchronous source. */
  *blocksOf(source: Iterable<T>): Generator<Uint8Array> {
    for (const value of source) {
      this.put(value);
      if (this.full) yield this.block();
    }
    if (this.pending > 0) yield this.block();
  }
}

/**
 * An uncompressed container as a byte stream. Values from a synchronous iterable are gathered into
 * blocks of about 64 KiB; values from an async one go out one block each, since waiting to fill a
 * block would hold back values the consumer could already have.
 */
export function containerStream<T>(
  plans: SchemaPlans,
  values: Iterable<T> | AsyncIterable<T>,
  options: StreamOptions,
): ReadableStream<Uint8Array> {
  const writer = new BlockWriter<T>(plans, options);
  async function* single(source: AsyncIterable<T>): AsyncGenerator<Uint8Array> {
    for await (const value of source) {
      writer.put(value);
      yield writer.block();
    }
  }
  const blocks =
    Symbol.asyncIterator in values
      ? single(values as AsyncIterable<T>)
      : writer.blocksOf(values as Iterable<T>);
  return encodeValues<Uint8Array>(blocks, (bytes) => bytes, { head: () => writer.head() });
}

/** The bytes `containerStream` writes for a synchronous source, in one array. */
export function containerBytes<T>(
  plans: SchemaPlans,
  values: Iterable<T>,
  options: StreamOptions,
): Uint8Array {
  checkIterable(values);
  const writer = new BlockWriter<T>(plans, options);
  return encodeSequenceOf(writer.blocksOf(values), (bytes) => bytes, { head: writer.head() });
}

export interface WriteContainerOptions {
  /** The schema of the values; the file embeds its Avro export. */
  readonly schema: Schema;
  /** Block compression (default 'null', none). */
  readonly codec?: ContainerCodec;
  /** Uncompressed bytes after which a block is cut (default 64 KiB). */
  readonly blockSize?: number;
  /** Extra header metadata; keys starting with `avro.` are reserved. */
  readonly metadata?: Readonly<Record<string, string | Uint8Array>>;
  /** 16 bytes; random by default. Fixing it makes the output reproducible. */
  readonly syncMarker?: Uint8Array;
  /** Check each value fully against the schema first (default false). */
  readonly validate?: boolean;
}

/** Writes `values` as an Object Container File. Async because the zstandard codec is. */
export async function writeContainer<T>(
  values: Iterable<T> | AsyncIterable<T>,
  options: WriteContainerOptions,
): Promise<Uint8Array> {
  const codec = options.codec ?? 'null';
  if (!isContainerCodec(codec)) {
    throw new WirekitError('WK_OPTIONS_INVALID', `unknown container codec ${JSON.stringify(codec)}.`, {
      format: 'avro',
    });
  }
  const blockSize = options.blockSize ?? defaultBlockSize;
  if (!Number.isSafeInteger(blockSize) || blockSize < 1) {
    throw new WirekitError('WK_OPTIONS_INVALID', `blockSize must be a positive integer, got ${blockSize}.`, {
      format: 'avro',
    });
  }
  const plans = plansOf(options.schema);
  const sync = options.syncMarker ?? newSyncMarker();
  const out = new AvroWriter();
  out.writeRaw(headerBytes(plans.avroText, codec, sync, options.metadata));
  const body = new AvroWriter();
  const compiled = compileAvro(plans)?.encode;
  let count = 0;
  const flush = async (): Promise<void> => {
    writeBlock(out, count, await compressBlock(codec, body.buf.subarray(0, body.pos)), sync);
    body.rewind();
    count = 0;
  };
  for await (const value of values) {
    writeValue(plans, body, value, Number.POSITIVE_INFINITY, options.validate === true, compiled);
    count++;
    if (body.pos >= blockSize) await flush();
  }
  if (count > 0) await flush();
  return out.finish();
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
