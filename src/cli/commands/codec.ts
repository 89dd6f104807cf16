/** `wirekit encode` (JSON in, bytes out) and `wirekit decode` (bytes in, JSON out). */
import { writeFile } from 'node:fs/promises';
import {
  type Codec,
  createCodec,
  defaultDecodeLimits,
  type FormatName,
  factsOf,
  findFormat,
} from '../../codecs/index.js';
import { type CompressionName, compressionNames, getCompressor } from '../../compression/index.js';
import { decodeAnyAsync, encodeEnvelopedAsync } from '../../envelope/index.js';
import { WirekitError } from '../../errors/index.js';
import { fromJsonValue, type Schema, schemaFromJson, t, toJsonValue } from '../../schema/index.js';
import { deref } from '../../schema/walk.js';
import { type JsonDocument, parseJsonDocument, parseJsonText } from '../../util/json-samples.js';
import { avroContainerSchema } from '../container-schema.js';
import {
  allocationLimitOf,
  type CliIo,
  decodeLimitOptions,
  decompressionRatioOf,
  inputLimitOf,
  inputLimitOption,
  readInput,
} from '../io.js';
import { toReadableJson } from '../readable-json.js';
import {
  type AnyCodec,
  framingLabels,
  isAvroContainer,
  readPayload,
  sequenceFraming,
  sequenceNeedsFormat,
} from '../sequences.js';
import { parseCommand, usageError } from '../usage.js';

export const codecHelp = `Usage:
  wirekit encode --format F [--schema S.json] [--sequence] [--compress C] [--envelope] [--in FILE] [--out FILE]
      Reads JSON (with a schema: the schema's JSON form of values, so int64 may be a number or a
      string, bytes base64, timestamps ISO-8601) and writes it in format F. A JSON array or NDJSON
      of items, with a schema of one item (what 'schema infer' prints for an array), is written as
      a sequence in F's framing: NDJSON, MessagePack values back to back, a CBOR sequence,
      varint-delimited Protobuf messages, an Avro container file, size-prefixed FlatBuffers.
      --sequence says so where the input could also be one value (no schema, or one that takes
      an array). For arrow the input is the rows (JSON array or NDJSON), the schema one row's.
  wirekit decode --format F|auto [--schema S.json] [--sequence] [--ndjson] [--compress C] [--in FILE] [--out FILE]
      Reads bytes and prints JSON. 'auto' reads the envelope (written with --envelope) to learn the
      format and compression. It reads exactly one value: bytes after it are refused
      (WK_DECODE_TRAILING; the error says when they read as a sequence). --sequence reads a
      sequence in F's framing (for json also a JSON array of items, given a schema of one item),
      printed as a JSON array, or one item per line with --ndjson, written as the items are
      decoded. An Avro container file and an Arrow stream hold several values by their own
      account: they need no --sequence, and a container without --schema is read by the writer
      schema it carries. --compress C undoes compression C first (brotli included: it has no
      signature, so it is never guessed).
  --max-input-bytes N   read at most N bytes of input (default 64 MiB; K, M, G suffixes), and let
                        the decoder take as many
  --max-allocated-bytes N   decode: the memory a decoded value may take, as the decoder estimates
                        it (default four times --max-input-bytes: 256 MiB)
  --max-decompression-ratio R   decode: refuse compressed input that inflates to more than R times
                        its size (default 1000; outputs up to 1 MiB always pass; none: no ratio cap)
  Without --in/--out, standard input and output are used.
  Formats: json, msgpack, cbor, protobuf, avro, flatbuffers, arrow (protobuf, avro and flatbuffers
  need --schema; arrow needs one to encode, and decodes without one by the stream's own schema).
  Compression: ${compressionNames.join(', ')}.`;

const common = {
  format: { type: 'string' },
  schema: { type: 'string' },
  in: { type: 'string' },
  out: { type: 'string' },
  compress: { type: 'string' },
  sequence: { type: 'boolean' },
  ...inputLimitOption,
} as const;

