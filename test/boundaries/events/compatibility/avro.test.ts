/**
 * The Avro rules, one table per rule family: each row is a writer schema, a reader schema, whether
 * the reader reads the writer's data, and the error types (with a path) when it does not.
 */
import { describe, expect, test } from 'vitest';
import { parseRegisteredSchema } from '../../../../src/boundaries/events/compatibility/index.js';
import { isWirekitError } from '../../../../src/errors/index.js';
import { avro, record, verdict } from './support.js';

interface Row {
  readonly name: string;
  readonly writer: unknown;
  readonly reader: unknown;
  readonly compatible: boolean;
  /** The error types found, sorted (empty when compatible). */
  readonly errors?: readonly string[];
  /** A path that one of the issues must carry. */
  readonly path?: string;
}

function table(rows: readonly Row[]): void {
  test.each(rows)('$name', ({ writer, reader, compatible, errors = [], path }) => {
    const result = verdict('AVRO', avro(writer), avro(reader));
    expect(result.compatible, JSON.stringify(result.issues, null, 1)).toBe(compatible);
    expect(result.errorTypes).toEqual([...errors].sort());
    if (path !== undefined) expect(result.issues.map((issue) => issue.path)).toContain(path);
  });
}

const id = { name: 'id', type: 'long' };

describe('records and fields', () => {
  table([
    {
      name: 'identical records',
      writer: record('User', [id]),
      reader: record('User', [id]),
      compatible: true,
    },
    {
      name: 'a reader field with a default, missing in the writer',
      writer: record('User', [id]),
      reader: record('User', [id, { name: 'email', type: 'string', default: '' }]),
      compatible: true,
    },
    {
      name: 'a reader field with a null default (null is a default)',
      writer: record('User', [id]),
      reader: record('User', [id, { name: 'email', type: ['null', 'string'], default: null }]),
      compatible: true,
    },
    {
      name: 'a reader field without a default, missing in the writer',
      writer: record('User', [id]),
      reader: record('User', [id, { name: 'email', type: 'string' }]),
      compatible: false,
      errors: ['READER_FIELD_MISSING_DEFAULT_VALUE'],
      path: '/fields/1',
    },
    {
      name: 'a writer-only field is skipped',
      writer: record('User', [id, { name: 'legacy', type: 'string' }]),
      reader: record('User', [id]),
      compatible: true,
    },
    {
      name: 'fields in another order',
      writer: record('User', [id, { name: 'a', type: 'int' }]),
      reader: record('User', [{ name: 'a', type: 'int' }, id]),
      compatible: true,
    },
    {
      name: 'a renamed field found through the reader field alias',
      writer: record('User', [id, { name: 'mail', type: 'string' }]),
      reader: record('User', [id, { name: 'email', type: 'string', aliases: ['mail'] }]),
      compatible: true,
    },
    {
      name: 'a renamed field without an alias or default',
      writer: record('User', [id, { name: 'mail', type: 'string' }]),
      reader: record('User', [id, { name: 'email', type: 'string' }]),
      compatible: false,
      errors: ['READER_FIELD_MISSING_DEFAULT_VALUE'],
    },
    {
      name: 'a writer field alias does not count (aliases are the reader’s)',
      writer: record('User', [id, { name: 'mail', type: 'string', aliases: ['email'] }]),
      reader: record('User', [id, { name: 'email', type: 'string' }]),
      compatible: false,
      errors: ['READER_FIELD_MISSING_DEFAULT_VALUE'],
    },
    {
      name: 'a field type that changes, nested path',
      writer: record('User', [id, { name: 'home', type: record('Address', [{ name: 'zip', type: 'int' }]) }]),
      reader: record('User', [
        id,
        { name: 'home', type: record('Address', [{ name: 'zip', type: 'boolean' }]) },
      ]),
      compatible: false,
      errors: ['TYPE_MISMATCH'],
      path: '/fields/1/type/fields/0/type',
    },
  ]);
});

describe('names and aliases of named types', () => {
  table([
    {
      name: 'a renamed record',
      writer: record('A', [id]),
      reader: record('B', [id]),
      compatible: false,
      errors: ['NAME_MISMATCH'],
      path: '/name',
    },
    {
      name: 'a renamed record with the old name as an alias',
      writer: record('A', [id]),
      reader: record('B', [id], { aliases: ['A'] }),
      compatible: true,
    },
    {
      name: 'an alias is qualified by the reader’s namespace (Avro Java)',
      writer: record('A', [id], { namespace: 'shop' }),
      reader: record('B', [id], { namespace: 'shop', aliases: ['A'] }),
      compatible: true,
    },
    {
      name: 'records match by unqualified name across namespaces (the spec)',
      writer: record('User', [id], { namespace: 'old.ns' }),
      reader: record('User', [id], { namespace: 'new.ns' }),
      compatible: true,
    },
    {
      name: 'a renamed enum',
      writer: { type: 'enum', name: 'Color', symbols: ['RED'] },
      reader: { type: 'enum', name: 'Colour', symbols: ['RED'] },
      compatible: false,
      errors: ['NAME_MISMATCH'],
    },
  ]);
});

