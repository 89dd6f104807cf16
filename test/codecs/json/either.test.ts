/**
 * The JSON codec carries t.either as the value itself: the branch is the one the value's class
 * names, in the generated codec and the interpreter alike (compile: false).
 */
import { expect, test } from 'vitest';
import { createJsonCodec } from '../../../src/codecs/json/index.js';
import { type Schema, t } from '../../../src/schema/index.js';
import { keyedRow, keyedRowFields } from '../../fixtures/either-rows.js';
import { codeAndPathOf } from '../../support/code-of.js';
import { eachCodecMode } from '../../support/either-codec.js';

const Row = t.object('Row', {
  ...keyedRowFields,
});

const row = {
  ...keyedRow,
};

const other = { ...row, id: 7, big: false, when: -0.5, blob: [9], shape: { x: 1, y: 2 }, many: [] };

eachCodecMode(
  'JSON codec, t.either',
  (compile) => createJsonCodec<unknown>({ schema: Row, compile }),
  [row, other],
  (codec, compile) => {
    test('the text is the value as itself, with no tag', () => {
      const text = new TextDecoder().decode(codec.encode(row));
      expect(JSON.parse(text)).toMatchObject({
        id: 'ab12',
        big: '9007199254740993',
        shape: { r: 2, label: 'o' },
      });
    });

    test('NaN beside a text branch is refused: JSON would bring it back as text', () => {
      const Loose = t.object('Loose', { v: t.either([t.string(), t.float64()]) });
      const loose = createJsonCodec<unknown>({ schema: Loose, compile });
      expect(codeAndPathOf(() => loose.encode({ v: Number.NaN }))).toBe('WK_VALIDATION_FAILED@v');
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
      expect(codeAndPathOf(() => decode(withField('id', null)))).toBe('WK_DECODE_SCHEMA_MISMATCH@id');
      expect(codeAndPathOf(() => decode(withField('id', 1.5)))).toBe('WK_DECODE_SCHEMA_MISMATCH@id');
      expect(codeAndPathOf(() => decode(withField('shape', { q: 1 })))).toBe(
        'WK_DECODE_SCHEMA_MISMATCH@shape',
      );
    });
  },
);

test('the root may be an either', () => {
  const schema: Schema = t.either([t.string(), t.array(t.float64())]);
  for (const compile of [true, false]) {
    const codec = createJsonCodec<unknown>({ schema, compile });
    expect(codec.decode(codec.encode('x'))).toBe('x');
    expect(codec.decode(codec.encode([1, 2]))).toEqual([1, 2]);
  }
});
