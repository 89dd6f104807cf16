/**
 * A json value's problem reads the same in the formats that write json values through the json
 * kind's one rule (json-kind.ts) and put the path in front with the one helper (prependPath): the
 * same code, the same path into the value, the same message, compiled and interpreted. Protocol
 * Buffers' path stops at the json field (its own tests pin that) and Arrow's columns report the row
 * and the field; MessagePack and CBOR write json values as their own maps and arrays, with their
 * own message, but at the same path. (Before, Avro wrote the inner path twice, `data.a: a: ...`.)
 */
import { describe, expect, test } from 'vitest';
import { createCodec, type FormatName } from '../../src/codecs/index.js';
import { t, type WirekitError } from '../../src/index.js';

const Row = t.object('Row', { data: t.json() });

function failure(format: FormatName, compile: boolean, value: unknown) {
  try {
    createCodec(format, { schema: Row, compile }).encode(value as never);
  } catch (error) {
    const { code, path, message } = error as WirekitError;
    return { code, path, message };
  }
  throw new Error(`${format} wrote the value`);
}

const cases: [string, unknown, string, (string | number)[], string][] = [
  [
    'NaN in an object',
    { a: Number.NaN },
    'WK_VALIDATION_FAILED',
    ['data', 'a'],
    'data.a: expected a JSON value, got NaN (JSON numbers are finite).',
  ],
  [
    'a __proto__ key in an array item',
    JSON.parse('{"a":[{"__proto__":{"x":1}}]}'),
    'WK_ENCODE_UNSUPPORTED',
    ['data', 'a', 0, '__proto__'],
    'data.a[0].__proto__: the key "__proto__" is refused by every wirekit decoder, so it is not written.',
  ],
  [
    'a Date',
    { when: new Date(0) },
    'WK_VALIDATION_FAILED',
    ['data', 'when'],
    'data.when: expected a JSON value, got a Date.',
  ],
];

describe.each([true, false])('compile: %s', (compile) => {
  for (const [name, json, code, path, message] of cases) {
    test(`${name}: JSON, Avro and FlatBuffers agree to the letter`, () => {
      for (const format of ['json', 'avro', 'flatbuffers'] as const) {
        expect([format, failure(format, compile, { data: json })]).toEqual([format, { code, path, message }]);
      }
    });
    test(`${name}: MessagePack and CBOR refuse with the same code at the same path`, () => {
      for (const format of ['msgpack', 'cbor'] as const) {
        const { code: got, path: at } = failure(format, compile, { data: json });
        expect([format, got, at]).toEqual([format, code, path]);
      }
    });
  }
});
