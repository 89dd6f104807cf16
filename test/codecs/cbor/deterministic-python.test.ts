/**
 * Python's cbor2 as the reference for deterministic.test.ts: its pure-Python encoder with
 * `canonical=True` writes floats in their shortest exact form and sorts map keys, and must write the
 * bytes wirekit writes, float for float and value for value; it reads what wirekit writes. (The C
 * extension of Debian's 5.4.6 writes 65504.0 as a single, where RFC 8949 Appendix A and the Python
 * encoder have the half f97bff.)
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createCborCodec } from '../../../src/codecs/cbor/index.js';
import { t } from '../../../src/index.js';
import { runPythonText } from '../../support/python.js';
import { toHex } from '../../support/self-describing.js';
import { has } from '../../support/tools.js';

const floatCodecs = [true, false].map((compile) => createCborCodec({ schema: t.float64(), compile }));

describe.skipIf(!has('python:cbor2'))("cbor2's canonical floats as the reference", () => {
  const edges = [
    0.5,
    1.5,
    -4,
    65504,
    65505,
    65519,
    65520,
    100000,
    1e300,
    0.1,
    1 / 3,
    2 ** -14,
    2 ** -24,
    2 ** -25,
    2 ** -126,
    2 ** -149,
    3.4028234663852886e38,
    3.4028235677973366e38,
    5e-324,
    Number.MAX_VALUE,
    -(2 ** -24),
    1.0009765625,
    1.00048828125,
    16777217,
    16777216,
  ];

  test('edges and random doubles and singles: the same bytes, float for float', () => {
    // -0 would cross as 0 in JSON: it is compared with the infinities below.
    const values = [
      ...edges,
      ...fc.sample(fc.double({ noNaN: true, noDefaultInfinity: true }), 500),
      ...fc.sample(fc.float({ noNaN: true, noDefaultInfinity: true }), 500),
    ].filter((value) => !Object.is(value, -0));
    // As text Python reads back to the same double: JSON's shortest round-trip spelling.
    const script = `
import json, sys
from cbor2.encoder import dumps
for value in json.load(sys.stdin):
    print(dumps(float(value), canonical=True).hex())
`;
    const theirs = runPythonText(script, JSON.stringify(values)).trim().split('\n');
    values.forEach((value, i) => {
      for (const codec of floatCodecs)
        expect(`${value}: ${toHex(codec.encode(value))}`).toBe(`${value}: ${theirs[i]}`);
    });
  });

  test('NaN and the infinities', () => {
    const script = `
from cbor2.encoder import dumps
for value in (float('nan'), float('inf'), float('-inf'), -0.0):
    print(dumps(value, canonical=True).hex())
`;
    const theirs = runPythonText(script, '').trim().split('\n');
    [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0].forEach((value, i) => {
      for (const codec of floatCodecs) expect(toHex(codec.encode(value))).toBe(theirs[i]);
    });
  });
});

describe.skipIf(!has('python:cbor2'))("cbor2's canonical encoding as the reference", () => {
  /** JSON-like values whose numbers are the same type on both sides: safe integers, or fractions. */
  const number = fc.oneof(
    fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Number.isInteger(n)),
  );
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      number,
      fc.string(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 5 }),
      fc.dictionary(
        fc.string({ maxLength: 30 }).filter((k) => !['__proto__', 'constructor', 'prototype'].includes(k)),
        tie('value'),
        { maxKeys: 6 },
      ),
    ),
  }));

  test('text-keyed maps, floats, integers and strings: the same bytes, and cbor2 reads them back', () => {
    const values = fc.sample(value, 300);
    const script = `
import cbor2, json, sys
from cbor2.encoder import dumps
for line in sys.stdin.read().split('\\n'):
    if not line: continue
    ours, value = json.loads(line)
    assert cbor2.loads(bytes.fromhex(ours)) == value, (ours, value)
    print(dumps(value, canonical=True).hex())
`;
    const deterministic = createCborCodec({ deterministic: true });
    const ours = values.map((v) => toHex(deterministic.encode(v)));
    const lines = values.map((v, i) => JSON.stringify([ours[i], v])).join('\n');
    const theirs = runPythonText(script, `${lines}\n`).trim().split('\n');
    expect(ours).toEqual(theirs);
  });
});
