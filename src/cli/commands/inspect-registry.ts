/**
 * `wirekit inspect --registry URL SOURCE`: a payload in Confluent's wire format (magic byte 0, the
 * writer schema's 4-byte id, for Protobuf the message indexes, then the datum), read the way a
 * consumer reads it: the writer schema fetched from the registry by its id, the datum decoded by it.
 *
 * - AVRO: into a wirekit schema read from the writer's Avro schema (schemaFromAvro), or into
 *   --schema as the reader's schema, by Avro resolution;
 * - PROTOBUF: by the message of the registry's .proto the indexes name (fields named and typed,
 *   protobuf-named.ts), by number when the .proto cannot be read (protobuf-raw.ts), or by --schema;
 * - WIREKIT: by the registered wirekit schema (or --schema), in the format --format names (the
 *   registry does not say which format a producer wrote with it).
 *
 * A writer schema's references (a .proto's imports of other subjects' files, Avro named types
 * another subject defines) are fetched from the registry, transitively, as the event codec fetches
 * them, and the schema is read with them.
 *
 * The writer schema (and each schema its references name) is held to the registry's default bounds (maxSchemaLength, maxSchemaNodes,
 * maxSchemaDepth) before it is read: one past them is WK_REGISTRY_SCHEMA_INVALID, as the registry
 * would have refused it.
 *
 * Confluent's serializer writes message indexes for Protobuf; @kafkajs/confluent-schema-registry
 * writes none. Which one wrote a frame shows in its sixth byte: an index count is 0-3 (written
 * 0x00-0x06), a Protobuf field tag is at least 0x08. Longer index paths (a message nested four
 * levels down) are read as having none.
 */
import {
  checkSchemaBounds,
  parseRegisteredSchema,
  readConfluentFrame,
  registryClient,
  type SchemaDefinition,
} from '../../boundaries/events/index.js';
import {
  confluentHeaderBytes,
  fetchReferenced,
  messageAt,
  type ProtoMessage,
  type ReferencedSchema,
  type ResolvedDefinition,
} from '../../boundaries/events/inspect.js';
import { createAvroCodec } from '../../codecs/avro/index.js';
import { schemaFromAvro } from '../../codecs/avro/inspect.js';
import { createCodec, type DecodeLimits, type FormatName } from '../../codecs/index.js';
import { isWirekitError, WirekitError } from '../../errors/index.js';
import { type JsonValue, type Schema, schemaFromJson, toJsonValue } from '../../schema/index.js';
import { hexDump } from '../hexdump.js';
import type { CliIo } from '../io.js';
import { decodeProtobufByMessage } from '../protobuf-named.js';
import { decodeRawProtobuf } from '../protobuf-raw.js';
import type { RecordInfo } from '../record-info.js';
import { type RegistryInspection, renderRegistryText } from '../registry-report.js';
import { renderReportJson } from '../report-json.js';
import { usageError } from '../usage.js';

/** How long one registry request may take, and how often it is retried, before inspect gives up. */
export const registryTimeoutMs = 5000;
const registryRetries = 1;
/** How deep nested Protobuf messages are followed without a wirekit schema. */
const maxProtobufDepth = 32;

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

/** What decoding needs besides the options: the writer's schema, the datum, and what to say of it. */
interface Read {
  readonly report: RegistryInspection;
  readonly definition: SchemaDefinition;
  /** The schemas the writer schema's references name, transitively, those referred to first. */
  readonly referenced: readonly ReferencedSchema[];
  readonly payload: Uint8Array;
  readonly message: ProtoMessage | undefined;
  readonly notes: string[];
}

/** The variable a registry's Basic credentials may come from, as Confluent's basic.auth.user.info. */
const registryUserInfoVariable = 'WIREKIT_REGISTRY_USER_INFO';

/**
 * Basic credentials for a registry URL that carries none, from WIREKIT_REGISTRY_USER_INFO
 * (`user:password`), so that a password need not go on a command line, where `ps` and the shell's
 * history show it. Credentials in the URL win: they were given for this one call.
 */
function credentialsFromEnv(url: string): { username: string; password: string } | undefined {
  const info = process.env[registryUserInfoVariable];
  if (info === undefined || info === '' || !URL.canParse(url) || new URL(url).username !== '') return;
  const colon = info.indexOf(':');
  if (colon < 1) throw usageError(`${registryUserInfoVariable} takes user:password.`);
  return { username: info.slice(0, colon), password: info.slice(colon + 1) };
}

