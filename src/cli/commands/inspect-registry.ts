/**
 * `wirekit inspect --registry URL SOURCE`: a payload in Confluent's wire format (magic byte 0, the
 * writer schema's 4-byte id, for Protobuf the message indexes, then the datum), read the way a
 * consumer reads it: the writer schema fetched from the registry by its id, the datum decoded by it.
 *
 * - AVRO: into a wirekit schema read from the writer's Avro schema (schemaFromAvro), or into
 *   --schema as the reader's schema, by Avro resolution;
 * - PROTOBUF: the fields by number as the wire has them (protobuf-raw.ts), the message named from
 *   the .proto when its indexes point at one; or decoded by --schema;
 * - WIREKIT: by the registered wirekit schema (or --schema), in the format --format names (the
 *   registry does not say which format a producer wrote with it).
 *
 * Confluent's serializer writes message indexes for Protobuf; @kafkajs/confluent-schema-registry
 * writes none. Which one wrote a frame shows in its sixth byte: an index count is 0-3 (written
 * 0x00-0x06), a Protobuf field tag is at least 0x08. Longer index paths (a message nested four
 * levels down) are read as having none.
 */

import { confluentHeaderBytes, readConfluentFrame } from '../../boundaries/events/framing.js';
import type { SchemaDefinition, SchemaType } from '../../boundaries/events/registry/api.js';
import { registryClient, type SubjectVersionRef } from '../../boundaries/events/registry/client.js';
import { createAvroCodec } from '../../codecs/avro/index.js';
import { schemaFromAvro } from '../../codecs/avro/schema-from-avro.js';
import type { FormatName } from '../../codecs/codec.js';
import type { DecodeLimits } from '../../codecs/limits.js';
import { createCodec } from '../../codecs/registry.js';
import { isWirekitError, WirekitError } from '../../errors/index.js';
import { type JsonValue, type Schema, schemaFromJson, toJsonValue } from '../../schema/index.js';
import { hexDump } from '../hexdump.js';
import type { CliIo } from '../io.js';
import { protoMessageAt } from '../proto-message-names.js';
import { decodeRawProtobuf } from '../protobuf-raw.js';
import type { RecordInfo } from '../record-info.js';
import { recordLines } from '../record-info.js';
import { usageError } from '../usage.js';

/** How long one registry request may take, and how often it is retried, before inspect gives up. */
export const registryTimeoutMs = 5000;
const registryRetries = 1;

export interface RegistryInspection {
  readonly source: string;
  readonly record?: RecordInfo;
  /** The registry's URL, without credentials. */
  readonly registry: string;
  readonly framing: 'confluent';
  readonly schemaId: number;
  schemaType: SchemaType | null;
  /** Every subject and version the id is registered under; null when the registry did not say. */
  subjects: readonly SubjectVersionRef[] | null;
  /** The Protobuf message-index path (null: not Protobuf, or the frame has none). */
  messageIndexes: readonly number[] | null;
  /** The Protobuf message the indexes name, when the .proto says. */
  message?: string;
  sizes: { readonly total: number; header: number; payload: number };
  /** What the value was read by. */
  readBy?: string;
  decoded: boolean;
  value?: JsonValue;
  note?: string;
  /** The writer schema's text, when the value could not be read by it. */
  writerSchema?: string;
  hex?: { readonly shown: number; readonly of: number; readonly lines: readonly string[] };
  error?: { readonly code: string; readonly message: string };
}

export interface RegistryInspectOptions {
  readonly registryUrl: string;
  readonly source: string;
  readonly record: RecordInfo | undefined;
  readonly bytes: Uint8Array;
  /** The reader's schema (--schema) and what to call it. */
  readonly schema: Schema | undefined;
  readonly schemaName: string | undefined;
  readonly format: FormatName | undefined;
  readonly limits: Partial<DecodeLimits>;
  /** Set with --hex: how many payload bytes to dump. */
  readonly maxHexBytes: number | undefined;
  readonly json: boolean;
}

export async function inspectRegistry(io: CliIo, options: RegistryInspectOptions): Promise<void> {
  let client: ReturnType<typeof registryClient>;
  try {
    client = registryClient({
      url: options.registryUrl,
      timeoutMs: registryTimeoutMs,
      retries: registryRetries,
    });
  } catch (error) {
    if (isWirekitError(error, 'WK_REGISTRY_REQUEST')) throw usageError(`--registry: ${error.message}`);
    throw error;
  }
  const { bytes } = options;
  // The id comes first; whether index bytes follow depends on the schema's type, learned from the registry.
  const head = readConfluentFrame(bytes);
  const report: RegistryInspection = {
    source: options.source,
    ...(options.record === undefined ? {} : { record: options.record }),
    registry: client.url,
    framing: 'confluent',
    schemaId: head.schemaId,
    schemaType: null,
    subjects: null,
    messageIndexes: null,
    sizes: { total: bytes.length, header: confluentHeaderBytes, payload: head.payload.length },
    decoded: false,
  };
  const write = () =>
    io.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : renderText(report));
  try {
    const [definition, subjects] = await Promise.all([
      client.schemaById(head.schemaId),
      // Older registries lack this lookup; the subjects are then left unsaid.
      client.subjectVersionsById(head.schemaId).catch(() => null),
    ]);
    report.schemaType = definition.schemaType ?? 'AVRO';
    report.subjects = subjects;
    let payload = head.payload;
    if (report.schemaType === 'PROTOBUF') {
      const framed = readConfluentFrame(bytes, { messageIndexes: hasMessageIndexes(bytes) });
      payload = framed.payload;
      report.messageIndexes = framed.messageIndexes ?? null;
      report.sizes.header = bytes.length - payload.length;
      report.sizes.payload = payload.length;
      const message = protoMessageAt(definition.schema, framed.messageIndexes ?? [0]);
      if (message !== undefined) report.message = message;
      if (framed.messageIndexes === undefined)
        report.note =
          'the frame has no message indexes (as @kafkajs/confluent-schema-registry writes it): the first message of the .proto is assumed';
    }
    if (options.maxHexBytes !== undefined) {
      const shown = Math.min(options.maxHexBytes, payload.length);
      report.hex = { shown, of: payload.length, lines: hexDump(payload, shown) };
    }
    decodeInto(report, definition, payload, options);
  } catch (error) {
    if (!isWirekitError(error)) throw error;
    report.error = { code: error.code, message: error.message };
    write();
    throw error;
  }
  write();
}

