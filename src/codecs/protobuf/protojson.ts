/**
 * Canonical ProtoJSON (https://protobuf.dev/programming-guides/json/) for any schema the Protocol
 * Buffers codec takes: the JSON that protoc's runtimes, grpcurl, buf curl and Connect clients send
 * as `application/json` for the message `toProto(schema)` declares. It is a JSON codec (`format:
 * 'json'`) whose field names, enums, integers and well-known types are protobuf's, not wirekit's
 * JSON mapping's (docs/mapping/protobuf.md, *ProtoJSON*).
 *
 * Encoding first holds the value to the schema exactly as the Protocol Buffers encoder does (it
 * encodes it, and the bytes are dropped), so both refuse the same values with the same errors;
 * the JSON is then written from the plan. Decoding parses the text, then reads it by the plan.
 * Interpreted, with what each plan needs looked up once per plan; the binary check is about a
 * sixth of an encode (docs/benchmarks.md, *ProtoJSON against native JSON*).
 */
import { WirekitError } from '../../errors/index.js';
import type { Schema } from '../../schema/index.js';
import type { Codec, CodecOptions } from '../core/codec.js';
import { malformed, tooDeep } from '../core/errors.js';
import { checkInputSize, type DecodeLimits, resolveLimits } from '../core/limits.js';
import { encodeSequenceOf } from '../core/sequence.js';
import { encodeValues } from '../core/stream.js';
import { type ReadContext, readRoot } from './decode/protojson.js';
import { writeRoot } from './encode/protojson.js';
import { createProtobufCodec } from './index.js';
import type { Slot } from './layout.js';
import { rootSlot } from './plan.js';
import { decodeLineSequence, decodeLineStream } from './protojson-lines.js';

export interface ProtoJsonCodecOptions extends Omit<CodecOptions, 'unknownKeys' | 'compile'> {
  /**
   * Write fields without presence at their default too (0, '', false, empty lists and maps), as
   * protobuf's `always_print_fields_with_no_presence` does; by default they are left out.
   */
  readonly emitDefaults?: boolean;
  /**
   * Skip keys no field has and enum names no value has, as protobuf's `ignore_unknown_fields`;
   * by default they are refused (WK_DECODE_SCHEMA_MISMATCH), as the specification's parsers do.
   */
  readonly ignoreUnknownFields?: boolean;
}

export function createProtoJsonCodec<T = unknown>(options: ProtoJsonCodecOptions = {}): Codec<T> {
  return new ProtoJsonCodec<T>(options);
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

class ProtoJsonCodec<T> implements Codec<T> {
  readonly format = 'json' as const;
  readonly mediaType = 'application/json';
  readonly streamMediaType = 'application/x-ndjson';
  readonly schema: Schema;
  readonly compiled = false;
  private readonly root: Slot;
  private readonly limits: DecodeLimits;
  private readonly emitDefaults: boolean;
  private readonly ignoreUnknown: boolean;
  /** Holds values to the schema as the binary encoder does (its bytes are dropped). */
  private readonly check: Codec<T>;

  constructor(options: ProtoJsonCodecOptions) {
    if (options.schema === undefined) {
      throw new WirekitError('WK_SCHEMA_REQUIRED', 'ProtoJSON needs a schema: pass { schema }.');
    }
    this.schema = options.schema;
    this.root = rootSlot(options.schema);
    this.limits = resolveLimits(options.limits);
    this.emitDefaults = options.emitDefaults === true;
    this.ignoreUnknown = options.ignoreUnknownFields === true;
    this.check = createProtobufCodec<T>({
      schema: options.schema,
      ...(options.limits === undefined ? {} : { limits: options.limits }),
      ...(options.validate === undefined ? {} : { validate: options.validate }),
    });
  }

  encode(value: T): Uint8Array {
    return encoder.encode(this.text(value));
  }

  /** The ProtoJSON text of a value. */
  private text(value: T): string {
    this.check.encode(value);
    try {
      return writeRoot(this.root, value, { emitDefaults: this.emitDefaults });
    } catch (error) {
      if (error instanceof RangeError) {
        throw new WirekitError('WK_ENCODE_UNSUPPORTED', 'the value nests too deeply to encode.', {
          cause: error,
        });
      }
      throw error;
    }
  }

  decode(bytes: Uint8Array): T {
    if (!(bytes instanceof Uint8Array)) {
      throw new WirekitError('WK_DECODE_MALFORMED', 'decode expects a Uint8Array.', {
        offset: 0,
        format: 'json',
      });
    }
    checkInputSize(bytes, this.limits);
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      throw malformed(0, 'the input is not valid UTF-8', 'json');
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      if (error instanceof RangeError) throw tooDeep(0, this.limits);
      throw malformed(0, `the input is not JSON text (${(error as Error).message})`, 'json');
    }
    const ctx: ReadContext = {
      limits: this.limits,
      ignoreUnknown: this.ignoreUnknown,
      depth: 0,
      elements: 0,
    };
    try {
      return readRoot(this.root, json, ctx) as T;
    } catch (error) {
      if (error instanceof RangeError) throw tooDeep(0, this.limits);
      throw error;
    }
  }

  encodeStream(values: Iterable<T> | AsyncIterable<T>): ReadableStream<Uint8Array> {
    return encodeValues(values, (value) => encoder.encode(`${this.text(value)}\n`));
  }

  decodeStream(chunks: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>): AsyncIterable<T> {
    return decodeLineStream(chunks, (line) => this.decode(line), this.limits);
  }

  encodeSequence(values: Iterable<T>): Uint8Array {
    return encodeSequenceOf(values, (value) => encoder.encode(`${this.text(value)}\n`));
  }

  decodeSequence(bytes: Uint8Array): T[] {
    return decodeLineSequence(bytes, (line) => this.decode(line), this.limits);
  }
}
