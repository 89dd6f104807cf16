/**
 * What every table source takes as a query parameter, checked before anything is bound, so that a
 * parameter means the same on DuckDB and on PostgreSQL and one that cannot bind is refused the same
 * way on both: WK_TABLE_QUERY_FAILED naming it (`$3`, `$2[1][0]` inside an array). Each engine then
 * turns the checked values into its own form (postgres-params.ts, duckdb-params.ts) and adds the
 * rules only it has.
 *
 * - `undefined`: pg binds it as NULL, which turns a forgotten value into a query that silently
 *   matches nothing (`ts >= NULL`); say `null` to mean NULL.
 * - objects (a plain object, a Uint8Array, a Map...): no parameter type reads them; a JSON
 *   parameter takes `JSON.stringify(value)`.
 * - strings with a lone surrogate: UTF-8 cannot carry them, and encoding would replace them, so the
 *   query would look up another string than the one given.
 * - an invalid Date.
 * - arrays that are not rectangular, that mix values and sub-arrays, or that nest deeper than 6.
 *   PostgreSQL's arrays cannot be otherwise; DuckDB's lists could, but a parameter that binds on
 *   one source and not on the other would make switching sources a change of meaning. The depth
 *   bound also ends a cyclic array.
 */
import { describeValue } from '../../errors/describe-value.js';
import { WirekitError } from '../../errors/index.js';

/** One value, alone or inside an array parameter. */
export type ParamValue = string | number | bigint | boolean | Date;

/** PostgreSQL's MAXDIM, the most dimensions an array value may have: the bound for every source. */
const maxParamDimensions = 6;

/**
 * An array parameter, checked: rectangular, so its innermost values are kept flat (row-major) with
 * the length of each dimension; an engine rebuilds the nesting from the shape.
 */
export class ParamArray {
  constructor(
    /** The parameter's name: `$2`. */
    readonly name: string,
    /** The length of each dimension, outermost first. */
    readonly shape: readonly number[],
    /** The innermost values, row-major. */
    readonly values: readonly (ParamValue | null)[],
  ) {}

  /** The name of `values[index]` in messages: `$2[1][0]`. */
  nameAt(index: number): string {
    let suffix = '';
    let rest = index;
    for (let d = this.shape.length - 1; d >= 0; d--) {
      const length = this.shape[d] as number;
      suffix = `[${rest % length}]${suffix}`;
      rest = Math.floor(rest / length);
    }
    return `${this.name}${suffix}`;
  }
}

export type CheckedParam = ParamValue | ParamArray | null;

/** What differs between engines in the shared check. */
export interface ParamRules {
  /** The database as messages name it: 'DuckDB', 'PostgreSQL'. */
  readonly engine: string;
  /** Whether NaN and the infinities bind (DuckDB's DOUBLE holds them). */
  readonly nonFinite: boolean;
}

/** Every parameter checked, or WK_TABLE_QUERY_FAILED naming the first that cannot bind. */
export function checkParams(params: readonly unknown[], rules: ParamRules): CheckedParam[] {
  return params.map((param, index) => {
    const name = `$${index + 1}`;
    if (param === null) return null;
    if (Array.isArray(param)) {
      const values: (ParamValue | null)[] = [];
      const shape = checkArray(param, () => name, 1, values, rules);
      return new ParamArray(name, shape, values);
    }
    const refusal = refusalOf(param, rules);
    if (refusal !== undefined) throw cannotBind(rules, name, ...refusal);
    return param as ParamValue;
  });
}

/** Why `value` cannot bind (what it is, and why not), or undefined when it can. */
function refusalOf(value: unknown, rules: ParamRules): readonly [what: string, why?: string] | undefined {
  switch (typeof value) {
    case 'string':
      return value.isWellFormed() ? undefined : ['a string with a lone surrogate', 'UTF-8 cannot carry it'];
    case 'number':
      return rules.nonFinite || Number.isFinite(value) ? undefined : [String(value)];
    case 'bigint':
    case 'boolean':
      return undefined;
    case 'undefined':
      return ['undefined', 'pass null for SQL NULL'];
  }
  if (value instanceof Date) return Number.isFinite(value.getTime()) ? undefined : ['an invalid Date'];
  return [describeValue(value), 'a JSON parameter takes JSON.stringify(value)'];
}

/**
 * Checks one level of an array, appending its innermost values to `values`, and returns its shape.
 * Recursion stops at maxParamDimensions, however deep (or cyclic) the array is. Names are made
 * only for a refusal (`name` makes the array's own): an array may hold millions of values.
 */
function checkArray(
  items: readonly unknown[],
  name: () => string,
  depth: number,
  values: (ParamValue | null)[],
  rules: ParamRules,
): number[] {
  if (depth > maxParamDimensions)
    throw cannotBind(
      rules,
      name(),
      `an array nested ${depth} deep`,
      `arrays have at most ${maxParamDimensions} dimensions on every table source (PostgreSQL's limit)`,
    );
  const nested = Array.isArray(items[0]);
  let inner: readonly number[] = [];
  for (let index = 0; index < items.length; index++) {
    const item = items[index];
    if (Array.isArray(item) !== nested)
      throw cannotBind(
        rules,
        `${name()}[${index}]`,
        describeValue(item),
        "an array's elements are all sub-arrays or all values",
      );
    if (!nested) {
      const refusal = item === null ? undefined : refusalOf(item, rules);
      if (refusal !== undefined) throw cannotBind(rules, `${name()}[${index}]`, ...refusal);
      values.push(item as ParamValue | null);
      continue;
    }
    const sub = checkArray(item as unknown[], () => `${name()}[${index}]`, depth + 1, values, rules);
    if (index > 0 && !sameShape(inner, sub))
      throw cannotBind(
        rules,
        `${name()}[${index}]`,
        'a ragged array',
        'arrays are rectangular on every table source: every sub-array the same size',
      );
    inner = sub;
  }
  return [items.length, ...inner];
}

function sameShape(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((length, i) => length === b[i]);
}

/** The refusal of one parameter (or one value inside it), and why where it is not obvious. */
export function cannotBind(rules: ParamRules, name: string, what: string, why?: string): WirekitError {
  return new WirekitError(
    'WK_TABLE_QUERY_FAILED',
    `${rules.engine}: cannot bind ${name} (${what}) as a query parameter${why === undefined ? '' : `: ${why}`}.`,
  );
}
