/**
 * The JSON codec carries t.either as the value itself: the branch is the one the value's class
 * names, in the generated codec and the interpreter alike (compile: false).
 */
import { describe, expect, test } from 'vitest';
import { createJsonCodec } from '../../../src/codecs/json/index.js';
import { isWirekitError } from '../../../src/errors/index.js';
import { type Schema, t } from '../../../src/schema/index.js';

const Point = t.object('Point', { x: t.float64(), y: t.float64() });
const Circle = t.object('Circle', { r: t.float64(), label: t.optional(t.string()) });
const Row = t.object('Row', {
  id: t.either([t.string({ maxLength: 8 }), t.uint32()]),
  big: t.either([t.int64(), t.bool()]),
  when: t.either([t.timestamp(), t.float64()]),
  blob: t.either([t.bytes(), t.array(t.uint8())]),
  shape: t.either([Point, Circle, t.decimal()]),
  many: t.array(t.either([t.string(), t.float64(), t.map(t.string(), t.bool())])),
});

const row = {
  id: 'ab12',
  big: 9_007_199_254_740_993n,
  when: new Date(Date.UTC(2024, 1, 29, 12, 0, 0, 5)),
  blob: new Uint8Array([1, 2, 3]),
  shape: { r: 2, label: 'o' },
  many: ['a', 1.5, { on: true }],
};

function codeOf(body: () => unknown): string {
  try {
    body();
  } catch (error) {
    if (isWirekitError(error)) return `${error.code}@${(error.path ?? []).join('.')}`;
    throw error;
  }
  return 'no error';
}

describe.each([true, false])('JSON codec, t.either (compile: %s)', (compile) => {
  const codec = createJsonCodec<unknown>({ schema: Row, compile });

  test('every branch round-trips as itself', () => {
    expect(codec.decode(codec.encode(row))).toEqual(row);
    const other = { ...row, id: 7, big: false, when: -0.5, blob: [9], shape: { x: 1, y: 2 }, many: [] };
    expect(codec.decode(codec.encode(other))).toEqual(other);
    expect(codec.decode(codec.encode({ ...row, shape: '12.50' }))).toEqual({ ...row, shape: '12.50' });
  });

  test('the text is the value as itself, with no tag', () => {
    const text = new TextDecoder().decode(codec.encode(row));
    expect(JSON.parse(text)).toMatchObject({
      id: 'ab12',
      big: '9007199254740993',
      shape: { r: 2, label: 'o' },
    });
  });

  test('a value of no branch, or breaking its branch, is refused at its path', () => {
    expect(codeOf(() => codec.encode({ ...row, id: true }))).toBe('WK_VALIDATION_FAILED@id');
    expect(codeOf(() => codec.encode({ ...row, id: 'far too long' }))).toBe('WK_VALIDATION_FAILED@id');
    expect(codeOf(() => codec.encode({ ...row, many: ['a', null] }))).toBe('WK_VALIDATION_FAILED@many.1');
    expect(codeOf(() => codec.encode({ ...row, shape: { z: 1 } }))).toBe('WK_VALIDATION_FAILED@shape');
  });

  test('NaN beside a text branch is refused: JSON would bring it back as text', () => {
    const Loose = t.object('Loose', { v: t.either([t.string(), t.float64()]) });
    const loose = createJsonCodec<unknown>({ schema: Loose, compile });
    expect(codeOf(() => loose.encode({ v: Number.NaN }))).toBe('WK_VALIDATION_FAILED@v');
    expect(loose.decode(loose.encode({ v: 'NaN' }))).toEqual({ v: 'NaN' });
    // Without a text branch the float spells NaN as text and reads it back as the number.
    const Floats = t.object('Floats', { v: t.either([t.float64(), t.bool()]) });
    const floats = createJsonCodec<unknown>({ schema: Floats, compile });
    expect(floats.decode(floats.encode({ v: Number.NaN }))).toEqual({ v: Number.NaN });
  });

  test('the decoder picks the branch from the parsed value, and refuses what fits none', () => {
    const decode = (text: string) => codec.decode(new TextEncoder().encode(text));
    const base = JSON.parse(new TextDecoder().decode(codec.encode(row)));
    const withField = (key: string, value: unknown) => JSON.stringify({ ...base, [key]: value });
    expect((decode(withField('id', 42)) as { id: unknown }).id).toBe(42);
    expect((decode(withField('big', '12')) as { big: unknown }).big).toBe(12n);
    expect(codeOf(() => decode(withField('id', null)))).toBe('WK_DECODE_SCHEMA_MISMATCH@id');
    expect(codeOf(() => decode(withField('id', 1.5)))).toBe('WK_DECODE_SCHEMA_MISMATCH@id');
    expect(codeOf(() => decode(withField('shape', { q: 1 })))).toBe('WK_DECODE_SCHEMA_MISMATCH@shape');
  });
});

test('the root may be an either', () => {
  const schema: Schema = t.either([t.string(), t.array(t.float64())]);
  for (const compile of [true, false]) {
    const codec = createJsonCodec<unknown>({ schema, compile });
    expect(codec.decode(codec.encode('x'))).toBe('x');
    expect(codec.decode(codec.encode([1, 2]))).toEqual([1, 2]);
  }
});
