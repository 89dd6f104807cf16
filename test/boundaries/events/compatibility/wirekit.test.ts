/**
 * schemaType WIREKIT: the Avro rules on both schemas' Avro exports, the Protobuf rules on their
 * .proto exports, and the value rules only wirekit schemas carry. Each row names the writer and
 * reader schemas (built with `t`) and every rule broken, as `rules:ERROR_TYPE`.
 */
import { describe, expect, test } from 'vitest';
import {
  checkCompatibility,
  parseRegisteredSchema,
} from '../../../../src/boundaries/events/compatibility/index.js';
import { isWirekitError } from '../../../../src/errors/index.js';
import { type Schema, schemaToJson, t } from '../../../../src/schema/index.js';
import { verdict } from './support.js';

const text = (schema: Schema): string => JSON.stringify(schemaToJson(schema));

interface Row {
  readonly name: string;
  readonly writer: Schema;
  readonly reader: Schema;
  /** Every broken rule as `rules:ERROR_TYPE` (avro, protobuf, wirekit); empty when compatible. */
  readonly broken: readonly string[];
  readonly path?: string;
}

function table(rows: readonly Row[]): void {
  test.each(rows)('$name', ({ writer, reader, broken, path }) => {
    const result = verdict('WIREKIT', text(writer), text(reader));
    const found = [...new Set(result.issues.map((issue) => `${issue.rules}:${issue.errorType}`))].sort();
    expect(found, JSON.stringify(result.issues, null, 1)).toEqual([...broken].sort());
    expect(result.compatible).toBe(broken.length === 0);
    if (path !== undefined) expect(result.issues.map((issue) => issue.path)).toContain(path);
  });
}

const user = (fields: Record<string, t.FieldInput>, options?: t.ObjectOptions) =>
  t.object('User', { id: t.int64(), ...fields }, options);

describe('fields', () => {
  table([
    { name: 'identical', writer: user({ name: t.string() }), reader: user({ name: t.string() }), broken: [] },
    {
      name: 'an optional field added',
      writer: user({}),
      reader: user({ email: t.optional(t.string()) }),
      broken: [],
    },
    {
      name: 'a field added with a default',
      writer: user({}),
      reader: user({ email: t.field(t.string(), { default: '' }) }),
      broken: [],
    },
    {
      name: 'a required field added without a default',
      writer: user({}),
      reader: user({ email: t.string() }),
      broken: ['avro:READER_FIELD_MISSING_DEFAULT_VALUE'],
    },
    { name: 'a field removed', writer: user({ email: t.string() }), reader: user({}), broken: [] },
    {
      name: 'a field renamed with an alias (Avro by alias, Protobuf by number)',
      writer: user({ mail: t.string() }),
      reader: user({ email: t.field(t.string(), { aliases: ['mail'] }) }),
      broken: [],
    },
    {
      name: 'a field number reused with another type',
      writer: user({ a: t.string() }),
      reader: user({ b: t.field(t.bool(), { id: 2 }) }),
      broken: ['avro:READER_FIELD_MISSING_DEFAULT_VALUE', 'protobuf:FIELD_SCALAR_KIND_CHANGED'],
    },
    {
      name: 'the root object renamed with an alias: Avro follows it, the Protobuf rules count a removed message',
      writer: user({}),
      reader: t.object('Person', { id: t.int64() }, { aliases: ['User'] }),
      broken: ['protobuf:MESSAGE_REMOVED'],
    },
  ]);
});

describe('integer and float ranges', () => {
  table([
    {
      name: 'int16 widened to int32',
      writer: user({ n: t.int16() }),
      reader: user({ n: t.int32() }),
      broken: [],
    },
    {
      name: 'int32 narrowed to int16 (the same Avro int, the same sint32)',
      writer: user({ n: t.int32() }),
      reader: user({ n: t.int16() }),
      broken: ['wirekit:VALUE_RANGE_NARROWED'],
      path: '$.n',
    },
    {
      name: 'uint8 read as int16',
      writer: user({ n: t.uint8() }),
      reader: user({ n: t.int16() }),
      broken: ['protobuf:FIELD_SCALAR_KIND_CHANGED'],
    },
    {
      name: 'uint16 read as uint8',
      writer: user({ n: t.uint16() }),
      reader: user({ n: t.uint8() }),
      broken: ['wirekit:VALUE_RANGE_NARROWED'],
    },
    {
      name: 'int64 as bigint read as int64 as number (2^53)',
      writer: user({ n: t.int64() }),
      reader: user({ n: t.int64({ as: 'number' }) }),
      broken: ['wirekit:VALUE_RANGE_NARROWED'],
    },
    {
      name: 'int64 as number read as bigint',
      writer: user({ n: t.int64({ as: 'number' }) }),
      reader: user({ n: t.int64() }),
      broken: [],
    },
    {
      name: 'float64 read as float32',
      writer: user({ x: t.float64() }),
      reader: user({ x: t.float32() }),
      broken: ['avro:TYPE_MISMATCH', 'protobuf:FIELD_SCALAR_KIND_CHANGED', 'wirekit:VALUE_RANGE_NARROWED'],
    },
  ]);
});

