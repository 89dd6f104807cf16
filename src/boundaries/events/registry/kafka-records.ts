/**
 * The registry's records as messages of its Kafka topic, both ways, with Confluent's keys and
 * values (`{"keytype":"SCHEMA","subject":…,"version":…,"magic":1}`), so Confluent's registry and
 * Karapace read the topic wirekit writes and the other way round; key types wirekit does not
 * write are passed over. Apart from the store (kafka-store.ts), which needs a broker, so that the
 * mapping is tested without one.
 */
import { checkedRecord, StoreCorruptError } from './record-json.js';
import type { RegistryRecord } from './store.js';
import type { TopicMessage } from './topic-message.js';

type Message = TopicMessage;

/**
 * The key of the id high-water mark: a key type of wirekit's own, never tombstoned, so compaction
 * keeps its latest value. Confluent's and Karapace's readers pass over key types they do not know.
 */
const idsKey = JSON.stringify({ keytype: 'WIREKIT_ID_HIGH_WATER', magic: 0 });

/** A record's Kafka key and value (null for a tombstone), as Confluent's registry writes them. */
export function kafkaMessageOf(record: RegistryRecord): { key: string; value: string | null } {
  if (record.kind === 'ids') return { key: idsKey, value: JSON.stringify({ highest: record.highest }) };
  if (record.kind === 'mode') {
    const key = JSON.stringify({ keytype: 'MODE', subject: record.subject, magic: 0 });
    return { key, value: record.mode === null ? null : JSON.stringify({ mode: record.mode }) };
  }
  if (record.kind === 'config') {
    const key = JSON.stringify({ keytype: 'CONFIG', subject: record.subject, magic: 0 });
    const value =
      record.compatibility === null ? null : JSON.stringify({ compatibilityLevel: record.compatibility });
    return { key, value };
  }
  const key = JSON.stringify({
    keytype: 'SCHEMA',
    subject: record.subject,
    version: record.version,
    magic: 1,
  });
  if (record.kind === 'purge') return { key, value: null };
  return {
    key,
    value: JSON.stringify({
      subject: record.subject,
      version: record.version,
      id: record.id,
      ...(record.schemaType === 'AVRO' ? {} : { schemaType: record.schemaType }),
      ...(record.references.length === 0 ? {} : { references: record.references }),
      schema: record.schema,
      deleted: record.deleted,
    }),
  };
}

function json(bytes: Buffer, location: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (cause) {
    throw new StoreCorruptError(location, `the ${what} is not JSON`, { cause });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new StoreCorruptError(location, `the ${what} is not a JSON object`);
  }
  return value as Record<string, unknown>;
}

/** The record a message of the topic holds; undefined for key types that hold none of wirekit's. */
export function recordOfMessage(message: Message, location: string): RegistryRecord | undefined {
  if (message.key === null) throw new StoreCorruptError(location, 'the message has no key');
  const key = json(message.key, location, 'key');
  const value =
    message.value === null || message.value.length === 0 ? null : json(message.value, location, 'value');
  if (key.keytype === 'CONFIG') {
    // Confluent's config values may set other things (normalize, aliases) and no level at all.
    const compatibility = value === null ? null : (value.compatibilityLevel ?? null);
    return checkedRecord({ kind: 'config', subject: key.subject ?? null, compatibility }, location);
  }
  if (key.keytype === 'MODE') {
    return checkedRecord({ kind: 'mode', subject: key.subject ?? null, mode: value?.mode ?? null }, location);
  }
  if (key.keytype === 'WIREKIT_ID_HIGH_WATER') {
    // A mark with no value says nothing (nobody writes one, but a hand-made tombstone would be it).
    return value === null ? undefined : checkedRecord({ kind: 'ids', highest: value.highest }, location);
  }
  if (key.keytype !== 'SCHEMA') return undefined;
  if (value === null)
    return checkedRecord({ kind: 'purge', subject: key.subject, version: key.version }, location);
  return checkedRecord(
    {
      kind: 'schema',
      subject: value.subject,
      version: value.version,
      id: value.id,
      schemaType: value.schemaType ?? 'AVRO',
      schema: value.schema,
      references: value.references ?? [],
      deleted: value.deleted ?? false,
    },
    location,
  );
}
