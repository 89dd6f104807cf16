/**
 * An encoder refuses what its decoder would refuse: every wirekit decoder refuses a `__proto__`,
 * `constructor` or `prototype` key in a map or a json value (WK_DECODE_UNSAFE_KEY), so every
 * non-JSON encoder, compiled and interpreted, refuses to write one, with WK_ENCODE_UNSUPPORTED at the
 * value holding it, wherever it sits: a map, a map in a list, a json value, deep in a json value, a
 * json value in a list. The same value with the key renamed is written and read back, so the
 * refusal is of the key and nothing else. (The JSON codec has its own tests.)
 */
import { describe, expect, test } from 'vitest';
import { type FormatName, formatNames } from '../../src/codecs/core/codec.js';
import { createCodec } from '../../src/codecs/registry.js';
import { isWirekitError, type Path, type Schema, t } from '../../src/index.js';

const formats = formatNames.filter((format): format is Exclude<FormatName, 'json'> => format !== 'json');
const unsafeKeys = ['__proto__', 'constructor', 'prototype'] as const;

/** An object with `key` as an own key (JSON.parse makes `__proto__` one, as a decoder of text would). */
function own(key: string, value: unknown): Record<string, unknown> {
  return JSON.parse(`{${JSON.stringify(key)}:${JSON.stringify(value)},"ok":1}`);
}

/** [label, schema, the value with `key` placed, where the encoder names the problem]. */
const places: [string, Schema, (key: string) => unknown, Path][] = [
  [
    'a string-keyed map',
    t.object('A', { m: t.map(t.string(), t.int32()) }),
    (key) => ({ m: own(key, 2) }),
    ['m'],
  ],
  [
    'a map in a list',
    t.object('A', { m: t.array(t.map(t.string(), t.int32())) }),
    (key) => ({ m: [{ a: 1 }, own(key, 2)] }),
    ['m', 1],
  ],
  ['a json value', t.object('A', { j: t.json() }), (key) => ({ j: own(key, 2) }), ['j']],
  [
    'deep in a json value',
    t.object('A', { j: t.json() }),
    (key) => ({ j: { a: [1, { b: own(key, { polluted: true }) }] } }),
    ['j'],
  ],
  [
    'a json value in a list',
    t.object('A', { j: t.array(t.json()) }),
    (key) => ({ j: [null, own(key, 2)] }),
    ['j', 1],
  ],
  [
    'an optional json value',
    t.object('A', { j: t.optional(t.json()) }),
    (key) => ({ j: [own(key, 2)] }),
    ['j'],
  ],
];

/** The code and path of what `run` throws. */
function refusal(run: () => unknown): { code: string; path: Path | undefined } {
  try {
    run();
  } catch (error) {
    if (isWirekitError(error)) return { code: error.code, path: error.path };
    throw error;
  }
  return { code: 'no error', path: undefined };
}

/** Whether `found` begins with `prefix` (formats may name the key inside a json value too). */
function startsWith(found: Path | undefined, prefix: Path): boolean {
  return found !== undefined && prefix.every((segment, i) => found[i] === segment);
}

describe('non-JSON encoders refuse keys their decoders refuse', () => {
  test.each(places)('in %s', (_, schema, place, at) => {
    for (const format of formats) {
      for (const compile of [true, false]) {
        const label = `${format}${compile ? '' : ' (interpreter)'}`;
        // Arrow encodes a table: the value is its one row.
        const table = format === 'arrow';
        const codec = createCodec(format, { schema, compile });
        const value = (key: string) => (table ? [place(key)] : place(key));
        const where = table ? [0, ...at] : at;
        const safe = value('safe');
        expect(codec.decode(codec.encode(safe as never)), label).toEqual(safe);
        for (const key of unsafeKeys) {
          const found = refusal(() => codec.encode(value(key) as never));
          expect(found.code, `${label}, ${key}`).toBe('WK_ENCODE_UNSUPPORTED');
          expect(startsWith(found.path, where), `${label}, ${key}: path ${JSON.stringify(found.path)}`).toBe(
            true,
          );
        }
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
