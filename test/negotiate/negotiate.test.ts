/** Accept and Accept-Encoding negotiation (RFC 9110 §12.5), without any server. */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  chooseEncoding,
  chooseMediaType,
  maxAcceptEncodings,
  maxAcceptRanges,
  Negotiator,
  parseAccept,
  parseAcceptEncoding,
  parseMediaType,
  rangesPastCap,
} from '../../src/negotiate/index.js';

const offers = ['application/json', 'application/msgpack', 'application/x-protobuf'].map(
  (type) => parseMediaType(type) as NonNullable<ReturnType<typeof parseMediaType>>,
);
const pick = (accept: string | undefined) => {
  const index = chooseMediaType(accept, offers);
  return index < 0 ? 'none' : ['json', 'msgpack', 'protobuf'][index];
};

describe('Accept', () => {
  test.each([
    [undefined, 'json'],
    ['', 'json'],
    ['*/*', 'json'],
    ['application/msgpack', 'msgpack'],
    ['APPLICATION/MSGPACK', 'msgpack'],
    ['application/json;q=0.2, application/x-protobuf;q=0.3', 'protobuf'],
    ['application/*;q=0.5, application/msgpack;q=0.4', 'json'],
    ['application/*, application/json;q=0', 'msgpack'],
    ['text/html, */*;q=0.1', 'json'],
    ['text/html', 'none'],
    ['*/*;q=0', 'none'],
    ['application/msgpack;q=0', 'none'],
    ['application/msgpack;q=abc', 'none'], // a malformed q makes its range unacceptable, not preferred
    ['application/msgpack;q=1.5', 'none'],
    ['application/msgpack;q=0.0001', 'none'],
    ['application/json; charset=utf-8', 'json'],
    ['application/json; charset="UTF-8"; q=0.9', 'json'],
    ['application/msgpack; version=2', 'none'],
    ['garbage, application/msgpack', 'msgpack'],
    ['garbage', 'json'], // nothing parsable is no preference
    ['application/msgpack;q=0.5;ext=1, application/json;q=0.4', 'msgpack'],
  ])('%j → %s', (accept, expected) => {
    expect(pick(accept)).toBe(expected);
  });

  test('quoted parameter values may hold commas and semicolons', () => {
    const ranges = parseAccept('application/json; profile="a,b;c", text/plain');
    expect(ranges.map((range) => [range.subtype, range.params.get('profile')])).toEqual([
      ['json', 'a,b;c'],
      ['plain', undefined],
    ]);
  });

  test('a header of thousands of ranges is cut at 64 and stays fast', () => {
    const header = Array.from({ length: 5000 }, (_, i) => `application/x-${i}`).join(', ');
    expect(parseAccept(header)).toHaveLength(64);
    expect(pick(`${header}, application/msgpack`)).toBe('none');
  });

  test('the cap counts well-formed ranges, and says how many it left unread', () => {
    const filler = Array.from({ length: maxAcceptRanges }, (_, i) => `application/x-${i}`);
    expect(rangesPastCap(filler.join(', '))).toBe(0);
    // Malformed and empty ranges take no place under the cap: the 64 well-formed ones are read.
    const padded = ['nonsense', '', ...filler.slice(0, 63), 'application/msgpack'].join(', ');
    expect(rangesPastCap(padded)).toBe(0);
    expect(pick(padded)).toBe('msgpack');
    const cut = [...filler, 'application/msgpack', 'text/html'].join(', ');
    expect(rangesPastCap(cut)).toBe(2);
    expect(pick(cut)).toBe('none');
  });

  test('any header parses without throwing', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (header) => {
        const index = chooseMediaType(header, offers);
        expect(index).toBeGreaterThanOrEqual(-1);
        expect(index).toBeLessThan(offers.length);
      }),
      { numRuns: 2000 },
    );
  });

  test('a Negotiator remembers answers, bounded', () => {
    const negotiator = new Negotiator(['application/json', 'application/cbor']);
    expect(negotiator.choose('application/cbor')).toBe(1);
    expect(negotiator.choose('application/cbor')).toBe(1);
    for (let i = 0; i < 1000; i++) negotiator.choose(`application/x-${i}, application/cbor;q=0.5`);
    expect((negotiator as unknown as { answers: Map<string, number> }).answers.size).toBeLessThanOrEqual(256);
    expect(() => new Negotiator(['not a type'])).toThrow();
  });
});

describe('Accept-Encoding', () => {
  const server = ['zstd', 'br', 'gzip'];
  test.each([
    [undefined, undefined],
    ['', undefined],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate, br, zstd', 'zstd'],
    ['br;q=0.5, gzip', 'gzip'],
    ['*', 'zstd'],
    ['*, zstd;q=0', 'br'],
    ['identity', undefined],
    ['gzip;q=0', undefined],
    ['GZIP', 'gzip'],
    ['gzip;q=2', undefined],
  ])('%j → %s', (header, expected) => {
    expect(chooseEncoding(header, server)).toBe(expected);
  });

  test('codings past the 64th are not read, and empty items take no place among them', () => {
    const filler = Array.from({ length: maxAcceptEncodings - 1 }, (_, i) => `x-coding-${i}`);
    expect(chooseEncoding([...filler, 'gzip'].join(', '), server)).toBe('gzip');
    expect(chooseEncoding([',', ...filler, 'gzip'].join(', '), server)).toBe('gzip');
    expect(chooseEncoding([...filler, 'x-last', 'gzip'].join(', '), server)).toBeUndefined();
    expect(parseAcceptEncoding(Array(5000).fill('gzip;q=0.5').join(',')).size).toBe(1);
  });
});
