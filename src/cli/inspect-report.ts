/**
 * What `wirekit inspect` found, and its two renderings: a labelled layout for people and one JSON
 * object for scripts. Both come from the same record so that they cannot disagree.
 */

import type { ArrowInfo } from '../codecs/arrow/inspect.js';
import type { AvroContainerInfo } from '../codecs/avro/inspect.js';
import type { FormatName } from '../codecs/index.js';
import type { CompressionName } from '../compression/index.js';
import { type RecordInfo, recordLines } from './record-info.js';
import type { ReadOutcome } from './report-json.js';
import { type SequenceInfo, sequenceText } from './sequences.js';
import { type Sniffed, sniffedLabels } from './sniff.js';

export interface Inspection extends ReadOutcome {
  readonly source: string;
  /** The key, for a redis:// source. */
  readonly key?: string;
  /** Seconds the key has left (null: it does not expire), for a redis:// source. */
  readonly ttl?: number | null;
  /** Where the record sits, its timestamp, key and headers, for a kafka:// source. */
  readonly record?: RecordInfo;
  /** How the format was learned: the envelope, --format, the input's first bytes, or a --legacy reader. */
  readonly detected: 'envelope' | 'flag' | 'sniff' | 'legacy';
  /** The --legacy reader that read the value. */
  readonly legacy?: string;
  /** What sniffing recognised, outermost first (e.g. gzip, then json); empty unless sniffed. */
  readonly sniffed: readonly Sniffed[];
  /** For a format guessed by parsing (no signature): why, what else fits, how to choose. */
  readonly guess?: string;
  readonly format: FormatName;
  readonly compression: CompressionName;
  readonly envelopeVersion: number | null;
  /** The writer's schema fingerprint from the envelope, in hex. */
  readonly fingerprint: string | null;
  /** The fingerprint of --schema, in hex, when one was given. */
  readonly schemaFingerprint: string | null;
  /** Whether both fingerprints are present and equal; null when either is missing. */
  readonly fingerprintMatches: boolean | null;
  readonly sizes: {
    readonly total: number;
    readonly header: number;
    readonly payload: number;
    readonly decompressed: number;
  };
  avroContainer?: AvroContainerInfo;
  arrow?: ArrowInfo;
  /** Set when the payload is a sequence of items (then `value` is their array). */
  sequence?: SequenceInfo;
  /** Protobuf read without a schema: its fields as protoc --decode_raw prints them, with wire types. */
  protobufFields?: readonly string[];
}

export function renderText(report: Inspection, schemaName: string | undefined): string {
  const lines: string[] = [];
  const line = (label: string, text: string) => lines.push(`${`${label}:`.padEnd(14)} ${text}`);
  const block = (label: string, value: unknown) => lines.push(`${label}:`, JSON.stringify(value, null, 2));
  line('source', report.source);
  if (report.key !== undefined) line('key', report.key);
  if (report.ttl !== undefined)
    line('ttl', report.ttl === null ? 'none (the key does not expire)' : `${report.ttl} s left`);
  if (report.record !== undefined) for (const [label, text] of recordLines(report.record)) line(label, text);
  line('detected', detectedText(report));
  if (report.guess !== undefined) line('guess', report.guess);
  line('format', report.format);
  line('compression', report.compression);
  line('envelope', report.envelopeVersion === null ? 'none' : `version ${report.envelopeVersion}`);
  line('fingerprint', fingerprintText(report, schemaName ?? '--schema'));
  const { sizes } = report;
  line(
    'sizes',
    `total ${sizes.total} B, header ${sizes.header} B, payload ${sizes.payload} B, decompressed ${sizes.decompressed} B`,
  );
  const { avroContainer: avro, arrow } = report;
  if (avro !== undefined) {
    line(
      'container',
      `Avro Object Container File, codec ${avro.codec}, ${count(avro.values, 'value')} in ${count(avro.blocks, 'block')}`,
    );
    if (Object.keys(avro.metadata).length > 0) line('metadata', JSON.stringify(avro.metadata));
  }
  if (arrow !== undefined)
    line(
      'container',
      `Arrow IPC ${arrow.ipc}, ${count(arrow.rows, 'row')} in ${count(arrow.batches, 'record batch', 'record batches')}`,
    );
  // Containers say their counts above; other sequences say here how they were read.
  if (report.sequence !== undefined && avro === undefined && arrow === undefined)
    line('sequence', sequenceText(report.sequence));
  // The declared schema is what there is to see when the values cannot be decoded without one;
  // Arrow rows read without --schema were read by it, so it is shown with them.
  if (!report.decoded && avro !== undefined) block('writer schema', avro.writerSchema);
  if (arrow !== undefined && (!report.decoded || schemaName === undefined))
    block('arrow schema', arrow.schema);
  // Raw Protobuf reads best as protoc prints it (wire types shown); --json has the tree as a value.
  if (report.decoded && report.protobufFields !== undefined)
    lines.push('fields (raw, by number):', ...report.protobufFields.map((field) => `  ${field}`));
  else if (report.decoded) block('value', report.value);
  if (report.note !== undefined) line('note', report.note);
  if (report.hex !== undefined) {
    const { shown, of } = report.hex;
    const what = report.compression === 'none' ? 'payload' : 'decompressed payload';
    line('hex', shown < of ? `first ${shown} of ${of} bytes of the ${what}` : `${of} bytes of the ${what}`);
    lines.push(...report.hex.lines);
    if (shown < of) lines.push(`… ${of - shown} more bytes (--max-bytes N shows more)`);
  }
  return `${lines.join('\n')}\n`;
}

function detectedText(report: Inspection): string {
  if (report.detected === 'envelope') return 'wirekit envelope';
  if (report.detected === 'flag') return '--format (raw payload)';
  if (report.detected === 'legacy') return `no envelope: read by the legacy reader ${report.legacy}`;
  return `sniffed ${report.sniffed.map((kind) => sniffedLabels[kind]).join(', then ')}`;
}

function fingerprintText(report: Inspection, schemaName: string): string {
  const { fingerprint, schemaFingerprint } = report;
  if (fingerprint === null)
    return schemaFingerprint === null ? 'none' : `none (${schemaName} has ${schemaFingerprint})`;
  if (report.fingerprintMatches === null) return fingerprint;
  return report.fingerprintMatches
    ? `${fingerprint} (matches ${schemaName})`
    : `${fingerprint} (does NOT match ${schemaName}, which has ${schemaFingerprint})`;
}

function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}
