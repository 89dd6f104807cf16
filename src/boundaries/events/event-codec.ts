/**
 * An event codec: the schema-driven codec of one format plus the framing that tells a consumer which
 * schema wrote each event. Producers encode with it, consumers decode with it into their own
 * (reader) schema; the Kafka and NATS bindings take one.
 *
 * - `framing: 'confluent'` (with a registry): the writer's schema is registered once under the
 *   subject (Avro as `toAvro` exports it, Protobuf as `toProto` does), and each event carries its id
 *   in Confluent's wire format, so Kafka tooling and Confluent's serializers read wirekit's events
 *   and the other way round. A consumer fetches each writer schema by id once and reads by Avro
 *   schema resolution into its own schema: schemas evolve under the registry's compatibility rules
 *   while old events stay readable. A Protobuf writer is read by field number into the reader's
 *   schema, which is how Protobuf evolves; an Avro consumer reads Protobuf events too (one wirekit
 *   schema drives both), and the other way round.
 * - `framing: 'envelope'`: wirekit's envelope (format, compression, schema fingerprint), no registry:
 *   any format, but writer and reader must hold the same schema (another one is WK_ENVELOPE_SCHEMA).
 *
 * Writer schemas are cached by id (bounded), so after the first event of each version decoding costs
 * what the codec costs. So are the ids that failed (writer-failures.ts): the events of a schema
 * that cannot be read fail at once with the first event's error, and a registry outage is asked
 * again after `registryRetryMs`, so it heals by itself.
 */
import { createAvroCodec } from '../../codecs/avro/index.js';
import type { Codec, FormatName } from '../../codecs/core/codec.js';
import type { DecodeLimits } from '../../codecs/core/limits.js';
import { createCodec } from '../../codecs/registry.js';
import type { CompressionName } from '../../compression/index.js';
import { decodeAny, encodeEnveloped } from '../../envelope/enveloped.js';
import { WirekitError } from '../../errors/index.js';
import { toAvro, toProto } from '../../schema/export/index.js';
import { deref, type Infer, type Schema } from '../../schema/index.js';
import {
  checkCompatibility,
  checkSchemaBounds,
  parseRegisteredSchema,
  protobufMessageAt,
  type ResolvedDefinition,
} from './compatibility/index.js';
import { readConfluentFrame, writeConfluentFrame } from './framing.js';
import type { SchemaDefinition } from './registry/api.js';
import { registryClient } from './registry/client.js';
import type { CompatibilityResult, RegistryClient } from './registry/client-api.js';
import { WriterFailures } from './writer-failures.js';
import { fetchReferenced } from './writer-references.js';

/** Confluent's wire format (magic byte, schema id) or wirekit's envelope (format, compression, fingerprint). */
export type Framing = 'confluent' | 'envelope';

/** What decoding an event yields: the value in the reader's schema, and the writer schema's id if framed with one. */
export interface DecodedEvent<T> {
  readonly value: T;
  readonly schemaId: number | undefined;
}

export interface EventCodec<T> {
  readonly format: string;
  readonly framing: Framing;
  /** Registers the writer schema on first use (cached), then validates and frames the value. */
  encode(value: T): Promise<Uint8Array>;
  /**
   * Reads the frame, fetches the writer's schema by its id on first sight (cached), and decodes
   * into the reader's schema by resolution. Rejects with WK_EVENT_FRAME_INVALID, WK_REGISTRY_*,
   * WK_DECODE_* or WK_LIMIT_* (WirekitErrors only).
   */
  decode(bytes: Uint8Array): Promise<DecodedEvent<T>>;
}

/** The formats a registry holds schemas of, and so the ones Confluent framing carries. */
export type RegistryFormat = 'avro' | 'protobuf';

