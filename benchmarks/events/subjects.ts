/**
 * The formats bench:events compares, each as a producer encodes it and a consumer decodes it:
 *
 * - `plain-json`: the baseline, what the field report's "before" ran — `JSON.stringify` into the
 *   message, `JSON.parse(message.value.toString())` out, no schema, no framing, no validation.
 * - `json`, `msgpack`: wirekit's compiled codecs in the envelope (`eventCodec`, framing 'envelope').
 * - `avro`, `protobuf`: wirekit's compiled codecs with Confluent framing (magic byte, schema id,
 *   Protobuf's message index) through a schema registry — wirekit's own server, which main.ts
 *   starts, or one at `--registry URL` — or in the envelope with `--registry none`. The registry is
 *   asked once per schema id (the producer registers its schema with its first event, the consumer
 *   fetches it by id with its first), so it costs the first event, not the stream.
 */
import type { EventCodec, Framing } from 'wirekit-ts/events';
import { eventCodec, registryClient } from 'wirekit-ts/events';
import { type EventShape, shapeSchema } from './shapes.js';

export const eventFormats = ['plain-json', 'json', 'msgpack', 'avro', 'protobuf'] as const;
export type EventFormat = (typeof eventFormats)[number];

/** What a producer or consumer process needs to build its side of a format. */
export interface SubjectSpec {
  readonly format: EventFormat;
  /** Avro and Protobuf: 'confluent' needs `registryUrl`; the others are always 'envelope' (or none). */
  readonly framing: Framing;
  readonly registryUrl?: string;
  /** The Confluent subject (TopicNameStrategy: `TOPIC-value`). */
  readonly subject: string;
  /** The events' shape (shapes.ts); the order when absent. */
  readonly shape?: EventShape;
}

/** One format's two ends: the producer's encoder, the consumer's decoder (and codec, for wirekit's consumer). */
export interface EventSubject {
  readonly label: string;
  encode(value: unknown): Promise<Uint8Array>;
  /** Bytes to the value a handler gets. */
  decode(bytes: Uint8Array): unknown | Promise<unknown>;
  /** wirekit's event codec; undefined for the baseline, which no wirekit consumer reads. */
  readonly codec: EventCodec<unknown> | undefined;
}

export function framingFor(format: EventFormat, registryUrl: string | undefined): Framing {
  return (format === 'avro' || format === 'protobuf') && registryUrl !== undefined ? 'confluent' : 'envelope';
}

export function subjectLabel(format: EventFormat, framing: Framing): string {
  if (format === 'plain-json') return 'plain JSON (JSON.stringify / JSON.parse)';
  return `wirekit ${format} (${framing === 'confluent' ? 'Confluent framing, registry' : 'envelope'})`;
}

const textDecoder = new TextDecoder();

export async function createSubject(spec: SubjectSpec): Promise<EventSubject> {
  const label = subjectLabel(spec.format, spec.framing);
  if (spec.format === 'plain-json') {
    return {
      label,
      encode: async (value) => Buffer.from(JSON.stringify(value)),
      // What `JSON.parse(message.value.toString())` does with kafkajs's Buffer.
      decode: (bytes) => JSON.parse(textDecoder.decode(bytes)),
      codec: undefined,
    };
  }
  if (spec.framing === 'confluent' && spec.registryUrl === undefined)
    throw new Error(`${spec.format} with Confluent framing needs a registry URL`);
  const codec = eventCodec({
    schema: shapeSchema(spec.shape ?? 'order'),
    format: spec.format,
    framing: spec.framing,
    subject: spec.subject,
    ...(spec.framing === 'confluent'
      ? { registry: registryClient({ url: spec.registryUrl as string }) }
      : {}),
  }) as EventCodec<unknown>;
  return {
    label,
    encode: (value) => codec.encode(value),
    decode: async (bytes) => (await codec.decode(bytes)).value,
    codec,
  };
}
