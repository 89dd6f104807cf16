/**
 * One REST request read into one RPC request, by HttpRule's rules: the path's variables fill the
 * fields they name, the body fills the whole request (`body: '*'`) or one message field, and every
 * field bound by neither may come from the query string (none with `body: '*'`), named by its
 * field path (`address.city`, proto or lowerCamelCase names), a repeated field by repeating its key.
 *
 * Everything is gathered as one ProtoJSON object and read by the request's ProtoJSON codec, so path
 * and query text is converted exactly as ProtoJSON converts it (int64 from digit strings, enum names,
 * RFC 3339 timestamps, base64 bytes) with the codec's errors, paths and limits. Text carries no
 * JSON type, so two conversions happen first: `true`/`false` (and 1/0) become booleans, digits an
 * enum's number. The gathered object is made only of the schema's own field names: a key sent as
 * `__proto__` (or anything else no field has) is never a key of it.
 */
import type { Codec, UnknownKeys } from '../../../codecs/core/codec.js';
import { jsonNameOf } from '../../../codecs/protobuf/protojson-names.js';
import { WirekitError } from '../../../errors/index.js';
import { fieldNamed, type ParsedBinding, presentSchema } from '../../../schema/http-rule.js';
import type { FieldDef, ObjectSchema, Schema } from '../../../schema/index.js';
import type { PathValues } from './path-match.js';

/** The JSON being gathered: objects keyed by the fields' JSON names. */
type JsonObject = Record<string, unknown>;

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

export interface BindingLimits {
  /** Query parameters read at most (default 1,000); past it, 400 WK_LIMIT_ELEMENTS. */
  readonly maxQueryParameters: number;
  /** A query key no field has: skipped (default) or refused with 400 WK_DECODE_SCHEMA_MISMATCH. */
  readonly unknownKeys: UnknownKeys;
}

function mismatch(path: readonly string[], message: string): WirekitError {
  return new WirekitError('WK_DECODE_SCHEMA_MISMATCH', message, { path: [...path], format: 'json' });
}

/** The fields of each message by both the names ProtoJSON reads: the proto name and the JSON name. */
const fieldTables = new WeakMap<ObjectSchema, Map<string, FieldDef>>();
function fieldByKey(message: ObjectSchema, key: string): FieldDef | undefined {
  let table = fieldTables.get(message);
  if (table === undefined) {
    table = new Map();
    for (const field of message.fields) {
      table.set(field.name, field);
      table.set(jsonNameOf(field.name), field);
    }
    fieldTables.set(message, table);
  }
  return table.get(key);
}

/** What a path or query text is in the JSON ProtoJSON reads, for a field of this schema. */
function jsonOfText(schema: Schema, text: string): unknown {
  const node = presentSchema(schema);
  if (node.kind === 'bool') {
    if (text === 'true' || text === '1') return true;
    if (text === 'false' || text === '0') return false;
  }
  if (node.kind === 'enum' && /^-?\d{1,10}$/.test(text)) return Number(text);
  // Anything else as text: numbers, int64, timestamps, bytes are strings in ProtoJSON too, and a
  // text that fits no kind is refused by the codec with the field's path.
  return text;
}

/**
 * The object under `key` of `into` (the field `field`), made if absent; the key the body may have
 * used for it (proto or JSON name) is moved to the JSON name, so ProtoJSON sees the field once.
 */
function childObject(into: JsonObject, field: FieldDef, path: readonly string[]): JsonObject {
  const existing = takeField(into, field);
  if (existing === undefined || existing === null) {
    const made: JsonObject = {};
    into[jsonNameOf(field.name)] = made;
    return made;
  }
  if (typeof existing !== 'object' || Array.isArray(existing)) {
    throw mismatch(path, `${path.join('.')}: expected an object, got ${typeof existing}.`);
  }
  into[jsonNameOf(field.name)] = existing;
  return existing as JsonObject;
}

/** Removes the field from `from` under either of its names, giving what was there. */
function takeField(from: JsonObject, field: FieldDef): unknown {
  const json = jsonNameOf(field.name);
  let value: unknown;
  for (const name of json === field.name ? [json] : [field.name, json]) {
    if (Object.hasOwn(from, name)) {
      value = from[name];
      delete from[name];
    }
  }
  return value;
}

/** Sets a value at a field path (the path's own value wins over the body's). */
function setAt(root: JsonObject, fields: readonly FieldDef[], value: unknown): void {
  let into = root;
  const names: string[] = [];
  for (const field of fields.slice(0, -1)) {
    names.push(field.name);
    into = childObject(into, field, names);
  }
  const last = fields[fields.length - 1] as FieldDef;
  takeField(into, last);
  into[jsonNameOf(last.name)] = value;
}

/** The fields a field path (schema names) goes through; checked when the method was built. */
function fieldsOfPath(request: ObjectSchema, path: readonly string[]): FieldDef[] {
  const fields: FieldDef[] = [];
  let message = request;
  for (const name of path) {
    const field = fieldNamed(message, name) as FieldDef;
    fields.push(field);
    const inner = presentSchema(field.schema);
    if (inner.kind === 'object') message = inner;
  }
  return fields;
}

