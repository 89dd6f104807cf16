/**
 * What an Avro Object Container File says of itself without a wirekit schema: the writer's schema
 * its header embeds, its block codec and metadata, and how many values and blocks it holds, for
 * `wirekit inspect` and for `wirekit decode`, which reads a container's values by that schema.
 * The header is read with the codec's own checked parser (container-format.ts); blocks are
 * measured, not decoded: their counts and sizes are two varints in front of each.
 */
import type { JsonValue } from '../../../schema/index.js';
import { toBase64 } from '../../../util/base64.js';
import { malformed, truncated } from '../../core/errors.js';
import { type DecodeLimits, defaultDecodeLimits } from '../../core/limits.js';
import { maxSchemaDepth } from '../avro-schema.js';
import { type ContainerHeader, measureBlock, measureHeader, parseHeader } from '../container-format.js';

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

/** The text of the writer's schema the container's header embeds (its avro.schema entry). */
export function containerSchemaText(bytes: Uint8Array, limits: DecodeLimits): string {
  return headerOf(bytes, limits).schemaText;
}

export function describeAvroContainer(bytes: Uint8Array): AvroContainerInfo {
  const header = headerOf(bytes, defaultDecodeLimits);
  let values = 0;
  let blocks = 0;
  for (let at = header.length; at < bytes.length; blocks++) {
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

/** The header at the start of `bytes`, and its length in bytes. */
function headerOf(bytes: Uint8Array, limits: DecodeLimits): ContainerHeader & { readonly length: number } {
  const length = measureHeader(bytes, limits);
  if (length === undefined || length > bytes.length)
    throw truncated(bytes.length, 'the Avro container header');
  return { ...parseHeader(bytes.subarray(0, length), limits), length };
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
