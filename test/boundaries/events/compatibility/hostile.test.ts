/**
 * A registry takes schema texts from anyone who can reach it. Whatever the text, parsing answers
 * with a parsed schema or a WirekitError WK_REGISTRY_SCHEMA_INVALID (never another error, a stack
 * overflow, a hang or a polluted prototype), and a schema that parses is compatible with itself.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, test } from 'vitest';
import {
  checkCompatibility,
  messageIndexesOf,
  parseRegisteredSchema,
  protobufMessageAt,
} from '../../../../src/boundaries/events/compatibility/index.js';
import type { SchemaDefinition } from '../../../../src/boundaries/events/registry/api.js';
import { isWirekitError } from '../../../../src/errors/index.js';

/** Parses, and when that succeeds checks the schema against itself; returns the error thrown, if any. */
function attempt(definition: SchemaDefinition): unknown {
  try {
    const parsed = parseRegisteredSchema(definition);
    const result = checkCompatibility(parsed, [parsed], 'FULL_TRANSITIVE');
    if (!result.compatible) return new Error(`not compatible with itself: ${result.messages.join('\n')}`);
    return undefined;
  } catch (error) {
    return error;
  }
}

function expectRefusedOrParsed(definition: SchemaDefinition): void {
  const error = attempt(definition);
  if (error !== undefined && !isWirekitError(error, 'WK_REGISTRY_SCHEMA_INVALID')) {
    throw new Error(`${String(error)}\nfor ${JSON.stringify(definition).slice(0, 300)}`);
  }
}

function expectRefused(definition: SchemaDefinition): void {
  const error = attempt(definition);
  expect(isWirekitError(error, 'WK_REGISTRY_SCHEMA_INVALID'), String(error)).toBe(true);
}

