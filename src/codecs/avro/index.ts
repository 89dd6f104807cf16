/**
 * Avro: a value is one binary datum laid out exactly as `toAvro(schema)` describes
 * (docs/mapping/avro.md); a sequence is an Object Container File (encodeStream/decodeStream, and
 * encodeSequence/decodeSequence for one held whole, which reads any container codec). wirekit's own schema-driven
 * reader and writer sit beneath (not avsc): avsc's value model differs (longs as numbers, unions
 * wrapped, no Map for integer keys, opt-in logical types) so a wrapper would convert every value,
 * and it has no decode limits. avsc stays as an interop check and a benchmark peer.
 *
 * Data written with another (older or newer) Avro schema reads through schema resolution: pass that
 * schema as `writerSchema`. Containers carry their writer schema and always resolve.
 *
 * Datums of the codec's own schema (encode, decode, and container blocks written with it) run code
 * generated from the schema (src/codecs/avro/compiled.ts) unless `compile: false`; the bytes,
 * values and errors are the interpreter's. Resolution always runs the interpreter.
 *
 * `encode` returns a view into a slab shared by successive outputs (see Codec.encode).
 */

import { WirekitError } from '../../errors/index.js';
import type { AvroSchemaJson } from '../../schema/export/avro.js';
import { resolveRatio } from '../../util/decompression-ratio.js';
import { type Codec, type CodecOptions, rejectsUnknownKeys } from '../core/codec.js';
import { trailing } from '../core/errors.js';
import type { FormatEntry } from '../core/format-entry.js';
import { checkInputSize, resolveLimits } from '../core/limits.js';
import { avroMediaTypes } from '../core/media-types.js';
import { listHintOf, withListHint } from '../core/sequence.js';
import { type AvroNamedTypes, type AvroType, parseAvroSchema } from './avro-schema.js';
import { compileAvro } from './compiled.js';
import { containerReadPlan, containerValuesOf, readContainerValues } from './decode/container.js';
import { readRoot } from './decode/datum.js';
import { AvroReader } from './decode/reader.js';
import { type RootReadPlan, readPlanOf } from './decode/resolve.js';
import { containerBytes, containerStream } from './encode/container.js';
import { AvroWriter } from './encode/writer.js';
import { plansOf, writeValue } from './schema-plans.js';

export type { AvroSchemaJson } from '../../schema/export/avro.js';
export type { Codec, CodecOptions } from '../core/codec.js';
export type { FormatEntry } from '../core/format-entry.js';
export type { DecodeLimits } from '../core/limits.js';
export { type ContainerCodec, containerCodecs } from './compress.js';
export { type AvroContainer, type ReadContainerOptions, readContainer } from './decode/container.js';
export { type WriteContainerOptions, writeContainer } from './encode/container.js';
// A wirekit schema from an Avro schema someone else wrote (an .avsc file, a registry's writer schema),
// beside the codec that reads data described by it.
export { schemaFromAvro } from './schema-from-avro.js';
export { type ContainerSchemaOptions, schemaFromAvroContainer } from './schema-from-container.js';
export { avroMediaTypes };

export interface AvroCodecOptions extends CodecOptions {
  /**
   * The Avro schema (JSON text or value) that single datums were written with, when it is not this
   * codec's own: `decode` then resolves it into `schema`'s shape (Avro schema resolution). `encode`
   * always writes `schema`'s own layout.
   */
  readonly writerSchema?: AvroSchemaJson | string;
  /**
   * Schemas that define named types `writerSchema` names without defining them (a registry's
   * schema references), read first, in order, so that the writer schema may use their types.
   */
  readonly writerReferences?: readonly (AvroSchemaJson | string)[];
  /**
   * How many times its compressed size a block of a container (decodeStream, decodeSequence) may
   * inflate to (default 1,000; never less than 1 MiB; Infinity for no ratio cap), besides
   * maxInputBytes. WK_LIMIT_DECOMPRESSED past it.
   */
  readonly maxDecompressionRatio?: number;
}