describe('strings, bytes, arrays, decimals, timestamps', () => {
  table([
    {
      name: 'maxLength raised',
      writer: user({ s: t.string({ maxLength: 3 }) }),
      reader: user({ s: t.string({ maxLength: 9 }) }),
      broken: [],
    },
    {
      name: 'maxLength lowered',
      writer: user({ s: t.string({ maxLength: 9 }) }),
      reader: user({ s: t.string({ maxLength: 3 }) }),
      broken: ['wirekit:STRING_NARROWED'],
    },
    {
      name: 'a maxLength added',
      writer: user({ s: t.string() }),
      reader: user({ s: t.string({ maxLength: 3 }) }),
      broken: ['wirekit:STRING_NARROWED'],
    },
    {
      name: 'minLength raised',
      writer: user({ s: t.string() }),
      reader: user({ s: t.string({ minLength: 1 }) }),
      broken: ['wirekit:STRING_NARROWED'],
    },
    {
      name: 'a pattern added',
      writer: user({ s: t.string() }),
      reader: user({ s: t.string({ pattern: '^[a-z]+$' }) }),
      broken: ['wirekit:STRING_NARROWED'],
    },
    {
      name: 'a pattern dropped',
      writer: user({ s: t.string({ pattern: '^[a-z]+$' }) }),
      reader: user({ s: t.string() }),
      broken: [],
    },
    {
      name: 'bytes maxLength lowered',
      writer: user({ b: t.bytes({ maxLength: 16 }) }),
      reader: user({ b: t.bytes({ maxLength: 8 }) }),
      broken: ['wirekit:BYTES_NARROWED'],
    },
    {
      name: 'array maxItems lowered',
      writer: user({ tags: t.array(t.string()) }),
      reader: user({ tags: t.array(t.string(), { maxItems: 3 }) }),
      broken: ['wirekit:ITEMS_NARROWED'],
    },
    {
      name: 'array items narrowed, path into the items',
      writer: user({ tags: t.array(t.int32()) }),
      reader: user({ tags: t.array(t.int8()) }),
      broken: ['wirekit:VALUE_RANGE_NARROWED'],
      path: '$.tags[]',
    },
    {
      name: 'map values narrowed',
      writer: user({ m: t.map(t.string(), t.int32()) }),
      reader: user({ m: t.map(t.string(), t.int8()) }),
      broken: ['wirekit:VALUE_RANGE_NARROWED'],
      path: '$.m{}',
    },
    {
      name: 'a decimal with fewer integer digits and another Avro scale',
      writer: user({ p: t.decimal({ precision: 10, scale: 2 }) }),
      reader: user({ p: t.decimal({ precision: 10, scale: 3 }) }),
      broken: ['avro:TYPE_MISMATCH', 'wirekit:DECIMAL_NARROWED'],
    },
    {
      name: 'a free decimal read as one with precision and scale',
      writer: user({ p: t.decimal() }),
      reader: user({ p: t.decimal({ precision: 10, scale: 2 }) }),
      broken: ['wirekit:DECIMAL_NARROWED'],
    },
    {
      name: 'a decimal read as a plain string',
      writer: user({ p: t.decimal() }),
      reader: user({ p: t.string() }),
      broken: [],
    },
    {
      name: 'a string read as a decimal',
      writer: user({ p: t.string() }),
      reader: user({ p: t.decimal() }),
      broken: ['wirekit:KIND_CHANGED'],
    },
    {
      name: 'a json value read as a string',
      writer: user({ j: t.json() }),
      reader: user({ j: t.string() }),
      broken: [],
    },
    {
      name: 'a string read as json',
      writer: user({ j: t.string() }),
      reader: user({ j: t.json() }),
      broken: ['wirekit:KIND_CHANGED'],
    },
    {
      name: 'timestamps ms read as us',
      writer: user({ at: t.timestamp() }),
      reader: user({ at: t.timestamp({ precision: 'us' }) }),
      broken: [],
    },
    {
      name: 'timestamps ms read as s (seconds refuse milliseconds)',
      writer: user({ at: t.timestamp() }),
      reader: user({ at: t.timestamp({ precision: 's' }) }),
      broken: ['wirekit:TIMESTAMP_NARROWED'],
    },
    {
      name: 'timestamps ms read as ns (±292 years)',
      writer: user({ at: t.timestamp() }),
      reader: user({ at: t.timestamp({ precision: 'ns' }) }),
      broken: ['wirekit:TIMESTAMP_NARROWED'],
    },
    {
      name: "timestamps us read with range '0001-9999' (an imported Timestamp's years)",
      writer: user({ at: t.timestamp({ precision: 'us' }) }),
      reader: user({ at: t.timestamp({ precision: 'us', range: '0001-9999' }) }),
      broken: ['wirekit:TIMESTAMP_NARROWED'],
    },
    {
      name: "timestamps with range '0001-9999' read without it",
      writer: user({ at: t.timestamp({ precision: 'us', range: '0001-9999' }) }),
      reader: user({ at: t.timestamp({ precision: 'us' }) }),
      broken: [],
    },
  ]);
});

