/**
 * Protocol Buffers bytes to canonical ProtoJSON bytes without the value in between, for a gateway
 * that answers JSON clients from a gRPC backend: decoding the reply to a value and writing that
 * value as ProtoJSON (which first re-encodes it as protobuf, to hold it to the schema) costs about
 * twice what JSON.parse and JSON.stringify cost on the same data.
 *
 * The contract is exact: `transcode(bytes)` returns the bytes of, or throws what is thrown by,
 * `protojson.encode(protobuf.decode(bytes))` with the same options. A fast path (transcode/body.ts)
 * reads the wire and writes the text in one pass, for the schemas whose every part it writes
 * itself (transcode/plan.ts) and for the canonical encoding of a value: the bytes wirekit's and
 * protoc's encoders write. On anything else (another field order, a repeated key, an unknown
 * field, a value the decoder refuses, a limit reached) it bails, and the two codecs run: so every
 * error is theirs, and the fast path never has to reproduce one.
 */
import { WirekitError } from '../../errors/index.js';
import type { Codec } from '../core/codec.js';
import { resolveLimits } from '../core/limits.js';
import { createProtobufCodec } from './index.js';
import { rootSlot } from './plan.js';
import { createProtoJsonCodec, type ProtoJsonCodecOptions } from './protojson.js';
import { BodyTranscoder } from './transcode/body.js';
import { type MessageStep, transcodePlan } from './transcode/plan.js';

export interface ProtoJsonTranscoder {
  /** The ProtoJSON of the message `bytes` holds: `protojson.encode(protobuf.decode(bytes))`. */
  transcode(bytes: Uint8Array): Uint8Array;
}

export function createProtoJsonTranscoder(options: ProtoJsonCodecOptions): ProtoJsonTranscoder {
  return new Transcoder(options);
}

class Transcoder implements ProtoJsonTranscoder {
  private readonly protobuf: Codec<unknown>;
  private readonly protojson: Codec<unknown>;
  /** The root message's plan, or undefined where the schema takes the slow path only. */
  private readonly plan: MessageStep | undefined;
  private readonly levels: number;
  private readonly need: number;
  private readonly fast: BodyTranscoder;

  constructor(options: ProtoJsonCodecOptions) {
    if (options.schema === undefined) {
      throw new WirekitError('WK_SCHEMA_REQUIRED', 'ProtoJSON needs a schema: pass { schema }.');
    }
    const { schema, limits, validate, emitDefaults } = options;
    this.protobuf = createProtobufCodec({
      schema,
      ...(limits === undefined ? {} : { limits }),
      ...(validate === undefined ? {} : { validate }),
    });
    this.protojson = createProtoJsonCodec({
      schema,
      ...(limits === undefined ? {} : { limits }),
      ...(validate === undefined ? {} : { validate }),
      ...(emitDefaults === undefined ? {} : { emitDefaults }),
    });
    const root = rootSlot(schema);
    // `validate` holds the decoded value to the whole schema again (assert), which the fast path
    // does not repeat: such a transcoder always takes the codecs.
    this.plan = validate === true ? undefined : transcodePlan(root);
    this.levels = root.levels;
    this.need = root.need;
    this.fast = new BodyTranscoder(resolveLimits(limits), emitDefaults === true);
  }

  transcode(bytes: Uint8Array): Uint8Array {
    if (this.plan !== undefined && bytes instanceof Uint8Array) {
      try {
        return this.fast.transcode(this.plan, this.levels, this.need, bytes);
      } catch {
        // A bail, or an error of a helper the fast path shares with the decoder (invalid UTF-8), or
        // the stack running out: whatever it was, the codecs decide what this input gives.
      }
    }
    return this.slow(bytes);
  }

  /** What the contract says, run as it says it. */
  private slow(bytes: Uint8Array): Uint8Array {
    return this.protojson.encode(this.protobuf.decode(bytes));
  }
}
