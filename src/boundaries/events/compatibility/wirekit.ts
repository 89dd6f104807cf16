/**
 * schemaType WIREKIT: the text is a wirekit schema's JSON form (docs/schema-json.md). One wirekit
 * schema drives every format, and an event written with it may be Avro or Protobuf, so a reader
 * is compatible with a writer only when it is by every rule that applies:
 *
 * - the Avro rules (avro.ts) on both schemas' Avro exports (`toAvro`),
 * - the Protobuf rules (protobuf.ts) on both schemas' `.proto` exports (`toProto`),
 * - and the value rules only wirekit schemas carry (wirekit-values.ts).
 *
 * A format is checked when the writer exports to it (no data of that format can exist otherwise);
 * a reader that does not export to a format its writer does cannot read that data, which is
 * EXPORT_UNSUPPORTED. The exports are made once, when the schema is parsed.
 *
 * Canonical form: the schema's JSON form as wirekit writes it back (`schemaToJson`), keys sorted,
 * so that whitespace, key order and spellings the reader normalises do not change the id.
 */
import { type AvroType, parseAvroSchema } from '../../../codecs/avro/avro-schema.js';
import { WirekitError } from '../../../errors/index.js';
import { toAvro, toProto } from '../../../schema/export/index.js';
import { type JsonValue, type Schema, schemaFromJson, schemaToJson } from '../../../schema/index.js';
import { avroReadFindings } from './avro.js';
import type { Finding } from './issues.js';
import { protobufReadFindings } from './protobuf.js';
import { type ProtoFile, parseProtoFile } from './protobuf-schema.js';
import { parseSchemaJson, type SchemaLimits, schemaInvalid } from './schema-text.js';
import { wirekitValueFindings } from './wirekit-values.js';

/** An export, or why the schema has none in that format. */
export type Export<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly reason: string };

export interface RegisteredWirekit {
  readonly schema: Schema;
  readonly canonical: string;
  /** The text's node count (JSON values), which bounds what checking it may cost. */
  readonly nodes: number;
  readonly avro: Export<AvroType>;
  readonly proto: Export<ProtoFile>;
}

/** A finding and the rules that made it. */
export interface WirekitFinding {
  readonly rules: 'avro' | 'protobuf' | 'wirekit';
  readonly finding: Finding;
}

export function parseRegisteredWirekit(text: string, limits: Required<SchemaLimits>): RegisteredWirekit {
  const { json, nodes } = parseSchemaJson(text, 'wirekit', limits);
  let schema: Schema;
  let canonical: string;
  try {
    schema = schemaFromJson(json);
    canonical = sortedJson(schemaToJson(schema) as unknown as JsonValue);
  } catch (error) {
    if (error instanceof WirekitError) throw schemaInvalid(`wirekit schema: ${error.message}`, error);
    throw error;
  }
  return {
    schema,
    canonical,
    nodes,
    avro: exported(() => parseAvroSchema(toAvro(schema) as JsonValue)),
    proto: exported(() => parseProtoFile(toProto(schema), limits)),
  };
}

function exported<T>(make: () => T): Export<T> {
  try {
    return { ok: true, value: make() };
  } catch (error) {
    if (error instanceof WirekitError) return { ok: false, reason: error.message };
    throw error;
  }
}

/** Why `reader` cannot read events `writer` wrote in any format; `newer` as protobuf.ts takes it. */
export function wirekitReadFindings(
  reader: RegisteredWirekit,
  writer: RegisteredWirekit,
  newer: 'reader' | 'writer',
): WirekitFinding[] {
  const findings: WirekitFinding[] = [];
  const format = <T>(
    rules: 'avro' | 'protobuf',
    name: string,
    pick: (schema: RegisteredWirekit) => Export<T>,
    check: (r: T, w: T) => Finding[],
  ): void => {
    const [r, w] = [pick(reader), pick(writer)];
    if (!w.ok) return;
    if (!r.ok) {
      findings.push({ rules, finding: unexportable(name, r.reason) });
      return;
    }
    for (const finding of check(r.value, w.value)) findings.push({ rules, finding });
  };
  const nodes = reader.nodes + writer.nodes;
  format(
    'avro',
    'Avro',
    (s) => s.avro,
    (r, w) => avroReadFindings(r, w, nodes),
  );
  format(
    'protobuf',
    'Protobuf',
    (s) => s.proto,
    (r, w) => protobufReadFindings(r, w, newer),
  );
  for (const finding of wirekitValueFindings(reader.schema, writer.schema, nodes))
    findings.push({ rules: 'wirekit', finding });
  return findings;
}

function unexportable(format: string, reason: string): Finding {
  return {
    errorType: 'EXPORT_UNSUPPORTED',
    path: '$',
    additionalInfo: reason,
    describe: ({ reader, writer }) =>
      `The ${reader} schema cannot be written as ${format}, so it cannot read the ${format} events of the ${writer} schema`,
  };
}

function sortedJson(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${sortedJson(value[key] as JsonValue)}`).join(',')}}`;
}
