/**
 * A dataset from the user's own file (`wirekit bench --data FILE [--schema S.json] [--path P]`):
 * JSON, a JSON array or NDJSON, read through the schema's JSON form of values (so timestamps become
 * Dates and int64 strings bigints), with a schema given or inferred. Measuring on real data is the
 * point of the lab; the built-in datasets only stand in for it.
 *
 * Many files wrap their records in one object (`{"orders": [...]}`). Measured as they are, they are
 * one value, and the lab's figures are those of one big document, not of the records: the dataset
 * says what it measured, and for that shape names the `--path` that selects the records instead.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import { defaultDecodeLimits } from '../../codecs/index.js';
import { WirekitError } from '../../errors/index.js';
import { fromJsonValue, inferSchema, type ObjectSchema, schemaFromJson } from '../../schema/index.js';
import { inputTooLarge } from '../../util/input-limit.js';
import {
  bigIntsAsDigits,
  type FirstBigInteger,
  markBigIntegers,
  restoreBigIntegers,
} from '../../util/json-big-integers.js';
import { parseJsonSamples, parseJsonText } from '../../util/json-samples.js';
import type { Dataset } from './dataset.js';

export interface FileDatasetSpec {
  readonly dataFile: string;
  readonly schemaFile?: string;
  /** 'batch' (default): the whole file as one array; 'item': each value on its own, as a cache sees it. */
  readonly unit?: 'batch' | 'item';
  /**
   * A dotted path from each JSON value of the file (the document, or each NDJSON line) to the array
   * whose items are the values to measure: `orders`, `data.items`; a number indexes an array
   * (`pages.0.rows`). Without it a JSON array's items, or the NDJSON lines, are the values.
   */
  readonly path?: string;
  /** The most bytes read from either file (default the decoders' maxInputBytes, 64 MiB). */
  readonly maxInputBytes?: number;
}

export interface FileDataset extends Dataset {
  /** What was measured, in one sentence: how many values, from where, with which schema. */
  readonly measured: string;
  /** Set when the values are probably not what the user meant to measure, with what to do instead. */
  readonly notice?: string;
  /**
   * Set when the file holds integers beyond 2^53: that they were read exactly (where, and what
   * JSON.parse would have made of the first), or, past 64 bits, that they were rounded.
   */
  readonly integers?: BigIntegerNote;
}

/** What the lab says about integers beyond 2^53 in a file. */
export interface BigIntegerNote {
  readonly text: string;
  /** Some were rounded (past 64 bits): the note is a warning. */
  readonly warning: boolean;
  /** How many were read exactly, as bigints. */
  readonly exact: number;
}

export function datasetFromFile(spec: FileDatasetSpec): FileDataset {
  const source = spec.dataFile;
  // Each JSON value of the file: the whole document, or one per NDJSON line, with big integers exact.
  const { documents, integers } = readDocuments(read(source, limitOf(spec)), source);
  const single = documents.length === 1 ? documents[0] : undefined;
  let samples: unknown[];
  let shape: string;
  if (spec.path !== undefined) {
    const path = spec.path;
    samples = documents.flatMap((document, i) =>
      select(document, path, documents.length === 1 ? source : `${source}, line ${i + 1}`),
    );
    shape =
      documents.length === 1
        ? `the array at ${path}`
        : `the arrays at ${path} in its ${documents.length} lines`;
  } else if (Array.isArray(single)) {
    samples = single;
    shape = 'a JSON array';
  } else {
    samples = documents;
    shape = documents.length === 1 ? 'one JSON value' : `NDJSON, one value per line`;
  }
  if (samples.length === 0) throw new WirekitError('WK_CLI_INPUT', `${source} holds no values.`);
  const schema =
    spec.schemaFile === undefined
      ? inferSchema(samples, { name: 'Item' })
      : schemaFromJson(parseJsonText(read(spec.schemaFile, limitOf(spec)), spec.schemaFile));
  if (schema.kind !== 'object') {
    throw new WirekitError(
      'WK_CLI_INPUT',
      `the lab measures records: the schema of one value must be an object, not ${schema.kind}` +
        (spec.path === undefined ? '' : ` (the items at --path ${spec.path})`) +
        '.',
    );
  }
  // Exact integers reach the values through their JSON form, strings of digits, as int64 reads them.
  const values = samples.map((sample) =>
    fromJsonValue(schema, (integers?.exact ?? 0) > 0 ? bigIntsAsDigits(sample) : sample),
  );
  const count = values.length;
  const measured =
    `${count.toLocaleString('en')} value${count === 1 ? '' : 's'} from ${source} (${shape}), with ` +
    (spec.schemaFile === undefined ? 'an inferred schema' : `the schema in ${spec.schemaFile}`);
  const wrapped = spec.path === undefined && count === 1 ? findWrappedArray(samples[0]) : undefined;
  return {
    name: basename(source),
    description: `${source} (${count} values${spec.schemaFile === undefined ? ', inferred schema' : ''})`,
    measured,
    ...(wrapped === undefined ? {} : { notice: wrapperNotice(source, samples[0], wrapped) }),
    ...(integers === undefined ? {} : { integers }),
    schema: schema as ObjectSchema,
    defaultCount: count,
    unit: spec.unit ?? 'batch',
    // A file is what it is: the count can only shorten it, and the seed does not apply.
    generate: (n = count) => values.slice(0, n),
  };
}

/**
 * The file's JSON values, each integer beyond 2^53 (within 64 bits) a bigint rather than the double
 * JSON.parse would round it to, and what to tell the user about such integers.
 */
