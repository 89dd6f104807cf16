/**
 * Bad ProtoJSON never hurts: random values round-trip as the binary codec keeps them, random and
 * mutated texts end in a value or a WirekitError (never another exception), and the limits hold
 * (input size, depth, elements) with the codes the other decoders use.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  createProtobufCodec,
  createProtoJsonCodec,
  schemaFromProto,
} from '../../../src/codecs/protobuf/index.js';
import { isWirekitError } from '../../../src/errors/index.js';
import { type Schema, t } from '../../../src/schema/index.js';
import { codeOf } from '../../support/code-of.js';
import { arbitraryOf } from '../../support/proto-arbitrary.js';

const proto = `
syntax = "proto3";
package pj.fuzz;
enum Mood { MOOD_UNSPECIFIED = 0; MOOD_GOOD = 1; MOOD_BAD = -3; }
message Node {
  int32 a = 1; sint64 b = 2; uint64 c = 3; fixed64 d = 4; float e = 5; double f = 6;
  string g = 7; bytes h = 8; bool i = 9; Mood mood = 10;
  repeated Node children = 11;
  map<string, Node> named = 12;
  map<int64, Mood> moods = 13;
  optional string note = 14;
  oneof either { string left = 15; Node right = 16; }
  repeated double reals = 17;
}
`;
const Node = schemaFromProto(proto).types.get('pj.fuzz.Node') as Schema;
const binary = createProtobufCodec({ schema: Node });
const json = createProtoJsonCodec({ schema: Node });
const utf8 = (text: string) => new TextEncoder().encode(text);

/** Decodes, and on success checks the value is one the codecs write; a non-Wirekit error fails. */
function decodeOrRefuse(bytes: Uint8Array): void {
  let value: unknown;
  try {
    value = json.decode(bytes);
  } catch (error) {
    if (!isWirekitError(error)) throw error;
    return;
  }
  expect(json.decode(json.encode(value))).toEqual(value);
}

describe('ProtoJSON under random and hostile input', () => {
  test('random values come back as the binary codec gives them back', () => {
    fc.assert(
      fc.property(arbitraryOf(Node, 0), (value) => {
        const viaBinary = binary.decode(binary.encode(value));
        expect(json.decode(json.encode(value))).toEqual(viaBinary);
        expect(json.decode(json.encode(viaBinary))).toEqual(viaBinary);
      }),
      { numRuns: 150 },
    );
  });

  test('random JSON values are a value or a WirekitError', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => decodeOrRefuse(utf8(JSON.stringify(value)))),
      { numRuns: 1000 },
    );
  });

  test("random objects with the schema's own keys are a value or a WirekitError", () => {
    const keys = [
      'a',
      'b',
      'c',
      'd',
      'e',
      'f',
      'g',
      'h',
      'i',
      'mood',
      'children',
      'named',
      'moods',
      'note',
      'left',
      'right',
      'reals',
    ];
    const leaf = fc.oneof(
      fc.integer(),
      fc.double(),
      fc.string(),
      fc.constantFrom('NaN', '-Infinity', '1e3', '0x1', 'MOOD_BAD', '9223372036854775808', '-_=', 'AQ=='),
      fc.boolean(),
      fc.constant(null),
    );
    const { node } = fc.letrec((tie) => ({
      node: fc.dictionary(
        fc.constantFrom(...keys),
        fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node'), { maxLength: 2 }), tie('node')),
      ),
    }));
    fc.assert(
      fc.property(node, (value) => decodeOrRefuse(utf8(JSON.stringify(value)))),
      { numRuns: 300 },
    );
  });

  test('mutated texts are a value or a WirekitError', () => {
    const sample = fc
      .sample(arbitraryOf(Node, 0), { numRuns: 20, seed: 34 })
      .map((value) => json.encode(value));
    fc.assert(
      fc.property(
        fc.constantFrom(...sample),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }),
        (original, edits) => {
          const bytes = original.slice();
          for (const [at, byte] of edits) if (bytes.length > 0) bytes[at % bytes.length] = byte;
          decodeOrRefuse(bytes);
        },
      ),
      { numRuns: 2000 },
    );
  });

  test('limits: input size, depth, elements, byte strings', () => {
    const limited = (limits: object) => createProtoJsonCodec({ schema: Node, limits });
    expect(codeOf(() => limited({ maxInputBytes: 10 }).decode(utf8('{"g":"more than ten bytes"}')))).toBe(
      'WK_LIMIT_INPUT',
    );
    const deep = (levels: number) => `${'{"right":'.repeat(levels)}{}${'}'.repeat(levels)}`;
    expect(codeOf(() => json.decode(utf8(deep(50))))).toBe('no error');
    expect(codeOf(() => json.decode(utf8(deep(200))))).toBe('WK_LIMIT_DEPTH');
    expect(codeOf(() => json.decode(utf8(deep(100_000))))).toBe('WK_LIMIT_DEPTH');
    expect(codeOf(() => json.decode(utf8(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)))).toBe(
      'WK_DECODE_SCHEMA_MISMATCH',
    );
    expect(codeOf(() => limited({ maxElements: 3 }).decode(utf8('{"reals":[1,2,3,4]}')))).toBe(
      'WK_LIMIT_ELEMENTS',
    );
    expect(
      codeOf(() => limited({ maxElements: 3 }).decode(utf8('{"named":{"a":{},"b":{},"c":{},"d":{}}}'))),
    ).toBe('WK_LIMIT_ELEMENTS');
    expect(codeOf(() => limited({ maxBytesLength: 2 }).decode(utf8('{"h":"AQID"}')))).toBe('WK_LIMIT_LENGTH');
    expect(codeOf(() => limited({ maxStringBytes: 3 }).decode(utf8('{"g":"ééé"}')))).toBe('WK_LIMIT_LENGTH');
    expect(codeOf(() => limited({ maxStringBytes: 6 }).decode(utf8('{"g":"ééé"}')))).toBe('no error');
    expect(codeOf(() => json.decode(utf8('{"named":{"__proto__":{}}}')))).toBe('WK_DECODE_UNSAFE_KEY');
    expect(codeOf(() => json.decode(new Uint8Array([0x7b, 0xff, 0x7d])))).toBe('WK_DECODE_MALFORMED');
    expect(codeOf(() => json.decode(utf8('{"a":1} x')))).toBe('WK_DECODE_MALFORMED');
  });

  test('encoding refuses what the binary codec refuses, and what ProtoJSON cannot write', () => {
    const value = binary.decode(new Uint8Array(0)) as Record<string, unknown>;
    expect(codeOf(() => json.encode({ ...value, a: 2 ** 40 }))).toBe(
      codeOf(() => binary.encode({ ...value, a: 2 ** 40 })),
    );
    const Stamp = t.object('Stamp', { at: t.timestamp() });
    expect(
      codeOf(() =>
        createProtoJsonCodec({ schema: Stamp }).encode({ at: new Date('-000001-01-01T00:00:00Z') }),
      ),
    ).toBe('WK_ENCODE_UNSUPPORTED');
  });
});
