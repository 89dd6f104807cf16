import { describe, expect, test } from 'vitest';
import { createCodec } from '../../src/codecs/index.js';
import { isWirekitError } from '../../src/errors/index.js';
import { branchOfNumber, branchTable, selectBranch } from '../../src/schema/either.js';
import { toJsonSchema } from '../../src/schema/export/index.js';
import {
  fromJsonValue,
  type ObjectSchema,
  type Schema,
  schemaFromJson,
  schemaToJson,
  t,
  toJsonValue,
  validate,
} from '../../src/schema/index.js';

const codes = (schema: Schema, value: unknown) =>
  validate(schema, value).map((issue) => `${issue.code}@${issue.path.join('.')}`);

/** The error a call throws, so a test can look at its code and message together. */
function thrown(body: () => unknown): { code: string; message: string } {
  try {
    body();
  } catch (error) {
    if (isWirekitError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a WirekitError, nothing was thrown');
}

const Point = t.object('Point', { x: t.float64(), y: t.float64() });
const Circle = t.object('Circle', { r: t.float64(), label: t.optional(t.string()) });

describe('t.either: ambiguous branch sets are refused when built', () => {
  test.each([
    ['two string kinds', () => t.either([t.string(), t.decimal()]), 'string', 'decimal'],
    ['a string and an enum', () => t.either([t.string(), t.enum('Color', ['red'])]), 'string', 'enum Color'],
    [
      'int32 and int64 as number',
      () => t.either([t.int32(), t.int64({ as: 'number' })]),
      'int32',
      'int64 (as number)',
    ],
    [
      'int64 as bigint and a float (a bigint is number and text)',
      () => t.either([t.int64(), t.float64()]),
      'int64',
      'float64',
    ],
    ['two floats', () => t.either([t.float32(), t.float64()]), 'float32', 'float64'],
    ['a number literal and a float', () => t.either([t.literal(1), t.float64()]), 'literal 1', 'float64'],
    [
      'a second integer beside an integer and a float',
      () => t.either([t.int32(), t.float64(), t.uint8()]),
      'float64',
      'uint8',
    ],
    [
      'int64 as bigint and an int (MessagePack writes both as integers)',
      () => t.either([t.int32(), t.int64()]),
      'int32',
      'int64',
    ],
    [
      'int64 as bigint and a string (JSON writes both as text)',
      () => t.either([t.string(), t.int64()]),
      'string',
      'int64',
    ],
    [
      'bytes and a string (JSON writes bytes as base64 text)',
      () => t.either([t.bytes(), t.string()]),
      'bytes',
      'string',
    ],
    ['a timestamp and a string', () => t.either([t.timestamp(), t.string()]), 'timestamp', 'string'],
    ['two boolean kinds', () => t.either([t.bool(), t.literal(true)]), 'bool', 'literal true'],
    ['two arrays', () => t.either([t.array(t.string()), t.array(t.float64())]), 'array', 'array'],
    ['an object and a map', () => t.either([Point, t.map(t.string(), t.float64())]), 'object Point', 'map'],
    [
      'two objects a value could satisfy both',
      () =>
        t.either([Point, t.object('Pair', { x: t.float64(), y: t.float64(), z: t.optional(t.float64()) })]),
      'object Point',
      'object Pair',
    ],
  ])('%s', (_label, build, first, second) => {
    const error = thrown(build);
    expect(error.code).toBe('WK_SCHEMA_INVALID');
    expect(error.message).toContain(`(${first})`);
    expect(error.message).toContain(`(${second})`);
  });

  test.each([
    ['optional', () => t.either([t.optional(t.string()), t.float64()]), /wrap the whole either/],
    ['nullable', () => t.either([t.nullable(t.string()), t.float64()]), /wrap the whole either/],
    ['json', () => t.either([t.json(), t.float64()]), /every value/],
    ['another either', () => t.either([t.either([t.string(), t.bool()]), t.float64()]), /list its branches/],
    ['a single branch', () => t.either([t.string()] as never), /at least two branches/],
  ])('a branch that is %s is refused', (_label, build, message) => {
    const error = thrown(build);
    expect(error.code).toBe('WK_SCHEMA_INVALID');
    expect(error.message).toMatch(message);
  });

  test('an int64 held as a bigint beside a float is refused with the way out', () => {
    expect(thrown(() => t.either([t.int64(), t.float64()])).message).toMatch(
      /ambiguous: both take numbers, .* Beside a float, hold it as a number: \{ as: 'number' \}\.$/,
    );
    expect(thrown(() => t.either([t.float32(), t.float64()])).message).not.toContain('Beside a float');
  });

  test('branch sets that no value can match twice are accepted', () => {
    expect(() => t.either([t.string(), t.float64()])).not.toThrow();
    expect(() => t.either([t.bool(), t.decimal(), t.uint32(), t.array(t.string()), Point])).not.toThrow();
    // Point requires x, which Circle lacks (and Circle requires r, which Point lacks).
    expect(() => t.either([Point, Circle])).not.toThrow();
    expect(() => t.either([t.int64(), t.bool()])).not.toThrow();
  });
});

describe('t.either: validate() picks the branch by the value', () => {
  const Id = t.either([t.string({ maxLength: 3 }), t.uint16()]);

  test('each class of value goes to its branch, whose own issues are reported', () => {
    expect(codes(Id, 'abc')).toEqual([]);
    expect(codes(Id, 65_535)).toEqual([]);
    expect(codes(Id, 'abcd')).toEqual(['too_long@']);
    expect(codes(Id, 70_000)).toEqual(['out_of_range@']);
    expect(codes(Id, 1.5)).toEqual(['not_integer@']);
  });

  test('a value of no branch is expected_type, naming the branches', () => {
    for (const value of [null, undefined, true, [], {}, new Date(0), 1n]) {
      const issues = validate(Id, value);
      expect(issues.map((issue) => issue.code)).toEqual(['expected_type']);
    }
    expect(validate(Id, true)[0]?.message).toContain('expected string or uint16, got');
  });

  test('a bigint goes to the branch of numbers, so an int64 branch takes it', () => {
    const Big = t.either([t.int64(), t.bool()]);
    expect(codes(Big, 5n)).toEqual([]);
    expect(codes(Big, 5)).toEqual(['expected_type@']);
  });

  test('objects go to the branch whose required keys they have and whose fields name all their keys', () => {
    const Shape = t.either([Point, Circle, t.string()]);
    expect(codes(Shape, { x: 1, y: 2 })).toEqual([]);
    expect(codes(Shape, { r: 1, label: 'o' })).toEqual([]);
    expect(codes(Shape, { r: 'wide' })).toEqual(['expected_type@r']);
    // Point's required keys with one missing: no branch has all of its required keys here.
    expect(codes(Shape, { x: 1 })).toEqual(['unknown_variant@']);
    // One candidate whose fields do not name every key: that branch, and the key is unknown there.
    expect(codes(Shape, { x: 1, r: 2 })).toEqual(['unknown_field@x']);
    expect(codes(Shape, { x: 1, y: 2, z: 3 })).toEqual(['unknown_field@z']);
    expect(validate(Shape, { x: 1, y: 2, z: 3 }, { unknownKeys: 'ignore' })).toEqual([]);
  });

  test('inside an object the path is the field', () => {
    const Row = t.object('Row', { id: Id });
    expect(codes(Row, { id: 'toolong' })).toEqual(['too_long@id']);
    expect(codes(Row, { id: false })).toEqual(['expected_type@id']);
    expect(codes(Row, {})).toEqual(['missing_field@id']);
  });

  test('a recursive branch (t.lazy) is classified on first use', () => {
    interface Tree {
      label: string | Tree;
    }
    const Tree: ObjectSchema<Tree> = t.object('Tree', { label: t.either([t.string(), t.lazy(() => Tree)]) });
    expect(codes(Tree, { label: { label: { label: 'leaf' } } })).toEqual([]);
    expect(codes(Tree, { label: { label: 7 } })).toEqual(['expected_type@label.label']);
  });

  test('an ambiguous recursive branch is refused at first use', () => {
    const Holder: ObjectSchema = t.object('Holder', {
      value: t.either([t.string(), t.lazy(() => Color)]),
    });
    const Color = t.enum('Color', ['red']);
    const error = thrown(() => validate(Holder, { value: 'red' }));
    expect(error.code).toBe('WK_SCHEMA_INVALID');
    expect(error.message).toContain('(enum Color)');
  });
});

describe('t.either: an integer branch beside a float branch, told apart by the value', () => {
  const Reading = t.either([t.int16(), t.float64(), t.string()]);
  const table = branchTable(Reading);

  test('an integer within the integer range goes to the integer branch, any other number to the float', () => {
    expect([3, -0, 32_767, -32_768].map((n) => branchOfNumber(table, n))).toEqual([0, 0, 0, 0]);
    const floats = [3.5, 32_768, -32_769, 2 ** 60, Number.NaN, Number.POSITIVE_INFINITY, 5n];
    expect(floats.map((n) => branchOfNumber(table, n))).toEqual(floats.map(() => 1));
    expect(selectBranch(Reading, 7)).toBe(0);
    expect(selectBranch(Reading, 0.25)).toBe(1);
    expect(selectBranch(Reading, 'x')).toBe(2);
  });

  test("the range is the branch kind's, int64 as number up to the safe integers", () => {
    const Wide = branchTable(t.either([t.float32(), t.int64({ as: 'number' })]));
    expect(branchOfNumber(Wide, 2 ** 53 - 1)).toBe(1);
    expect(branchOfNumber(Wide, 2 ** 53)).toBe(0);
    const Unsigned = branchTable(t.either([t.uint32(), t.float64()]));
    expect([branchOfNumber(Unsigned, 4_294_967_295), branchOfNumber(Unsigned, -1)]).toEqual([0, 1]);
  });

  test('validate() holds each number to its branch: a float32 fraction, no bigint', () => {
    const Small = t.either([t.uint8(), t.float32()]);
    expect(codes(Small, 255)).toEqual([]);
    expect(codes(Small, 256)).toEqual([]);
    expect(codes(Small, 1e300)).toEqual(['out_of_range@']);
    expect(codes(Small, 1n)).toEqual(['expected_type@']);
  });

  test('JSON reads 3.0 as the number 3, the integer branch, and writes each number as itself', () => {
    const codec = createCodec('json', { schema: t.object('Row', { v: Reading }) });
    expect(new TextDecoder().decode(codec.encode({ v: 3 }))).toBe('{"v":3}');
    expect(new TextDecoder().decode(codec.encode({ v: 2.5 }))).toBe('{"v":2.5}');
    expect(codec.decode(new TextEncoder().encode('{"v":3.0}'))).toEqual({ v: 3 });
    expect(codec.decode(new TextEncoder().encode('{"v":1e5}'))).toEqual({ v: 100_000 });
    expect(fromJsonValue(Reading, 40_000)).toBe(40_000);
  });
});

describe('t.either: schema JSON and JSON Schema', () => {
  test('the JSON form round-trips, branches in order', () => {
    const schema = t.object('Row', { id: t.either([t.string(), t.float64(), Point]) });
    const document = schemaToJson(schema);
    expect(document.root).toMatchObject({
      fields: [
        {
          name: 'id',
          schema: {
            kind: 'either',
            branches: [{ kind: 'string' }, { kind: 'float64' }, { kind: 'object', name: 'Point' }],
          },
        },
      ],
    });
    const back = schemaFromJson(JSON.parse(JSON.stringify(document)));
    expect(schemaToJson(back)).toEqual(document);
    expect(codes(back, { id: 'a' })).toEqual([]);
    expect(codes(back, { id: true })).toEqual(['expected_type@id']);
  });

  test('an ambiguous either in a document is refused with the path of the node', () => {
    const error = thrown(() =>
      schemaFromJson({
        format: 'wirekit-schema',
        version: 1,
        root: { kind: 'either', branches: [{ kind: 'string' }, { kind: 'bytes' }] },
      }),
    );
    expect(error.code).toBe('WK_SCHEMA_INVALID');
    expect(error.message).toMatch(/^\$\.root: either: branches 0 \(string\) and 1 \(bytes\)/);
  });

  test('the JSON form of values writes a branch as itself and reads it back by its class', () => {
    const Value = t.either([t.int64(), t.array(t.bytes()), Point]);
    expect(toJsonValue(Value, 12n)).toBe('12');
    expect(toJsonValue(Value, [new Uint8Array([255])])).toEqual(['/w==']);
    expect(fromJsonValue(Value, { x: 1, y: 2 })).toEqual({ x: 1, y: 2 });
    expect(fromJsonValue(Value, 12)).toBe(12n);
    expect(thrown(() => toJsonValue(Value, true)).code).toBe('WK_VALIDATION_FAILED');
    expect(thrown(() => fromJsonValue(Value, true)).code).toBe('WK_JSON_VALUE_INVALID');
  });

  test('JSON Schema export writes anyOf of the branches', () => {
    expect(toJsonSchema(t.either([t.string(), t.bool()]))).toMatchObject({
      anyOf: [{ type: 'string' }, { type: 'boolean' }],
    });
  });
});