export async function encodeCommand(args: readonly string[], io: CliIo): Promise<void> {
  const { values } = parseCommand(args, { ...common, envelope: { type: 'boolean' } });
  const compression = compressionOf(values.compress) ?? 'none';
  const format = requireFormat(values.format, false);
  const limit = inputLimitOf(values);
  const schema = await readSchema(io, values.schema);
  const codec = createCodec(format, { schema });
  const source = values.in ?? '-';
  const name = source === '-' ? 'standard input' : source;
  const input = parseJsonInput((await readInput(io, source, limit)).toString('utf8'), name);
  const plan = planEncoding(format, schema, input, values.sequence === true);
  if (plan.items !== undefined) {
    if (values.envelope) {
      throw usageError(
        `${plan.why}: an envelope holds one value, so give a schema for the array to envelope them as one, or leave out --envelope to write them as ${framingLabels[sequenceFraming[format]]}.`,
      );
    }
    if (plan.said)
      io.stderr.write(
        `wirekit: ${plan.why}: wrote them as ${framingLabels[sequenceFraming[format]]} (decode --sequence reads them back).\n`,
      );
    const bytes = codec.encodeSequence(plan.items);
    await writeOutput(io, values.out, await getCompressor(compression).compressAsync(bytes));
    return;
  }
  const bytes = values.envelope
    ? await encodeEnvelopedAsync(codec as Codec<unknown>, plan.value, { compression })
    : await getCompressor(compression).compressAsync(codec.encode(plan.value));
  await writeOutput(io, values.out, bytes);
}

/** What the input file held: one JSON value, or NDJSON lines. */
type JsonInput = JsonDocument;

function parseJsonInput(text: string, source: string): JsonInput {
  return parseJsonDocument(text, source);
}

interface EncodingPlan {
  /** The one value to encode (with a schema: in its shape), unless `items` is set. */
  readonly value?: unknown;
  /** The items of a sequence, when the input is one. */
  readonly items?: unknown[];
  /** Why the input is a sequence, for messages. */
  readonly why?: string;
  /** Whether the choice was made without --sequence, and is worth saying. */
  readonly said?: boolean;
}

/**
 * One value or a sequence: NDJSON is always a sequence; a JSON array is one when --sequence says
 * so, or when the schema describes one item rather than the array. Arrow takes the rows either way.
 */
function planEncoding(
  format: FormatName,
  schema: Schema | undefined,
  input: JsonInput,
  sequence: boolean,
): EncodingPlan {
  const shape = (value: unknown, of: Schema) => fromJsonValue(of, value);
  if (factsOf(format).carries === 'rows') {
    const rows = 'lines' in input ? input.lines : Array.isArray(input.value) ? input.value : [input.value];
    return { value: schema === undefined ? rows : shape(rows, t.array(schema)) };
  }
  const items = (list: unknown[]) =>
    schema === undefined ? list : (shape(list, t.array(schema)) as unknown[]);
  if ('lines' in input) {
    return {
      items: items(input.lines),
      why: `the input is NDJSON of ${count(input.lines.length)}`,
      said: !sequence,
    };
  }
  const { value } = input;
  if (sequence) {
    if (!Array.isArray(value)) {
      throw new WirekitError(
        'WK_CLI_INPUT',
        `--sequence takes a JSON array or NDJSON of items, and the input is one ${jsonKind(value)}: leave out --sequence to write it as one value.`,
      );
    }
    return { items: items(value) };
  }
  if (schema === undefined) return { value };
  try {
    return { value: shape(value, schema) };
  } catch (error) {
    if (!Array.isArray(value) || deref(schema).kind === 'array') throw error;
    const why = `the input is a JSON array of ${count(value.length)} and the schema describes one ${schemaName(schema)}`;
    try {
      return { items: items(value), why, said: true };
    } catch (itemError) {
      throw new WirekitError(
        'WK_JSON_VALUE_INVALID',
        `${why}, so it would be written as a sequence, but an item does not fit: ${(itemError as Error).message} Fix the item, or give a schema for the array (whose items it describes).`,
        { path: (itemError as WirekitError).path, cause: itemError },
      );
    }
  }
}

