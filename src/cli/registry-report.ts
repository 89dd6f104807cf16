/**
 * What `wirekit inspect --registry` found, and its two renderings (a labelled layout for people,
 * one JSON object for scripts), kept apart from inspect-report.ts because a Confluent frame says
 * other things than an envelope does: a registry's schema id, type and subjects, message indexes.
 */
import type { SchemaType } from '../boundaries/events/index.js';
import type { SubjectVersionRef } from '../boundaries/events/inspect.js';
import { type RecordInfo, recordLines } from './record-info.js';
import type { ReadOutcome } from './report-json.js';

export interface RegistryInspection extends ReadOutcome {
  readonly source: string;
  /** Where the record sits, for a kafka:// source. */
  readonly record?: RecordInfo;
  /** The registry's URL, without credentials. */
  readonly registry: string;
  readonly framing: 'confluent';
  readonly schemaId: number;
  /** null until (or unless) the registry said. */
  schemaType: SchemaType | null;
  /** Every subject and version the id is registered under; null when the registry did not say. */
  subjects: readonly SubjectVersionRef[] | null;
  /** The Protobuf message-index path (null: not Protobuf, or the frame has none). */
  messageIndexes: readonly number[] | null;
  /** The Protobuf message the value was read as, when the .proto says. */
  message?: string;
  readonly sizes: { readonly total: number; header: number; payload: number };
  /** What the value was read by. */
  readBy?: string;
  /** The writer schema's text, when the value could not be read by it. */
  writerSchema?: string;
}

export function renderRegistryText(report: RegistryInspection): string {
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
      `${report.message ?? 'not found in the .proto'} (message indexes [${report.messageIndexes.join(', ')}])`,
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

/** The header line: id, type, and the subjects and versions it is registered under. */
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
