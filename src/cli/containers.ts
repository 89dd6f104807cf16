/**
 * What `wirekit inspect` can tell about Avro container files and Arrow IPC without a wirekit
 * schema: both formats declare their own schema in their first bytes, so that much (and how many
 * values they hold) is readable before anyone says what the values mean. The codecs read these
 * headers only on the way to decoding, through a schema, so the CLI walks them with the codecs'
 * own checked parsers rather than trusting apache-arrow's or avsc's readers with unknown input.
 */

import { Schema as ArrowSchema } from 'apache-arrow';
import { isFile } from '../codecs/arrow/decode/ipc-bytes.js';
import { measureMessage } from '../codecs/arrow/decode/ipc-reader.js';
import { parseFooter, parseMessage } from '../codecs/arrow/decode/messages.js';
import { maxSchemaDepth } from '../codecs/avro/avro-schema.js';
import { measureBlock, measureHeader, parseHeader } from '../codecs/avro/container-format.js';
import { schemaFromAvro } from '../codecs/avro/schema-from-avro.js';
import { malformed, truncated } from '../codecs/core/errors.js';
import { type DecodeLimits, defaultDecodeLimits } from '../codecs/core/limits.js';
import { isWirekitError, WirekitError } from '../errors/index.js';
import { arrowSchemaToJson } from '../schema/export/index.js';
import type { JsonValue, Schema } from '../schema/index.js';
import { toBase64 } from '../util/base64.js';
import { plainBytes } from '../util/plain-bytes.js';

export interface AvroContainerInfo {
  /** The writer's schema from the header's avro.schema entry. */
  readonly writerSchema: JsonValue;
  /** Block compression: null, deflate, snappy or zstandard. */
  readonly codec: string;
  readonly values: number;
  readonly blocks: number;
  /** Metadata other than avro.*, as text (base64 where it is not UTF-8). */
  readonly metadata: Readonly<Record<string, string>>;
}

/**
 * The wirekit schema of the writer schema an Avro container embeds, to read its values by when no
 * reader's schema is given: the file says what it holds, so nothing is guessed.
 */
export function avroContainerSchema(bytes: Uint8Array, limits: DecodeLimits): Schema {
  const headerLength = measureHeader(bytes, limits);
  if (headerLength === undefined || headerLength > bytes.length)
    throw truncated(bytes.length, 'the Avro container header');
  const { schemaText } = parseHeader(bytes.subarray(0, headerLength), limits);
  try {
    return schemaFromAvro(schemaText);
  } catch (error) {
    if (!isWirekitError(error)) throw error;
    throw new WirekitError(
      error.code,
      `the container's writer schema has no wirekit schema (${error.message}); pass --schema S.json to read it by yours.`,
      { cause: error },
    );
  }
}

export function describeAvroContainer(bytes: Uint8Array): AvroContainerInfo {
  const headerLength = measureHeader(bytes, defaultDecodeLimits);
  if (headerLength === undefined || headerLength > bytes.length)
    throw truncated(bytes.length, 'the Avro container header');
  const header = parseHeader(bytes.subarray(0, headerLength), defaultDecodeLimits);
  let values = 0;
  let blocks = 0;
  // Blocks are measured, not decoded: their counts and sizes are two varints in front of each.
  for (let at = headerLength; at < bytes.length; blocks++) {
    const block = measureBlock(bytes.subarray(at));
    if (block === undefined || at + block.total > bytes.length)
      throw truncated(bytes.length, 'an Avro container block');
    values += block.count;
    at += block.total;
  }
  // fromEntries defines each key as an own property: a writer's `__proto__` key stays a key.
  const metadata: Record<string, string> = Object.fromEntries(
    [...header.metadata]
      .filter(([key]) => !key.startsWith('avro.'))
      .map(([key, value]) => [key, text(value)]),
  );
  return { writerSchema: parseOrText(header.schemaText), codec: header.codec, values, blocks, metadata };
}

export interface ArrowInfo {
  readonly ipc: 'file' | 'stream';
  /** The schema the input declares, in the shape of Arrow's integration JSON. */
  readonly schema: JsonValue;
  readonly rows: number;
  readonly batches: number;
}

export function describeArrow(input: Uint8Array): ArrowInfo {
  const bytes = plainBytes(input);
  const file = isFile(bytes);
  // A file is "ARROW1" and 2 bytes of padding, the stream format, a footer, its length, "ARROW1".
  const start = file ? 8 : 0;
  const stop = file ? footerStart(bytes) : bytes.length;
  let schema: ArrowSchema | undefined;
  if (stop < bytes.length) {
    // A file's schema is in its footer; writers may leave the schema message out of the body.
    const footer = parseFooter(bytes.subarray(stop, bytes.length - 10), stop, defaultDecodeLimits);
    schema = new ArrowSchema([...footer.fields], footer.metadata);
  }
  let rows = 0;
  let batches = 0;
  for (let at = start; at < stop; ) {
    const size = measureMessage(bytes, at, stop, 0);
    if (size === undefined || at + size.total > stop) throw truncated(stop, 'an Arrow message');
    if (size.metadataLength === 0) break; // the end-of-stream marker
    const metadata = bytes.subarray(at + size.prefix, at + size.prefix + size.metadataLength);
    const { body } = parseMessage(metadata, at + size.prefix, defaultDecodeLimits);
    if (body.kind === 'schema') schema ??= new ArrowSchema([...body.fields], body.metadata);
    else if (body.kind === 'batch') {
      rows += body.batch.length;
      batches++;
    }
    at += size.total;
  }
  if (schema === undefined) throw malformed(start, 'the input declares no schema', 'arrow');
  return { ipc: file ? 'file' : 'stream', schema: arrowSchemaToJson(schema), rows, batches };
}

/** Where a file's footer starts, from the trailer (footer length, "ARROW1"); the end if it has none. */
function footerStart(bytes: Uint8Array): number {
  const length = bytes.length;
  if (length < 18 || !isFile(bytes.subarray(length - 6))) return length;
  const footerLength = new DataView(bytes.buffer, bytes.byteOffset, length).getInt32(length - 10, true);
  const start = length - 10 - footerLength;
  return footerLength >= 0 && start >= 8 ? start : length;
}

function parseOrText(schemaText: string): JsonValue {
  let schema: JsonValue;
  try {
    schema = JSON.parse(schemaText) as JsonValue;
  } catch {
    // Readers accept a bare primitive name (long, not "long") as a schema.
    return schemaText;
  }
  // Shown as JSON, so printed by a recursive JSON.stringify: a hostile header nested thousands deep
  // would overflow the stack. Each Avro level takes at most three JSON levels (a record's fields
  // list, a field, its type), so anything deeper than this is a schema no Avro reader here reads.
  if (nestsDeeperThan(schema, 3 * maxSchemaDepth + 1)) {
    throw malformed(
      0,
      `the embedded Avro schema nests deeper than ${maxSchemaDepth} levels, more than wirekit reads`,
    );
  }
  return schema;
}

/** Whether arrays and objects nest deeper than `limit` in `value`; iterative, so any depth is safe. */
function nestsDeeperThan(value: JsonValue, limit: number): boolean {
  const stack: [JsonValue, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [JsonValue, number];
    if (typeof node !== 'object' || node === null) continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function text(bytes: Uint8Array): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return toBase64(bytes);
  }
}
