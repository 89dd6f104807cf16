/**
 * Confluent's message indexes: which message of a .proto file an event holds. A schema id names a
 * file, and a file declares many messages, so Confluent's Protobuf framing follows the id with the
 * path to the message: [0] is the first top-level message, [1, 0] the first message nested in the
 * second. Counting follows Confluent's Java serializer, which counts `message` declarations only:
 * enums, groups and the entries protoc generates for map fields take no index (some other clients
 * count from descriptors, where groups and map entries do; a file whose maps come before its nested
 * messages is read differently by those).
 *
 * The event codec calls these once per schema id and event type; the last few files parsed are
 * kept, so that a caller that does not cache pays the parse once, not per event.
 */
import { WirekitError } from '../../../errors/index.js';
import {
  type ProtoFile,
  type ProtoMessage,
  type ProtoReferencedFiles,
  parseProtoFile,
} from './protobuf-schema.js';
import { checkSchemaText, defaultSchemaLimits, schemaInvalid } from './schema-text.js';

/** Parsed files by text, oldest first; a handful, since a consumer sees few writer schemas at once. */
const recent = new Map<string, ProtoFile>();
const recentLimit = 16;

function fileOf(text: string, referenced: ProtoReferencedFiles): ProtoFile {
  const key = referenced.size === 0 ? text : JSON.stringify([text, ...referenced]);
  const known = recent.get(key);
  if (known !== undefined) return known;
  const file = parseProtoFile(
    checkSchemaText(text, 'Protobuf', defaultSchemaLimits),
    defaultSchemaLimits,
    referenced,
  );
  if (recent.size >= recentLimit) recent.delete(recent.keys().next().value as string);
  recent.set(key, file);
  return file;
}

/**
 * The full name (`shop.Order.Line`) of the message at Confluent's message-index path; an empty
 * path is [0], as Confluent writes it; `referenced` holds the files its schema references name, by
 * import path. WK_EVENT_FRAME_INVALID when the path points at no message
 * (indexes come from an event's bytes); WK_REGISTRY_SCHEMA_INVALID when the text does not parse.
 */
export function protobufMessageAt(
  text: string,
  indexes: readonly number[],
  referenced: ProtoReferencedFiles = new Map(),
): string {
  return messageAt(fileOf(text, referenced), indexes).fullName;
}

/** The message at the path in a parsed file (see protobufMessageAt). */
export function messageAt(file: ProtoFile, indexes: readonly number[]): ProtoMessage {
  let level = file.messages;
  let found: ProtoMessage | undefined;
  for (const [depth, index] of (indexes.length === 0 ? [0] : indexes).entries()) {
    found = Number.isSafeInteger(index) && index >= 0 ? level[index] : undefined;
    if (found === undefined) {
      throw new WirekitError(
        'WK_EVENT_FRAME_INVALID',
        `Protobuf message indexes [${indexes.join(', ')}]: index ${depth} (${index}) points at no message ` +
          `(there ${level.length === 1 ? 'is 1' : `are ${level.length}`} at that level).`,
      );
    }
    level = found.messages;
  }
  return found as ProtoMessage;
}

/**
 * Confluent's message indexes of the message named `fullName` (with or without the package, with
 * or without a leading dot). WK_REGISTRY_SCHEMA_INVALID when the file has no such message.
 */
export function messageIndexesOf(text: string, fullName: string): number[] {
  return indexesOf(fileOf(text, new Map()), fullName);
}

function indexesOf(file: ProtoFile, fullName: string): number[] {
  let name = fullName.startsWith('.') ? fullName.slice(1) : fullName;
  if (file.package !== '' && name.startsWith(`${file.package}.`)) name = name.slice(file.package.length + 1);
  const indexes: number[] = [];
  let level = file.messages;
  for (const part of name.split('.')) {
    const index = level.findIndex((message) => message.name === part);
    const message = level[index];
    if (message === undefined) {
      throw schemaInvalid(
        `Protobuf schema: there is no message ${fullName} (package ${file.package || 'none'}).`,
      );
    }
    indexes.push(index);
    level = message.messages;
  }
  return indexes;
}
