/**
 * The parts of a request that arrive as text: path parameters, the query string and headers. A
 * route declares each as an object schema; this module is the one place that says how a field's
 * text becomes its value (and, for the client, how a value becomes text), so server and client
 * cannot drift apart:
 *
 * - strings, decimals and enum members as they are; numbers in decimal notation (`12`, `-0.5`,
 *   `1e3`; not `0x10`, `Infinity` or an empty string); 64-bit integers as integers, bigint or
 *   number as the schema says; booleans `true`/`false`/`1`/`0`; timestamps in ISO 8601
 *   (`2026-12-06` or `2026-12-06T19:30:00Z`); a literal as its own type;
 * - an array of those from a repeated query key (`?tag=a&tag=b`), or from a header's
 *   comma-separated list (`x-tags: a, b`); one value for anything else, a repeated key refused;
 * - a missing field takes its default (`t.field(schema, { default })`), else is left out when
 *   optional, else refused.
 *
 * What comes out is then validated against the schema (ranges, lengths, patterns, members), and
 * every refusal is one ValidationError whose paths start with the part: `query.limit`,
 * `params.id`, `headers["x-tenant"]`, as a body's start at its root. The values are built from the
 * schema's fields only, never by copying the input, so no key of the input reaches a prototype;
 * a `__proto__` key is refused outright.
 */
import type { DecodeLimits } from '../../codecs/core/limits.js';
import {
  describeValue,
  formatPath,
  type IssueCode,
  ValidationError,
  type ValidationIssue,
  WirekitError,
} from '../../errors/index.js';
import { deref, type FieldDef, type ObjectSchema, type Schema, validate } from '../../schema/index.js';

/** Which part of the request a schema reads: the names the route's options and paths use. */
export type PartName = 'params' | 'query' | 'headers';

/** Reads one part of a request into a value of its schema, or throws its refusal. */
export type PartReader = (raw: unknown) => Record<string, unknown>;

/** A field's kind once `optional` and references are taken off: one of those text can carry. */
type TextKind = Exclude<
  Schema,
  { kind: 'object' | 'map' | 'union' | 'either' | 'ref' | 'json' | 'bytes' | 'nullable' }
>;

interface TextField {
  readonly def: FieldDef;
  readonly optional: boolean;
  /** The schema of one value: the field's own, or its array's items. */
  readonly scalar: TextKind;
  readonly list: boolean;
}

const numberText = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const integerText = /^[+-]?\d+$/;
/** Longer than any 64-bit integer: refused before BigInt spends time on it. */
const maxIntegerDigits = 24;
const isoTime = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * Checks a part's schema when the route is registered (WK_OPTIONS_INVALID for a field text cannot
 * carry, a header name with capitals, an array in the path) and returns its reader. `unknownKeys`
 * applies to params and the query; headers always carry more than a route names.
 */
export function partReader(
  part: PartName,
  schema: Schema,
  options: { readonly unknownKeys?: 'ignore' | 'reject'; readonly limits?: Partial<DecodeLimits> },
): PartReader {
  if (schema.kind !== 'object') {
    throw new WirekitError(
      'WK_OPTIONS_INVALID',
      `a route's \`${part}\` is an object schema, one field per name.`,
    );
  }
  const fields = schema.fields.map((def) => textField(part, schema, def));
  const names = new Set(fields.map((field) => field.def.name));
  const rejectUnknown = part !== 'headers' && options.unknownKeys === 'reject';
  const maxItems = options.limits?.maxElements ?? 1024;
  return (raw) => {
    const input = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const issues: ValidationIssue[] = [];
    const refuse = (path: readonly (string | number)[], code: IssueCode, message: string) => {
      if (issues.length < 100)
        issues.push({ code, path: [part, ...path], message: `${formatPath([part, ...path])}: ${message}` });
    };
    for (const key of Object.keys(input)) {
      if (key === '__proto__') refuse([key], 'unsafe_key', 'a __proto__ key is refused.');
      else if (rejectUnknown && !names.has(key))
        refuse([key], 'unknown_field', `${schema.name} has no field ${JSON.stringify(key)}.`);
    }
    const out: Record<string, unknown> = {};
    for (const field of fields) {
      const name = field.def.name;
      const given = Object.hasOwn(input, name) ? input[name] : undefined;
      if (given === undefined) {
        if (field.def.default !== undefined) out[name] = structuredClone(field.def.default);
        else if (!field.optional) refuse([name], 'missing_field', `required, and missing.`);
        continue;
      }
      const texts = Array.isArray(given) ? (given as unknown[]) : [given];
      if (!texts.every((text) => typeof text === 'string')) {
        refuse([name], 'expected_type', `expected text, got ${describeValue(given)}.`);
        continue;
      }
      if (!field.list) {
        if (texts.length > 1) {
          refuse([name], 'expected_type', `expected one value, got ${texts.length} (the key is repeated).`);
          continue;
        }
        const value = fromText(field.scalar, texts[0] as string);
        if (value instanceof Problem) refuse([name], value.code, value.message);
        else out[name] = value;
        continue;
      }
      const items = part === 'headers' ? (texts as string[]).flatMap(splitList) : (texts as string[]);
      if (items.length > maxItems) {
        throw new WirekitError(
          'WK_LIMIT_ELEMENTS',
          `${formatPath([part, name])}: more than ${maxItems} values (maxElements).`,
          { path: [part, name] },
        );
      }
      const values: unknown[] = [];
      items.forEach((text, index) => {
        const value = fromText(field.scalar, text);
        if (value instanceof Problem) refuse([name, index], value.code, value.message);
        else values.push(value);
      });
      out[name] = values;
    }
    if (issues.length === 0) {
      // The schema's own rules (ranges, lengths, patterns, members) hold for what came out.
      for (const issue of validate(schema, out, { unknownKeys: 'ignore' })) {
        const inner = formatPath(issue.path);
        const reason = issue.message.startsWith(`${inner}: `)
          ? issue.message.slice(inner.length + 2)
          : issue.message;
        refuse(issue.path, issue.code, reason);
      }
    }
    if (issues.length > 0) throw new ValidationError(issues);
    return out;
  };
}