export async function decodeCommand(args: readonly string[], io: CliIo): Promise<void> {
  const { values } = parseCommand(args, { ...common, ...decodeLimitOptions, ndjson: { type: 'boolean' } });
  const limit = inputLimitOf(values);
  const limits = { maxInputBytes: limit, maxAllocatedBytes: allocationLimitOf(values, limit) };
  const caps = { maxDecompressedBytes: limit, maxDecompressionRatio: decompressionRatioOf(values) };
  const compression = compressionOf(values.compress);
  const ndjson = values.ndjson === true;
  const schema = await readSchema(io, values.schema);
  if (values.format === 'auto') {
    if (values.sequence) throw sequenceNeedsFormat();
    if (compression !== undefined)
      throw usageError('--compress describes a raw payload; an envelope names its own compression.');
    const bytes = await readInput(io, values.in ?? '-', limit);
    const decoded = await decodeAnyAsync(bytes, { schema, limits, ...caps });
    const rows = factsOf(decoded.header.format).carries === 'rows';
    const output = new JsonOutput(io, values.out, ndjson, itemJson(schema));
    if (rows) for (const row of decoded.value as unknown[]) output.item(row);
    else output.single(decoded.value);
    return output.end();
  }
  const format = requireFormat(values.format, true);
  const bytes = await readInput(io, values.in ?? '-', limit);
  const plain =
    compression === undefined ? bytes : await getCompressor(compression).decompressAsync(bytes, caps);
  // An Avro container carries its writer's schema: without a reader's, its values read by that one.
  const itemSchema =
    schema === undefined && format === 'avro' && isAvroContainer(plain)
      ? avroContainerSchema(plain, { ...defaultDecodeLimits, ...limits })
      : schema;
  // Avro containers inflate their blocks themselves, under the same ratio.
  const codecOptions = { schema: itemSchema, limits, maxDecompressionRatio: caps.maxDecompressionRatio };
  const codec = createCodec(format, codecOptions) as AnyCodec;
  const output = new JsonOutput(io, values.out, ndjson, itemJson(itemSchema));
  // A JSON array of items, read with a schema of one item (what encode takes as a sequence).
  const arrayCodec =
    format === 'json' && itemSchema !== undefined && !mayBeArray(itemSchema)
      ? createCodec('json', { schema: t.array(itemSchema), limits })
      : undefined;
  if (values.sequence && format !== 'arrow') {
    if (arrayCodec !== undefined && startsWithBracket(plain)) {
      for (const item of arrayCodec.decode(plain) as unknown[]) output.item(item);
      return output.end();
    }
    // The items are written as they are decoded; a failure part way ends the output there.
    try {
      for await (const item of (codec as Codec<unknown>).decodeStream(once(plain))) output.item(item);
    } catch (error) {
      output.flush();
      throw error;
    }
    return output.end();
  }
  // Exactly one value (or what says it holds several: an Avro container, Arrow rows).
  const read = readPayload(codec, plain, { sequence: false, guess: false, arrayCodec });
  if (read.note !== undefined) io.stderr.write(`wirekit: note: ${read.note}.\n`);
  if (read.sequence === undefined) output.single(read.value);
  else for (const item of read.value as unknown[]) output.item(item);
  return output.end();
}

/** Whether a value of `schema` may be an array, so that a JSON array could be one item. */
function mayBeArray(schema: Schema): boolean {
  const node = deref(schema);
  if (node.kind === 'optional' || node.kind === 'nullable') return mayBeArray(node.inner);
  return node.kind === 'array' || node.kind === 'json';
}