export interface EventCodecOptions<S extends Schema> {
  /** The schema events are written with and read into. */
  readonly schema: S;
  /** Default 'avro'. Confluent framing takes 'avro' or 'protobuf'; the envelope any format. */
  readonly format?: FormatName;
  /** Default 'confluent' when a registry is given, else 'envelope'. */
  readonly framing?: Framing;
  /** A registry client, or its URL (a `registryClient({ url })` with the defaults is made for it). */
  readonly registry?: RegistryClient | string;
  /**
   * The subject the writer schema is registered under (Confluent's TopicNameStrategy names it
   * `TOPIC-value`). Needed to encode with Confluent framing; decoding finds schemas by id alone.
   */
  readonly subject?: string;
  /**
   * Register the writer schema on first encode (default true). False only looks it up, so a
   * producer cannot add versions: a schema nobody registered fails with WK_REGISTRY_NOT_FOUND.
   */
  readonly autoRegister?: boolean;
  /**
   * Read Protobuf message indexes after the schema id (default true, as Confluent's serializers
   * write them). False reads payloads of serializers that write none, such as
   * @kafkajs/confluent-schema-registry 3.x; the two cannot be told apart from the bytes.
   */
  readonly protobufMessageIndexes?: boolean;
  /** Envelope framing only: compress each event (default none: events are small). */
  readonly compression?: CompressionName;
  /** Decode limits for every codec this one builds. */
  readonly limits?: Partial<DecodeLimits>;
  /** Writer schemas kept decoded at once (default 1,000; the oldest goes first). */
  readonly maxWriterSchemas?: number;
  /**
   * Writer schema ids remembered as failed, apart from those kept decoded (default 1,000; the
   * oldest goes first). Events of such an id fail at once with the error the first one met.
   */
  readonly maxFailedWriterSchemas?: number;
  /**
   * How long an id whose schema could not be fetched because the registry was unavailable fails at
   * once before the registry is asked again (default 5 s). Other failures are kept for good: an
   * id's schema never changes.
   */
  readonly registryRetryMs?: number;
}

export function eventCodec<S extends Schema>(options: EventCodecOptions<S>): EventCodec<Infer<S>> {
  const framing = options.framing ?? (options.registry !== undefined ? 'confluent' : 'envelope');
  const format = options.format ?? 'avro';
  if (framing === 'envelope') return envelopeCodec(options, format) as EventCodec<Infer<S>>;
  if (format !== 'avro' && format !== 'protobuf') {
    throw new WirekitError(
      'WK_UNKNOWN_FORMAT',
      `Confluent framing carries Avro or Protobuf (a registry holds their schemas), not ${format}: use framing 'envelope'.`,
    );
  }
  if (options.registry === undefined) {
    throw new WirekitError(
      'WK_REGISTRY_REQUEST',
      'Confluent framing needs a registry: eventCodec({ registry: registryClient({ url }) }).',
    );
  }
  const registry =
    typeof options.registry === 'string' ? registryClient({ url: options.registry }) : options.registry;
  return confluentCodec(options, format, registry) as EventCodec<Infer<S>>;
}

function envelopeCodec(options: EventCodecOptions<Schema>, format: FormatName): EventCodec<unknown> {
  const { schema, limits } = options;
  const codec = createCodec(format, { schema, limits, validate: true });
  const envelope = { compression: options.compression ?? 'none' };
  return {
    format,
    framing: 'envelope',
    async encode(value) {
      return encodeEnveloped(codec, value, envelope);
    },
    async decode(bytes) {
      // decodeAny reads any format of the same schema (the header names it) and refuses another
      // schema's fingerprint: without a registry there is no writer schema to resolve.
      return { value: decodeAny(bytes, { schema, limits }).value, schemaId: undefined };
    },
  };
}

interface WriterDecoder {
  readonly protobuf: boolean;
  readonly codec: Codec<unknown>;
  /** Protobuf: whether the message at an index path is the reader's root message (memoised). */
  readonly readsMessage?: (indexes: readonly number[]) => boolean;
}

