/**
 * What survives each format. Every cell of the tables in docs/survival.md is computed here by a
 * real round trip, and the test fails when the page and the behaviour differ: the page cannot
 * promise what the code does not do.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { FormatName } from '../../src/codecs/core/codec.js';
import { createCodec } from '../../src/codecs/registry.js';
import { isWirekitError, type Schema, t } from '../../src/index.js';

interface Case {
  readonly label: string;
  readonly schema: Schema;
  readonly value: unknown;
}

const row = (schema: Schema) => t.object('Row', { v: schema });
const wrap = (value: unknown) => ({ v: value });

const schemaCases: readonly Case[] = [
  { label: 'int64 2^62+1', schema: t.int64(), value: 2n ** 62n + 1n },
  { label: 'uint64 2^64-1', schema: t.uint64(), value: 2n ** 64n - 1n },
  { label: 'decimal 30 digits', schema: t.decimal(), value: '12345678901234567890.1234567891' },
  { label: 'decimal(10,2) "1.5"', schema: t.decimal({ precision: 10, scale: 2 }), value: '1.5' },
  { label: 'decimal(10,2) "1.005"', schema: t.decimal({ precision: 10, scale: 2 }), value: '1.005' },
  { label: 'Date (ms)', schema: t.timestamp(), value: new Date('2024-02-29T12:34:56.789Z') },
  { label: 'Date before 1970', schema: t.timestamp(), value: new Date('1969-07-20T20:17:40.001Z') },
  { label: 'Date with ms, precision s', schema: t.timestamp({ precision: 's' }), value: new Date(1500) },
  { label: 'the last Date (year 275760)', schema: t.timestamp(), value: new Date(8.64e15) },
  { label: 'bytes', schema: t.bytes(), value: Uint8Array.from([0, 128, 255]) },
  { label: 'NaN', schema: t.float64(), value: Number.NaN },
  { label: '-0', schema: t.float64(), value: -0 },
  { label: 'Infinity', schema: t.float64(), value: Number.POSITIVE_INFINITY },
  { label: 'float32 1.1', schema: t.float32(), value: 1.1 },
  { label: 'optional, absent', schema: t.optional(t.string()), value: undefined },
  { label: 'nullable null', schema: t.nullable(t.string()), value: null },
  { label: 'optional(nullable) null', schema: t.optional(t.nullable(t.string())), value: null },
  {
    label: 'Map, int keys',
    schema: t.map(t.int32(), t.string()),
    value: new Map([
      [-1, 'a'],
      [7, 'b'],
    ]),
  },
  { label: 'astral and combining', schema: t.string(), value: '🚀 é 👩‍👩‍👧' },
  { label: 'lone surrogate', schema: t.string(), value: 'a\uD800b' },
  { label: 'empty string', schema: t.string(), value: '' },
];

const schemaFormats: readonly FormatName[] = [
  'json',
  'msgpack',
  'cbor',
  'protobuf',
  'avro',
  'flatbuffers',
  'arrow',
];

const schemalessCases: readonly Omit<Case, 'schema'>[] = [
  { label: 'number 2^40', value: 2 ** 40 },
  { label: 'number 2^53 (not a safe integer)', value: 2 ** 53 },
  { label: 'bigint 5', value: 5n },
  { label: 'bigint 2^62+1', value: 2n ** 62n + 1n },
  { label: 'bigint 2^64', value: 2n ** 64n },
  { label: 'Date', value: new Date('2024-02-29T12:34:56.789Z') },
  { label: 'Uint8Array', value: Uint8Array.from([0, 255]) },
  { label: 'NaN', value: Number.NaN },
  { label: '-0', value: -0 },
  { label: 'undefined in an object', value: { a: undefined, b: 1 } },
  { label: 'Map, int keys', value: new Map([[1, 'a']]) },
  { label: 'lone surrogate', value: 'a\uD800b' },
  { label: 'a `constructor` key (`__proto__`, `prototype` alike)', value: { a: { constructor: 1 } } },
];

/** A short readable spelling of a decoded value, for the cells where a value changes. */
function show(value: unknown): string {
  if (value === undefined) return 'absent';
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (value instanceof Date) return `Date ${value.toISOString()}`;
  if (value instanceof Uint8Array) return `bytes ${[...value].join(',')}`;
  if (value instanceof Map) return `Map {${[...value].map(([k, v]) => `${show(k)}: ${show(v)}`).join(', ')}}`;
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'object' && value !== null) {
    return `{${Object.entries(value)
      .map(([k, v]) => `${k}: ${show(v)}`)
      .join(', ')}}`;
  }
  return String(value);
}

function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Object.is(a, b);
  try {
    expect(a).toStrictEqual(b);
    return true;
  } catch {
    return false;
  }
}

/** '✓' when the value comes back equal, '→ X' when it comes back as X, '✗ CODE' when refused. */
function cell(run: () => unknown, expected: unknown): string {
  try {
    const back = run();
    return same(back, expected) ? '✓' : `→ ${show(back)}`;
  } catch (error) {
    if (isWirekitError(error)) return `✗ ${error.code}`;
    throw error;
  }
}

function schemaCell(format: FormatName, { schema, value }: Case): string {
  if (format === 'arrow') {
    const codec = createCodec(format, { schema: row(schema) });
    return cell(
      () => (codec.decode(codec.encode([wrap(value)] as never)) as unknown as { v?: unknown }[])[0]?.v,
      value,
    );
  }
  const codec = createCodec(format, { schema: row(schema) });
  return cell(() => (codec.decode(codec.encode(wrap(value) as never)) as { v?: unknown }).v, value);
}

function schemalessCell(format: 'json' | 'msgpack' | 'cbor', value: unknown): string {
  const codec = createCodec(format);
  return cell(() => codec.decode(codec.encode(value)), value);
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

function section(page: string, heading: string): string {
  const start = page.indexOf(heading);
  if (start === -1) return '';
  const body = page.slice(start + heading.length);
  const tableStart = body.indexOf('\n|');
  const tableEnd = body.indexOf('\n\n', tableStart + 1);
  return body.slice(tableStart + 1, tableEnd === -1 ? undefined : tableEnd).trim();
}

const page = readFileSync(new URL('../../docs/survival.md', import.meta.url), 'utf8');

describe('docs/survival.md', () => {
  test('the schema table is what the codecs do', () => {
    const rows = schemaCases.map((c) => [c.label, ...schemaFormats.map((format) => schemaCell(format, c))]);
    const actual = table(['value (with a schema)', ...schemaFormats], rows);
    expect(section(page, '## With a schema'), `\n${actual}\n`).toBe(actual);
  });

  test('the schemaless table is what the codecs do', () => {
    const formats = ['json', 'msgpack', 'cbor'] as const;
    const rows = schemalessCases.map((c) => [
      c.label,
      ...formats.map((format) => schemalessCell(format, c.value)),
    ]);
    const actual = table(['value (no schema)', ...formats], rows);
    expect(section(page, '## Without a schema'), `\n${actual}\n`).toBe(actual);
  });
});
