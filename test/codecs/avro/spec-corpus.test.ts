/**
 * schemaFromAvro against Apache Avro's own schema test cases (test/fixtures/avro-spec-cases.ts):
 * every schema Avro calls valid imports, every one it calls invalid is refused with
 * WK_SCHEMA_IMPORT. Unions of several non-record branches import as untagged unions (t.either),
 * save one wirekit refuses by name: two fixed types, which only their size tells apart.
 */
import avsc from 'avsc';
import { describe, expect, test } from 'vitest';
import { createAvroCodec } from '../../../src/codecs/avro/index.js';
import { schemaFromAvro } from '../../../src/codecs/avro/schema-from-avro.js';
import { isWirekitError, SchemaImportError, type WirekitError } from '../../../src/errors/index.js';
import { toAvro } from '../../../src/schema/export/avro.js';
import { schemaToJson, validate } from '../../../src/schema/index.js';
import { avroSpecCases } from '../../fixtures/avro-spec-cases.js';

const primitiveNames = new Set(['boolean', 'int', 'long', 'float', 'double', 'bytes', 'string']);

/** A branch that is neither null nor a record (a name refers to a record in this corpus). */
function isUntaggedBranch(branch: unknown): boolean {
  if (typeof branch === 'string') return primitiveNames.has(branch);
  const type = (branch as { type?: unknown }).type;
  return typeof type === 'string' && type !== 'record' && type !== 'error' && type !== 'null';
}

/**
 * True when the schema holds a union of two or more non-null branches that are not all records. A
 * JSON array is a union where a schema stands: the root, "type", "items" and "values".
 */
function hasUntaggedUnion(schema: unknown): boolean {
  if (Array.isArray(schema)) {
    const present = schema.filter((branch) => branch !== 'null');
    return (present.length > 1 && present.some(isUntaggedBranch)) || schema.some(hasUntaggedUnion);
  }
  if (typeof schema !== 'object' || schema === null) return false;
  const { type, items, values, fields } = schema as Record<string, unknown>;
  const inFields =
    Array.isArray(fields) && fields.some((field) => hasUntaggedUnion((field as { type?: unknown }).type));
  return inFields || [type, items, values].some(hasUntaggedUnion);
}

function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function refusal(run: () => unknown): WirekitError {
  try {
    run();
  } catch (error) {
    if (isWirekitError(error)) return error;
    throw error;
  }
  throw new Error('not refused');
}

const valid = avroSpecCases.filter((c) => c.valid);
const invalid = avroSpecCases.filter((c) => !c.valid);
/** Valid in Avro, refused by wirekit: the union of two fixed types (IPv6 and IPv4 addresses). */
const fixedPair = (text: string) => text.includes('"IPv6"');
const importable = valid.filter((c) => !fixedPair(c.text));
const untagged = valid.filter((c) => hasUntaggedUnion(parsedOrText(c.text)));

