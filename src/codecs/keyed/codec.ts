/**
 * The Codec shared by MessagePack and CBOR, which differ only in the pieces a `FormatKit` supplies.
 *
 * With a schema, values go through the schema interpreters (encode/schema-writer.ts,
 * decode/schema-reader.ts), which write and read the schema's types directly. Without one, values
 * are written by the schemaless walk (encode/any-value.ts) and read by the library beneath
 * (msgpackr, cbor-x), but only after the format's scanner has walked the bytes once and refused
 * everything the library would get wrong (depth, declared lengths, bad UTF-8, unsafe keys, unknown
 * extensions). The few inputs the library cannot map itself (maps with non-string keys; CBOR's
 * chunked strings) go to wirekit's own reader of the same mapping. Values of a stream are back to
 * back; the scanner measures each.
 */

import { isWirekitError, WirekitError } from '../../errors/index.js';
import { assert, type Schema } from '../../schema/index.js';
import { type AllocationBudget, budgetOf } from '../core/budget.js';
import { type Codec, type CodecOptions, type FormatName, rejectsUnknownKeys } from '../core/codec.js';
import { tooDeep, trailing, truncated } from '../core/errors.js';
import { checkInputSize, type DecodeLimits } from '../core/limits.js';
import { decodeFramesOf, encodeSequenceOf } from '../core/sequence.js';
import { decodeFrames, encodeValues, type FrameMeasure } from '../core/stream.js';
import { type CompiledFormat, type CompiledPlan, compilePlan, type InputSource } from './compiled.js';
import { SchemaReader } from './decode/schema-reader.js';
import { writeAny } from './encode/any-value.js';
import { SchemaWriter } from './encode/schema-writer.js';
import { unsupported } from './failures.js';
import { type Plan, planOf } from './plan.js';
import type { WireEmitter, WireSource } from './wire.js';

export interface KitEmitter extends WireEmitter {
  busy: boolean;
  /** Copies bytes already in the format (see ByteWriter.raw). */
  raw(bytes: Uint8Array): void;
  /** ByteWriter's buffer, position and growth, which compiled encoders write constants into. */
  buf: Uint8Array;
  pos: number;
  ensure(extra: number): void;
  begin(): void;
  finish(): Uint8Array;
  release(): void;
}

export interface KitSource extends WireSource {
  /** Reads `bytes` from now on, charging what it reads to `budget`. */
  reset(bytes: Uint8Array, budget: AllocationBudget): void;
}

export interface Scanner {
  elements: number;
  /** What the scanned value will cost the library to build (core/budget.ts), carried like `elements`. */
  allocated: number;
  endedAt: number;
  /** Whether the last scan met something the library cannot map (see the module comment). */
  readonly needsOwnReader: boolean;
  reset(): void;
  scan(bytes: Uint8Array, start: number, end: number, depth: number): number;
  /** Continues a value that the last scan found cut, in the same bytes with more appended. */
  resume(bytes: Uint8Array): number;
}

export interface FormatKit {
  readonly format: FormatName;
  readonly mediaType: string;
  readonly streamMediaType: string;
  readonly emitter: () => KitEmitter;
  readonly source: (limits: DecodeLimits) => KitSource;
  /** A scanner with every check on (schemaless decoding). */
  readonly checker: (limits: DecodeLimits) => Scanner;
  /** A scanner that only measures values and enforces the limits (stream framing). */
  readonly measurer: (limits: DecodeLimits) => Scanner;
  /** The library's decode, for scanned input. */
  readonly libraryDecode: (bytes: Uint8Array) => unknown;
  /** wirekit's own reader of the same mapping, for scanned input. */
  readonly ownDecode: (bytes: Uint8Array) => unknown;
  /** Replaces the schemaless walk (msgpackr's records mode). */
  readonly schemalessEncode?: (value: unknown) => Uint8Array;
  /** The format as the code generator takes it, where schema-compiled codecs exist for it. */
  readonly compiled?: CompiledFormat;
  /**
   * Objects are records (MessagePack's `msgpackRecords` with a schema): the emitter writes their
   * heads (its `records`) and the source reads them (WireSource.recordAhead).
   */
  readonly objectRecords?: boolean;
  /** A last pass over each value's finished bytes, whichever path wrote them (CBOR's deterministic order). */
  readonly finishEncoded?: (bytes: Uint8Array) => Uint8Array;
}

/** The codec of a format's kit under a caller's options (limits resolved by the caller, first). */
export function keyedCodec<T>(kit: FormatKit, options: CodecOptions, limits: DecodeLimits): Codec<T> {
  return new SelfDescribingCodec<T>(
    kit,
    options.schema,
    limits,
    options.validate === true,
    options.compile !== false,
    rejectsUnknownKeys(options),
  );
}

class SelfDescribingCodec<T> implements Codec<T> {
  readonly format: FormatName;
  readonly mediaType: string;
  readonly streamMediaType: string;
  private readonly plan: Plan | undefined;
  private readonly emitter: KitEmitter;
  private readonly writer: SchemaWriter;
  private readonly source: KitSource;
  private readonly reader: SchemaReader;
  private readonly checker: Scanner;
  /** The generated encoder and decoder of the schema, where code generation is on. */
  private readonly generated: CompiledPlan | undefined;
  readonly compiled: boolean;