describe('enums', () => {
  const color = (symbols: string[], extra: Record<string, unknown> = {}) => ({
    type: 'enum',
    name: 'Color',
    symbols,
    ...extra,
  });
  table([
    {
      name: 'a symbol added in the reader',
      writer: color(['RED']),
      reader: color(['RED', 'BLUE']),
      compatible: true,
    },
    {
      name: 'symbols reordered',
      writer: color(['RED', 'BLUE']),
      reader: color(['BLUE', 'RED']),
      compatible: true,
    },
    {
      name: 'a writer symbol the reader lacks',
      writer: color(['RED', 'BLUE']),
      reader: color(['RED']),
      compatible: false,
      errors: ['MISSING_ENUM_SYMBOLS'],
      path: '/symbols',
    },
    {
      name: 'a writer symbol the reader lacks, with a reader enum default',
      writer: color(['RED', 'BLUE']),
      reader: color(['RED', 'OTHER'], { default: 'OTHER' }),
      compatible: true,
    },
    {
      name: 'a writer enum default does not help the reader',
      writer: color(['RED', 'BLUE'], { default: 'RED' }),
      reader: color(['RED']),
      compatible: false,
      errors: ['MISSING_ENUM_SYMBOLS'],
    },
  ]);
});

describe('primitives and promotions', () => {
  const allowed: [string, string][] = [
    ['int', 'long'],
    ['int', 'float'],
    ['int', 'double'],
    ['long', 'float'],
    ['long', 'double'],
    ['float', 'double'],
    ['string', 'bytes'],
    ['bytes', 'string'],
  ];
  const refused: [string, string][] = [
    ['long', 'int'],
    ['double', 'float'],
    ['float', 'long'],
    ['int', 'boolean'],
    ['boolean', 'int'],
    ['null', 'int'],
    ['string', 'int'],
    ['int', 'string'],
  ];
  table([
    ...['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string'].map((type) => ({
      name: `${type} read as ${type}`,
      writer: type,
      reader: type,
      compatible: true,
    })),
    ...allowed.map(([writer, reader]) => ({
      name: `${writer} promotes to ${reader}`,
      writer,
      reader,
      compatible: true,
    })),
    ...refused.map(([writer, reader]) => ({
      name: `${writer} does not read as ${reader}`,
      writer,
      reader,
      compatible: false,
      errors: ['TYPE_MISMATCH'],
      path: '/',
    })),
    {
      name: 'a primitive written as an object reads as its name',
      writer: { type: 'int' },
      reader: 'long',
      compatible: true,
    },
  ]);
});

describe('fixed', () => {
  const md5 = (size: number, name = 'MD5') => ({ type: 'fixed', name, size });
  table([
    { name: 'same name and size', writer: md5(16), reader: md5(16), compatible: true },
    {
      name: 'another size',
      writer: md5(16),
      reader: md5(20),
      compatible: false,
      errors: ['FIXED_SIZE_MISMATCH'],
      path: '/size',
    },
    {
      name: 'another name',
      writer: md5(16),
      reader: md5(16, 'Hash'),
      compatible: false,
      errors: ['NAME_MISMATCH'],
    },
    {
      name: 'fixed is not bytes',
      writer: md5(16),
      reader: 'bytes',
      compatible: false,
      errors: ['TYPE_MISMATCH'],
    },
  ]);
});

describe('arrays and maps', () => {
  table([
    {
      name: 'array items promote',
      writer: { type: 'array', items: 'int' },
      reader: { type: 'array', items: 'long' },
      compatible: true,
    },
    {
      name: 'array items that do not',
      writer: { type: 'array', items: 'long' },
      reader: { type: 'array', items: 'int' },
      compatible: false,
      errors: ['TYPE_MISMATCH'],
      path: '/items',
    },
    {
      name: 'map values promote',
      writer: { type: 'map', values: 'float' },
      reader: { type: 'map', values: 'double' },
      compatible: true,
    },
    {
      name: 'map values that do not',
      writer: { type: 'map', values: 'string' },
      reader: { type: 'map', values: 'int' },
      compatible: false,
      errors: ['TYPE_MISMATCH'],
      path: '/values',
    },
    {
      name: 'an array is not a map',
      writer: { type: 'array', items: 'int' },
      reader: { type: 'map', values: 'int' },
      compatible: false,
      errors: ['TYPE_MISMATCH'],
    },
  ]);
});