function readDocuments(text: string, source: string): { documents: unknown[]; integers?: BigIntegerNote } {
  const marked = markBigIntegers(text);
  const rounded =
    marked.rounded.length === 0
      ? undefined
      : `${marked.rounded.length.toLocaleString('en')} integer${marked.rounded.length === 1 ? '' : 's'} in ${source} ` +
        `lie beyond 64 bits (the first: ${marked.rounded[0]}), so no int64 holds them: JSON.parse rounded them to ` +
        `doubles (${Number(marked.rounded[0])}) before anything was measured, and a round trip called lossless ` +
        'keeps only those doubles.';
  if (marked.text === undefined) {
    const documents = parseJsonSamples(text, source, true);
    return rounded === undefined
      ? { documents }
      : { documents, integers: { text: rounded, warning: true, exact: 0 } };
  }
  let parsed: unknown[];
  try {
    parsed = parseJsonSamples(marked.text, source, true);
  } catch (error) {
    // The marks moved every later column: the original text's error says where the fault is.
    parseJsonSamples(text, source, true);
    throw error;
  }
  const restored = restoreBigIntegers(parsed, marked.marker);
  const first = restored.first as FirstBigInteger;
  // Spelled as the round trip check spells places: $[0].id, $.id.
  const place = first.path === '(root)' ? '$' : `$${first.path.startsWith('[') ? '' : '.'}${first.path}`;
  const where = `${place}${parsed.length === 1 ? '' : ` on line ${first.index + 1}`}`;
  const exact =
    `${restored.exact.toLocaleString('en')} integer${restored.exact === 1 ? '' : 's'} beyond 2^53 read exactly, as int64 ` +
    `(bigint): the first, ${first.digits} at ${where}, is one JSON.parse would have rounded to ${Number(first.digits)}.`;
  return {
    documents: restored.values,
    integers: {
      text: rounded === undefined ? exact : `${exact} But ${rounded}`,
      warning: rounded !== undefined,
      exact: restored.exact,
    },
  };
}

/** The array a path leads to in one JSON value; anything else is the user's to fix (WK_CLI_INPUT). */
function select(document: unknown, path: string, source: string): unknown[] {
  const segments = path.split('.');
  let node = document;
  for (const [i, segment] of segments.entries()) {
    const at = segments.slice(0, i + 1).join('.');
    if (Array.isArray(node) && /^(0|[1-9][0-9]*)$/.test(segment) && Number(segment) < node.length) {
      node = node[Number(segment)];
    } else if (isPlainObject(node) && Object.hasOwn(node, segment)) {
      node = node[segment];
    } else {
      const here = i === 0 ? 'the top level' : segments.slice(0, i).join('.');
      throw new WirekitError(
        'WK_CLI_INPUT',
        `--path ${path}: ${source} has nothing at ${at} (${here} is ${describe(node)}).`,
      );
    }
  }
  if (!Array.isArray(node)) {
    throw new WirekitError(
      'WK_CLI_INPUT',
      `--path ${path}: in ${source} it leads to ${describe(node)}, not to an array of the values to measure.`,
    );
  }
  return node;
}

export interface WrappedArray {
  /** The keys from the top to the array, for --path. */
  readonly path: readonly string[];
  readonly items: number;
}

/**
 * In one JSON object that wraps a big array (`{"orders": [...]}`, `{"data": {"items": [...]}}`),
 * that array: found by following, a few levels down at most, the property that holds most of the
 * object's JSON text, until it is an array of at least two items.
 */
export function findWrappedArray(value: unknown): WrappedArray | undefined {
  const path: string[] = [];
  let node = value;
  for (let depth = 0; depth < 4 && isPlainObject(node); depth++) {
    let total = 0;
    let heaviest: { key: string; size: number } | undefined;
    for (const [key, child] of Object.entries(node)) {
      const size = jsonLength(child);
      total += size;
      if (heaviest === undefined || size > heaviest.size) heaviest = { key, size };
    }
    // Dominant: at least half of the object's text. An object of many similar fields is a record.
    if (heaviest === undefined || heaviest.size * 2 < total) return undefined;
    path.push(heaviest.key);
    node = node[heaviest.key];
    if (Array.isArray(node)) return node.length >= 2 ? { path, items: node.length } : undefined;
  }
  return undefined;
}

function wrapperNotice(source: string, value: unknown, wrapped: WrappedArray): string {
  const where = wrapped.path.map((key) => JSON.stringify(key)).join(' → ');
  const intro =
    `${source} is one JSON object, so the lab measured it as ONE value (${jsonLength(value).toLocaleString('en')} ` +
    `characters of JSON), not the ${wrapped.items.toLocaleString('en')} items of its ${where} array.`;
  // A key with a dot (or no character at all) cannot be spelled in a dotted path.
  const spellable = wrapped.path.every((key) => key !== '' && !key.includes('.'));
  return spellable
    ? `${intro} To measure those items, run it again with --path ${wrapped.path.join('.')}.`
    : `${intro} Its keys cannot be written as a --path; save the array on its own (a JSON array or NDJSON) and measure that.`;
}

function jsonLength(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    // Integers read exactly are bigints, which JSON.stringify refuses: counted by their digits.
    return JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? v.toString() : v))?.length ?? 0;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    const shown = keys.slice(0, 8).map((key) => JSON.stringify(key));
    return keys.length === 0
      ? 'an empty object'
      : `an object with ${shown.join(', ')}${keys.length > shown.length ? `, … (${keys.length} keys)` : ''}`;
  }
  return value === null ? 'null' : `a ${typeof value}`;
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