/** Whether a Protobuf frame carries message indexes: see the module comment. */
function hasMessageIndexes(bytes: Uint8Array): boolean {
  const next = bytes[confluentHeaderBytes];
  return next !== undefined && next < 0x08;
}

function decodeInto(
  report: RegistryInspection,
  definition: SchemaDefinition,
  payload: Uint8Array,
  options: RegistryInspectOptions,
): void {
  const type = report.schemaType ?? 'AVRO';
  const { schema, limits } = options;
  const given = options.schemaName ?? '--schema';
  if (options.format !== undefined && type !== 'WIREKIT' && options.format !== type.toLowerCase())
    throw usageError(
      `the registry says schema ${report.schemaId} is ${type}; --format ${options.format} disagrees.`,
    );
  if ((definition.references?.length ?? 0) > 0 && schema === undefined)
    report.note = `the schema imports ${definition.references?.map((r) => r.name).join(', ')} (references are not followed)`;
  try {
    if (type === 'AVRO') {
      const reader = schema ?? schemaFromAvro(definition.schema);
      const codec = createAvroCodec({ schema: reader, writerSchema: definition.schema, limits });
      report.value = toJsonValue(reader, codec.decode(payload));
      report.readBy =
        schema === undefined
          ? "the writer's Avro schema, from the registry"
          : `${given}, resolved from the writer's Avro schema`;
    } else if (type === 'PROTOBUF') {
      if (schema === undefined) {
        report.value = decodeRawProtobuf(payload, {
          maxDepth: Math.min(limits.maxDepth ?? 32, 32),
        }) as JsonValue;
        report.readBy =
          'the wire alone: fields by number (pass --schema S.json to decode by a wirekit schema)';
      } else {
        report.value = toJsonValue(schema, createCodec('protobuf', { schema, limits }).decode(payload));
        report.readBy = given;
      }
    } else {
      if (options.format === undefined)
        throw usageError(
          `schema ${report.schemaId} is a wirekit schema, which does not say the payload's format: pass --format F.`,
        );
      const reader = schema ?? schemaFromJson(JSON.parse(definition.schema));
      report.value = toJsonValue(
        reader,
        createCodec(options.format, { schema: reader, limits }).decode(payload),
      );
      report.readBy =
        schema === undefined
          ? `the registry's wirekit schema, as ${options.format}`
          : `${given}, as ${options.format}`;
    }
    report.decoded = true;
  } catch (error) {
    if (error instanceof SyntaxError)
      throw new WirekitError(
        'WK_SCHEMA_JSON_INVALID',
        `schema ${report.schemaId}: the wirekit schema is not JSON.`,
        { cause: error },
      );
    // The schema is what there is to see when the value cannot be read by it.
    report.writerSchema = definition.schema;
    throw error;
  }
}

function renderText(report: RegistryInspection): string {
  const lines: string[] = [];
  const line = (label: string, text: string) => lines.push(`${`${label}:`.padEnd(14)} ${text}`);
  line('source', report.source);
  if (report.record !== undefined) for (const [label, text] of recordLines(report.record)) line(label, text);
  line('registry', report.registry);
  line('framing', `Confluent wire format (magic byte 0, schema id ${report.schemaId})`);
  line('schema', schemaText(report));
  if (report.messageIndexes !== null)
    line(
      'message',
      `${report.message ?? 'not named in the .proto'} (message indexes [${report.messageIndexes.join(', ')}])`,
    );
  else if (report.message !== undefined) line('message', report.message);
  const { sizes } = report;
  line('sizes', `total ${sizes.total} B, header ${sizes.header} B, payload ${sizes.payload} B`);
  if (report.readBy !== undefined) line('read by', report.readBy);
  if (report.decoded) lines.push('value:', JSON.stringify(report.value, null, 2));
  else if (report.writerSchema !== undefined) lines.push('writer schema:', report.writerSchema);
  if (report.note !== undefined) line('note', report.note);
  if (report.hex !== undefined) {
    const { shown, of } = report.hex;
    line('hex', shown < of ? `first ${shown} of ${of} bytes of the payload` : `${of} bytes of the payload`);
    lines.push(...report.hex.lines);
    if (shown < of) lines.push(`… ${of - shown} more bytes (--max-bytes N shows more)`);
  }
  return `${lines.join('\n')}\n`;
}

function schemaText(report: RegistryInspection): string {
  const type = report.schemaType ?? 'type unknown (the registry did not answer)';
  const subjects =
    report.subjects === null
      ? ''
      : report.subjects.length === 0
        ? ', under no subject'
        : `, ${report.subjects.map((s) => `${s.subject} version ${s.version}`).join(', ')}`;
  return `id ${report.schemaId}, ${type}${subjects}`;
}