function confluentCodec(
  options: EventCodecOptions<Schema>,
  format: RegistryFormat,
  registry: RegistryClient,
): EventCodec<unknown> {
  const { schema, limits } = options;
  const own = createCodec(format, { schema, limits, validate: true });
  const definition: SchemaDefinition =
    format === 'avro'
      ? { schema: JSON.stringify(toAvro(schema)) }
      : { schemaType: 'PROTOBUF', schema: toProto(schema) };
  // toProto declares the root message first, so its path is Confluent's [0].
  const messageIndexes = format === 'protobuf' ? [0] : undefined;
  const maxWriterSchemas = countOption('maxWriterSchemas', options.maxWriterSchemas ?? 1000, 1);
  const failures = new WriterFailures(
    countOption('maxFailedWriterSchemas', options.maxFailedWriterSchemas ?? 1000, 0),
    countOption('registryRetryMs', options.registryRetryMs ?? 5000, 0),
  );
  const readIndexes = options.protobufMessageIndexes !== false;

  let writerId: Promise<number> | undefined;
  const idOfWriter = (): Promise<number> => {
    if (writerId === undefined) {
      const subject = options.subject;
      if (subject === undefined) {
        return Promise.reject(
          new WirekitError(
            'WK_REGISTRY_REQUEST',
            'Encoding with Confluent framing needs the subject to register under.',
          ),
        );
      }
      const pending =
        options.autoRegister === false
          ? registry.lookup(subject, definition).then((found) => found.id)
          : registry.register(subject, definition);
      writerId = pending;
      // A failure is not kept: the next encode asks the registry again.
      pending.catch(() => {
        if (writerId === pending) writerId = undefined;
      });
    }
    return writerId;
  };

  // Decoders by writer schema id; a Map keeps insertion order, so the first key is the oldest.
  const decoders = new Map<number, Promise<WriterDecoder>>();
  const decoderFor = (id: number): Promise<WriterDecoder> => {
    let decoder = decoders.get(id);
    if (decoder === undefined) {
      const failed = failures.get(id);
      if (failed !== undefined) return Promise.reject(failed);
      const pending = registry
        .schemaById(id)
        .then(async (writer) => ({
          ...writer,
          referenced: await fetchReferenced(registry, writer.references),
        }))
        .then((writer) => writerDecoder(writer, schema, definition, own, limits));
      decoder = pending;
      decoders.set(id, pending);
      if (decoders.size > maxWriterSchemas) decoders.delete(decoders.keys().next().value as number);
      pending.catch((error: unknown) => {
        if (decoders.get(id) !== pending) return;
        decoders.delete(id);
        failures.remember(id, error);
      });
    }
    return decoder;
  };

  return {
    format,
    framing: 'confluent',
    async encode(value) {
      // Encode first: a value the schema refuses fails without a registry round trip.
      const payload = own.encode(value);
      return writeConfluentFrame(await idOfWriter(), payload, messageIndexes);
    },
    async decode(bytes) {
      const { schemaId } = readConfluentFrame(bytes);
      const decoder = await decoderFor(schemaId);
      if (!decoder.protobuf) {
        return { value: decoder.codec.decode(readConfluentFrame(bytes).payload), schemaId };
      }
      const frame = readConfluentFrame(bytes, { messageIndexes: readIndexes });
      if (!decoder.readsMessage?.(frame.messageIndexes ?? [0])) {
        throw new WirekitError(
          'WK_DECODE_SCHEMA_MISMATCH',
          `The event is of message [${(frame.messageIndexes ?? [0]).join(', ')}] of schema ${schemaId}, not the message this consumer reads.`,
        );
      }
      return { value: decoder.codec.decode(frame.payload), schemaId };
    },
  };
}