afterEach(() => {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

const schemaTypes = fc.constantFrom<SchemaDefinition['schemaType']>('AVRO', 'PROTOBUF', 'WIREKIT', undefined);

describe('random text', () => {
  test('any string, as any schema type', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.json()),
        schemaTypes,
        (schema, schemaType) => {
          expectRefusedOrParsed({ schemaType, schema });
        },
      ),
      { numRuns: 500 },
    );
  });

  const avroWords = fc.constantFrom(
    '"record"',
    '"enum"',
    '"fixed"',
    '"array"',
    '"map"',
    '"int"',
    '"long"',
    '"string"',
    '"null"',
    '"A"',
    '"B"',
    '"type"',
    '"name"',
    '"fields"',
    '"items"',
    '"values"',
    '"symbols"',
    '"size"',
    '"default"',
    '"aliases"',
    '"namespace"',
    '"logicalType"',
    '"decimal"',
    '"precision"',
    '"scale"',
    '"__proto__"',
    '{',
    '}',
    '[',
    ']',
    ':',
    ',',
    '0',
    '1',
    '-1',
    '16',
    'null',
    'true',
    '1e400',
  );
  test('Avro-shaped token soup', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(fc.array(avroWords, { maxLength: 60 }), (words) =>
        expectRefusedOrParsed({ schema: words.join('') }),
      ),
      { numRuns: 1000 },
    );
  });

  const bases: unknown[] = [
    {
      type: 'record',
      name: 'Order',
      namespace: 'shop',
      fields: [
        { name: 'id', type: 'long' },
        {
          name: 'lines',
          type: {
            type: 'array',
            items: { type: 'record', name: 'Line', fields: [{ name: 'qty', type: 'int', default: 1 }] },
          },
        },
        { name: 'status', type: { type: 'enum', name: 'Status', symbols: ['NEW', 'PAID'], default: 'NEW' } },
        { name: 'note', type: ['null', 'string'], default: null },
        { name: 'hash', type: { type: 'fixed', name: 'Hash', size: 4 } },
        { name: 'price', type: { type: 'bytes', logicalType: 'decimal', precision: 9, scale: 2 } },
        { name: 'tags', type: { type: 'map', values: 'Line' } },
        { name: 'next', type: ['null', 'Order'], default: null },
      ],
    },
  ];
  /** Replaces one value anywhere in a copy of `json` (a key's value or an array item) by `value`. */
  const edited = (json: unknown, where: number, value: unknown): unknown => {
    const copy = structuredClone(json);
    const spots: [Record<string | number, unknown>, string | number][] = [];
    const visit = (node: unknown): void => {
      if (typeof node !== 'object' || node === null) return;
      for (const key of Object.keys(node)) {
        const index = Array.isArray(node) ? Number(key) : key;
        spots.push([node as Record<string | number, unknown>, index]);
        visit((node as Record<string, unknown>)[key]);
      }
    };
    visit(copy);
    const [parent, key] = spots[where % spots.length] as [Record<string | number, unknown>, string | number];
    parent[key] = value;
    return copy;
  };
  test('Avro schemas with random values put in random places', { timeout: 120_000 }, () => {
    const values = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom(
        'int',
        'Line',
        'Order',
        'shop.Line',
        'record',
        'enum',
        'fixed',
        'decimal',
        -1,
        0,
        2 ** 31,
      ),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...bases),
        fc.array(fc.tuple(fc.nat(), values), { minLength: 1, maxLength: 3 }),
        (base, edits) => {
          let schema = base;
          for (const [where, value] of edits) schema = edited(schema, where, value);
          expectRefusedOrParsed({ schema: JSON.stringify(schema) });
        },
      ),
      { numRuns: 1000 },
    );
  });

  const protoWords = fc.constantFrom(
    'syntax = "proto3";',
    'syntax = "proto2";',
    'edition = "2023";',
    'package a.b;',
    'import "google/protobuf/timestamp.proto";',
    'import "x.proto";',
    'message',
    'enum',
    'oneof',
    'group',
    'map<string, A>',
    'repeated',
    'optional',
    'required',
    'reserved',
    'extensions',
    'extend',
    'option',
    '(__proto__).polluted',
    '__proto__',
    'constructor',
    'A',
    'B',
    'int32',
    'sint64',
    'string',
    'bytes',
    'google.protobuf.Timestamp',
    '.a.b.A',
    '=',
    '1',
    '2',
    '0',
    '536870911',
    '19000',
    'max',
    'to',
    ';',
    '{',
    '}',
    '[',
    ']',
    '"x"',
    '//c\n',
    '/*',
    '*/',
    ',',
  );
  test('Protobuf-shaped token soup', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(fc.array(protoWords, { maxLength: 60 }), (words) =>
        expectRefusedOrParsed({ schemaType: 'PROTOBUF', schema: words.join(' ') }),
      ),
      { numRuns: 1000 },
    );
  });

  const wirekitNode: fc.Arbitrary<unknown> = fc.letrec<{ node: unknown }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      fc.record({
        kind: fc.constantFrom('bool', 'int8', 'uint64', 'string', 'decimal', 'json', 'timestamp', 'nope'),
      }),
      fc.record({ kind: fc.constant('array'), items: tie('node') }),
      fc.record({ kind: fc.constant('optional'), inner: tie('node') }),
      fc.record({ kind: fc.constant('ref'), name: fc.constantFrom('A', 'B') }),
      fc.record({
        kind: fc.constant('enum'),
        name: fc.constantFrom('A', 'B'),
        members: fc.array(fc.string(), { maxLength: 3 }),
      }),
      fc.record({
        kind: fc.constant('object'),
        name: fc.constantFrom('A', 'B', '__proto__'),
        fields: fc.array(fc.record({ name: fc.constantFrom('a', 'b', 'constructor'), schema: tie('node') }), {
          maxLength: 3,
        }),
      }),
    ),
  })).node;
  test('wirekit-shaped documents', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(wirekitNode, (root) =>
        expectRefusedOrParsed({
          schemaType: 'WIREKIT',
          schema: JSON.stringify({ format: 'wirekit-schema', version: 1, root }),
        }),
      ),
      { numRuns: 500 },
    );
  });

  test('message indexes of random text and paths answer with WirekitErrors only', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.array(fc.integer({ min: -2, max: 3 }), { maxLength: 4 }),
        (text, indexes) => {
          for (const call of [() => protobufMessageAt(text, indexes), () => messageIndexesOf(text, 'A.B')]) {
            try {
              call();
            } catch (error) {
              if (!isWirekitError(error)) throw error;
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('hostile texts', () => {
  const deep = (open: string, close: string, depth: number) => open.repeat(depth) + close.repeat(depth);

  test('a 100 MB text is refused for its length, before it is read', () => {
    const huge = ' '.repeat(100 * 1024 * 1024);
    for (const schemaType of ['AVRO', 'PROTOBUF', 'WIREKIT'] as const) {
      let error: unknown;
      try {
        parseRegisteredSchema({ schemaType, schema: huge });
      } catch (caught) {
        error = caught;
      }
      expect(isWirekitError(error, 'WK_REGISTRY_SCHEMA_INVALID')).toBe(true);
      expect((error as Error).message).toMatch(/over the limit of 2097152/);
    }
  });

  test('the length limit is an option', () => {
    const schema = JSON.stringify({ type: 'record', name: 'A', fields: [] });
    expect(() => parseRegisteredSchema({ schema }, { maxSchemaLength: 10 })).toThrow(
      expect.objectContaining({ code: 'WK_REGISTRY_SCHEMA_INVALID' }),
    );
    expect(parseRegisteredSchema({ schema }, { maxSchemaLength: schema.length }).schemaType).toBe('AVRO');
  });

  test.each([
    ['Avro: 10,000 nested arrays', { schema: deep('[', ']', 10_000) }],
    [
      'Avro: 10,000 nested array types',
      { schema: `${'{"type":"array","items":'.repeat(10_000)}"int"${'}'.repeat(10_000)}` },
    ],
    [
      'Avro: 600 nested array types (past the 500 type levels, within the JSON limit)',
      { schema: `${'{"type":"array","items":'.repeat(600)}"int"${'}'.repeat(600)}` },
    ],
    [
      'wirekit: 10,000 nested arrays',
      {
        schemaType: 'WIREKIT',
        schema: `{"format":"wirekit-schema","version":1,"root":${'{"kind":"array","items":'.repeat(10_000)}{"kind":"bool"}${'}'.repeat(10_000)}}`,
      },
    ],
    [
      'Protobuf: 10,000 nested messages',
      { schemaType: 'PROTOBUF', schema: `syntax = "proto3"; ${deep('message M { ', '} ', 10_000)}` },
    ],
    [
      'Protobuf: an option 10,000 levels deep',
      { schemaType: 'PROTOBUF', schema: `syntax = "proto3"; option (x) = ${deep('{ a: ', '} ', 10_000)};` },
    ],
    [
      'Avro: a __proto__ key',
      { schema: '{"type":"record","name":"A","fields":[],"__proto__":{"polluted":1}}' },
    ],
    [
      'Avro: a __proto__ key spelled with an escape',
      { schema: '{"type":"record","name":"A","fields":[],"\\u005f_proto__":{"polluted":1}}' },
    ],
    [
      'wirekit: a __proto__ key',
      {
        schemaType: 'WIREKIT',
        schema: '{"format":"wirekit-schema","version":1,"root":{"kind":"bool"},"__proto__":{"polluted":1}}',
      },
    ],
    ['JSON Schema', { schemaType: 'JSON', schema: '{"type":"object"}' }],
    ['an unknown schema type', { schemaType: 'XML', schema: '<a/>' }],
    ['a schema type of __proto__', { schemaType: '__proto__', schema: '{}' }],
    ['a schema that is not a string', { schema: { type: 'record' } }],
    ['references', { schema: '"int"', references: [{ name: 'x', subject: 'x', version: 1 }] }],
  ] as [string, SchemaDefinition][])('%s', (_name, definition) => {
    expectRefused(definition);
  });

  test('deep schemas under the limits parse and check without overflowing the stack', () => {
    const arrays = `${'{"type":"array","items":'.repeat(450)}"int"${'}'.repeat(450)}`;
    expect(attempt({ schema: arrays })).toBeUndefined();
    const records = (depth: number): unknown =>
      depth === 0
        ? 'int'
        : { type: 'record', name: `R${depth}`, fields: [{ name: 'f', type: records(depth - 1) }] };
    expect(attempt({ schema: JSON.stringify(records(300)) })).toBeUndefined();
    const wirekit = `{"format":"wirekit-schema","version":1,"root":${'{"kind":"array","items":'.repeat(250)}{"kind":"bool"}${'}'.repeat(250)}}`;
    expect(attempt({ schemaType: 'WIREKIT', schema: wirekit })).toBeUndefined();
    const messages = `syntax = "proto3"; ${'message M { '.repeat(30)}${'} '.repeat(30)}`;
    expect(attempt({ schemaType: 'PROTOBUF', schema: messages })).toBeUndefined();
  });

  test('prototype-polluting option and type names in .proto files do not reach a prototype', () => {
    for (const schema of [
      'syntax = "proto3"; message A { option (__proto__).polluted = 1; int32 a = 1 [(__proto__).polluted = true]; }',
      'syntax = "proto3"; option (constructor).prototype.polluted = 1; message B {}',
      'syntax = "proto3"; message __proto__ { int32 constructor = 1; int32 hasOwnProperty = 2; }',
      'syntax = "proto3"; package __proto__; message constructor { int32 prototype = 1; }',
      'syntax = "proto3"; enum __proto__ { polluted = 0; }',
    ]) {
      expectRefusedOrParsed({ schemaType: 'PROTOBUF', schema });
    }
  });

  test('a long comment or whitespace before the syntax statement is read in linear time', () => {
    for (const prefix of [' '.repeat(1_000_000), `/*${' '.repeat(1_000_000)}`, '//\n'.repeat(300_000)]) {
      expectRefusedOrParsed({ schemaType: 'PROTOBUF', schema: `${prefix}syntax = "proto3"; message A {}` });
    }
  });
});
