/**
 * createLegacyMsgpackCodec: the schema's MessagePack codec that also reads a timestamp as RFC 3339
 * text and an integer as an integral float (what a JSON round trip and msgpackr leave in values
 * written before wirekit). The plain codec still refuses both; the compiled and interpreted paths
 * of the legacy codec agree on values and errors, on these spellings and on mutated bytes.
 */
import { pack } from 'msgpackr';
import { describe, expect, test } from 'vitest';
import { createLegacyMsgpackCodec, createMsgpackCodec } from '../../../src/codecs/msgpack/index.js';
import { t } from '../../../src/schema/index.js';
import { EveryKind, everyKindValue } from '../../fixtures/every-kind.js';
import { codeOf } from '../../support/code-of.js';
import { expectSameOutcomeOnMutations, outcome } from '../../support/outcome.js';

const Spelt = t.object('Spelt', {
  at: t.timestamp(),
  maybe: t.optional(t.timestamp({ precision: 's' })),
  big: t.int64(),
  small: t.uint32(),
  signed: t.int8(),
  asNumber: t.int64({ as: 'number' }),
  list: t.array(t.timestamp()),
});

const spelt = {
  at: '2024-02-29T12:34:56.789Z',
  maybe: '2024-02-29T13:34:56+01:00',
  big: 2 ** 40,
  small: 7.0,
  signed: -3,
  asNumber: -(2 ** 33),
  list: ['1970-01-01T00:00:00Z', '+275760-09-13T00:00:00.000Z'],
};
const expected = {
  at: new Date('2024-02-29T12:34:56.789Z'),
  maybe: new Date('2024-02-29T12:34:56Z'),
  big: 2n ** 40n,
  small: 7,
  signed: -3,
  asNumber: -(2 ** 33),
  list: [new Date(0), new Date(8.64e15)],
};

describe('the legacy MessagePack codec', () => {
  const compiled = createLegacyMsgpackCodec({ schema: Spelt });
  const interpreted = createLegacyMsgpackCodec({ schema: Spelt, compile: false });

  test('reads RFC 3339 text for timestamps and integral floats (msgpackr writes 2^40 as one) for integers', () => {
    const bytes = pack(spelt);
    expect(bytes.includes(0xcb)).toBe(true);
    expect(compiled.compiled).toBe(true);
    expect(compiled.decode(bytes)).toStrictEqual(expected);
    expect(interpreted.decode(bytes)).toStrictEqual(expected);
  });

  test('the plain codec refuses both spellings, as the mapping says', () => {
    const plain = createMsgpackCodec({ schema: Spelt });
    expect(codeOf(() => plain.decode(pack(spelt)))).toBe('WK_DECODE_SCHEMA_MISMATCH');
    // Dates kept, only the integral float left: still refused.
    expect(codeOf(() => plain.decode(pack({ ...expected, big: 2 ** 40 })))).toBe('WK_DECODE_SCHEMA_MISMATCH');
    // msgpackr writes bigints as int 64 and integers within 32 bits as integers: those the plain codec reads.
    const exact = { ...expected, asNumber: -(2 ** 31) };
    expect(plain.decode(pack({ ...exact, big: 2n ** 40n }))).toStrictEqual(exact);
  });

  test('what stays refused: other text, fractions, out of range, -0 read as 0, the same errors on both paths', () => {
    const cases = [
      { ...spelt, at: 'soon' },
      { ...spelt, at: '2024-02-29' },
      { ...spelt, big: 1.5 },
      { ...spelt, small: 2 ** 32 },
      { ...spelt, signed: -129 },
      { ...spelt, asNumber: 2 ** 60 },
      { ...spelt, big: Number.NaN },
      { ...spelt, maybe: '2024-02-29T12:34:56.5Z' }, // a fraction of a second is no precision 's'
    ];
    for (const value of cases) {
      const bytes = pack(value);
      const compiledOutcome = outcome(() => compiled.decode(bytes));
      expect(compiledOutcome.ok, JSON.stringify(value)).toBe(false);
      expect(compiledOutcome).toStrictEqual(outcome(() => interpreted.decode(bytes)));
    }
    const minusZero = compiled.decode(pack({ ...spelt, small: -0.0, signed: -0.0 })) as typeof expected;
    expect(Object.is(minusZero.small, 0)).toBe(true);
    expect(Object.is(minusZero.signed, 0)).toBe(true);
  });

  test('writes and reads what the plain codec writes, on every kind', () => {
    const plain = createMsgpackCodec({ schema: EveryKind });
    const legacy = createLegacyMsgpackCodec({ schema: EveryKind });
    const bytes = plain.encode(everyKindValue());
    expect(legacy.encode(everyKindValue())).toStrictEqual(bytes);
    expect(legacy.decode(bytes)).toStrictEqual(plain.decode(bytes));
  });

  test('compiled and interpreted agree on mutated input', () => {
    expectSameOutcomeOnMutations(
      [
        pack(spelt),
        pack({ ...expected, big: 2 ** 40 }),
        createMsgpackCodec({ schema: Spelt }).encode(expected),
      ],
      (bytes) => compiled.decode(bytes),
      (bytes) => interpreted.decode(bytes),
    );
  });
});
