/**
 * The two describers every error message shows values through stay short and cheap whatever the
 * value is: nested a million deep, cyclic, with many keys or a string of 20 MB. Containers are named
 * ("an array"), never walked; a scalar is shown (JSON text, or the type's name with the value).
 */
import { describe, expect, test } from 'vitest';
import { describeValue, previewValue } from '../../src/errors/describe-value.js';

/** An array nested `depth` deep, built without recursion. */
function nested(depth: number): unknown[] {
  let value: unknown[] = [];
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

function cyclic(): Record<string, unknown> {
  const value: Record<string, unknown> = { name: 'loop' };
  value.self = value;
  value.list = [value, value];
  return value;
}

function wide(keys: number): Record<string, number> {
  const value: Record<string, number> = {};
  for (let i = 0; i < keys; i++) value[`k${i}`] = i;
  return value;
}

describe('previewValue', () => {
  test.each([
    ['x', '"x"'],
    [5, '5'],
    [true, 'true'],
    [null, 'null'],
    [undefined, 'nothing'],
    [12n, '12n'],
    [Number.NaN, 'NaN'],
    [[1, 2], 'an array'],
    [{ a: 1 }, 'an object'],
  ])('%s reads as %s', (value, text) => {
    expect(previewValue(value)).toBe(text);
  });

  test.each([
    ['an array nested a million deep', () => nested(1_000_000), 'an array'],
    ['a cyclic object', cyclic, 'an object'],
    ['an object of 200,000 keys', () => wide(200_000), 'an object'],
    ['a string of 20 MB', () => 'y'.repeat(20_000_000), `"${'y'.repeat(37)}..."`],
  ])('%s is named, not walked', (_name, make, text) => {
    expect(previewValue(make())).toBe(text);
  });
});

describe('describeValue', () => {
  test('names containers without walking them', () => {
    expect(describeValue(nested(1_000_000))).toBe('an array');
    expect(describeValue(cyclic())).toBe('an object');
  });

  test('cuts a long string at 40 characters, never inside a surrogate pair', () => {
    expect(describeValue('z'.repeat(20_000_000))).toBe(`"${'z'.repeat(37)}..."`);
    // 36 ASCII characters, then emoji (two UTF-16 units each): unit 36 starts a pair.
    const text = describeValue(`${'a'.repeat(36)}${'😀'.repeat(10)}`);
    expect(text).toBe(`"${'a'.repeat(36)}..."`);
    expect(text.isWellFormed()).toBe(true);
  });
});
