/**
 * Protocol Buffers (proto3), read and written by wirekit's own schema-driven interpreter: the bytes
 * are those of the message that `toProto(schema)` declares (docs/mapping/protobuf.md), as
 * protoc-generated code writes them with deterministic serialization. No library sits beneath:
 * protobufjs's value model (Long objects, Timestamp and wrapper messages, oneof fields) would need a
 * conversion pass over every value, and it has no depth limit for untrusted input.
 */

import { WirekitError } from '../../errors/index.js';
import { assert, type Schema } from '../../schema/index.js';
import { type AllocationBudget, budgetOf } from '../core/budget.js';
import { type Codec, type CodecOptions, rejectsUnknownKeys } from '../core/codec.js';
import { tooDeep } from '../core/errors.js';
import type { FormatEntry } from '../core/format-entry.js';
import { varintFrame, varintFramePayload } from '../core/framing.js';
import { checkInputSize, type DecodeLimits, resolveLimits } from '../core/limits.js';
import { protobufMediaTypes, protobufStreamMediaType } from '../core/media-types.js';
import { decodeFramesOf, encodeSequenceOf, listHintOf, withListHint } from '../core/sequence.js';
import { decodeFrames, encodeValues } from '../core/stream.js';
import { type CompiledMessage, compileMessage } from './compiled.js';
import { decodeRoot } from './decode/message.js';
import { ProtobufReader } from './decode/reader.js';
import { encodeBody } from './encode/message.js';
import { encodeFailure, enter } from './encode/problem.js';
import { ProtobufWriter } from './encode/writer.js';
import type { Slot } from './layout.js';
import { MESSAGE } from './layout.js';
import { rootSlot } from './plan.js';

export type { Codec, CodecOptions } from '../core/codec.js';
export type { FormatEntry } from '../core/format-entry.js';
export type { DecodeLimits } from '../core/limits.js';
export { type DescriptorFileSource, type DescriptorFiles, descriptorFiles } from './descriptor-files.js';
export { type FileDescriptorOfProtoOptions, fileDescriptorOfProto } from './descriptor-of-proto.js';
export {
  protoOfFileDescriptor,
  type SchemaFromDescriptorSetOptions,
  schemaFromDescriptorSet,
} from './from-descriptor-set.js';
export { type ImportedProto, type SchemaFromProtoOptions, schemaFromProto } from './from-proto.js';
export type {
  ImportedProtoMessageRef,
  ImportedProtoMethod,
  ImportedProtoService,
  ProtoIdempotencyLevel,
} from './proto-services.js';
export { protobufMediaTypes, protobufStreamMediaType };

export function createProtobufCodec<T = unknown>(options: CodecOptions = {}): Codec<T> {
  return new ProtobufCodec<T>(options);
}

class ProtobufCodec<T> implements Codec<T> {
  readonly format = 'protobuf' as const;
  readonly mediaType = protobufMediaTypes[0] as string;
  readonly streamMediaType = protobufStreamMediaType;
  readonly schema: Schema;
  private readonly root: Slot;
  /** The generated encoder and decoder of the root message, where code generation is on. */
  private readonly generated: CompiledMessage | undefined;
  readonly compiled: boolean;
  private readonly limits: DecodeLimits;
  private readonly validate: boolean;
  private readonly rejectUnknown: boolean;
  /** What a failed decode adds when the root is a list of records (see listHintOf). */
  private readonly listHint: string | undefined;
  /** Reused between encodes; a re-entrant encode (from a getter) takes a fresh one instead. */
  private writer: ProtobufWriter | undefined;