describe("Apache Avro's valid schemas import", () => {
  test('the corpus is the one measured: 77 valid, 22 invalid, 5 with untagged unions', () => {
    expect([valid.length, invalid.length, untagged.length]).toEqual([77, 22, 5]);
    expect(valid.filter((c) => fixedPair(c.text))).toHaveLength(1);
  });

  test.each(importable.map((c) => [`${c.section}: ${c.text.slice(0, 100)}`, c.text]))('%s', (_name, text) => {
    const schema = schemaFromAvro(text);
    // What wirekit exports of the import imports again to the same thing...
    const exported = toAvro(schema);
    expect(toAvro(schemaFromAvro(JSON.stringify(exported)))).toEqual(exported);
    // ...and Avro's JavaScript implementation reads it, save names like ns.int, which avsc refuses
    // although the specification (and Avro's own Python and Java) allow them.
    if (!/"ns\.int"|"namespace": "ns", "name": "int"/.test(text))
      expect(() => avsc.Type.forSchema(exported as never)).not.toThrow();
  });

  test('the union of two fixed types is refused by name: both are bytes, which t.either tells apart by class, not size', () => {
    const [ipAddr] = valid.filter((c) => fixedPair(c.text));
    const error = refusal(() => schemaFromAvro(ipAddr?.text as string));
    expect([error.code, error.path]).toEqual(['WK_SCHEMA_IMPORT', ['fields', 0, 'type']]);
    expect(error.message).toMatch(
      /^fields\[0\]\.type: the union \[IPv6, IPv4\] has no wirekit form: .*ambiguous/,
    );
  });

  test('["null", "string", "long"] imports as a nullable either of string and int64 as a number', () => {
    const schema = schemaFromAvro({
      type: 'record',
      name: 'R',
      fields: [
        { name: 'a', type: 'int' },
        { name: 'b', type: ['string', 'null', 'long'], default: 'none' },
      ],
    });
    expect(schemaToJson(schema).root).toMatchObject({
      fields: [
        { name: 'a', schema: { kind: 'int32' } },
        {
          name: 'b',
          default: 'none',
          schema: {
            kind: 'nullable',
            inner: { kind: 'either', branches: [{ kind: 'string' }, { kind: 'int64', as: 'number' }] },
          },
        },
      ],
    });
    expect(validate(schema, { a: 1, b: 12 })).toEqual([]);
    expect(validate(schema, { a: 1, b: 'x' })).toEqual([]);
    expect(validate(schema, { a: 1, b: null })).toEqual([]);
  });

  test('a union of records with other branches: the records stand as one tagged union among the branches', () => {
    const record = (name: string) => ({
      type: 'record',
      name,
      fields: [{ name: name.toLowerCase(), type: 'int' }],
    });
    const schema = schemaFromAvro(['null', record('A'), 'string', record('B')] as never);
    expect(schemaToJson(schema).root).toMatchObject({
      kind: 'nullable',
      inner: { kind: 'either', branches: [{ kind: 'union', name: 'AOrB', tag: 'type' }, { kind: 'string' }] },
    });
    const codec = createAvroCodec({ schema });
    for (const value of [null, 'x', { type: 'A', a: 1 }, { type: 'B', b: 2 }])
      expect(codec.decode(codec.encode(value))).toEqual(value);
  });

  test('a long default of an untagged union is a number, as its branch holds it', () => {
    const schema = schemaFromAvro({
      type: 'record',
      name: 'R',
      fields: [{ name: 'n', type: ['long', 'string'], default: 7 }],
    });
    expect(schemaToJson(schema).root).toMatchObject({ fields: [{ name: 'n', default: 7 }] });
  });
});

describe("Apache Avro's invalid schemas are refused with WK_SCHEMA_IMPORT", () => {
  test.each(invalid.map((c) => [`${c.section}: ${c.text.slice(0, 100)}`, c.text]))('%s', (_name, text) => {
    expect(refusal(() => schemaFromAvro(text)).code).toBe('WK_SCHEMA_IMPORT');
  });

  test.each([
    [
      'an enum default that is no symbol',
      { type: 'enum', name: 'E', symbols: ['A'], default: 'B' },
      ['default'],
    ],
    ['["null", "null"]', ['null', 'null'], [1]],
    [
      'two branches of one named type, deep in a record',
      {
        type: 'record',
        name: 'R',
        fields: [{ name: 'f', type: { type: 'array', items: [{ type: 'fixed', name: 'F', size: 2 }, 'F'] } }],
      },
      ['fields', 0, 'type', 'items', 1],
    ],
  ])('%s: the error gives the path', (_name, avro, path) => {
    const error = refusal(() => schemaFromAvro(avro as never));
    expect([error.code, error.path]).toEqual(['WK_SCHEMA_IMPORT', path]);
  });
});