  constructor(
    private readonly kit: FormatKit,
    readonly schema: Schema | undefined,
    private readonly limits: DecodeLimits,
    private readonly validate: boolean,
    compile = true,
    rejectUnknown = false,
  ) {
    this.format = kit.format;
    this.mediaType = kit.mediaType;
    this.streamMediaType = kit.streamMediaType;
    this.plan = schema === undefined ? undefined : planOf(schema);
    this.emitter = kit.emitter();
    this.writer = new SchemaWriter(this.emitter, limits.maxDepth);
    this.source = kit.source(limits);
    this.reader = new SchemaReader(this.source, rejectUnknown, kit.objectRecords === true);
    this.checker = kit.checker(limits);
    this.generated =
      compile && this.plan !== undefined && kit.compiled !== undefined
        ? compilePlan(this.plan, kit.compiled)
        : undefined;
    this.compiled = this.generated !== undefined;
  }

  encode(value: T): Uint8Array {
    if (this.validate && this.schema !== undefined) assert(this.schema, value);
    if (this.plan === undefined && this.kit.schemalessEncode !== undefined)
      return this.kit.schemalessEncode(value);
    // A getter that encodes with this same codec must not write into the buffer in use.
    const reentrant = this.emitter.busy;
    const emitter = reentrant ? this.kit.emitter() : this.emitter;
    const writer = reentrant ? new SchemaWriter(emitter, this.limits.maxDepth) : this.writer;
    emitter.begin();
    try {
      if (this.generated !== undefined) this.generated.encode(writer, emitter, value);
      else if (this.plan !== undefined) writer.write(this.plan, value, 0);
      else writeAny(emitter, value, 0, this.limits.maxDepth, false);
    } catch (error) {
      emitter.release();
      if (isStackOverflow(error))
        throw unsupported('the value nests too deep for the stack; is it cyclic?', error);
      throw error;
    }
    const bytes = emitter.finish();
    return this.kit.finishEncoded === undefined ? bytes : this.kit.finishEncoded(bytes);
  }

  decode(bytes: Uint8Array): T {
    return this.decodeWithin(bytes, budgetOf(this.limits));
  }

  /** `decode`, charging the value to `budget` (a sequence held whole charges all its values to one). */
  private decodeWithin(bytes: Uint8Array, budget: AllocationBudget): T {
    checkInputSize(bytes, this.limits);
    if (this.plan !== undefined) {
      const source = this.source;
      source.reset(bytes, budget);
      let value: unknown;
      try {
        value =
          this.generated !== undefined
            ? this.generated.decode(this.reader, source as unknown as InputSource)
            : this.reader.read(this.plan, 0);
      } catch (error) {
        // Only a maxDepth set far above the default lets a nest reach the stack's end.
        throw isStackOverflow(error) ? tooDeep(source.pos, this.limits) : error;
      }
      if (source.pos !== bytes.length) throw trailing(source.pos, bytes.length);
      return value as T;
    }
    const checker = this.checker;
    checker.reset();
    checker.allocated = budget.used;
    const end = checker.scan(bytes, 0, bytes.length, 0);
    if (end < 0) throw truncated(checker.endedAt);
    if (end !== bytes.length) throw trailing(end, bytes.length);
    budget.used = checker.allocated;
    // The libraries keep Node's Buffer type for byte strings when given a Buffer; a plain view
    // of the same memory makes them return plain Uint8Arrays.
    const input =
      bytes.constructor === Uint8Array ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
    try {
      return (checker.needsOwnReader ? this.kit.ownDecode(input) : this.kit.libraryDecode(input)) as T;
    } catch (error) {
      throw libraryFailure(error, this.limits);
    }
  }

  encodeStream(values: Iterable<T> | AsyncIterable<T>): ReadableStream<Uint8Array> {
    return encodeValues(values, (value) => this.encode(value));
  }

  decodeStream(chunks: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>): AsyncIterable<T> {
    return decodeFrames(chunks, this.measurer(), (frame) => this.decode(frame), this.limits);
  }

  encodeSequence(values: Iterable<T>): Uint8Array {
    return encodeSequenceOf(values, (value) => this.encode(value));
  }

  decodeSequence(bytes: Uint8Array): T[] {
    return decodeFramesOf(
      bytes,
      this.measurer(),
      (frame, budget) => this.decodeWithin(frame, budget),
      this.limits,
    );
  }

  /**
   * A frame measure for one stream. When a value is cut, decodeFrames calls again with the same
   * pending bytes and the next chunk appended, so the scan resumes where it stopped instead of
   * starting over: a large value arriving in many chunks is scanned once, not once per chunk.
   */
  private measurer(): FrameMeasure {
    const scanner = this.kit.measurer(this.limits);
    let cut = false;
    return (buffer) => {
      let end: number;
      if (cut) end = scanner.resume(buffer);
      else {
        scanner.reset();
        end = scanner.scan(buffer, 0, buffer.length, 0);
      }
      cut = end < 0;
      return cut ? undefined : end;
    };
  }
}

/**
 * The scanner should leave the library nothing to fail on; should it fail anyway, the caller still
 * gets a WirekitError (a deep nest within a very high maxDepth can still exhaust the stack).
 */
function libraryFailure(error: unknown, limits: DecodeLimits): unknown {
  if (isWirekitError(error)) return error;
  if (isStackOverflow(error)) return tooDeep(0, limits);
  const reason = error instanceof Error ? error.message : String(error);
  return new WirekitError('WK_DECODE_MALFORMED', `the input could not be decoded: ${reason}.`, {
    offset: 0,
    cause: error,
  });
}

function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}