  constructor(options: CodecOptions) {
    if (options.schema === undefined) {
      throw new WirekitError('WK_SCHEMA_REQUIRED', 'Protocol Buffers needs a schema: pass { schema }.');
    }
    this.schema = options.schema;
    this.root = rootSlot(options.schema);
    const message = this.root.type === MESSAGE ? this.root.message : undefined;
    this.generated = options.compile !== false && message !== undefined ? compileMessage(message) : undefined;
    this.compiled = this.generated !== undefined;
    this.limits = resolveLimits(options.limits);
    this.validate = options.validate === true;
    this.rejectUnknown = rejectsUnknownKeys(options);
    this.listHint = listHintOf(options.schema, 'protobuf', protobufStreamMediaType);
    this.writer = new ProtobufWriter(this.limits.maxDepth);
  }

  encode(value: T): Uint8Array {
    return this.write(value, false);
  }

  decode(bytes: Uint8Array): T {
    return this.decodeWithin(bytes, budgetOf(this.limits));
  }

  /** `decode`, charging the value to `budget` (a sequence held whole charges all its values to one). */
  private decodeWithin(bytes: Uint8Array, budget: AllocationBudget): T {
    if (!(bytes instanceof Uint8Array)) {
      throw new WirekitError('WK_DECODE_MALFORMED', 'decode expects a Uint8Array.', {
        offset: 0,
        format: 'protobuf',
      });
    }
    checkInputSize(bytes, this.limits);
    try {
      const reader = new ProtobufReader(bytes, this.limits, budget);
      reader.rejectUnknown = this.rejectUnknown;
      if (this.generated !== undefined) {
        reader.enter(this.root.levels, this.root.need);
        return this.generated.decode(reader) as T;
      }
      return decodeRoot(reader, this.root) as T;
    } catch (error) {
      throw withListHint(decodeFailure(error, this.limits), this.listHint);
    }
  }

  encodeStream(values: Iterable<T> | AsyncIterable<T>): ReadableStream<Uint8Array> {
    return encodeValues(values, (value) => this.write(value, true));
  }

  decodeStream(chunks: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>): AsyncIterable<T> {
    return decodeFrames(chunks, varintFrame, (frame) => this.decode(varintFramePayload(frame)), this.limits);
  }

  encodeSequence(values: Iterable<T>): Uint8Array {
    return encodeSequenceOf(values, (value) => this.write(value, true));
  }

  decodeSequence(bytes: Uint8Array): T[] {
    return decodeFramesOf(
      bytes,
      varintFrame,
      (frame, budget) => this.decodeWithin(varintFramePayload(frame), budget),
      this.limits,
    );
  }

  /** One message, optionally behind its varint length (the same bytes as withVarintLength, one copy fewer). */
  private write(value: T, delimited: boolean): Uint8Array {
    if (this.validate) assert(this.schema, value);
    const writer = this.writer ?? new ProtobufWriter(this.limits.maxDepth);
    this.writer = undefined;
    try {
      writer.beginOutput();
      const start = delimited ? writer.begin() : -1;
      writer.depth = 0;
      enter(writer, this.root.levels, this.root.need);
      if (this.generated !== undefined) this.generated.encode(writer, value);
      else encodeBody(writer, this.root, value);
      if (delimited) writer.end(start);
      return writer.finish();
    } catch (error) {
      writer.reset();
      throw encodeFailure(error);
    } finally {
      this.writer = writer;
    }
  }
}

/** Whatever went wrong, decode throws a WirekitError: the last line of the "only WirekitError" promise. */
function decodeFailure(error: unknown, limits: DecodeLimits): WirekitError {
  if (error instanceof WirekitError) return error;
  // Only a stack overflow can get here (maxDepth set beyond what the stack holds).
  if (error instanceof RangeError) return tooDeep(0, limits);
  return new WirekitError('WK_DECODE_MALFORMED', `the input could not be decoded (${String(error)}).`, {
    offset: 0,
    format: 'protobuf',
    cause: error,
  });
}

/** Protocol Buffers as a value, for what is handed its formats (the HTTP client, the registry). */
export const protobufFormat: FormatEntry<'protobuf'> = { name: 'protobuf', create: createProtobufCodec };

export { createProtoJsonCodec, type ProtoJsonCodecOptions } from './protojson.js';
