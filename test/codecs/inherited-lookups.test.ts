/**
 * Text from outside (a format or compression name, a media type, a content coding, a schema
 * document's kind or reference, an enum member or union tag on the wire, an Avro writer's type
 * names) named like a member every object inherits. Every table wirekit looks such text up in must
 * treat `constructor` or `__proto__` as the unknown name it is: refused with the code any unknown name
 * gets, never answered with Object's own function. One row per entry point; the HTTP headers and the
 * CLI flags have their own tables (test/boundaries/http/inherited-names.test.ts,
 * test/cli/hostile-input.test.ts).
 */
import { describe, expect, test } from 'vitest';
import { createAvroCodec } from '../../src/codecs/avro/index.js';
import { findFormat } from '../../src/codecs/formats.js';
import { createCodec } from '../../src/codecs/registry.js';
import { getCompressor } from '../../src/compression/index.js';
import { fromJsonValue, schemaFromJson, t, validate } from '../../src/index.js';
import { chooseEncoding, chooseMediaType, parseMediaType } from '../../src/negotiate/index.js';
import { codeOf } from '../support/code-of.js';

const inherited = [
  'constructor',
  '__proto__',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'prototype',
  '__defineGetter__',
];

const Color = t.enum('Color', ['red', 'green']);
const Circle = t.object('Circle', { kind: t.literal('circle'), r: t.float64() });
const Square = t.object('Square', { kind: t.literal('square'), side: t.float64() });
const Shape = t.union('Shape', 'kind', [Circle, Square]);
const document = (root: unknown) => ({ format: 'wirekit-schema', version: 1, root });

describe.each(inherited)('%s', (name) => {
  test('is no format, compressor, media type or coding', () => {
    expect(findFormat(name)).toBeUndefined();
    expect(findFormat(`application/${name}`)).toBeUndefined();
    expect(codeOf(() => createCodec(name as never))).toBe('WK_UNKNOWN_FORMAT');
    expect(codeOf(() => getCompressor(name as never))).toBe('WK_UNKNOWN_FORMAT');
    expect(chooseEncoding(name, ['gzip', 'br'])).toBeUndefined();
    const offers = ['application/json', 'application/cbor'].map((type) => parseMediaType(type)) as never;
    expect(chooseMediaType(`application/${name}`, offers)).toBe(-1);
  });

  test('is no kind, int64 mode, precision or defined type in a schema document', () => {
    expect(codeOf(() => schemaFromJson(document({ kind: name })))).toBe('WK_SCHEMA_JSON_INVALID');
    expect(codeOf(() => schemaFromJson(document({ kind: 'int64', as: name })))).toBe(
      'WK_SCHEMA_JSON_INVALID',
    );
    expect(codeOf(() => schemaFromJson(document({ kind: 'timestamp', precision: name })))).toBe(
      'WK_SCHEMA_INVALID',
    );
    expect(codeOf(() => schemaFromJson(document({ kind: 'ref', name })))).toBe('WK_SCHEMA_UNRESOLVED_REF');
  });

  test('is no enum member and no union tag: validate, the JSON form and every decoder that reads names', () => {
    expect(validate(Color, name).map((issue) => issue.code)).toEqual(['not_a_member']);
    expect(validate(Shape, { kind: name }).map((issue) => issue.code)).toEqual(['unknown_variant']);
    expect(codeOf(() => fromJsonValue(Color, name))).toBe('WK_JSON_VALUE_INVALID');
    expect(codeOf(() => fromJsonValue(Shape, { kind: name, r: 1 }))).toBe('WK_JSON_VALUE_INVALID');
    const Tagged = t.object('Tagged', { kind: t.string(), r: t.float64() });
    for (const format of ['json', 'msgpack', 'cbor'] as const) {
      for (const compile of [true, false]) {
        const asString = createCodec(format, { schema: t.string(), compile }).encode(name);
        expect(codeOf(() => createCodec(format, { schema: Color, compile }).decode(asString))).toBe(
          'WK_DECODE_SCHEMA_MISMATCH',
        );
        const tagged = createCodec(format, { schema: Tagged, compile }).encode({ kind: name, r: 1 });
        expect(codeOf(() => createCodec(format, { schema: Shape, compile }).decode(tagged))).toBe(
          'WK_DECODE_SCHEMA_MISMATCH',
        );
      }
    }
  });

  test("names no type and no symbol in an Avro writer's schema", () => {
    // A reference by that name, to nothing defined: the writer schema is refused.
    const referring = { type: 'record', name: 'Row', fields: [{ name: 'v', type: name }] };
    expect(
      codeOf(() => createAvroCodec({ schema: t.object('Row', { v: t.int32() }), writerSchema: referring })),
    ).toMatch(/^WK_SCHEMA_/);
    // A writer's symbol the reader lacks: written by the writer, refused when read, as any other.
    const Wide = t.enum('Color', ['red', name]);
    const bytes = createCodec('avro', { schema: Wide }).encode(name as never);
    const writerSchema = { type: 'enum', name: 'Color', symbols: ['red', name] };
    expect(codeOf(() => createAvroCodec({ schema: Color, writerSchema }).decode(bytes))).toBe(
      'WK_DECODE_SCHEMA_MISMATCH',
    );
    expect(createAvroCodec({ schema: Color, writerSchema }).decode(Uint8Array.of(0))).toBe('red');
  });
});