describe('enums, literals, presence, unions', () => {
  const color = (...members: string[]) => t.enum('Color', members);
  const circle = (tag = 'circle') => t.object('Circle', { kind: t.literal(tag), r: t.float64() });
  const square = t.object('Square', { kind: t.literal('square'), side: t.float64() });
  table([
    {
      name: 'an enum member appended',
      writer: user({ c: color('red') }),
      reader: user({ c: color('red', 'blue') }),
      broken: [],
    },
    {
      name: 'an enum member removed',
      writer: user({ c: color('red', 'blue') }),
      reader: user({ c: color('red') }),
      broken: ['avro:MISSING_ENUM_SYMBOLS', 'wirekit:ENUM_MEMBER_REMOVED'],
    },
    {
      name: 'enum members reordered (Avro matches names; Protobuf numbers would move)',
      writer: user({ c: color('red', 'blue') }),
      reader: user({ c: color('blue', 'red') }),
      broken: ['wirekit:ENUM_MEMBER_MOVED'],
    },
    {
      name: 'a literal changed',
      writer: user({ v: t.literal(1) }),
      reader: user({ v: t.literal(2) }),
      broken: ['wirekit:LITERAL_CHANGED'],
    },
    {
      name: 'a string field made a literal',
      writer: user({ v: t.string() }),
      reader: user({ v: t.literal('x') }),
      broken: ['wirekit:LITERAL_CHANGED'],
    },
    {
      name: 'an optional field made required',
      writer: user({ s: t.optional(t.string()) }),
      reader: user({ s: t.string() }),
      broken: ['avro:TYPE_MISMATCH', 'wirekit:PRESENCE_REQUIRED'],
    },
    {
      name: 'a required field made optional',
      writer: user({ s: t.string() }),
      reader: user({ s: t.optional(t.string()) }),
      broken: [],
    },
    {
      name: 'a union variant added',
      writer: user({ shape: t.union('Shape', 'kind', [circle()]) }),
      reader: user({ shape: t.union('Shape', 'kind', [circle(), square]) }),
      broken: [],
    },
    {
      name: 'a union variant removed',
      writer: user({ shape: t.union('Shape', 'kind', [circle(), square]) }),
      reader: user({ shape: t.union('Shape', 'kind', [circle()]) }),
      broken: [
        'avro:MISSING_UNION_BRANCH',
        'protobuf:ONEOF_FIELD_REMOVED',
        'protobuf:MESSAGE_REMOVED',
        'wirekit:UNION_VARIANT_REMOVED',
      ],
    },
    {
      name: 'a variant’s tag value changed',
      writer: user({ shape: t.union('Shape', 'kind', [circle('circle')]) }),
      reader: user({ shape: t.union('Shape', 'kind', [circle('round')]) }),
      broken: ['wirekit:LITERAL_CHANGED'],
    },
  ]);
});

