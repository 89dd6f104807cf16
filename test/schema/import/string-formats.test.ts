/**
 * Each string format the importer reads becomes a pattern that gives ajv-formats' verdict: on texts
 * near valid ones (a valid example with characters changed, dropped or added) and on random texts
 * over the format's alphabet, Ajv with the format and validate() of the imported string agree. A
 * format beside a pattern (zod's output) must match both.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { schemaFromJsonSchema } from '../../../src/schema/import/index.js';
import type { JsonValue } from '../../../src/schema/index.js';
import { disagreements, wirekitAccepts } from './agreement.js';

interface FormatCase {
  readonly examples: readonly string[];
  /** Characters the random and mutated texts are made of. */
  readonly alphabet: string;
  /** Texts ajv-formats accepts by code no pattern here repeats (docs/mapping/json-schema.md). */
  readonly known?: readonly string[];
}

const cases: Record<string, FormatCase> = {
  uuid: {
    examples: ['123e4567-e89b-12d3-a456-426614174000', 'urn:uuid:123E4567-E89B-12D3-A456-426614174000'],
    alphabet: '0123456789abcdefABCDEFg-:urnid',
  },
  date: {
    examples: [
      '2024-02-29',
      '2023-02-28',
      '2000-02-29',
      '1900-02-28',
      '0000-02-29',
      '2023-12-31',
      '2023-04-30',
    ],
    alphabet: '0123456789-',
  },
  time: {
    examples: ['23:59:59Z', '00:00:00.123456+05:30', '12:34:56-0800', '12:34:56+05', '12:34:56z'],
    alphabet: '0123456789:.+-zZ',
    known: ['23:59:60Z', '00:59:60+01:00'],
  },
  'date-time': {
    examples: [
      '2024-02-29T12:34:56Z',
      '2024-02-29t12:34:56.789z',
      '2024-02-29 12:34:56+05:30',
      '2023-12-31T23:59:59-0800',
      '2023-12-31\n23:59:59+01',
    ],
    alphabet: '0123456789-:.+TtZz \n',
    known: ['2016-12-31T23:59:60Z', '2017-01-01T00:59:60+01:00'],
  },
  duration: {
    examples: ['P1Y2M3DT4H5M6S', 'P3W', 'PT1S', 'P1D', 'P'],
    alphabet: '0123456789PYMDTWHS',
  },
  email: {
    examples: ['a.b+c@example.com', "o'neil@x-y.io", 'A@B.C', 'x@y'],
    alphabet: "abcXYZ09.@-+'_{|}~!",
  },
  hostname: {
    examples: ['example.com', 'a-b.c.', 'x', `${'a'.repeat(63)}.com`, `${'a'.repeat(64)}.com`],
    alphabet: 'abcXYZ09.-_',
  },
  ipv4: {
    examples: ['192.168.0.1', '255.255.255.255', '0.0.0.0', '01.2.3.4', '256.1.1.1'],
    alphabet: '0123456789.',
  },
  ipv6: {
    examples: [
      '::',
      '::1',
      '1::',
      '1:2:3:4:5:6:7:8',
      '1:2:3:4:5:6:7::',
      '::2:3:4:5:6:7:8',
      'fe80::1:2',
      '::ffff:192.168.0.1',
      '1:2:3:4:5:6:1.2.3.4',
      '1:2:3:4:5::1.2.3.4',
      '1::2::3',
      'ABCD:ef01::',
      '12345::',
    ],
    alphabet: '0123456789abcdefABCDEFg:.',
  },
};

/** A valid example with a few characters replaced, removed or inserted. */
function nearMiss(format: FormatCase): fc.Arbitrary<string> {
  const char = fc.constantFrom(...format.alphabet);
  const edit = fc.tuple(fc.nat(), fc.constantFrom('replace', 'remove', 'insert'), char);
  return fc
    .tuple(fc.constantFrom(...format.examples), fc.array(edit, { minLength: 1, maxLength: 3 }))
    .map(([example, edits]) =>
      edits.reduce((text, [at, how, c]) => {
        const i = at % (text.length + 1);
        if (how === 'insert') return text.slice(0, i) + c + text.slice(i);
        return text.slice(0, i) + (how === 'replace' ? c : '') + text.slice(i + 1);
      }, example),
    );
}

describe('string formats read as patterns that give ajv-formats’ verdict', () => {
  for (const [format, given] of Object.entries(cases)) {
    test(format, () => {
      // A date-time alone is a timestamp; any pattern beside it keeps it text, judged by the format.
      const document = { type: 'string', format, ...(format === 'date-time' ? { pattern: '' } : {}) };
      const schema = schemaFromJsonSchema(document);
      const texts = fc.sample(
        fc.oneof(nearMiss(given), fc.string({ unit: fc.constantFrom(...given.alphabet), maxLength: 40 })),
        { numRuns: 3000, seed: 32 },
      );
      const values = [...given.examples, ...texts];
      const known = new Set(given.known ?? []);
      expect(
        disagreements(document, schema, values).filter(({ value }) => !known.has(value as string)),
      ).toEqual([]);
      for (const value of given.known ?? []) {
        expect(disagreements(document, schema, [value])).toEqual([{ value, ajv: true }]);
      }
    });
  }

  test('a format beside a pattern must match both', () => {
    const document: JsonValue = { type: 'string', format: 'date-time', pattern: 'Z$' };
    const schema = schemaFromJsonSchema(document);
    const values = ['2024-02-29T12:34:56Z', '2024-02-29T12:34:56+01:00', '2024-02-30T12:34:56Z', 'xZ'];
    expect(disagreements(document, schema, values)).toEqual([]);
    expect(values.map((value) => wirekitAccepts(schema, value))).toEqual([true, false, false, false]);
  });

  test('formats ajv-formats judges by patterns wirekit does not keep are refused by name', () => {
    for (const format of ['uri', 'uri-reference', 'regex', 'nanoid']) {
      expect(() => schemaFromJsonSchema({ type: 'string', format })).toThrow(
        new RegExp(`format "${format}" is not read`),
      );
    }
  });
});