/** Reads one binding's requests: made once per binding when the gateway is registered. */
export class RequestBinder {
  private readonly pathFields: readonly (readonly FieldDef[])[];
  /** Field paths (dotted schema names) the query may not set: bound by the path or inside the body's field. */
  private readonly notFromQuery: ReadonlySet<string>;

  constructor(
    private readonly binding: ParsedBinding,
    private readonly request: ObjectSchema,
    private readonly codec: Codec<unknown>,
    private readonly limits: BindingLimits,
  ) {
    this.pathFields = binding.template.variables.map((variable) => fieldsOfPath(request, variable.field));
    this.notFromQuery = new Set([
      ...binding.template.variables.map((variable) => variable.field.join('.')),
      ...(binding.body === undefined || binding.body === '*' ? [] : [binding.body]),
    ]);
  }

  /** The request: path values as matched, the raw query text (after `?`), the body's bytes if any. */
  bind(path: PathValues, query: string, body: Uint8Array | undefined): unknown {
    const { binding } = this;
    const hasBody = body !== undefined && body.length > 0;
    // The common POST: the body is the request, nothing to add; the codec reads the bytes as sent.
    if (binding.body === '*' && path.length === 0 && hasBody) return this.codec.decode(body);
    let root: JsonObject = {};
    if (binding.body !== undefined && hasBody) {
      const parsed = parseBody(body);
      if (binding.body === '*') {
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
          throw mismatch([], `the body must be a JSON object (the ${this.request.name} request).`);
        }
        root = parsed as JsonObject;
      } else {
        root[jsonNameOf(binding.body)] = parsed;
      }
    }
    path.forEach(([, text], index) => {
      const fields = this.pathFields[index] as readonly FieldDef[];
      setAt(root, fields, jsonOfText((fields[fields.length - 1] as FieldDef).schema, text));
    });
    if (binding.body !== '*' && query !== '') this.readQuery(root, query);
    return this.codec.decode(encoder.encode(JSON.stringify(root)));
  }

  private readQuery(root: JsonObject, query: string): void {
    const params = new URLSearchParams(query);
    const repeated = new Map<string, { fields: FieldDef[]; values: unknown[] }>();
    let count = 0;
    for (const [key, text] of params) {
      if (++count > this.limits.maxQueryParameters) {
        throw new WirekitError(
          'WK_LIMIT_ELEMENTS',
          `the query has more than ${this.limits.maxQueryParameters} parameters (maxQueryParameters).`,
        );
      }
      const fields = this.queryFields(key);
      if (fields === undefined) continue;
      const last = fields[fields.length - 1] as FieldDef;
      const dotted = fields.map((field) => field.name).join('.');
      const leaf = presentSchema(last.schema);
      const entry = repeated.get(dotted) ?? { fields, values: [] };
      entry.values.push(jsonOfText(leaf.kind === 'array' ? leaf.items : last.schema, text));
      repeated.set(dotted, entry);
      if (leaf.kind !== 'array' && entry.values.length > 1) {
        throw mismatch(
          fields.map((field) => field.name),
          `the query parameter ${key} is given more than once, and ${dotted} holds one value.`,
        );
      }
    }
    for (const { fields, values } of repeated.values()) {
      const leaf = presentSchema((fields[fields.length - 1] as FieldDef).schema);
      setAt(root, fields, leaf.kind === 'array' ? values : values[0]);
    }
  }

  /** The fields a query key names, or undefined for one to skip (refused under unknownKeys 'reject'). */
  private queryFields(key: string): FieldDef[] | undefined {
    const fields: FieldDef[] = [];
    let message: ObjectSchema | undefined = this.request;
    for (const part of key.split('.')) {
      const field: FieldDef | undefined = message === undefined ? undefined : fieldByKey(message, part);
      if (field === undefined) return this.unknownQueryKey(key, `names no field of ${this.request.name}`);
      fields.push(field);
      const inner = presentSchema(field.schema);
      message = inner.kind === 'object' ? inner : undefined;
    }
    const dotted = fields.map((field) => field.name);
    for (let end = 1; end <= dotted.length; end++) {
      if (this.notFromQuery.has(dotted.slice(0, end).join('.'))) {
        return this.unknownQueryKey(key, 'is bound by the path or the body');
      }
    }
    return fields;
  }

  private unknownQueryKey(key: string, why: string): undefined {
    if (this.limits.unknownKeys === 'reject') {
      throw new WirekitError(
        'WK_DECODE_SCHEMA_MISMATCH',
        `the query parameter ${JSON.stringify(key)} ${why}.`,
        {
          format: 'json',
        },
      );
    }
    return undefined;
  }
}

/** The body as JSON: UTF-8 and JSON text, or 400 with wirekit's codes. */
function parseBody(body: Uint8Array): unknown {
  let text: string;
  try {
    text = decoder.decode(body);
  } catch {
    throw new WirekitError('WK_DECODE_MALFORMED', 'the body is not valid UTF-8.', {
      offset: 0,
      format: 'json',
    });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    if (error instanceof RangeError) {
      throw new WirekitError('WK_LIMIT_DEPTH', 'the body nests too deeply.', { format: 'json' });
    }
    throw new WirekitError(
      'WK_DECODE_MALFORMED',
      `the body is not JSON text (${(error as Error).message}).`,
      {
        offset: 0,
        format: 'json',
      },
    );
  }
}