describe('unions', () => {
  table([
    {
      name: 'a branch added in the reader',
      writer: ['null', 'string'],
      reader: ['null', 'string', 'int'],
      compatible: true,
    },
    {
      name: 'a writer branch the reader union lacks',
      writer: ['null', 'string', 'int'],
      reader: ['null', 'string'],
      compatible: false,
      errors: ['MISSING_UNION_BRANCH'],
      path: '/2',
    },
    { name: 'branches reordered', writer: ['null', 'string'], reader: ['string', 'null'], compatible: true },
    {
      name: 'a writer branch read by promotion',
      writer: ['null', 'int'],
      reader: ['null', 'double'],
      compatible: true,
    },
    {
      name: 'a plain writer type into a reader union',
      writer: 'string',
      reader: ['null', 'string'],
      compatible: true,
    },
    {
      name: 'a plain writer type no reader branch reads',
      writer: 'boolean',
      reader: ['null', 'string'],
      compatible: false,
      errors: ['MISSING_UNION_BRANCH'],
    },
    {
      name: 'a writer union into a plain reader every branch reads',
      writer: ['int', 'long'],
      reader: 'double',
      compatible: true,
    },
    {
      name: 'a writer union into a plain reader: null is not a string',
      writer: ['null', 'string'],
      reader: 'string',
      compatible: false,
      errors: ['TYPE_MISMATCH'],
      path: '/0',
    },
    {
      name: 'a record branch matched by name, its fields checked',
      writer: ['null', record('A', [{ name: 'x', type: 'int' }])],
      reader: [
        'null',
        record('A', [
          { name: 'x', type: 'int' },
          { name: 'y', type: 'int' },
        ]),
      ],
      compatible: false,
      errors: ['MISSING_UNION_BRANCH'],
    },
    {
      name: 'a record branch renamed with an alias',
      writer: ['null', record('A', [{ name: 'x', type: 'int' }])],
      reader: ['null', record('B', [{ name: 'x', type: 'int' }], { aliases: ['A'] })],
      compatible: true,
    },
  ]);

  test('a reader union of thousands of records is indexed, not searched per branch', () => {
    const branches = Array.from({ length: 3000 }, (_, i) => record(`R${i}`, [{ name: 'x', type: 'int' }]));
    const started = performance.now();
    const result = verdict('AVRO', avro(branches), avro([...branches].reverse()));
    expect(result.compatible).toBe(true);
    // Not a timing assertion of the rule: a quadratic search would take minutes, not seconds.
    expect(performance.now() - started).toBeLessThan(60_000);
  });
});

describe('recursive types', () => {
  const list = (extra: unknown[] = []) =>
    record('Node', [
      { name: 'value', type: 'int' },
      { name: 'next', type: ['null', 'Node'], default: null },
      ...extra,
    ]);
  table([
    { name: 'a linked list reads itself', writer: list(), reader: list(), compatible: true },
    {
      name: 'a linked list whose node gains a field with a default',
      writer: list(),
      reader: list([{ name: 'label', type: 'string', default: '' }]),
      compatible: true,
    },
    {
      name: 'a linked list whose node gains a field without one',
      writer: list(),
      reader: list([{ name: 'label', type: 'string' }]),
      compatible: false,
      errors: ['READER_FIELD_MISSING_DEFAULT_VALUE'],
      path: '/fields/2',
    },
    {
      name: 'mutually recursive records',
      writer: record('A', [{ name: 'b', type: ['null', record('B', [{ name: 'a', type: ['null', 'A'] }])] }]),
      reader: record('A', [{ name: 'b', type: ['null', record('B', [{ name: 'a', type: ['null', 'A'] }])] }]),
      compatible: true,
    },
  ]);
});

describe('logical types', () => {
  const decimal = (precision: number, scale: number) => ({
    type: 'bytes',
    logicalType: 'decimal',
    precision,
    scale,
  });
  table([
    { name: 'the same decimal', writer: decimal(10, 2), reader: decimal(10, 2), compatible: true },
    {
      name: 'a wider precision at the same scale',
      writer: decimal(10, 2),
      reader: decimal(12, 2),
      compatible: true,
    },
    {
      name: 'a narrower precision',
      writer: decimal(10, 2),
      reader: decimal(8, 2),
      compatible: false,
      errors: ['TYPE_MISMATCH'],
    },
    {
      name: 'another scale (every value would be rescaled)',
      writer: decimal(10, 2),
      reader: decimal(10, 3),
      compatible: false,
      errors: ['TYPE_MISMATCH'],
    },
    {
      name: 'a decimal read as plain bytes (logical type ignored)',
      writer: decimal(10, 2),
      reader: 'bytes',
      compatible: true,
    },
    {
      name: 'timestamp units are not compared',
      writer: { type: 'long', logicalType: 'timestamp-millis' },
      reader: { type: 'long', logicalType: 'timestamp-micros' },
      compatible: true,
    },
  ]);
});

