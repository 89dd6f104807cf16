/**
 * The CLI reports malformed JSON where it goes wrong, and refuses a number past float64 (`1e400`,
 * which JSON.parse reads as Infinity) in every JSON it reads without a schema: `decode` and
 * `inspect` through the JSON codec (its code and byte offset), `encode` and `schema infer` reading
 * their input (WK_CLI_INPUT, with the line and column). Before, `[1,,2]` was "the input ends inside
 * JSON text" at its end, and `encode --format msgpack` of `{"a":1e400}` wrote a float64 infinity.
 */
import { describe, expect, test } from 'vitest';
import { cli } from '../support/cli.js';

describe('decode and inspect, through the JSON codec', () => {
  test.each([
    ['[1,,2]', /^wirekit: WK_DECODE_MALFORMED: invalid JSON: expected a value, found "," \(at byte 3\)\.\n$/],
    ["{'a':1}", /^wirekit: WK_DECODE_MALFORMED: .*\(at byte 1\)\.\n$/],
    ['[NaN]', /^wirekit: WK_DECODE_MALFORMED: .*\(at byte 1\)\.\n$/],
    ['[1,2', /^wirekit: WK_DECODE_TRUNCATED: .*\(at byte 4\)\.\n$/],
    [
      '{"a":1e400}',
      /^wirekit: WK_DECODE_SCHEMA_MISMATCH: a number is beyond the range of a float64 \(at byte 5\)\.\n$/,
    ],
  ])('%s', async (input, expected) => {
    const decoded = await cli(['decode', '--format', 'json'], input);
    expect(decoded.stderr).toMatch(expected);
    expect(decoded.code).toBe(1);
    const inspected = await cli(['inspect', '--format', 'json', '-'], input);
    expect(inspected.stderr).toMatch(expected);
    expect(inspected.code).toBe(1);
  });
});

describe('encode and schema infer, reading their JSON input', () => {
  test.each([
    ['[1,,2]', 'expected a value at line 1, column 4'],
    ['{\n  "a": 1,\n  "b": 2e400\n}', 'the number at line 3, column 8 is beyond the range of a float64'],
    ['[1e309]', 'the number at line 1, column 2 is beyond the range of a float64'],
  ])('%s', async (input, reason) => {
    for (const args of [
      ['encode', '--format', 'msgpack'],
      ['encode', '--format', 'cbor'],
      ['schema', 'infer'],
    ]) {
      const result = await cli(args, input);
      expect(result.stderr).toBe(`wirekit: WK_CLI_INPUT: standard input is not valid JSON: ${reason}.\n`);
      expect(result.code).toBe(1);
    }
  });

  test('a leading byte order mark is skipped, as by the JSON codec', async () => {
    const result = await cli(['encode', '--format', 'msgpack'], '\uFEFF{"a":1}');
    expect(result.stderr).toBe('');
    expect([...result.stdout]).toEqual([0x81, 0xa1, 0x61, 0x01]);
  });
});

describe('schema infer: maps', () => {
  test('integer keys make a map; --max-fields sets how many other keys a record may have', async () => {
    const kindOf = async (args: string[], input: string) => {
      const result = await cli(['schema', 'infer', ...args], input);
      expect(result.stderr).toBe('');
      return JSON.parse(result.text).root.kind as string;
    };
    expect(await kindOf([], '{"17": "a", "42": "b"}')).toBe('map');
    expect(await kindOf([], '{"a": 1, "b": 2, "c": 3}')).toBe('object');
    expect(await kindOf(['--max-fields', '2'], '{"a": 1, "b": 2, "c": 3}')).toBe('map');
    const bad = await cli(['schema', 'infer', '--max-fields', 'x'], '{}');
    expect(bad.stderr).toMatch(/--max-fields takes a non-negative integer/);
    expect(bad.code).not.toBe(0);
  });
});
