/**
 * Query parameters in PostgreSQL's text format, checked before anything is sent. The server infers
 * each parameter's type from where it stands (cast it, `$1::int8`, where nothing says) and reads
 * the text as that type, so what is sent must be the text of one value of a type the server can
 * read it as: never the `String()` of something that is not a SqlParam. What cannot be is refused
 * here, naming the parameter (`$3`, `$2[1][0]` inside an array):
 *
 * - `undefined`: pg binds it as NULL, which turns a forgotten value into a query that silently
 *   matches nothing (`ts >= NULL`); say `null` to mean NULL.
 * - objects (a plain object, a Uint8Array, a Map...): no parameter type reads their `String()`;
 *   a json or jsonb parameter takes `JSON.stringify(value)`.
 * - strings with a lone surrogate: UTF-8 cannot carry them, and encoding would replace them, so
 *   the query would look up another string than the one given.
 * - arrays that are not rectangular, or nested deeper than PostgreSQL's 6 dimensions. A nested
 *   array binds as a multi-dimensional array literal (`{{1,2},{3,4}}`); PostgreSQL's array types
 *   hold any number of dimensions, so it is for an array parameter, of one dimension or more, to take.
 * - more than 65,535 parameters: the protocol counts them in 16 bits.
 */
import { describeValue } from '../../errors/describe-value.js';
import { WirekitError } from '../../errors/index.js';

/** Bind counts its parameters in an Int16 (and the server refuses more than this). */
export const maxPostgresParams = 65_535;

/** PostgreSQL's MAXDIM: the most dimensions an array value may have. */
const maxDimensions = 6;

/** Each parameter as the text PostgreSQL reads (null for NULL), or WK_TABLE_QUERY_FAILED naming the one it cannot bind. */
export function textParams(params: readonly unknown[]): (string | null)[] {
  if (params.length > maxPostgresParams)
    throw new WirekitError(
      'WK_TABLE_QUERY_FAILED',
      `PostgreSQL: ${params.length} query parameters; its protocol carries at most ${maxPostgresParams} in one statement (bind one array instead: = ANY($1)).`,
    );
  return params.map((param, index) => {
    const name = `$${index + 1}`;
    if (param === null) return null;
    return Array.isArray(param) ? arrayLiteral(param, name, 1).text : scalarText(param, name);
  });
}

/** One value's text, bare: as a parameter of its own, or inside an array literal before quoting. */
function scalarText(value: unknown, name: string): string {
  switch (typeof value) {
    case 'string':
      if (!value.isWellFormed())
        throw cannotBind(name, 'a string with a lone surrogate', 'UTF-8 cannot carry it');
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw cannotBind(name, String(value));
      // -0 is a float8 value of its own; String(-0) would say 0.
      return Object.is(value, -0) ? '-0' : String(value);
    case 'bigint':
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
      throw cannotBind(name, 'undefined', 'pass null for SQL NULL');
  }
  if (value instanceof Date) {
    if (!Number.isFinite(value.getTime())) throw cannotBind(name, 'an invalid Date');
    // The UTC instant: a timestamptz gets that instant, a timestamp its UTC wall time, as DuckDB binds a Date.
    return value.toISOString();
  }
  throw cannotBind(name, describeValue(value), 'a json or jsonb parameter takes JSON.stringify(value)');
}

interface ArrayLiteral {
  readonly text: string;
  /** The length of each dimension, outermost first: what sibling sub-arrays must share. */
  readonly shape: readonly number[];
}

/**
 * An array literal: `{…}` with each element quoted (strings, Dates), bare (numbers, booleans) or
 * NULL, and sub-arrays nested. The depth bound keeps a hostile (or cyclic) array from recursing
 * further than PostgreSQL would accept anyway.
 */
function arrayLiteral(items: readonly unknown[], name: string, depth: number): ArrayLiteral {
  if (depth > maxDimensions)
    throw cannotBind(
      name,
      `an array nested ${depth} deep`,
      `PostgreSQL arrays have at most ${maxDimensions} dimensions`,
    );
  const nested = Array.isArray(items[0]);
  const parts: string[] = [];
  let inner: readonly number[] = [];
  for (const [index, item] of items.entries()) {
    const at = `${name}[${index}]`;
    if (Array.isArray(item) !== nested)
      throw cannotBind(at, describeValue(item), "an array's elements are all sub-arrays or all values");
    if (!nested) {
      parts.push(elementText(item, at));
      continue;
    }
    const sub = arrayLiteral(item as unknown[], at, depth + 1);
    if (index > 0 && !sameShape(inner, sub.shape))
      throw cannotBind(
        at,
        'a ragged array',
        'PostgreSQL arrays are rectangular: every sub-array the same size',
      );
    inner = sub.shape;
    parts.push(sub.text);
  }
  return { text: `{${parts.join(',')}}`, shape: [items.length, ...inner] };
}

function elementText(item: unknown, at: string): string {
  if (item === null) return 'NULL';
  const text = scalarText(item, at);
  // Numbers and booleans go bare; strings and Dates quoted, so commas, braces, quotes and the word
  // NULL inside them stay text.
  if (typeof item === 'string' || item instanceof Date) return `"${text.replace(/[\\"]/g, '\\$&')}"`;
  return text;
}

function sameShape(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((length, i) => length === b[i]);
}

function cannotBind(name: string, what: string, why?: string): WirekitError {
  return new WirekitError(
    'WK_TABLE_QUERY_FAILED',
    `PostgreSQL: cannot bind ${name} (${what}) as a query parameter${why === undefined ? '' : `: ${why}`}.`,
  );
}
