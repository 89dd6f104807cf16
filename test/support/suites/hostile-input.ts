/**
 * The hostile-input suite every codec runs (each format's test file calls `describeHostileInput`
 * with a kit of its own). Its promise: whatever the bytes, a decoder returns a value or throws a
 * WirekitError with a stable code: never another error, a hang, a stack overflow, a polluted
 * prototype, or an allocation sized by an untrusted length.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Codec } from '../../../src/codecs/index.js';
import { type ErrorCode, isWirekitError } from '../../../src/errors/index.js';

export interface HostileKit<T> {
  /** A codec with default limits. */
  readonly codec: Codec<T>;
  /** Builds the same codec with other limits. */
  readonly withLimits: (limits: Record<string, number>) => Codec<T>;
  /** Valid values whose encodings get truncated, extended and mutated. */
  readonly samples: readonly T[];
  /** Input nested `levels` deep (100,000 in the suite); omit where the format or schema cannot nest. */
  readonly deep?: (levels: number) => Uint8Array;
  /** A tiny input declaring a huge length or count (a length-prefix bomb). */
  readonly hugeLength?: () => Uint8Array;
  /** A string whose bytes are not UTF-8. */
  readonly invalidUtf8?: () => Uint8Array;
  /** An object or map with a `__proto__` key (schemaless formats). */
  readonly protoKey?: () => Uint8Array;
  /** Whether the format can tell where a value ends (false for Protocol Buffers, whose messages run to the end). */
  readonly detectsTrailing: boolean;
  /** Random mutations to try (default 300); each must decode or throw a WirekitError. */
  readonly mutationRuns?: number;
}

/** The code a decode throws, failing the test on any error that is not a WirekitError. */
export function decodeError<T>(codec: Codec<T>, bytes: Uint8Array): ErrorCode | 'ok' {
  try {
    codec.decode(bytes);
    return 'ok';
  } catch (error) {
    if (isWirekitError(error)) return error.code;
    throw new Error(`${codec.format} threw a non-wirekit error: ${String(error)}`, { cause: error });
  }
}

export function describeHostileInput<T>(name: string, kit: HostileKit<T>): void {
  describe(`${name}: hostile input`, () => {
    const encoded = kit.samples.map((value) => kit.codec.encode(value));

    test('empty input is refused with a code', () => {
      expect(decodeError(kit.codec, new Uint8Array(0))).not.toBe('ok');
    });

    test('truncation at every byte offset gives a wirekit error', () => {
      for (const bytes of encoded) {
        for (let cut = 0; cut < bytes.length; cut++) {
          const code = decodeError(kit.codec, bytes.subarray(0, cut));
          // A prefix of a Protocol Buffers message can itself be a complete, valid message.
          if (kit.detectsTrailing) expect(code, `cut at ${cut} of ${bytes.length}`).not.toBe('ok');
        }
      }
    });

    if (kit.detectsTrailing)
      test('trailing bytes are refused', () => {
        for (const bytes of encoded) {
          const extended = new Uint8Array(bytes.length + 3);
          extended.set(bytes);
          extended.set([0x01, 0x02, 0x03], bytes.length);
          expect(decodeError(kit.codec, extended)).toBe('WK_DECODE_TRAILING');
        }
      });

    test('input beyond maxInputBytes is refused before decoding', () => {
      const bytes = encoded.reduce((a, b) => (b.length > a.length ? b : a));
      expect(decodeError(kit.withLimits({ maxInputBytes: bytes.length - 1 }), bytes)).toBe('WK_LIMIT_INPUT');
    });

    if (kit.deep !== undefined)
      test('a 100,000-level nest stops at maxDepth', () => {
        const deep = kit.deep?.(100_000) as Uint8Array;
        expect(decodeError(kit.codec, deep)).toBe('WK_LIMIT_DEPTH');
      });

    if (kit.hugeLength !== undefined)
      test('a huge declared length with a tiny body allocates nothing', () => {
        const before = process.memoryUsage().arrayBuffers;
        const code = decodeError(kit.codec, kit.hugeLength?.() as Uint8Array);
        expect(['WK_DECODE_TRUNCATED', 'WK_LIMIT_LENGTH', 'WK_LIMIT_ELEMENTS', 'WK_LIMIT_INPUT']).toContain(
          code,
        );
        expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(16 * 1024 * 1024);
      });

    if (kit.invalidUtf8 !== undefined)
      test('invalid UTF-8 is refused', () => {
        expect(decodeError(kit.codec, kit.invalidUtf8?.() as Uint8Array)).toBe('WK_DECODE_MALFORMED');
      });

    if (kit.protoKey !== undefined)
      test('a __proto__ key is refused and pollutes nothing', () => {
        expect(decodeError(kit.codec, kit.protoKey?.() as Uint8Array)).toBe('WK_DECODE_UNSAFE_KEY');
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expect(Object.prototype).not.toHaveProperty('polluted');
      });

    test('random mutations of valid bytes only ever give values or wirekit errors', () => {
      fc.assert(
        fc.property(
          fc.constantFrom(...encoded),
          fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }),
          (bytes, edits) => {
            const mutated = bytes.slice();
            for (const [position, value] of edits)
              if (mutated.length > 0) mutated[position % mutated.length] = value;
            decodeError(kit.codec, mutated);
          },
        ),
        { numRuns: kit.mutationRuns ?? 300 },
      );
    });

    test('random byte strings only ever give values or wirekit errors', () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
          decodeError(kit.codec, bytes);
        }),
        { numRuns: kit.mutationRuns ?? 300 },
      );
    });
  });
}

/** What the json-kind cases need of a format: a codec of a row `{ data: t.json() }` and its bytes. */
export interface HostileJsonKit {
  /** A codec of the row, with default limits. */
  readonly codec: Codec<unknown>;
  /** A row whose json value is the JSON text given, in the format's bytes (built by hand where need be). */
  readonly row: (json: HostileJson) => Uint8Array;
}

/** The json values the suite sends: each spelled as JSON text, which the kits turn into their format. */
export type HostileJson =
  | { readonly unsafeKey: string }
  | { readonly levels: number }
  | { readonly notFinite: true };

/** The JSON text of a hostile json value, for the formats that carry json values as text. */
export function hostileJsonText(json: HostileJson): string {
  if ('unsafeKey' in json) return `{"a":[{"${json.unsafeKey}":{"polluted":"yes"}}]}`;
  if ('levels' in json) return `${'['.repeat(json.levels)}${']'.repeat(json.levels)}`;
  return '[1,1e400]';
}

/**
 * The json kind's hostile cases, run for every format: an unsafe key inside a json value, a json
 * value nested 100,000 deep, a number past float64. Each is refused with one code in every format,
 * as the JSON codec refuses them.
 */
export function describeHostileJsonValues(name: string, kit: HostileJsonKit): void {
  describe(`${name}: hostile json values`, () => {
    test.each(['__proto__', 'constructor', 'prototype'])(
      'a %s key is refused and pollutes nothing',
      (key) => {
        expect(decodeError(kit.codec, kit.row({ unsafeKey: key }))).toBe('WK_DECODE_UNSAFE_KEY');
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expect(Object.prototype).not.toHaveProperty('polluted');
      },
    );

    test('a json value nested 100,000 deep stops at maxDepth', () => {
      expect(decodeError(kit.codec, kit.row({ levels: 100_000 }))).toBe('WK_LIMIT_DEPTH');
    });

    test('a number past float64 is refused', () => {
      expect(decodeError(kit.codec, kit.row({ notFinite: true }))).toBe('WK_DECODE_SCHEMA_MISMATCH');
    });
  });
}