export async function inspectRegistry(io: CliIo, options: RegistryInspectOptions): Promise<void> {
  let client: ReturnType<typeof registryClient>;
  try {
    const basicAuth = credentialsFromEnv(options.registryUrl);
    client = registryClient({
      url: options.registryUrl,
      timeoutMs: registryTimeoutMs,
      retries: registryRetries,
      ...(basicAuth === undefined ? {} : { basicAuth }),
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
  const notes: string[] = [];
  const write = () => {
    if (notes.length > 0) report.note = notes.join('; ');
    io.stdout.write(options.json ? renderReportJson(report) : renderRegistryText(report));
  };
  try {
    const [definition, subjects] = await Promise.all([
      client.schemaById(head.schemaId),
      // Older registries lack this lookup; the subjects are then left unsaid.
      client.subjectVersionsById(head.schemaId).catch(() => null),
    ]);
    report.schemaType = definition.schemaType ?? 'AVRO';
    report.subjects = subjects;
    // The registry's own bounds (length, nesting, nodes), before anything builds the schema.
    checkSchemaBounds(definition);
    const referenced = await fetchReferenced(client, definition.references);
    for (const schema of referenced) checkSchemaBounds(schema);
    let payload = head.payload;
    let message: ProtoMessage | undefined;
    if (report.schemaType === 'PROTOBUF') {
      const framed = readConfluentFrame(bytes, { messageIndexes: hasMessageIndexes(bytes) });
      payload = framed.payload;
      report.messageIndexes = framed.messageIndexes ?? null;
      report.sizes.header = bytes.length - payload.length;
      report.sizes.payload = payload.length;
      if (framed.messageIndexes === undefined)
        notes.push(
          'the frame has no message indexes (as @kafkajs/confluent-schema-registry writes it): the first message of the .proto is assumed',
        );
      message = protoMessageOf({ ...definition, referenced }, framed.messageIndexes ?? [0], notes);
      if (message !== undefined) report.message = message.fullName;
    }
    if (options.maxHexBytes !== undefined) {
      const shown = Math.min(options.maxHexBytes, payload.length);
      report.hex = { shown, of: payload.length, lines: hexDump(payload, shown) };
    }
    decodeInto({ report, definition, referenced, payload, message, notes }, options);
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

/**
 * The message the indexes point at in the registry's .proto (parsed by the registry's own reader),
 * or undefined, with a note saying why, when the text does not parse or has no such message: the
 * fields are then shown by number.
 */
function protoMessageOf(
  writer: ResolvedDefinition,
  indexes: readonly number[],
  notes: string[],
): ProtoMessage | undefined {
  try {
    const parsed = parseRegisteredSchema(writer).parsed;
    return parsed?.schemaType === 'PROTOBUF' ? messageAt(parsed.proto, indexes) : undefined;
  } catch (error) {
    if (!isWirekitError(error)) throw error;
    notes.push(`the fields are shown by number: ${error.message}`);
    return undefined;
  }
}

function decodeInto(read: Read, options: RegistryInspectOptions): void {
  const { report, definition } = read;
  const type = report.schemaType ?? 'AVRO';
  if (options.format !== undefined && type !== 'WIREKIT' && options.format !== type.toLowerCase())
    throw usageError(
      `the registry says schema ${report.schemaId} is ${type}; --format ${options.format} disagrees.`,
    );
  try {
    if (type === 'AVRO') decodeAvro(read, options);
    else if (type === 'PROTOBUF') decodeProtobuf(read, options);
    else decodeWirekit(read, options);
    report.decoded = true;
  } catch (error) {
    // The schema is what there is to see when the value cannot be read by it.
    report.writerSchema = definition.schema;
    throw error;
  }
}

function decodeAvro(
  { report, definition, referenced, payload }: Read,
  options: RegistryInspectOptions,
): void {
  const writerReferences = referenced.map((schema) => schema.schema);
  const reader = options.schema ?? schemaFromAvro(definition.schema, writerReferences);
  const codec = createAvroCodec({
    schema: reader,
    writerSchema: definition.schema,
    writerReferences,
    limits: options.limits,
  });
  report.value = toJsonValue(reader, codec.decode(payload));
  report.readBy =
    options.schema === undefined
      ? "the writer's Avro schema, from the registry"
      : `${options.schemaName ?? '--schema'}, resolved from the writer's Avro schema`;
}

function decodeProtobuf({ report, payload, message, notes }: Read, options: RegistryInspectOptions): void {
  const { schema, limits } = options;
  const maxDepth = Math.min(limits.maxDepth ?? maxProtobufDepth, maxProtobufDepth);
  if (schema !== undefined) {
    report.value = toJsonValue(schema, createCodec('protobuf', { schema, limits }).decode(payload));
    report.readBy = options.schemaName ?? '--schema';
  } else if (message !== undefined) {
    const named = decodeProtobufByMessage(payload, message, { maxDepth });
    report.value = named.value;
    report.readBy = `the registry's .proto, message ${message.fullName}`;
    if (named.mismatched > 0)
      notes.push(
        `${named.mismatched} field${named.mismatched === 1 ? ' does' : 's do'} not have the wire type the .proto declares: shown as the wire has them`,
      );
  } else {
    report.value = decodeRawProtobuf(payload, { maxDepth }) as JsonValue;
    report.readBy = 'the wire alone: fields by number (pass --schema S.json to decode by a wirekit schema)';
  }
}

function decodeWirekit({ report, definition, payload }: Read, options: RegistryInspectOptions): void {
  const { format, schema, limits } = options;
  if (format === undefined)
    throw usageError(
      `schema ${report.schemaId} is a wirekit schema, which does not say the payload's format: pass --format F.`,
    );
  let reader = schema;
  if (reader === undefined) {
    let json: unknown;
    try {
      json = JSON.parse(definition.schema);
    } catch (cause) {
      throw new WirekitError(
        'WK_SCHEMA_JSON_INVALID',
        `schema ${report.schemaId}: the wirekit schema is not JSON.`,
        {
          cause,
        },
      );
    }
    reader = schemaFromJson(json);
  }
  report.value = toJsonValue(reader, createCodec(format, { schema: reader, limits }).decode(payload));
  report.readBy =
    schema === undefined
      ? `the registry's wirekit schema, as ${format}`
      : `${options.schemaName}, as ${format}`;
}
