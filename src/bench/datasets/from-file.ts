/**
 * A dataset from the user's own file (`wirekit bench --data FILE [--schema S.json]`): JSON, a JSON
 * array or NDJSON, read through the schema's JSON form of values (so timestamps become Dates and
 * int64 strings bigints), with a schema given or inferred. Measuring on real data is the point of
 * the lab; the built-in datasets only stand in for it.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import { defaultDecodeLimits } from '../../codecs/limits.js';
import { WirekitError } from '../../errors/index.js';
import { fromJsonValue, inferSchema, type ObjectSchema, schemaFromJson } from '../../schema/index.js';
import { inputTooLarge } from '../../util/input-limit.js';
import { parseJsonSamples, parseJsonText } from '../../util/json-samples.js';
import type { Dataset } from './dataset.js';

export interface FileDatasetSpec {
  readonly dataFile: string;
  readonly schemaFile?: string;
  /** 'batch' (default): the whole file as one array; 'item': each value on its own, as a cache sees it. */
  readonly unit?: 'batch' | 'item';
  /** The most bytes read from either file (default the decoders' maxInputBytes, 64 MiB). */
  readonly maxInputBytes?: number;
}

export function datasetFromFile(spec: FileDatasetSpec): Dataset {
  const samples = parseJsonSamples(read(spec.dataFile, limitOf(spec)), spec.dataFile);
  if (samples.length === 0) throw new WirekitError('WK_CLI_INPUT', `${spec.dataFile} holds no values.`);
  const schema =
    spec.schemaFile === undefined
      ? inferSchema(samples, { name: 'Item' })
      : schemaFromJson(parseJsonText(read(spec.schemaFile, limitOf(spec)), spec.schemaFile));
  if (schema.kind !== 'object') {
    throw new WirekitError(
      'WK_CLI_INPUT',
      `the lab measures records: the schema of one value must be an object, not ${schema.kind}.`,
    );
  }
  const values = samples.map((sample) => fromJsonValue(schema, sample));
  return {
    name: basename(spec.dataFile),
    description: `${spec.dataFile} (${values.length} values${spec.schemaFile === undefined ? ', inferred schema' : ''})`,
    schema: schema as ObjectSchema,
    defaultCount: values.length,
    unit: spec.unit ?? 'batch',
    // A file is what it is: the count can only shorten it, and the seed does not apply.
    generate: (count = values.length) => values.slice(0, count),
  };
}

function limitOf(spec: FileDatasetSpec): number {
  return spec.maxInputBytes ?? defaultDecodeLimits.maxInputBytes;
}

/**
 * The file as text, read in chunks and never past `maxBytes`: a FIFO or /dev/zero given as data
 * stops at the limit instead of filling memory.
 */
function read(path: string, maxBytes: number): string {
  const chunks: Buffer[] = [];
  let size = 0;
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(chunkBytes, maxBytes + 1 - size));
      const got = readSync(fd, chunk, 0, chunk.length, null);
      if (got === 0) break;
      size += got;
      if (size > maxBytes) throw inputTooLarge(path, maxBytes);
      chunks.push(chunk.subarray(0, got));
    }
  } catch (cause) {
    if (cause instanceof WirekitError) throw cause;
    throw new WirekitError('WK_CLI_INPUT', `cannot read ${path}: ${(cause as Error).message}`, { cause });
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

const chunkBytes = 1024 * 1024;