/** Why a text is not a value of its kind. */
class Problem {
  constructor(
    readonly code: IssueCode,
    readonly message: string,
  ) {}
}

/** The value `text` stands for, by the rules at the top of this module. */
function fromText(schema: TextKind, text: string): unknown {
  const expected = (what: string) =>
    new Problem('expected_type', `expected ${what}, got ${describeValue(text)}.`);
  switch (schema.kind) {
    case 'string':
    case 'decimal':
    case 'enum':
      return text;
    case 'bool':
      return boolOf(text) ?? expected('true, false, 1 or 0');
    case 'literal':
      if (typeof schema.value === 'string') return text;
      if (typeof schema.value === 'boolean') return boolOf(text) ?? expected('true, false, 1 or 0');
      return numberText.test(text) ? Number(text) : expected('a number');
    case 'int64':
    case 'uint64':
      if (!integerText.test(text)) return expected('an integer');
      if (text.length > maxIntegerDigits)
        return new Problem('out_of_range', `${describeValue(text)} is outside ${schema.kind}.`);
      return schema.as === 'bigint' ? BigInt(text) : Number(text);
    case 'timestamp': {
      const date = isoTime.test(text) ? new Date(text) : undefined;
      if (date === undefined) return expected('an ISO 8601 date or time');
      return Number.isNaN(date.getTime())
        ? new Problem('invalid_date', `${describeValue(text)} is no date.`)
        : date;
    }
    case 'array':
      return expected('one value');
    default:
      // Integers and floats: the schema's rules say which numbers fit.
      return numberText.test(text) ? Number(text) : expected('a number');
  }
}

function boolOf(text: string): boolean | undefined {
  if (text === 'true' || text === '1') return true;
  if (text === 'false' || text === '0') return false;
  return undefined;
}

/** A header's comma-separated list (RFC 9110 §5.6.1), empty elements dropped. */
function splitList(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** A field of a part's schema, checked: a kind text can carry, a name the part can hold. */
function textField(part: PartName, schema: ObjectSchema, def: FieldDef): TextField {
  const where = `${part}.${def.name}`;
  let inner = deref(def.schema);
  const optional = inner.kind === 'optional';
  if (inner.kind === 'optional') inner = deref(inner.inner);
  const list = inner.kind === 'array';
  const scalar = inner.kind === 'array' ? deref(inner.items) : inner;
  if (!isTextKind(scalar)) {
    throw new WirekitError(
      'WK_OPTIONS_INVALID',
      `${schema.name} (a route's ${part}): ${where} is ${scalar.kind}, which a ${part === 'headers' ? 'header' : 'URL'} cannot carry as text; use strings, numbers, booleans, timestamps, enums, literals${part === 'params' ? '' : ' or arrays of them'}.`,
    );
  }
  if (list && part === 'params') {
    throw new WirekitError('WK_OPTIONS_INVALID', `${where}: a path parameter is one value, not an array.`);
  }
  if (part === 'headers' && def.name !== def.name.toLowerCase()) {
    throw new WirekitError(
      'WK_OPTIONS_INVALID',
      `${where}: header names arrive in lower case; name the field ${JSON.stringify(def.name.toLowerCase())}.`,
    );
  }
  return { def, optional, scalar, list };
}

function isTextKind(schema: Schema): schema is TextKind {
  // An either is not text: "12" could be the string or the number branch's.
  return ![
    'object',
    'map',
    'union',
    'either',
    'ref',
    'json',
    'bytes',
    'nullable',
    'array',
    'optional',
  ].includes(schema.kind);
}

/**
 * A value as the client sends it: the inverse of fromText (dates in ISO 8601, booleans as `true`
 * and `false`, numbers and bigints in decimal).
 */
export function toText(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  return String(value);
}