describe('parsing what the registry refuses', () => {
  const refused: [string, unknown][] = [
    ['an unknown type name', record('A', [{ name: 'x', type: 'Missing' }])],
    ['a default of the wrong type', record('A', [{ name: 'x', type: 'int', default: 'one' }])],
    ['an int default beyond 32 bits', record('A', [{ name: 'x', type: 'int', default: 2 ** 31 }])],
    ['a union default that is no branch', record('A', [{ name: 'x', type: ['null', 'int'], default: 'x' }])],
    [
      'a fixed default of the wrong length',
      record('A', [{ name: 'x', type: { type: 'fixed', name: 'F', size: 2 }, default: 'abc' }]),
    ],
    ['an enum default that is no symbol', { type: 'enum', name: 'E', symbols: ['A'], default: 'B' }],
    ['a record without fields', { type: 'record', name: 'A' }],
    ['a bare unknown name', 'Missing'],
  ];
  test.each(refused)('%s', (_name, schema) => {
    let error: unknown;
    try {
      parseRegisteredSchema({ schema: avro(schema) });
    } catch (caught) {
      error = caught;
    }
    expect(isWirekitError(error, 'WK_REGISTRY_SCHEMA_INVALID'), String(error)).toBe(true);
  });

  test('valid defaults of every kind pass', () => {
    const fields = [
      { name: 'n', type: 'null', default: null },
      { name: 'b', type: 'boolean', default: true },
      { name: 'i', type: 'int', default: -7 },
      { name: 'l', type: 'long', default: 2 ** 40 },
      { name: 'f', type: 'float', default: 1.5 },
      { name: 's', type: 'string', default: 'x' },
      { name: 'y', type: 'bytes', default: '\u00ff\u0000' },
      { name: 'x', type: { type: 'fixed', name: 'F', size: 2 }, default: 'ab' },
      { name: 'e', type: { type: 'enum', name: 'E', symbols: ['A'] }, default: 'A' },
      { name: 'a', type: { type: 'array', items: 'int' }, default: [1, 2] },
      { name: 'm', type: { type: 'map', values: 'int' }, default: { k: 1 } },
      { name: 'u', type: ['null', 'int'], default: 3 },
      {
        name: 'r',
        type: record('R', [
          { name: 'q', type: 'int' },
          { name: 'z', type: 'int', default: 0 },
        ]),
        default: { q: 1 },
      },
    ];
    expect(() => parseRegisteredSchema({ schema: avro(record('All', fields)) })).not.toThrow();
  });
});

describe('canonical form', () => {
  const canonical = (text: string) => parseRegisteredSchema({ schema: text }).canonical;

  test('whitespace and key order do not change it', () => {
    const a = '{"type":"record","name":"A","fields":[{"name":"x","type":"int"}]}';
    const b = '{\n  "fields": [ { "type": "int", "name": "x" } ],\n  "name": "A",\n  "type": "record"\n}';
    expect(canonical(a)).toBe(canonical(b));
  });

  test('{"type": "int"} and "int" are the same type', () => {
    const a = avro(record('A', [{ name: 'x', type: 'int' }]));
    const b = avro(record('A', [{ name: 'x', type: { type: 'int' } }]));
    expect(canonical(a)).toBe(canonical(b));
  });

  test('but not inside a default value, where {"type": "int"} is data', () => {
    const map = { type: 'map', values: 'string' };
    const text = avro(record('A', [{ name: 'm', type: map, default: { type: 'int' } }]));
    expect(canonical(text)).toContain('"default":{"type":"int"}');
  });

  test('field order, docs and defaults do change it', () => {
    const base = record('A', [
      { name: 'x', type: 'int' },
      { name: 'y', type: 'int' },
    ]);
    const swapped = record('A', [
      { name: 'y', type: 'int' },
      { name: 'x', type: 'int' },
    ]);
    const documented = { ...base, doc: 'A record.' };
    expect(canonical(avro(base))).not.toBe(canonical(avro(swapped)));
    expect(canonical(avro(base))).not.toBe(canonical(avro(documented)));
  });
});
