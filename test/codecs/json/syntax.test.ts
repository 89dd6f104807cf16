/**
 * Malformed JSON text is reported where it goes wrong, found by wirekit itself (util/json-syntax.ts)
 * once JSON.parse has refused it: text that ends inside a value is WK_DECODE_TRUNCATED at its end,
 * a value followed by more is WK_DECODE_TRAILING, anything else WK_DECODE_MALFORMED at the first byte
 * no JSON text could have there. Before, every fault V8 gave no position for ("Unexpected token")
 * was reported as truncation at the end. Python's json is the independent judge of the positions
 * (syntax-python.test.ts).
 *
 * And a number past float64 (`1e400`), which JSON.parse reads as Infinity without a word, is refused
 * in every path that reads JSON numbers: without a schema (as a json value is), in float fields.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createCodec } from '../../../src/codecs/index.js';
import { maxHeapPerChar } from '../../../src/codecs/json/decode/scan.js';
import { isWirekitError } from '../../../src/errors/index.js';
import { t } from '../../../src/schema/index.js';
import { findJsonFault } from '../../../src/util/json-syntax.js';
import { type SyntaxCase, syntaxCases, validTexts } from '../../fixtures/json-syntax-cases.js';

const utf8 = (text: string) => new TextEncoder().encode(text);

/** The code and offset a decode throws (a crash or no error fails the test). */
function refusal(decode: () => unknown): { code: string; offset: number | undefined; message: string } {
  try {
    decode();
  } catch (error) {
    if (!isWirekitError(error)) throw error;
    return { code: error.code, offset: error.offset, message: error.message };
  }
  throw new Error('expected the decode to throw');
}

const Row = t.object('Row', { id: t.int32() });
const decoders: Record<string, (bytes: Uint8Array) => unknown> = {
  schemaless: (bytes) => createCodec('json').decode(bytes),
  compiled: (bytes) => createCodec('json', { schema: Row }).decode(bytes),
  interpreted: (bytes) => createCodec('json', { schema: Row, compile: false }).decode(bytes),
  // A budget just short of the most JSON.parse could build sends the text through the full scan
  // before the parse (which charges what the text really builds, far less).
  scanned: (bytes) =>
    createCodec('json', {
      limits: { maxAllocatedBytes: Math.max(64, bytes.length * maxHeapPerChar() - 1) },
    }).decode(bytes),
};

describe.each(Object.keys(decoders))('JSON text that is not JSON (%s)', (decoder) => {
  const decode = decoders[decoder] as (bytes: Uint8Array) => unknown;
  test.each(syntaxCases.map((c) => [c.name, c] as const))('%s', (_name, c: SyntaxCase) => {
    expect(() => JSON.parse(c.text.replace(/^\uFEFF/, ''))).toThrow(SyntaxError);
    const { code, offset } = refusal(() => decode(utf8(c.text)));
    expect({ code, offset }).toEqual({ code: c.code, offset: c.offset });
  });
});

test('a malformed message names what was expected and what was found', () => {
  expect(refusal(() => createCodec('json').decode(utf8('[1,,2]'))).message).toBe(
    'invalid JSON: expected a value, found "," (at byte 3).',
  );
  expect(refusal(() => createCodec('json').decode(utf8('{"a":1]'))).message).toBe(
    `invalid JSON: expected ',' or '}', found "]" (at byte 6).`,
  );
});

describe('the scan agrees with JSON.parse', () => {
  test.each(validTexts)('%s is valid', (text) => {
    expect(findJsonFault(text)).toBeUndefined();
    expect(() => JSON.parse(text.replace(/^\uFEFF/, ''))).not.toThrow();
  });

  /** Where JSON.parse and the scan disagree on `text`, as a message; undefined where they agree. */
  function disagreement(text: string): string | undefined {
    let parses = true;
    try {
      JSON.parse(text.replace(/^\uFEFF/, ''));
    } catch {
      parses = false;
    }
    const fault = findJsonFault(text);
    return parses === (fault === undefined)
      ? undefined
      : `JSON.parse ${parses}, scan ${JSON.stringify(fault)}`;
  }

  test('on JSON texts with characters inserted, deleted or replaced', () => {
    const alphabet = [...'{}[],:"\\/ \t\n-+.0123456789eEutrfalsn\u0000\u001f\u00a0\uFEFFé😀x'];
    fc.assert(
      fc.property(
        fc.json(),
        fc.array(fc.tuple(fc.nat(), fc.nat({ max: 2 }), fc.constantFrom(...alphabet)), { maxLength: 3 }),
        (json, edits) => {
          let text = json;
          for (const [at, kind, char] of edits) {
            const i = text.length === 0 ? 0 : at % (text.length + 1);
            if (kind === 0) text = text.slice(0, i) + char + text.slice(i);
            else if (kind === 1) text = text.slice(0, i) + text.slice(i + 1);
            else text = text.slice(0, i) + char + text.slice(i + 1);
          }
          expect(disagreement(text)).toBeUndefined();
        },
      ),
      { numRuns: 3000 },
    );
  });

  test('every proper prefix of a JSON text that does not parse is truncated', () => {
    fc.assert(
      fc.property(fc.json(), (json) => {
        for (let end = 0; end < json.length; end++) {
          const prefix = json.slice(0, end);
          if (disagreement(prefix) !== undefined) return false;
          const fault = findJsonFault(prefix);
          if (fault !== undefined && fault.kind !== 'truncated') return false;
        }
        return true;
      }),
      { numRuns: 300 },
    );
  });
});

describe('numbers past float64', () => {
  test.each([
    ['1e400', 0],
    ['-1e400', 0],
    ['[1,2,1E+309]', 5],
    ['{"a":{"b":[1.5e00400]}}', 11],
    [`[${'9'.repeat(400)}]`, 1],
    ['["é",1e999]', 6],
  ])('%s is refused at byte %i, without a schema', (text, at) => {
    for (const decoder of ['schemaless', 'scanned']) {
      const { code, offset } = refusal(() => (decoders[decoder] as (b: Uint8Array) => unknown)(utf8(text)));
      expect({ code, offset }).toEqual({ code: 'WK_DECODE_SCHEMA_MISMATCH', offset: at });
    }
  });

  test.each([
    ['1e308', 1e308],
    ['1e-400', 0],
    ['["1e400"]', ['1e400']],
    [`{"e400":"${'9'.repeat(300)}"}`, { e400: '9'.repeat(300) }],
    ['1.7976931348623157e308', Number.MAX_VALUE],
  ])('%s is read', (text, value) => {
    expect(createCodec('json').decode(utf8(text))).toEqual(value);
  });

  test('in a sequence, the line that holds one is refused', async () => {
    const codec = createCodec('json');
    expect(refusal(() => codec.decodeSequence(utf8('1\n2e400\n'))).code).toBe('WK_DECODE_SCHEMA_MISMATCH');
  });

  test.each([
    ['float64', t.float64()],
    ['float32', t.float32()],
    ['json', t.json()],
  ])('in a %s field, compiled and interpreted', (_kind, schema) => {
    for (const compile of [true, false]) {
      const codec = createCodec('json', { schema: t.object('F', { f: schema }), compile });
      const error = refusal(() => codec.decode(utf8('{"f":1e400}')));
      expect(error.code).toBe('WK_DECODE_SCHEMA_MISMATCH');
      expect(error.message).toMatch(/^f: /);
      // The spelling of the infinities in the JSON form of values still reads.
      if (_kind !== 'json') expect(codec.decode(utf8('{"f":"Infinity"}'))).toEqual({ f: Infinity });
    }
  });
});
