/**
 * The FlatBuffers codec. The schema's plan (plan.ts, built from the layout that `toFlatBuffers`
 * prints) drives the official runtime's Builder to write buffers that flatc and every generated
 * reader of the exported `.fbs` read. Reading is wirekit's own: the runtime reads without any
 * bounds check, so `decode` uses a checked reader that builds plain values in one pass, and `view`
 * verifies once and then reads lazily through the runtime's ByteBuffer. Unless `compile: false`,
 * encode and decode run code generated from the schema (src/codecs/flatbuffers/compiled.ts): the
 * same bytes, values and errors, without dispatching on the plan per field. Views stay as they are.
 *
 * A sequence is a run of size-prefixed buffers (FlatBuffers' finishSizePrefixed: a 4-byte
 * little-endian length, then the buffer, aligned as the runtime aligns it).
 */

import { WirekitError } from '../../errors/index.js';
import { assert, type Schema } from '../../schema/index.js';
import type { AllocationBudget } from '../core/budget.js';
import { type Codec, type CodecOptions, rejectsUnknownKeys } from '../core/codec.js';
import type { FormatEntry } from '../core/format-entry.js';
import { uint32Frame } from '../core/framing.js';
import { checkInputSize, type DecodeLimits, resolveLimits } from '../core/limits.js';
import { flatBuffersMediaTypes, flatBuffersSequenceMediaType } from '../core/media-types.js';
import { decodeFramesOf, encodeSequenceOf, listHintOf, withListHint } from '../core/sequence.js';
import { decodeFrames, encodeValues } from '../core/stream.js';
import { compileFlatBuffers } from './compiled.js';
import { Reader } from './decode/reader.js';
import { viewOf } from './decode/view.js';
import { Encoder } from './encode/encoder.js';
import { planOf } from './planner.js';

export type { Codec, CodecOptions } from '../core/codec.js';
export type { FormatEntry } from '../core/format-entry.js';
export type { DecodeLimits } from '../core/limits.js';
export { flatBuffersMediaTypes, flatBuffersSequenceMediaType };

export interface FlatBuffersCodec<T = unknown> extends Codec<T> {
  /**
   * A zero-copy view of a buffer: checked once (offsets, lengths, union types, limits), then each
   * field is read from `bytes` when accessed. Objects in it are views, arrays and maps are built on
   * access, byte strings are subarrays of `bytes` (so `bytes` must not change while the view is used).
   * Fields are getters on the prototype: `Object.keys` and spreading see none; use `decode` for
   * plain values. What view() accepts, decode accepts, except for checks left to access time: a
   * getter can throw WK_DECODE_MALFORMED (a string that is not UTF-8, a json field that is not
   * JSON), WK_DECODE_SCHEMA_MISMATCH (a decimal field that is no decimal), and for a json field the
   * limit and unsafe-key codes of its parsed value.
   */
  view(bytes: Uint8Array): T;
}

export function createFlatBuffersCodec<T = unknown>(options: CodecOptions = {}): FlatBuffersCodec<T> {
  const { schema } = options;
  if (schema === undefined) {
    throw new WirekitError(
      'WK_SCHEMA_REQUIRED',
      'FlatBuffers carries no field names or types on the wire, so its codec needs a schema.',
    );
  }
  const plan = planOf(schema);
  const limits = resolveLimits(options.limits);
  const rejectUnknown = rejectsUnknownKeys(options);
  const generated = options.compile !== false ? compileFlatBuffers(plan) : undefined;
  const encoder = new Encoder(plan, limits.maxDepth, generated?.encode);
  const check = options.validate === true ? (value: unknown) => assert(schema, value) : undefined;
  const read = (bytes: Uint8Array, start: number, budget?: AllocationBudget): unknown => {
    const reader = new Reader(bytes, limits, true, budget);
    reader.rejectUnknown = rejectUnknown;
    return generated !== undefined ? generated.decode(reader, start) : reader.root(plan, start);
  };
  const listHint = listHintOf(schema, 'flatbuffers', flatBuffersMediaTypes[0] as string);
  const decode = (bytes: Uint8Array): T => {
    checkInputSize(bytes, limits);
    try {
      return read(bytes, 0) as T;
    } catch (error) {
      throw withListHint(error, listHint);
    }
  };
  // The frame keeps its prefix, so error offsets count from the frame's first byte. A stream's
  // frames are charged one at a time; a sequence's all to the budget of the whole.
  const decodeFrame = (frame: Uint8Array, budget?: AllocationBudget): T => read(frame, 4, budget) as T;
  // A stream's and a sequence's values alike: each written with its size prefix.
  const encodeFrame = (value: T): Uint8Array => {
    check?.(value);
    return encoder.encode(value, true);
  };
  return {
    format: 'flatbuffers',
    mediaType: flatBuffersMediaTypes[0] as string,
    streamMediaType: flatBuffersSequenceMediaType,
    schema,
    compiled: generated !== undefined,
    encode(value: T): Uint8Array {
      check?.(value);
      return encoder.encode(value, false);
    },
    decode,
    view(bytes: Uint8Array): T {
      checkInputSize(bytes, limits);
      return viewOf(plan, bytes, limits, rejectUnknown) as T;
    },
    encodeStream(values) {
      return encodeValues(values, encodeFrame);
    },
    decodeStream(chunks) {
      return decodeFrames(chunks, uint32Frame, decodeFrame, limits);
    },
    encodeSequence(values) {
      return encodeSequenceOf(values, encodeFrame);
    },
    decodeSequence(bytes) {
      return decodeFramesOf(bytes, uint32Frame, decodeFrame, limits);
    },
  };
}

/** A view of one buffer without keeping a codec: see `FlatBuffersCodec.view`. */
export function viewFlatBuffers<T = unknown>(
  schema: Schema,
  bytes: Uint8Array,
  limits?: Partial<DecodeLimits>,
): T {
  const resolved = resolveLimits(limits);
  checkInputSize(bytes, resolved);
  return viewOf(planOf(schema), bytes, resolved) as T;
}

/** FlatBuffers as a value, for what is handed its formats (the HTTP client, the registry). */
export const flatBuffersFormat: FormatEntry<'flatbuffers'> = {
  name: 'flatbuffers',
  create: createFlatBuffersCodec,
};
