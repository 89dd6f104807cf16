/**
 * Repeated numbers, booleans and enums, and fields left off the wire, in the compiled Protocol
 * Buffers codec (src/codecs/protobuf/compiled.ts) against the interpreter: packed and one key per
 * item, every scalar kind, item and count rules, a message with more than 31 fields that must have a
 * value, wrong values, mutated bytes and tight limits; and proof that the compiled code, not the
 * interpreter, reads and writes the lists.
 */
import { describe, expect, test } from 'vitest';
import { createProtobufCodec } from '../../../src/codecs/protobuf/index.js';
import { t } from '../../../src/schema/index.js';
import { expectSameOutcomeOnMutations, outcome } from '../../support/outcome.js';

const Hue = t.enum('Hue', ['red', 'green', 'blue']);

/** One list per scalar kind, packed (proto3's default) and one key per item. */
const Lists = t.object('Lists', {
  u32: t.array(t.uint32()),
  i32: t.array(t.int32({ proto: 'int32' })),
  s32: t.array(t.int32({ proto: 'sint32' })),
  f32: t.array(t.uint32({ proto: 'fixed32' })),
  sf32: t.array(t.int32({ proto: 'sfixed32' })),
  i8: t.array(t.int8()),
  u16: t.array(t.uint16({ max: 1000 })),
  i64: t.array(t.int64()),
  n64: t.array(t.int64({ as: 'number' })),
  f64: t.array(t.uint64({ proto: 'fixed64' })),
  doubles: t.array(t.float64()),
  floats: t.array(t.float32()),
  flags: t.array(t.bool()),
  hues: t.array(Hue),
  counted: t.array(t.uint32(), { minItems: 1, maxItems: 4 }),
  loose: t.array(t.uint32(), { packed: false }),
  looseHues: t.array(Hue, { packed: false }),
  looseDoubles: t.array(t.float64(), { packed: false }),
  name: t.string(),
  maybe: t.optional(t.uint32()),
});

const lists = (over: Record<string, unknown> = {}) => ({
  u32: [0, 1, 300, 2 ** 32 - 1],
  i32: [-1, 0, 2 ** 31 - 1, -(2 ** 31)],
  s32: [-1, 1, -(2 ** 31)],
  f32: [0, 2 ** 32 - 1],
  sf32: [-7, 7],
  i8: [-128, 127, 0],
  u16: [0, 1000],
  i64: [-(2n ** 63n), 0n, 2n ** 63n - 1n],
  n64: [Number.MAX_SAFE_INTEGER, -1],
  f64: [0n, 2n ** 64n - 1n],
  doubles: [0, -0, 1.5, Number.NaN, Number.NEGATIVE_INFINITY],
  floats: [0.5, -2],
  flags: [true, false, true],
  hues: ['red', 'blue', 'green'],
  counted: [1, 2],
  loose: [0, 5, 2 ** 32 - 1],
  looseHues: ['green', 'red'],
  looseDoubles: [1e300, -0],
  name: 'lists',
  ...over,
});

const compiled = createProtobufCodec({ schema: Lists });
const interpreted = createProtobufCodec({ schema: Lists, compile: false });
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

function stackOf(body: () => unknown): string {
  try {
    body();
  } catch (error) {
    return (error as Error).stack ?? '';
  }
  throw new Error('expected a failure');
}