describe('oneof groups', () => {
  const a = t.optional(t.string());
  const b = t.optional(t.int32());
  const c = t.optional(t.bool());
  table([
    {
      name: 'a group over one existing field and a new one',
      writer: user({ a }),
      reader: user({ a, b }, { oneofs: { kind: ['a', 'b'] } }),
      broken: [],
    },
    {
      name: 'a group over two existing fields',
      writer: user({ a, b }),
      reader: user({ a, b }, { oneofs: { kind: ['a', 'b'] } }),
      broken: ['protobuf:MULTIPLE_FIELDS_MOVED_TO_ONEOF', 'wirekit:ONEOF_NARROWED'],
      path: '$',
    },
    {
      name: 'a field moved out of a group',
      writer: user({ a, b, c }, { oneofs: { kind: ['a', 'b', 'c'] } }),
      reader: user({ a, b, c }, { oneofs: { kind: ['a', 'b'] } }),
      // A wider reader: Confluent's rules, like the value rules, let members leave a oneof.
      broken: [],
    },
    {
      name: 'a field added to a group',
      writer: user({ a, b, c }, { oneofs: { kind: ['a', 'b'] } }),
      reader: user({ a, b, c }, { oneofs: { kind: ['a', 'b', 'c'] } }),
      broken: ['protobuf:FIELD_MOVED_TO_EXISTING_ONEOF', 'wirekit:ONEOF_NARROWED'],
    },
    {
      name: 'a group removed',
      writer: user({ a, b }, { oneofs: { kind: ['a', 'b'] } }),
      reader: user({ a, b }),
      // A wider reader: Confluent's rules, like the value rules, let members leave a oneof.
      broken: [],
    },
  ]);
});

describe('recursion and exports', () => {
  const tree = (value: Schema) => {
    const node: Schema = t.object('Node', { value, children: t.array(t.lazy(() => node)) });
    return node;
  };
  table([
    { name: 'a recursive type reads itself', writer: tree(t.int32()), reader: tree(t.int32()), broken: [] },
    {
      name: 'a recursive type narrowed inside',
      writer: tree(t.int32()),
      reader: tree(t.int8()),
      broken: ['wirekit:VALUE_RANGE_NARROWED'],
    },
    {
      name: 'a reader that cannot be written as Avro cannot read the writer’s Avro events',
      writer: user({ c: t.enum('Color', ['red']) }),
      reader: user({ c: t.enum('Color', ['red', 'dark blue']) }),
      broken: ['avro:EXPORT_UNSUPPORTED'],
    },
    {
      name: 'neither can be written as Avro: only the other rules apply',
      writer: user({ c: t.enum('Color', ['dark red']) }),
      reader: user({ c: t.enum('Color', ['dark red', 'dark blue']) }),
      broken: [],
    },
  ]);
});

describe('parsing and messages', () => {
  test('messages name the rules they come from', () => {
    const parse = (schema: Schema) => parseRegisteredSchema({ schemaType: 'WIREKIT', schema: text(schema) });
    const result = checkCompatibility(
      parse(user({ n: t.int8() })),
      [parse(user({ n: t.int32() }))],
      'BACKWARD',
    );
    expect(result.compatible).toBe(false);
    expect(result.messages[0]).toMatch(
      /^wirekit: \{errorType:'VALUE_RANGE_NARROWED', description:'The value at path '\$\.n' in the new schema/,
    );
    expect(result.messages.at(-1)).toBe("{compatibility: 'BACKWARD'}");
  });

  test('canonical form: key order and whitespace do not count', () => {
    const document = schemaToJson(user({ n: t.int8() }));
    const reordered = JSON.stringify(
      { root: document.root, version: document.version, format: document.format },
      null,
      2,
    );
    const a = parseRegisteredSchema({ schemaType: 'WIREKIT', schema: JSON.stringify(document) });
    const b = parseRegisteredSchema({ schemaType: 'WIREKIT', schema: reordered });
    expect(a.canonical).toBe(b.canonical);
  });

  test.each([
    ['not JSON', '{'],
    ['another format', JSON.stringify({ format: 'avro', version: 1, root: {} })],
    ['an unknown kind', JSON.stringify({ format: 'wirekit-schema', version: 1, root: { kind: 'float128' } })],
    [
      'an unresolved ref',
      JSON.stringify({ format: 'wirekit-schema', version: 1, root: { kind: 'ref', name: 'Missing' } }),
    ],
    [
      'a field named __proto__',
      '{"format":"wirekit-schema","version":1,"root":{"kind":"object","name":"A","fields":[{"name":"__proto__","schema":{"kind":"bool"}}]}}',
    ],
  ])('refuses %s', (_name, schema) => {
    let error: unknown;
    try {
      parseRegisteredSchema({ schemaType: 'WIREKIT', schema });
    } catch (caught) {
      error = caught;
    }
    expect(isWirekitError(error, 'WK_REGISTRY_SCHEMA_INVALID'), String(error)).toBe(true);
  });
});
