/**
 * Query parameters as DuckDB binds them, each with its type. params.ts checks every parameter
 * first, by the rules all table sources share; the types are chosen here, because
 * @duckdb/node-api's own choice is made from one value: a list takes the type of its first item
 * (`[1, 2.5]` fails as "number is not an integer", `[null, 1]` binds as two NULLs), and a number
 * that is an integer beyond 64 bits fails unnamed. So:
 *
 * - a number binds as INTEGER or BIGINT when it is an integer that fits, else as DOUBLE, which
 *   holds -0, NaN and the infinities as they are (DuckDB refuses those itself, naming the cast,
 *   where a query casts them to an integer);
 * - a bigint as BIGINT when it fits 64 bits (what `range($1)` and the source's columns take), else
 *   HUGEINT; one beyond 128 bits is refused;
 * - a string as VARCHAR, a boolean as BOOLEAN, a Date as a TIMESTAMP holding its UTC instant
 *   (TIMESTAMPTZ would need the ICU extension for time zones);
 * - an array as a LIST, nested as deep as the array, whose item type is the one all its values
 *   fit: INTEGER < BIGINT < HUGEINT, or DOUBLE when a value needs it. Values of different kinds
 *   (a string beside a number), or a bigint beside a number only a DOUBLE holds (which would
 *   round the bigint), are refused, naming the value. An array of no values, or of nulls only,
 *   is a list of "NULL", as DuckDB types its own `[]`, which every list type takes.
 */
import { createRequire } from 'node:module';
import type { DuckDBType, DuckDBValue } from '@duckdb/node-api';
import { describeValue } from '../../errors/describe-value.js';
import type { WirekitError } from '../../errors/index.js';
import { requirePeer } from '../../util/optional-peer.js';
import { cannotBind, checkParams, ParamArray, type ParamRules, type ParamValue } from './params.js';

type NodeApi = typeof import('@duckdb/node-api');

const require = createRequire(import.meta.url);

/** The values to bind and the type of each, for `connection.stream(sql, values, types)`. */
export interface DuckDBParams {
  readonly values: DuckDBValue[];
  readonly types: DuckDBType[];
}

const rules: ParamRules = { engine: 'DuckDB', nonFinite: true };

/** The types a value binds as, integers narrowest first; node-api exports each by this name. */
type ValueType = 'INTEGER' | 'BIGINT' | 'HUGEINT' | 'DOUBLE' | 'VARCHAR' | 'BOOLEAN' | 'TIMESTAMP';

const integerRank: Partial<Record<ValueType, number>> = { INTEGER: 0, BIGINT: 1, HUGEINT: 2 };

/** Every parameter with its type, or WK_TABLE_QUERY_FAILED naming the first DuckDB cannot bind. */
export function duckdbParams(params: readonly unknown[]): DuckDBParams {
  // An optional peer, required here because duckdbParams is synchronous (node-api is CommonJS).
  const api = requirePeer(() => require('@duckdb/node-api') as NodeApi, 'duckdbParams', '@duckdb/node-api');
  const values: DuckDBValue[] = [];
  const types: DuckDBType[] = [];
  checkParams(params, rules).forEach((param, index) => {
    if (param === null) {
      values.push(null);
      types.push(api.SQLNULL);
    } else if (param instanceof ParamArray) {
      const item = itemType(param);
      let type: DuckDBType = item === undefined ? api.SQLNULL : api[item];
      for (let d = 0; d < param.shape.length; d++) type = api.LIST(type);
      values.push(nestedList(api, param, item));
      types.push(type);
    } else {
      const type = valueType(param);
      if (type === undefined) throw beyondHugeint(param, `$${index + 1}`);
      values.push(duckdbValue(api, param, type));
      types.push(api[type]);
    }
  });
  return { values, types };
}

/** The type `value` binds as alone; undefined for a bigint beyond HUGEINT, which DuckDB has no integer for. */
function valueType(value: ParamValue): ValueType | undefined {
  switch (typeof value) {
    case 'number':
      if (Number.isInteger(value) && !Object.is(value, -0)) {
        if (value >= -(2 ** 31) && value < 2 ** 31) return 'INTEGER';
        if (value >= -(2 ** 63) && value < 2 ** 63) return 'BIGINT';
      }
      return 'DOUBLE';
    case 'bigint':
      if (value >= -(1n << 63n) && value < 1n << 63n) return 'BIGINT';
      if (value >= -(1n << 127n) && value < 1n << 127n) return 'HUGEINT';
      return undefined;
    case 'string':
      return 'VARCHAR';
    case 'boolean':
      return 'BOOLEAN';
    default:
      return 'TIMESTAMP';
  }
}

function beyondHugeint(value: ParamValue, name: string): WirekitError {
  return cannotBind(rules, name, describeValue(value), "DuckDB's integers have at most 128 bits (HUGEINT)");
}

/**
 * The item type all of an array's values fit (undefined: no values but nulls). A value's name is
 * only made for a refusal: a list may hold millions.
 */
function itemType(array: ParamArray): ValueType | undefined {
  let type: ValueType | undefined;
  let kind: string | undefined;
  let bigints = false;
  array.values.forEach((value, index) => {
    if (value === null) return;
    const next = valueType(value);
    if (next === undefined) throw beyondHugeint(value, array.nameAt(index));
    const nextKind = next in integerRank || next === 'DOUBLE' ? 'number' : next;
    if (kind !== undefined && nextKind !== kind)
      throw cannotBind(
        rules,
        array.nameAt(index),
        describeValue(value),
        "a list's values are of one kind: strings, numbers and bigints, booleans or Dates",
      );
    kind = nextKind;
    bigints ||= typeof value === 'bigint';
    if (bigints && (next === 'DOUBLE' || type === 'DOUBLE'))
      throw cannotBind(
        rules,
        array.nameAt(index),
        describeValue(value),
        'a bigint shares a list only with integers of 64 bits at most: a DOUBLE would round it',
      );
    type = widest(type, next);
  });
  return type;
}

/** Of two types of one kind, the one that holds both. */
function widest(a: ValueType | undefined, b: ValueType): ValueType {
  if (a === undefined) return b;
  if (a === 'DOUBLE' || b === 'DOUBLE') return 'DOUBLE';
  return (integerRank[a] ?? 0) >= (integerRank[b] ?? 0) ? a : b;
}

/** The array as nested DuckDB lists, its values converted to the item type. */
function nestedList(api: NodeApi, array: ParamArray, item: ValueType | undefined): DuckDBValue {
  let next = 0;
  const level = (depth: number): DuckDBValue => {
    const length = array.shape[depth] as number;
    const innermost = depth === array.shape.length - 1;
    const items: DuckDBValue[] = [];
    for (let i = 0; i < length; i++) {
      if (!innermost) items.push(level(depth + 1));
      else {
        const value = array.values[next++] ?? null;
        items.push(value === null ? null : duckdbValue(api, value, item as ValueType));
      }
    }
    return api.listValue(items);
  };
  return level(0);
}

/** A checked value in the form node-api creates a value of `type` from. */
function duckdbValue(api: NodeApi, value: ParamValue, type: ValueType): DuckDBValue {
  if (value instanceof Date) return new api.DuckDBTimestampValue(BigInt(value.getTime()) * 1000n);
  // node-api creates BIGINT from a number or a bigint, HUGEINT from a bigint only.
  if (type === 'HUGEINT' && typeof value === 'number') return BigInt(value);
  return value;
}