export function createAvroCodec<T = unknown>(options: AvroCodecOptions = {}): Codec<T> {
  const { schema } = options;
  if (schema === undefined) {
    throw new WirekitError('WK_SCHEMA_REQUIRED', 'Avro needs a schema: createAvroCodec({ schema }).');
  }
  const limits = resolveLimits(options.limits);
  const validate = options.validate === true;
  const rejectUnknown = rejectsUnknownKeys(options);
  const plans = plansOf(schema);
  // Generated code for the schema's own datum (src/codecs/avro/compiled.ts), where allowed; data
  // of another writer schema still reads through the interpreter's resolution.
  const generated = options.compile !== false ? compileAvro(plans) : undefined;
  const read: RootReadPlan =
    options.writerSchema === undefined
      ? plans.read
      : readPlanOf(writerTypeOf(options.writerSchema, options.writerReferences), schema, rejectUnknown);
  const compiledRead = read === plans.read ? generated?.decode : undefined;
  const compiledFor = (plan: RootReadPlan) => (plan === plans.read ? generated?.decode : undefined);
  const valuesOptions = { compiledFor, maxDecompressionRatio: resolveRatio(options.maxDecompressionRatio) };
  // Outputs are views into this writer's slab; a re-entrant encode (a getter that encodes) takes
  // a fresh writer so it cannot write inside the outer value.
  const shared = new AvroWriter();
  let busy = false;
  const listHint = listHintOf(schema, 'avro', 'application/avro');
  const streamOptions = { maxDepth: limits.maxDepth, validate, compiled: generated?.encode };

  return {
    format: 'avro',
    mediaType: avroMediaTypes[0] as string,
    // Object Container Files are what file-type detectors label application/avro too; the
    // 'Obj\x01' magic tells them apart from a datum.
    streamMediaType: 'application/avro',
    schema,
    compiled: generated !== undefined,
    encode(value: T): Uint8Array {
      const w = busy ? new AvroWriter() : shared;
      const owner = !busy;
      busy = true;
      try {
        w.beginOutput();
        try {
          writeValue(plans, w, value, limits.maxDepth, validate, generated?.encode);
        } catch (error) {
          w.reset();
          throw error;
        }
        return w.finish();
      } finally {
        if (owner) busy = false;
      }
    },
    decode(bytes: Uint8Array): T {
      checkInputSize(bytes, limits);
      try {
        const r = new AvroReader(bytes, limits);
        const value = readRoot(r, read, compiledRead);
        if (r.pos !== bytes.length) throw trailing(r.pos, bytes.length);
        return value as T;
      } catch (error) {
        throw withListHint(error, listHint);
      }
    },
    encodeStream(values) {
      return containerStream(plans, values, streamOptions);
    },
    decodeStream(chunks) {
      return readContainerValues(
        chunks,
        (header) => containerReadPlan(plans, header, rejectUnknown),
        limits,
        valuesOptions,
      ) as AsyncIterable<T>;
    },
    encodeSequence(values) {
      return containerBytes(plans, values, streamOptions);
    },
    decodeSequence(bytes) {
      const values = containerValuesOf(
        bytes,
        (header) => containerReadPlan(plans, header, rejectUnknown),
        limits,
        valuesOptions,
      );
      return Array.from(values) as T[];
    },
  };
}

/** Avro as a value, for what is handed its formats (the HTTP client, the registry). */
export const avroFormat: FormatEntry<'avro'> = { name: 'avro', create: createAvroCodec };

/** The writer schema, parsed after the schemas its references name, whose named types it may use. */
function writerTypeOf(
  writer: AvroSchemaJson | string,
  references: readonly (AvroSchemaJson | string)[] = [],
): AvroType {
  const named: AvroNamedTypes = new Map();
  for (const reference of references) parseAvroSchema(reference as AvroSchemaJson, named);
  return parseAvroSchema(writer as AvroSchemaJson, named);
}