/** How to read events written with one registered schema into the reader's. */
function writerDecoder(
  writer: ResolvedDefinition,
  reader: Schema,
  own: SchemaDefinition,
  ownCodec: Codec<unknown>,
  limits: Partial<DecodeLimits> | undefined,
): WriterDecoder {
  const type = writer.schemaType ?? 'AVRO';
  try {
    // A writer schema costs what the registry's bounds let it cost, whatever registry served it.
    checkSchemaBounds(writer);
    for (const referenced of writer.referenced ?? []) checkSchemaBounds(referenced);
  } catch (error) {
    if (error instanceof WirekitError)
      throw new WirekitError('WK_DECODE_SCHEMA_MISMATCH', error.message, { cause: error });
    throw error;
  }
  if (type === 'PROTOBUF') {
    // Protobuf evolves by field numbers: the reader's own message reads any writer whose fields
    // keep their numbers and wire types. Reading by the reader's message alone would misread one
    // that does not (an int32 field read as sint32 turns 3 into -2), so another writer's file is
    // checked first by the registry's own rules, once per schema id.
    const codec =
      own.schemaType === 'PROTOBUF' ? ownCodec : createCodec('protobuf', { schema: reader, limits });
    const readerText = own.schemaType === 'PROTOBUF' ? own.schema : toProto(reader);
    if (writer.schema !== readerText) checkProtobufWriter(writer, readerText);
    const files = new Map((writer.referenced ?? []).map((file) => [file.name, file.schema] as const));
    return { protobuf: true, codec, readsMessage: messageMatcher(writer.schema, deref(reader), files) };
  }
  if (type === 'AVRO') {
    if (own.schemaType === undefined && writer.schema === own.schema)
      return { protobuf: false, codec: ownCodec };
    // Resolution is planned here, once per writer schema: one that cannot be read into the
    // reader's schema fails now (WK_DECODE_SCHEMA_MISMATCH), and every event of it is poison.
    // Named types the writer schema takes from other subjects come first, as the registry read them.
    const writerReferences = (writer.referenced ?? []).map((referenced) => referenced.schema);
    return {
      protobuf: false,
      codec: createAvroCodec({ schema: reader, writerSchema: writer.schema, writerReferences, limits }),
    };
  }
  throw new WirekitError(
    'WK_DECODE_SCHEMA_MISMATCH',
    `Events of a ${type} schema are not read by the event codec.`,
  );
}

function checkProtobufWriter(writer: ResolvedDefinition, readerText: string): void {
  let verdict: CompatibilityResult;
  try {
    verdict = checkCompatibility(
      parseRegisteredSchema({ schemaType: 'PROTOBUF', schema: readerText }),
      [parseRegisteredSchema(writer)],
      'BACKWARD',
    );
  } catch (error) {
    // A writer schema that does not parse makes every event of it unreadable.
    if (error instanceof WirekitError) {
      throw new WirekitError('WK_DECODE_SCHEMA_MISMATCH', error.message, { cause: error });
    }
    throw error;
  }
  if (!verdict.compatible) {
    throw new WirekitError(
      'WK_DECODE_SCHEMA_MISMATCH',
      `This consumer's Protobuf message cannot read the writer's: ${verdict.messages.join('; ')}`,
    );
  }
}

/** Whether the message at a Confluent index path of the writer's file is the reader's root message. */
function messageMatcher(
  writerText: string,
  root: Schema,
  referenced: ReadonlyMap<string, string>,
): (indexes: readonly number[]) => boolean {
  const rootName = root.kind === 'object' || root.kind === 'union' ? root.name : undefined;
  const known = new Map<string, boolean>();
  return (indexes) => {
    const key = indexes.join('.');
    let answer = known.get(key);
    if (answer === undefined) {
      try {
        const fullName = protobufMessageAt(writerText, indexes, referenced);
        answer = rootName === undefined ? key === '0' : fullName.split('.').at(-1) === rootName;
      } catch {
        answer = false;
      }
      // Paths are few in practice; a hostile stream of distinct ones is not remembered.
      if (known.size < 64) known.set(key, answer);
    }
    return answer;
  };
}

/** A count or duration option: an integer of at least `min`, or WK_OPTIONS_INVALID when the codec is made. */
function countOption(name: string, value: number, min: number): number {
  if (!Number.isSafeInteger(value) || value < min)
    throw new WirekitError(
      'WK_OPTIONS_INVALID',
      `eventCodec: ${name} must be an integer of at least ${min}, got ${value}.`,
    );
  return value;
}