test('what the Avro reader refuses carries its place in the schema, in the path and the message', () => {
  const error = refusal(() =>
    schemaFromAvro({
      type: 'record',
      name: 'R',
      fields: [
        { name: 'a', type: 'int' },
        { name: 'b', type: { type: 'array', items: ['null', 'Missing'] } },
      ],
    }),
  );
  expect([error.code, error.path]).toEqual(['WK_SCHEMA_IMPORT', ['fields', 1, 'type', 'items', 1]]);
  expect(error.message).toMatch(
    /^fields\[1\]\.type\.items\[1\]: the Avro schema cannot be imported: "Missing" names/,
  );
});

describe('a name whose last part is a primitive name (ns.int) is a name like any other', () => {
  const avro = {
    type: 'record',
    name: 'ns.int',
    fields: [
      { name: 'value', type: 'int' },
      { name: 'next', type: ['null', 'ns.int'] },
    ],
  };

  test('a linked list decodes, and re-encodes to the same bytes', () => {
    // avsc refuses the name, so the bytes are written out: value 1 (zigzag 2), branch 1 (2), value 2
    // (4), branch 0 (0, null).
    const bytes = Uint8Array.of(2, 2, 4, 0);
    const list = { value: 1, next: { value: 2, next: null } };
    const schema = schemaFromAvro(avro as never);
    const codec = createAvroCodec({ schema, writerSchema: JSON.stringify(avro) });
    expect(codec.decode(bytes)).toEqual(list);
    expect(createAvroCodec({ schema }).encode(list)).toEqual(bytes);
  });

  test('"int" without a namespace is still refused: it is the primitive', () => {
    expect(refusal(() => schemaFromAvro({ type: 'enum', name: 'int', symbols: ['A'] })).code).toBe(
      'WK_SCHEMA_IMPORT',
    );
  });
});

describe('schema text that is not JSON is refused with the line and column of its first fault', () => {
  test.each([
    ['{\n  "type": "record",\n  "name": x\n}', 'expected a value', 3, 11],
    ['{"type": "record", ', 'it ends inside a value', undefined, undefined],
    ['["null", "int"] ]', 'unexpected text', 1, 17],
  ])('%j', (text, reason, line, column) => {
    const error = refusal(() => schemaFromAvro(text));
    expect(error).toBeInstanceOf(SchemaImportError);
    const { code, message } = error;
    const place = line === undefined ? '' : `(text):${line}:${column}: `;
    expect({
      code,
      message,
      line: (error as SchemaImportError).line,
      column: (error as SchemaImportError).column,
    }).toEqual({
      code: 'WK_SCHEMA_IMPORT',
      message: `${place}the Avro schema is not JSON: ${reason}.`,
      line,
      column,
    });
  });

  test('a bare name is a schema, as Avro reads it', () => {
    expect(schemaFromAvro('long').kind).toBe('int64');
    expect(schemaFromAvro(' "string" ').kind).toBe('string');
  });
});

describe('hostile schemas end in WK_SCHEMA_IMPORT with a short message', () => {
  test('arrays nested 10,000 deep: refused past the reader depth, the path in full on the error', () => {
    let text = '"int"';
    for (let i = 0; i < 10_000; i++) text = `{"type": "array", "items": ${text}}`;
    const error = refusal(() => schemaFromAvro(text));
    expect(error.code).toBe('WK_SCHEMA_IMPORT');
    expect(error.path?.length).toBeGreaterThan(500);
    expect(error.message.length).toBeLessThan(300);
  });

  test('a union of 10,000 enums names a few of them', () => {
    const union = Array.from({ length: 10_000 }, (_, i) => ({ type: 'enum', name: `E${i}`, symbols: ['A'] }));
    const error = refusal(() => schemaFromAvro(union as never));
    expect(error.code).toBe('WK_SCHEMA_IMPORT');
    expect(error.message).toContain('E11, … 9988 more');
    expect(error.message.length).toBeLessThan(300);
  });
});
