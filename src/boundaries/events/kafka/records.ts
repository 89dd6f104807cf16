/**
 * Kafka records in and out: wirekit's keys and headers as kafkajs takes them, and kafkajs's
 * fetched records as the handler and the dead-letter path see them.
 *
 * Headers come off the wire as whatever a producer wrote, and kafkajs folds them into a plain
 * object: a repeated name becomes an array, and a name that Object.prototype already has
 * (`constructor`, `toString`, `__proto__`) comes back mixed with what the prototype held. So
 * headers are rebuilt here into objects without a prototype, keeping only Buffer and string
 * values: no header name can reach a prototype, and none is renamed or lost. A handler sees each
 * header as a string (the last value of a repeated one, as Kafka's `lastHeader` picks it, read as
 * UTF-8); the dead-letter topic gets every value byte for byte.
 */
import type { IHeaders, KafkaMessage, Message } from 'kafkajs';
import type { EventKey, OutgoingEvent } from '../transport.js';

/** Header values as they go back on the wire: each value of each name, bytes unchanged. */
export type RawHeaders = Record<string, Buffer | string | (Buffer | string)[]>;

export function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function keyOf(key: EventKey | undefined): Buffer | string | null {
  if (key === undefined) return null;
  return typeof key === 'string' ? key : toBuffer(key);
}

/** A kafkajs message of an encoded event. */
export function outgoingMessage(event: OutgoingEvent<unknown>, value: Uint8Array): Message {
  const message: Message = { key: keyOf(event.key), value: toBuffer(value) };
  if (event.headers !== undefined) message.headers = { ...event.headers };
  return message;
}

const isHeaderValue = (value: unknown): value is Buffer | string =>
  typeof value === 'string' || Buffer.isBuffer(value);

/** The values kafkajs gave for one header name, without what Object.prototype lent them. */
function valuesOf(given: IHeaders[string]): (Buffer | string)[] {
  if (Array.isArray(given)) return given.filter(isHeaderValue);
  return isHeaderValue(given) ? [given] : [];
}

/** Shared by every record without headers (most of them): nothing to allocate per event. */
const noRawHeaders: RawHeaders = Object.freeze(Object.create(null));
const noHeaders: Record<string, string> = Object.freeze(Object.create(null));

export function rawHeaders(message: KafkaMessage): RawHeaders {
  const given = message.headers;
  if (given === undefined) return noRawHeaders;
  let any = false;
  for (const _ in given) {
    any = true;
    break;
  }
  if (!any) return noRawHeaders;
  const out: RawHeaders = Object.create(null);
  for (const [name, given] of Object.entries(message.headers ?? {})) {
    const values = valuesOf(given);
    if (values.length > 0) out[name] = values.length === 1 ? (values[0] as Buffer | string) : values;
  }
  return out;
}

/** The headers as a handler reads them: one string per name. */
export function stringHeaders(raw: RawHeaders): Record<string, string> {
  if (raw === noRawHeaders) return noHeaders;
  const out: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(raw)) {
    const last = Array.isArray(value) ? value[value.length - 1] : value;
    if (last !== undefined) out[name] = typeof last === 'string' ? last : last.toString('utf8');
  }
  return out;
}