/** Whether JSON text starts with '[' (after white space): a JSON array, not NDJSON of items. */
function startsWithBracket(bytes: Uint8Array): boolean {
  for (const byte of bytes) {
    if (byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d) continue;
    return byte === 0x5b;
  }
  return false;
}

/**
 * Decoded values out as JSON: one value, or items as a JSON array (laid out as
 * JSON.stringify(items, null, 2) lays it out) or NDJSON, each written as it comes. Standard output
 * gets the text in writes of about 64 KiB as it goes (a write per item would cost a system call
 * per item); a file is written at the end.
 */
class JsonOutput {
  private items = 0;
  private readonly parts: string[] = [];
  private pending = '';

  constructor(
    private readonly io: CliIo,
    private readonly path: string | undefined,
    private readonly ndjson: boolean,
    private readonly toJson: (value: unknown) => unknown,
  ) {}

  single(value: unknown): void {
    const json = this.toJson(value);
    this.write(this.ndjson ? `${JSON.stringify(json)}\n` : `${JSON.stringify(json, null, 2)}\n`);
    this.items = -1;
  }

  item(value: unknown): void {
    const json = this.toJson(value);
    if (this.ndjson) this.write(`${JSON.stringify(json)}\n`);
    else
      this.write(`${this.items === 0 ? '[\n' : ',\n'}${JSON.stringify(json, null, 2).replace(/^/gm, '  ')}`);
    this.items++;
  }

  async end(): Promise<void> {
    if (!this.ndjson && this.items >= 0) this.write(this.items === 0 ? '[]\n' : '\n]\n');
    if (this.path !== undefined && this.path !== '-') await writeFile(this.path, this.parts.join(''));
    else this.flush();
  }

  /** Writes out what standard output has not been given yet. */
  flush(): void {
    if (this.pending !== '') this.io.stdout.write(this.pending);
    this.pending = '';
  }

  private write(text: string): void {
    if (this.path !== undefined && this.path !== '-') {
      this.parts.push(text);
      return;
    }
    this.pending += text;
    if (this.pending.length >= 64 * 1024) {
      this.io.stdout.write(this.pending);
      this.pending = '';
    }
  }
}

/** With a schema, values take the schema's JSON form; without, the readable form of whatever decoded. */
function itemJson(schema: Schema | undefined): (value: unknown) => unknown {
  return schema === undefined ? toReadableJson : (value) => toJsonValue(schema, value);
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

function compressionOf(text: string | undefined): CompressionName | undefined {
  if (text !== undefined && !(compressionNames as readonly string[]).includes(text))
    throw usageError(`--compress is one of ${compressionNames.join(', ')}.`);
  return text as CompressionName | undefined;
}

function requireFormat(format: string | undefined, allowAuto: boolean) {
  const name = format === undefined ? undefined : findFormat(format);
  if (name === undefined) {
    throw usageError(
      `--format is one of json, msgpack, cbor, protobuf, avro, flatbuffers, arrow${allowAuto ? ', auto' : ''}.`,
    );
  }
  return name;
}

export async function readSchema(io: CliIo, path: string | undefined): Promise<Schema | undefined> {
  if (path === undefined) return undefined;
  return schemaFromJson(parseJsonText((await readInput(io, path)).toString('utf8'), path));
}

async function writeOutput(io: CliIo, path: string | undefined, data: Uint8Array | string): Promise<void> {
  if (path === undefined || path === '-') io.stdout.write(data);
  else await writeFile(path, data);
}

function schemaName(schema: Schema): string {
  const node = deref(schema);
  return 'name' in node && typeof node.name === 'string' ? node.name : node.kind;
}

function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  return typeof value === 'object' ? 'object' : typeof value;
}

function count(n: number): string {
  return `${n} ${n === 1 ? 'item' : 'items'}`;
}