describe('compiled lists of numbers, booleans and enums against the interpreter', () => {
  test('same bytes and same values, for every kind, packed and not', () => {
    expect(compiled.compiled).toBe(true);
    for (const value of [lists(), lists({ u32: [], flags: [], loose: [], looseHues: [] })]) {
      const bytes = compiled.encode(value as never);
      expect(hex(bytes)).toBe(hex(interpreted.encode(value as never)));
      expect(compiled.decode(bytes)).toStrictEqual(interpreted.decode(bytes));
      expect(compiled.decode(bytes)).toStrictEqual(value);
    }
  });

  test('both forms are read whatever the schema writes, and runs of one list are joined', () => {
    // counted (field 15) [1], which needs an item, then u32 (field 1) packed [1, 2], one item 3
    // unpacked, and packed [4].
    const mixed = new Uint8Array([0x7a, 0x01, 0x01, 0x0a, 0x02, 0x01, 0x02, 0x08, 0x03, 0x0a, 0x01, 0x04]);
    // loose (field 16) packed [7, 8], though the schema writes it one key per item.
    const packedLoose = new Uint8Array([0x7a, 0x01, 0x01, 0x82, 0x01, 0x02, 0x07, 0x08]);
    for (const bytes of [mixed, packedLoose]) {
      expect(outcome(() => compiled.decode(bytes))).toStrictEqual(outcome(() => interpreted.decode(bytes)));
    }
    expect((compiled.decode(mixed) as unknown as { u32: number[] }).u32).toEqual([1, 2, 3, 4]);
    expect((compiled.decode(packedLoose) as unknown as { loose: number[] }).loose).toEqual([7, 8]);
  });

  test('the lists are written and read by compiled code, not by the interpreter', () => {
    const encodeError = stackOf(() => compiled.encode(lists({ u32: [1, -1] }) as never));
    expect(encodeError).toMatch(/encode_Lists_/);
    expect(encodeError).not.toMatch(/encodeRepeated|encodeField/);
    // i8 (field 6) packed, holding 200: out of int8's range.
    const bad = new Uint8Array([0x32, 0x02, 0xc8, 0x01]);
    const decodeError = stackOf(() => compiled.decode(bad));
    expect(decodeError).toMatch(/decode_Lists_/);
    expect(decodeError).not.toMatch(/readField|readSlot/);
    expect(outcome(() => compiled.decode(bad))).toStrictEqual(outcome(() => interpreted.decode(bad)));
  });

  test('wrong values fail with the same code, message and path', () => {
    const wrong: Record<string, unknown>[] = [
      { u32: 5 },
      { u32: [1, -1] },
      { u32: [1.5] },
      { i32: [2 ** 31] },
      { s32: ['1'] },
      { i8: [128] },
      { u16: [1001] },
      { i64: [1] },
      { n64: [2 ** 53] },
      { f64: [-1n] },
      { doubles: ['x'] },
      { floats: [1e40] },
      { flags: [1] },
      { hues: ['mauve'] },
      { counted: [] },
      { counted: [1, 2, 3, 4, 5] },
      { loose: [null] },
      { looseHues: ['red', 'no'] },
      { looseDoubles: [1, undefined] },
    ];
    for (const over of wrong) {
      const value = lists(over);
      const a = outcome(() => compiled.encode(value as never));
      expect(a.ok, JSON.stringify(Object.keys(over))).toBe(false);
      expect(a).toStrictEqual(outcome(() => interpreted.encode(value as never)));
    }
  });

  test('same outcome on every mutation of the bytes, and under tight limits', () => {
    const samples = [
      compiled.encode(lists() as never),
      compiled.encode(lists({ hues: [], i64: [] }) as never),
    ];
    expectSameOutcomeOnMutations(
      samples,
      (b) => compiled.decode(b),
      (b) => interpreted.decode(b),
      1000,
    );
    const bytes = samples[0] as Uint8Array;
    let refused = 0;
    for (const limit of [
      ...[1, 5, 20].map((maxElements) => ({ maxElements })),
      ...[200, 1_000, 2_000].map((maxAllocatedBytes) => ({ maxAllocatedBytes })),
    ]) {
      const a = outcome(() => createProtobufCodec({ schema: Lists, limits: limit }).decode(bytes));
      const b = outcome(() =>
        createProtobufCodec({ schema: Lists, limits: limit, compile: false }).decode(bytes),
      );
      expect(a, JSON.stringify(limit)).toStrictEqual(b);
      if (!a.ok) refused++;
    }
    expect(refused).toBeGreaterThan(3);
  });
});

describe('fields left off the wire, compiled against the interpreter', () => {
  // 40 fields that must have a value: the first 31 are tracked by a bit, the rest by their value.
  const fields: Record<string, ReturnType<typeof t.string> | ReturnType<typeof t.array>> = {};
  for (let i = 0; i < 40; i++) {
    fields[`f${i}`] =
      i % 3 === 0 ? t.array(t.uint32()) : i % 3 === 1 ? t.string() : t.string({ minLength: 0 });
  }
  const Wide = t.object('Wide', fields);
  const wideCompiled = createProtobufCodec({ schema: Wide });
  const wideInterpreted = createProtobufCodec({ schema: Wide, compile: false });

  test('an empty message, and each field alone, read as the interpreter reads them', () => {
    const empty = new Uint8Array(0);
    expect(wideCompiled.decode(empty)).toStrictEqual(wideInterpreted.decode(empty));
    for (let i = 0; i < 40; i++) {
      const value = Object.fromEntries(
        Object.keys(fields).map((name, j) => [name, j % 3 === 0 ? (j === i ? [7] : []) : j === i ? 'x' : '']),
      );
      const bytes = wideCompiled.encode(value as never);
      expect(hex(bytes)).toBe(hex(wideInterpreted.encode(value as never)));
      expect(wideCompiled.decode(bytes)).toStrictEqual(wideInterpreted.decode(bytes));
      expect(wideCompiled.decode(bytes)).toStrictEqual(value);
    }
  });

  test('a default a rule refuses, and a required field missing, fail alike', () => {
    const Strict = t.object('Strict', {
      list: t.array(t.uint32()),
      code: t.string({ minLength: 2 }),
      must: t.object('Inner', { a: t.uint32() }, {}),
      kept: t.optional(t.string()),
    });
    const a = createProtobufCodec({ schema: Strict });
    const b = createProtobufCodec({ schema: Strict, compile: false });
    for (const bytes of [new Uint8Array(0), new Uint8Array([0x12, 0x02, 0x61, 0x62])]) {
      const outcomeA = outcome(() => a.decode(bytes));
      expect(outcomeA).toStrictEqual(outcome(() => b.decode(bytes)));
    }
    expect(outcome(() => a.decode(new Uint8Array(0))).ok).toBe(false);
  });
});
