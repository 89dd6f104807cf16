/**
 * The allocation budget (maxAllocatedBytes) in every decoder: charged as values are built, on the
 * compiled and the interpreted paths alike and schemaless where a format decodes without a schema,
 * per decode call (nothing carries over between calls), over a whole sequence in decodeSequence and
 * per value in decodeStream. The figures of the cost model itself are in src/codecs/core/budget.ts; here
 * what matters is that each kind of value costs something and that the same input is refused alike.
 */
import { describe, expect, test } from 'vitest';
import { formatNames } from '../../../src/codecs/core/codec.js';
import { createCodec } from '../../../src/codecs/registry.js';
import { t } from '../../../src/index.js';
import { codeOf } from '../../support/code-of.js';

/** Arrow's schema is a row's, and its values are arrays of rows. */
const Empty = t.object('Empty', { note: t.optional(t.string()) });
/** One kind of value per field, so each test can fill one and leave the others empty. */
const Doc = t.object('Doc', {
  items: t.array(Empty),
  texts: t.array(t.string()),
  blobs: t.array(t.bytes()),
  when: t.array(t.timestamp()),
  counts: t.map(t.string(), t.int32()),
});
type DocValue = {
  items: object[];
  texts: string[];
  blobs: Uint8Array[];
  when: Date[];
  counts: Record<string, number>;
};
const none: DocValue = { items: [], texts: [], blobs: [], when: [], counts: {} };

/** Each kind of value, 2,000 of them: tens to hundreds of KB of heap, far past a budget of 32 KiB. */
const heavy: [string, DocValue][] = [
  ['empty objects', { ...none, items: Array.from({ length: 2000 }, () => ({})) }],
  ['strings', { ...none, texts: Array.from({ length: 2000 }, (_, i) => `text ${i}`.padEnd(40, '.')) }],
  ['byte strings', { ...none, blobs: Array.from({ length: 2000 }, () => new Uint8Array(4)) }],
  ['timestamps', { ...none, when: Array.from({ length: 2000 }, (_, i) => new Date(i * 1000)) }],
  [
    'map entries',
    { ...none, counts: Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, i])) },
  ],
];

const small = 32 * 1024;
const paths = [true, false] as const;

describe.each(formatNames)('%s', (format) => {
  const rowsOf = (value: DocValue) => (format === 'arrow' ? [value] : value);
  const codecOf = (compile: boolean, maxAllocatedBytes?: number) =>
    createCodec(format, {
      schema: Doc,
      compile,
      limits: maxAllocatedBytes === undefined ? {} : { maxAllocatedBytes },
    });

  test.each(heavy)('%s cost the budget, compiled and interpreted alike', (_, value) => {
    for (const compile of paths) {
      const bytes = codecOf(compile).encode(rowsOf(value) as never);
      expect(codecOf(compile).decode(bytes), `compile: ${compile}`).toEqual(rowsOf(value));
      expect(
        codeOf(() => codecOf(compile, small).decode(bytes)),
        `compile: ${compile}`,
      ).toBe('WK_LIMIT_ALLOCATION');
    }
  });

  test('the budget is per decode call: a value that fits decodes every time', () => {
    const value = { ...none, items: Array.from({ length: 50 }, () => ({})) };
    for (const compile of paths) {
      const codec = codecOf(compile, small);
      const bytes = codec.encode(rowsOf(value) as never);
      for (let i = 0; i < 5; i++) expect(codec.decode(bytes)).toEqual(rowsOf(value));
    }
  });

  test('a sequence held whole is one budget; a stream gives each value its own', async () => {
    const value = { ...none, items: Array.from({ length: 100 }, () => ({})) };
    const codec = codecOf(true, small);
    expect(codec.decode(codec.encode(rowsOf(value) as never))).toEqual(rowsOf(value));
    // An Arrow sequence is rows, all in one table, and its stream goes a record batch at a time.
    const values = Array.from({ length: 20 }, () => (format === 'arrow' ? value : rowsOf(value)));
    const sequence = codec.encodeSequence(values as never);
    expect(codeOf(() => codec.decodeSequence(sequence))).toBe('WK_LIMIT_ALLOCATION');
    if (format === 'arrow') return;
    const streamed: unknown[] = [];
    const chunks = (async function* () {
      yield sequence;
    })();
    for await (const item of codec.decodeStream(chunks)) streamed.push(item);
    expect(streamed).toEqual(values);
  });
});

describe.each(['msgpack', 'cbor'] as const)('%s without a schema', (format) => {
  test.each(heavy)('%s cost the budget', (_, value) => {
    const bytes = createCodec(format).encode(value);
    expect(createCodec(format).decode(bytes)).toBeTruthy();
    expect(codeOf(() => createCodec(format, { limits: { maxAllocatedBytes: small } }).decode(bytes))).toBe(
      'WK_LIMIT_ALLOCATION',
    );
  });
});

test.each([1.5, -1, Number.NaN])(
  'maxAllocatedBytes %s is refused when the codec is made',
  (maxAllocatedBytes) => {
    for (const format of formatNames) {
      expect(codeOf(() => createCodec(format, { schema: Doc, limits: { maxAllocatedBytes } }))).toBe(
        'WK_OPTIONS_INVALID',
      );
    }
  },
);
