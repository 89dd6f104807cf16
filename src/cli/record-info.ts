/**
 * What `wirekit inspect kafka://…` shows of a record besides its value: where it sits, when it was
 * written, its key and headers. Keys and header values are bytes; they are shown as text when
 * they are printable UTF-8 (as they mostly are), else as base64, and the JSON says which.
 */
import { toBase64 } from '../util/base64.js';
import type { KafkaRecord } from './commands/kafka-record.js';
import { printableText } from './printable-text.js';

export type ShownBytes = { readonly utf8: string } | { readonly base64: string };

export interface RecordInfo {
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
  /** The record's timestamp as ISO text, and as the milliseconds it carries. */
  readonly timestamp: string | null;
  readonly timestampMs: number;
  /** null when the record has no key. */
  readonly key: ShownBytes | null;
  readonly headers: readonly ({ readonly name: string } & ShownBytes)[];
}

function shownBytes(bytes: Uint8Array): ShownBytes {
  const text = printableText(bytes);
  return text === undefined ? { base64: toBase64(bytes) } : { utf8: text };
}

export function recordInfoOf(record: KafkaRecord): RecordInfo {
  const time = new Date(record.timestamp);
  return {
    topic: record.topic,
    partition: record.partition,
    offset: record.offset,
    timestamp: Number.isNaN(time.getTime()) ? null : time.toISOString(),
    timestampMs: record.timestamp,
    key: record.key === null ? null : shownBytes(record.key),
    headers: record.headers.map(([name, value]) => ({ name, ...shownBytes(value) })),
  };
}

/** The labelled lines of the record, for the text layouts. */
export function recordLines(info: RecordInfo): [string, string][] {
  const show = (bytes: ShownBytes) =>
    'utf8' in bytes ? JSON.stringify(bytes.utf8) : `base64 ${bytes.base64} (not UTF-8 text)`;
  return [
    ['record', `topic ${info.topic}, partition ${info.partition}, offset ${info.offset}`],
    [
      'timestamp',
      info.timestamp === null ? String(info.timestampMs) : `${info.timestamp} (${info.timestampMs})`,
    ],
    ['key', info.key === null ? 'none' : show(info.key)],
    [
      'headers',
      info.headers.length === 0
        ? 'none'
        : info.headers.map((header) => `${header.name}=${show(header)}`).join(', '),
    ],
  ];
}
