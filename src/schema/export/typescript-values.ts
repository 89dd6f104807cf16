/**
 * A field's default value as a TypeScript expression, guided by its schema: what a generated
 * module passes as `t.field(…, { default })`. The value is the JS value the schema describes, so
 * each kind is written as the constructor that makes it again: `12n` for a bigint, `new Date(…)`,
 * `Uint8Array.of(…)`, `new Map([…])` for a map with integer keys.
 */
import { WirekitBug } from '../../errors/index.js';
import { branchOf } from '../either.js';
import type { JsonValue, Schema } from '../types.js';
import { deref } from '../walk.js';
import { call, type Expr, propertyKey, quote } from './typescript-layout.js';

export function valueExpr(schema: Schema, value: unknown): Expr {
  const node = deref(schema);
  switch (node.kind) {
    case 'optional':
      return value === undefined ? 'undefined' : valueExpr(node.inner, value);
    case 'nullable':
      return value === null ? 'null' : valueExpr(node.inner, value);
    case 'object':
      return objectValue(node.fields, value as Record<string, unknown>);
    case 'union': {
      const tag = (value as Record<string, unknown>)[node.tag];
      const variant = node.variants.find((v) =>
        v.fields.some((f) => f.name === node.tag && f.schema.kind === 'literal' && f.schema.value === tag),
      );
      if (variant === undefined)
        throw new WirekitBug(`a default of union ${node.name} has no variant ${String(tag)}`);
      return objectValue(variant.fields, value as Record<string, unknown>);
    }
    case 'array':
      return { items: (value as unknown[]).map((item) => valueExpr(node.items, item)) };
    case 'map': {
      if (node.keys.kind === 'string') {
        const record = value as Record<string, unknown>;
        return {
          entries: Object.keys(record).map((key) => [objectKey(key), valueExpr(node.values, record[key])]),
        };
      }
      const pairs = [...(value as Map<unknown, unknown>)].map(
        ([key, item]): Expr => ({ items: [valueExpr(node.keys, key), valueExpr(node.values, item)] }),
      );
      return call('new Map', { items: pairs });
    }
    case 'bytes':
      return call('Uint8Array.of', ...[...(value as Uint8Array)].map(String));
    case 'timestamp':
      return call('new Date', quote((value as Date).toISOString()));
    case 'json':
      return jsonExpr(value as JsonValue);
    case 'either': {
      const branch = branchOf(node, value);
      if (branch === undefined) throw new WirekitBug('a default of an either fits none of its branches');
      return valueExpr(branch, value);
    }
    default:
      return primitive(value);
  }
}

function objectValue(
  fields: readonly { name: string; schema: Schema }[],
  value: Record<string, unknown>,
): Expr {
  const entries: [string, Expr][] = [];
  for (const field of fields) {
    if (value[field.name] !== undefined)
      entries.push([objectKey(field.name), valueExpr(field.schema, value[field.name])]);
  }
  return { entries };
}

function jsonExpr(value: JsonValue): Expr {
  if (Array.isArray(value)) return { items: value.map(jsonExpr) };
  if (typeof value === 'object' && value !== null)
    return { entries: Object.keys(value).map((key) => [objectKey(key), jsonExpr(value[key] as JsonValue)]) };
  return primitive(value);
}

/** A key of an object literal; `__proto__` is computed, since a plain `__proto__:` sets the prototype. */
function objectKey(key: string): string {
  return key === '__proto__' ? "['__proto__']" : propertyKey(key);
}

function primitive(value: unknown): string {
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'Number.NaN';
    if (value === Number.POSITIVE_INFINITY) return 'Number.POSITIVE_INFINITY';
    if (value === Number.NEGATIVE_INFINITY) return 'Number.NEGATIVE_INFINITY';
    return Object.is(value, -0) ? '-0' : String(value);
  }
  return String(value);
}
