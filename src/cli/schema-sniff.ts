/**
 * Which schema language a file is written in, when `--from` does not say: its name's ending
 * (.proto, .avsc, .avro, .pb, .schema.json), then its first bytes (an Avro container's `Obj\x01`, a
 * FileDescriptorSet's first field), then its text. A `.json` file can be wirekit's own schema JSON
 * (`"format": "wirekit-schema"`), JSON Schema or Avro; the two last write some schemas alike
 * (`{"type": "array", "items": {"type": "string"}}` means a list of strings in both, so either
 * reading gives the same schema), and are told apart by the words only one of them uses: Avro's
 * `int`, `long`, `record`, `map` with `values`; JSON Schema's `integer`, `object`, `properties`,
 * `$ref`, an array without `items`.
 */
import { SchemaImportError } from '../errors/index.js';

/** What the sniffer can name; yaml is recognised only to be refused by name. */
export type SniffedLanguage = 'wirekit' | 'avro' | 'proto' | 'jsonschema' | 'descriptor-set' | 'yaml';

/** File name endings, longest first where one ends another (`.schema.json` before `.json`). */
const byExtension: readonly (readonly [string, SniffedLanguage])[] = [
  ['.schema.json', 'wirekit'],
  ['.proto', 'proto'],
  ['.avsc', 'avro'],
  ['.avro', 'avro'],
  ['.pb', 'descriptor-set'],
  ['.binpb', 'descriptor-set'],
  ['.desc', 'descriptor-set'],
  ['.protoset', 'descriptor-set'],
  ['.yaml', 'yaml'],
  ['.yml', 'yaml'],
];

/** The language of a file from its name, its first bytes and then its text; undefined when none says. */
export function sniffSchemaLanguage(file: string, bytes: Uint8Array): SniffedLanguage | undefined {
  const name = file.toLowerCase();
  for (const [extension, language] of byExtension) if (name.endsWith(extension)) return language;
  if (isAvroContainer(bytes)) return 'avro';
  if (looksLikeDescriptorSet(bytes)) return 'descriptor-set';
  return sniffText(new TextDecoder().decode(bytes.subarray(0, 64 * 1024 * 1024)));
}

/** An Avro object container file starts with `Obj` and the format version 1. */
export function isAvroContainer(bytes: Uint8Array): boolean {
  return bytes[0] === 0x4f && bytes[1] === 0x62 && bytes[2] === 0x6a && bytes[3] === 0x01;
}

/**
 * A FileDescriptorSet's first field is `file` (1, length-delimited), and that FileDescriptorProto's
 * first field is its `name` (1, length-delimited): 0x0a, a varint, 0x0a. No text format starts so.
 */
function looksLikeDescriptorSet(bytes: Uint8Array): boolean {
  if (bytes[0] !== 0x0a) return false;
  let at = 1;
  while (at < 6 && at < bytes.length && ((bytes[at] as number) & 0x80) !== 0) at++;
  return at < 6 && bytes[at + 1] === 0x0a;
}

function sniffText(text: string): SniffedLanguage | undefined {
  const start = text.replace(/^\uFEFF/, '').trimStart();
  // A .proto file starts with its syntax, edition or package line, a comment, an import, a message.
  if (/^(syntax|edition|package|import|message|enum|option|service)\b/.test(start)) return 'proto';
  if (start.startsWith('//') || start.startsWith('/*')) return 'proto';
  if (/^openapi\s*:/.test(start) || /^(swagger|asyncapi)\s*:/.test(start)) return 'yaml';
  let json: unknown;
  try {
    json = JSON.parse(start);
  } catch {
    return undefined;
  }
  if (isObject(json) && json.format === 'wirekit-schema') return 'wirekit';
  return jsonDialect(json, 0) ?? (isObject(json) ? 'jsonschema' : undefined);
}

/** 'avro' or 'jsonschema' when a word only one of them uses says so; undefined when both read it alike. */
function jsonDialect(json: unknown, depth: number): 'avro' | 'jsonschema' | undefined {
  if (depth > 64) return undefined;
  if (typeof json === 'string') return avroNames.has(json) || !jsonSchemaTypes.has(json) ? 'avro' : undefined;
  if (Array.isArray(json)) return 'avro';
  if (!isObject(json)) return undefined;
  if (Object.keys(json).some((key) => key.startsWith('$') || jsonSchemaKeywords.has(key)))
    return 'jsonschema';
  const type = json.type;
  if (Array.isArray(type)) return 'jsonschema';
  if (typeof type !== 'string') return 'jsonschema';
  if (avroOnlyTypes.has(type) || 'logicalType' in json || 'symbols' in json || 'fields' in json)
    return 'avro';
  if (jsonSchemaOnlyTypes.has(type)) return 'jsonschema';
  if (type === 'array') return 'items' in json ? jsonDialect(json.items, depth + 1) : 'jsonschema';
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const avroOnlyTypes = new Set([
  'int',
  'long',
  'float',
  'double',
  'bytes',
  'record',
  'error',
  'enum',
  'fixed',
  'map',
]);
const jsonSchemaOnlyTypes = new Set(['integer', 'number', 'object']);
/** The type names both write, which an Avro schema may also give as a bare string. */
const jsonSchemaTypes = new Set(['string', 'boolean', 'null', 'array']);
const avroNames = new Set(['int', 'long', 'float', 'double', 'bytes', 'string', 'boolean', 'null']);
const jsonSchemaKeywords = new Set([
  'properties',
  'required',
  'additionalProperties',
  'definitions',
  'anyOf',
  'oneOf',
  'allOf',
  'enum',
  'const',
  'format',
  'minimum',
  'maximum',
  'pattern',
  'prefixItems',
  'title',
  'description',
]);

/** The refusal when nothing tells the language. */
export function unknownLanguage(file: string, titles: readonly string[], names: readonly string[]) {
  return new SchemaImportError(
    `cannot tell which schema language this is; wirekit reads ${titles.join(', ')}: pass --from ${names.join('|')} to say which.`,
    { file },
  );
}
