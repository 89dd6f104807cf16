/** `wirekit encode` (JSON in, bytes out) and `wirekit decode` (bytes in, JSON out). */
import { writeFile } from 'node:fs/promises';
import type { Codec } from '../../codecs/codec.js';
import { createCodec, findFormat } from '../../codecs/registry.js';
import { type CompressionName, compressionNames, getCompressor } from '../../compression/index.js';
import { decodeAnyAsync, encodeEnvelopedAsync } from '../../envelope/index.js';
import { fromJsonValue, type Schema, schemaFromJson, t, toJsonValue } from '../../schema/index.js';
import { parseJsonSamples, parseJsonText } from '../../util/json-samples.js';
import { type CliIo, readInput } from '../io.js';
import { toReadableJson } from '../readable-json.js';
import { parseCommand, usageError } from '../usage.js';

export const codecHelp = `Usage:
  wirekit encode --format F [--schema S.json] [--compress C] [--envelope] [--in FILE] [--out FILE]
      Reads JSON (with a schema: the schema's JSON form of values, so int64 may be a number or a
      string, bytes base64, timestamps ISO-8601) and writes it in format F. For arrow the input is
      an array of rows (JSON array or NDJSON) and the schema describes one row.
  wirekit decode --format F|auto [--schema S.json] [--in FILE] [--out FILE]
      Reads bytes and prints JSON. 'auto' reads the envelope (written with --envelope) to learn the
      format and compression. Without --in/--out, standard input and output are used.
  Formats: json, msgpack, cbor, protobuf, avro, flatbuffers, arrow (protobuf, avro and flatbuffers
  need --schema; arrow needs one to encode, and decodes without one by the stream's own schema).
  Compression: ${compressionNames.join(', ')}.`;

const common = {
  format: { type: 'string' },
  schema: { type: 'string' },
  in: { type: 'string' },
  out: { type: 'string' },
} as const;

export async function encodeCommand(args: readonly string[], io: CliIo): Promise<void> {
  const { values } = parseCommand(args, {
    ...common,
    compress: { type: 'string' },
    envelope: { type: 'boolean' },
  });
  const compression = (values.compress ?? 'none') as CompressionName;
  if (!compressionNames.includes(compression))
    throw usageError(`--compress is one of ${compressionNames.join(', ')}.`);
  const format = requireFormat(values.format, false);
  const schema = await readSchema(io, values.schema);
  const codec = createCodec(format, { schema });
  const source = values.in ?? '-';
  const text = (await readInput(io, source)).toString('utf8');
  const name = source === '-' ? 'standard input' : source;
  const json = format === 'arrow' ? parseJsonSamples(text, name, false) : parseJsonText(text, name);
  const value =
    schema === undefined ? json : fromJsonValue(format === 'arrow' ? t.array(schema) : schema, json);
  const bytes = values.envelope
    ? await encodeEnvelopedAsync(codec as Codec<unknown>, value, { compression })
    : await getCompressor(compression).compressAsync(codec.encode(value));
  await writeOutput(io, values.out, bytes);
}

export async function decodeCommand(args: readonly string[], io: CliIo): Promise<void> {
  const { values } = parseCommand(args, common);
  const schema = await readSchema(io, values.schema);
  const bytes = await readInput(io, values.in ?? '-');
  let value: unknown;
  if (values.format === 'auto') {
    value = (await decodeAnyAsync(bytes, { schema })).value;
  } else {
    value = createCodec(requireFormat(values.format, true), { schema }).decode(bytes);
  }
  const format = values.format === 'auto' ? undefined : findFormat(values.format ?? '');
  const json =
    schema === undefined
      ? toReadableJson(value)
      : toJsonValue(format === 'arrow' ? t.array(schema) : schema, value);
  await writeOutput(io, values.out, `${JSON.stringify(json, null, 2)}\n`);
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
