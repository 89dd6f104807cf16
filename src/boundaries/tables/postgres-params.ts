/**
 * Query parameters in PostgreSQL's text format. The server infers each parameter's type from where
 * it stands (cast it, `$1::int8`, where nothing says) and reads the text as that type, so what is
 * sent must be the text of one value of a type the server can read it as: never the `String()` of
 * something that is not a SqlParam. params.ts checks every parameter first, by the rules all table
 * sources share; what only PostgreSQL refuses is here, naming the parameter:
 *
 * - NaN and the infinities.
 * - more than 65,535 parameters: the protocol counts them in 16 bits.
 *
 * A nested array binds as a multi-dimensional array literal (`{{1,2},{3,4}}`); PostgreSQL's array
 * types hold any number of dimensions, so it is for an array parameter, of one dimension or more,
 * to take.
 */
import { WirekitError } from '../../errors/index.js';
import { checkParams, ParamArray, type ParamRules, type ParamValue } from './params.js';

/** Bind counts its parameters in an Int16 (and the server refuses more than this). */
const maxPostgresParams = 65_535;

const rules: ParamRules = { engine: 'PostgreSQL', nonFinite: false };

/** Each parameter as the text PostgreSQL reads (null for NULL), or WK_TABLE_QUERY_FAILED naming the one it cannot bind. */
export function textParams(params: readonly unknown[]): (string | null)[] {
  if (params.length > maxPostgresParams)
    throw new WirekitError(
      'WK_TABLE_QUERY_FAILED',
      `PostgreSQL: ${params.length} query parameters; its protocol carries at most ${maxPostgresParams} in one statement (bind one array instead: = ANY($1)).`,
    );
  return checkParams(params, rules).map((param) => {
    if (param === null) return null;
    return param instanceof ParamArray ? arrayLiteral(param) : valueText(param);
  });
}

/** One value's text, bare: as a parameter of its own, or inside an array literal before quoting. */
function valueText(value: ParamValue): string {
  if (value instanceof Date) {
    // The UTC instant: a timestamptz gets that instant, a timestamp its UTC wall time, as DuckDB binds a Date.
    return value.toISOString();
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  // -0 is a float8 value of its own; String(-0) would say 0.
  if (Object.is(value, -0)) return '-0';
  return String(value);
}

/**
 * An array literal: `{…}` with each element quoted (strings, Dates), bare (numbers, booleans) or
 * NULL, and sub-arrays nested as the array's shape says.
 */
function arrayLiteral(array: ParamArray): string {
  let next = 0;
  const level = (depth: number): string => {
    const parts: string[] = [];
    const length = array.shape[depth] as number;
    const innermost = depth === array.shape.length - 1;
    for (let i = 0; i < length; i++)
      parts.push(innermost ? elementText(array.values[next++] ?? null) : level(depth + 1));
    return `{${parts.join(',')}}`;
  };
  return level(0);
}

function elementText(item: ParamValue | null): string {
  if (item === null) return 'NULL';
  const text = valueText(item);
  // Numbers and booleans go bare; strings and Dates quoted, so commas, braces, quotes and the word
  // NULL inside them stay text.
  if (typeof item === 'string' || item instanceof Date) return `"${text.replace(/[\\"]/g, '\\$&')}"`;
  return text;
}
