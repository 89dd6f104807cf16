/**
 * Writing Avro Object Container Files: the framing of `encodeStream`, and whole-file
 * `writeContainer`, whose header embeds the schema's Avro export so that any implementation reads
 * the file. The layout both directions follow is container-format.ts; reading is decode/container.ts.
 */
import { WirekitError } from '../../../errors/index.js';
import type { Schema } from '../../../schema/index.js';
import { checkIterable, encodeSequenceOf } from '../../core/sequence.js';
import { encodeValues } from '../../core/stream.js';
import { compileAvro } from '../compiled.js';
import { type ContainerCodec, compressBlock, isContainerCodec } from '../compress.js';
import { headerBytes, newSyncMarker, writeBlock } from '../container-format.js';
import { type CompiledWrite, plansOf, type SchemaPlans, writeValue } from '../schema-plans.js';
import { AvroWriter } from './writer.js';

/** Values per block are cut once the block's uncompressed bytes pass this (Java's default is 64000). */
const defaultBlockSize = 64 * 1024;

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
