/**
 * One schema, one meaning, under any limits: for random values and random decode limits, every
 * format, compiled and interpreted, ends the same way: the value decoded, or refused with the same
 * WK_LIMIT_ code. The values are written without limits (an encoder's own maxDepth aside), so what
 * is compared is each decoder's reading of maxStringBytes, maxBytesLength, maxElements and maxDepth:
 * strings counted in UTF-8 bytes (map keys among them, but not the names the schema fixes: field
 * names, enum members, literals and union tags, which some formats write as numbers or not at
 * all), every array item and map entry counted together across the value (an object's fields are
 * not elements), each object, array and map one level. Where a value breaks several
 * limits, every format meets them in the value's order (fields as declared, items by index), so
 * it names the same one first; the one exception is Protocol Buffers' count of repeated messages
 * and map entries, which its wire does not write ahead of them (see below).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { type FormatName, formatNames } from '../../src/codecs/core/codec.js';
import { createCodec } from '../../src/codecs/registry.js';
import { isWirekitError, type Schema, t } from '../../src/index.js';

interface Link {
  n: number;
  next?: Link;
}
const Link: Schema = t.object('Link', { n: t.int32(), next: t.optional(t.lazy(() => Link)) });

const Color = t.enum('Color', ['red', 'green', 'blue_green']);
const Circle = t.object('Circle', { kind: t.literal('circle'), r: t.int32() });
const Square = t.object('Square', { kind: t.literal('square'), side: t.int32() });
const Shape = t.union('Shape', 'kind', [Circle, Square]);

const Row = t.object('Row', {
  color: Color,
  shape: Shape,
  text: t.string(),
  blob: t.bytes(),
  list: t.array(t.int32()),
  grid: t.array(t.array(t.int32())),
  counts: t.map(t.string(), t.int32()),
  chain: t.optional(Link),
});

/** Characters of one to four UTF-8 bytes, so that length in characters and in bytes differ. */
const text = (maxLength: number) => fc.string({ unit: fc.constantFrom('a', 'z', 'é', '€', '😀'), maxLength });
const int = fc.integer({ min: -1000, max: 1000 });

function chainOf(length: number): Link | undefined {
  let node: Link | undefined;
  for (let n = length; n >= 1; n--) node = node === undefined ? { n } : { n, next: node };
  return node;
}

const rowArbitrary = fc.record({
  color: fc.constantFrom('red', 'green', 'blue_green'),
  shape: fc.oneof(
    fc.record({ kind: fc.constant('circle'), r: int }),
    fc.record({ kind: fc.constant('square'), side: int }),
  ),
  text: text(12),
  blob: fc.uint8Array({ maxLength: 12 }),
  list: fc.array(int, { maxLength: 10 }),
  grid: fc.array(fc.array(int, { maxLength: 4 }), { maxLength: 4 }),
  counts: fc.dictionary(text(4), int, { maxKeys: 5 }),
  chain: fc.integer({ min: 0, max: 6 }).map(chainOf),
});

const limitsArbitrary = fc.record({
  maxStringBytes: fc.integer({ min: 0, max: 20 }),
  maxBytesLength: fc.integer({ min: 0, max: 14 }),
  maxElements: fc.integer({ min: 0, max: 40 }),
  maxDepth: fc.integer({ min: 0, max: 9 }),
});

type Row = { chain?: Link } & Record<string, unknown>;

/** Arrow carries no recursion; the others carry the whole row. */
const formats = formatNames.filter((format): format is Exclude<FormatName, 'arrow'> => format !== 'arrow');

function outcomeOf(run: () => unknown): string {
  try {
    run();
    return 'decoded';
  } catch (error) {
    if (!isWirekitError(error)) throw error;
    return error.code;
  }
}

const writers = new Map(
  formats.flatMap((format) =>
    [true, false].map((compile) => [
      `${format}${compile ? '' : ' (interpreter)'}`,
      { format, compile, codec: createCodec(format, { schema: Row, compile, limits: { maxDepth: 1000 } }) },
    ]),
  ),
);

const roomy = { maxStringBytes: 1 << 20, maxBytesLength: 1 << 20, maxElements: 1 << 20, maxDepth: 100 };
const lengths = (limits: { maxStringBytes: number; maxBytesLength: number }) => ({
  maxStringBytes: limits.maxStringBytes,
  maxBytesLength: limits.maxBytesLength,
});

describe('random values under random limits', () => {
  test('every format, compiled and interpreted, decodes or refuses with the same code', () => {
    fc.assert(
      fc.property(rowArbitrary, limitsArbitrary, (generated, limits) => {
        const row: Row = { ...generated };
        if (row.chain === undefined) delete row.chain;
        const outcomes: Record<string, string> = {};
        const expected: Record<string, string> = {};
        const bytesOf = new Map<string, Uint8Array>();
        for (const [label, { format, compile, codec }] of writers) {
          const bytes = codec.encode(row as never);
          bytesOf.set(label, bytes);
          outcomes[label] = outcomeOf(() =>
            createCodec(format, { schema: Row, compile, limits }).decode(bytes),
          );
        }
        const reference = outcomes.msgpack as string;
        for (const [label, { format, compile }] of writers) {
          expected[label] = reference;
          // Protocol Buffers writes no count before a repeated field's messages or a map's entries,
          // so it counts them as it reads them: where an item breaks maxDepth or a length limit
          // before the count passes maxElements, it names that limit where the others, which count
          // at the header, name the elements. The value must then break that limit by itself.
          const own = outcomes[label] as string;
          const alone =
            own === 'WK_LIMIT_DEPTH'
              ? { maxDepth: limits.maxDepth }
              : own === 'WK_LIMIT_LENGTH'
                ? lengths(limits)
                : undefined;
          if (format === 'protobuf' && reference === 'WK_LIMIT_ELEMENTS' && alone !== undefined) {
            const reader = createCodec(format, { schema: Row, compile, limits: { ...roomy, ...alone } });
            expect(
              outcomeOf(() => reader.decode(bytesOf.get(label) as Uint8Array)),
              label,
            ).toBe(own);
            expected[label] = own;
          }
        }
        expect(outcomes).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
