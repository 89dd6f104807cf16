/**
 * Every case of msgpack-test-suite (kawanet/msgpack-test-suite 1.0.0, a dev dependency) against the
 * schemaless MessagePack codec. A case is a value and the MessagePack encodings of it that the spec
 * allows, in hex; the codec must read each of them as the value, in wirekit's mapping
 * (docs/mapping/msgpack.md, *Without a schema*: an integer of any form as a number while it is a
 * safe integer and as a bigint beyond, floats as numbers, maps with string keys as plain objects,
 * the timestamp extension as a Date), and must write the value as one of them.
 *
 * Where wirekit's mapping does something else on purpose (or inherits it from msgpackr), the case
 * is listed in `knownDifferences` with the reason and with what wirekit does instead, and its test
 * asserts exactly that. Nothing is skipped: a case that starts to behave like the suite fails its
 * test until its entry is removed, as a new difference fails until it is listed.
 */
import { createRequire } from 'node:module';
import { describe, expect, test } from 'vitest';
import { createMsgpackCodec } from '../../../src/codecs/msgpack/index.js';
import type { ErrorCode } from '../../../src/errors/index.js';
import { codeOf } from '../../support/code-of.js';

const plain = createMsgpackCodec();
const maxSafe = BigInt(Number.MAX_SAFE_INTEGER);

/** A case's value, as the suite's YAML spells it (`number` and `bignum` may come together). */
type SuiteValue =
  | { readonly kind: 'nil' }
  | { readonly kind: 'bool'; readonly value: boolean }
  | { readonly kind: 'binary'; readonly hex: string }
  | { readonly kind: 'number'; readonly value: number; readonly bignum: string | undefined }
  | { readonly kind: 'bignum'; readonly bignum: string }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'array' | 'map'; readonly value: unknown }
  | { readonly kind: 'timestamp'; readonly seconds: number; readonly nanoseconds: number }
  | { readonly kind: 'ext'; readonly type: number; readonly hex: string };

interface SuiteCase {
  /** The suite's source file, e.g. `20.number-positive.yaml`. */
  readonly group: string;
  /** The value's kind and JSON, e.g. `number 128`: unique within the group. */
  readonly name: string;
  readonly value: SuiteValue;
  /** In the suite's spelling, e.g. `cc-80`. */
  readonly encodings: readonly string[];
}

interface KnownDifference {
  readonly group: string;
  readonly name: string;
  /**
   * What wirekit does with every listed encoding instead of reading the value: refuse it with a
   * code, or read it as another Date (ISO form). Either way no wirekit value writes a listed
   * encoding, which the test checks too.
   */
  readonly instead: { readonly refused: ErrorCode } | { readonly readsAs: string };
  readonly reason: string;
}

const otherExtension =
  'wirekit reads only the timestamp extension (-1) and refuses any other type, rather than run ' +
  'whatever msgpackr extension the process registered (docs/mapping/msgpack.md, Safety); no ' +
  'JavaScript value maps to one, so nothing writes it either.';

const subMillisecond =
  'a Date holds milliseconds: the nanoseconds below are dropped (here rounding toward the past), so ' +
  'wirekit writes back the millisecond it read, not this instant.';

/**
 * The cases where wirekit does not do what the suite says, and what it does instead. The suite has
 * no map with non-string keys (wirekit reads those as a Map), so that difference needs no entry.
 */
const knownDifferences: readonly KnownDifference[] = [
  ...(
    [
      'ext [1,"10"]',
      'ext [2,"20-21"]',
      'ext [3,"30-31-32-33"]',
      'ext [4,"40-41-42-43-44-45-46-47"]',
      'ext [5,"50-51-52-53-54-55-56-57-58-59-5a-5b-5c-5d-5e-5f"]',
      'ext [6,""]',
      'ext [7,"70-71-72"]',
    ] as const
  ).map((name) => ({
    group: '60.ext.yaml',
    name,
    instead: { refused: 'WK_DECODE_UNKNOWN_EXTENSION' as const },
    reason: otherExtension,
  })),
  ...(
    [
      ['timestamp [1514862245,678901234]', '2018-01-02T03:04:05.678Z', subMillisecond],
      ['timestamp [2147483648,1]', '2038-01-19T03:14:08.000Z', subMillisecond],
      ['timestamp [0,1]', '1970-01-01T00:00:00.000Z', subMillisecond],
      ['timestamp [2147483647,999999999]', '2038-01-19T03:14:07.999Z', subMillisecond],
      ['timestamp [4294967295,999999999]', '2106-02-07T06:28:15.999Z', subMillisecond],
      ['timestamp [17179869183,999999999]', '2514-05-30T01:53:03.999Z', subMillisecond],
      ['timestamp [-1,999999999]', '1969-12-31T23:59:59.999Z', subMillisecond],
      ['timestamp [-2208988801,999999999]', '1899-12-31T23:59:59.999Z', subMillisecond],
      ['timestamp [253402300799,999999999]', '9999-12-31T23:59:59.999Z', subMillisecond],
    ] as const
  ).map(([name, readsAs, reason]) => ({ group: '50.timestamp.yaml', name, instead: { readsAs }, reason })),
];

const suite = loadSuite();

describe('msgpack-test-suite', () => {
  test('is version 1.0.0: 85 cases in 15 groups, each with a name of its own', () => {
    const require = createRequire(import.meta.url);
    expect((require('msgpack-test-suite/package.json') as { version: string }).version).toBe('1.0.0');
    expect(suite).toHaveLength(85);
    expect(new Set(suite.map((c) => c.group)).size).toBe(15);
    expect(new Set(suite.map((c) => `${c.group} ${c.name}`)).size).toBe(suite.length);
  });

  test('every known difference names a case of the suite', () => {
    const names = new Set(suite.map((c) => `${c.group} ${c.name}`));
    const listed = knownDifferences.map((d) => `${d.group} ${d.name}`);
    expect(listed.filter((name) => !names.has(name))).toEqual([]);
    expect(new Set(listed).size).toBe(listed.length);
  });

  for (const group of new Set(suite.map((c) => c.group))) {
    describe(group, () => {
      for (const c of suite.filter((c) => c.group === group)) {
        const difference = knownDifferences.find((d) => d.group === c.group && d.name === c.name);
        test(c.name, () => (difference === undefined ? checkCase(c) : checkDifference(c, difference)));
      }
    });
  }
});

/** The suite's promise: every listed encoding reads as the value, and wirekit writes one of them. */
function checkCase(c: SuiteCase): void {
  for (const encoding of c.encodings) {
    expect(plain.decode(bytesOf(encoding)), encoding).toStrictEqual(expectedRead(c.value, encoding));
  }
  for (const value of valuesToWrite(c.value)) {
    expect(c.encodings, `writing ${show(value)}`).toContain(suiteHex(plain.encode(value)));
  }
}

/** What the table says wirekit does instead, for every listed encoding. */
function checkDifference(c: SuiteCase, difference: KnownDifference): void {
  const { instead } = difference;
  if ('refused' in instead) {
    // Only an extension other than the timestamp may be refused.
    expect(c.value.kind === 'ext' && c.value.type !== -1).toBe(true);
    for (const encoding of c.encodings) {
      expect(
        codeOf(() => plain.decode(bytesOf(encoding))),
        encoding,
      ).toBe(instead.refused);
    }
    return;
  }
  // Only an instant a Date cannot hold may read as another one.
  expect(c.value.kind === 'timestamp' && c.value.nanoseconds % 1_000_000 !== 0).toBe(true);
  const readsAs = new Date(instead.readsAs);
  for (const encoding of c.encodings) {
    expect(plain.decode(bytesOf(encoding)), encoding).toStrictEqual(readsAs);
  }
  expect(c.encodings).not.toContain(suiteHex(plain.encode(readsAs)));
}

/** The value wirekit's schemaless mapping reads `encoding` as. */
function expectedRead(value: SuiteValue, encoding: string): unknown {
  switch (value.kind) {
    case 'nil':
      return null;
    case 'bool':
    case 'string':
    case 'array':
    case 'map':
      return value.value;
    case 'binary':
      return bytesOf(value.hex);
    case 'number':
    case 'bignum': {
      // An integer's value decides, not its form: a safe integer reads as a number, a wider one
      // (only int 64 and uint 64 hold those) as a bigint, so that no reader gets a number that
      // lost digits. Both float forms read as a number.
      if (encoding.startsWith('cf-') || encoding.startsWith('d3-')) {
        const exact = BigInt(value.kind === 'bignum' ? value.bignum : (value.bignum ?? value.value));
        return exact >= -maxSafe && exact <= maxSafe ? Number(exact) : exact;
      }
      if (value.kind === 'bignum') throw new Error(`${encoding}: a bignum-only case in a non-64-bit form`);
      return value.value;
    }
    case 'timestamp':
      return dateOf(value.seconds, value.nanoseconds);
    case 'ext':
      throw new Error(
        'wirekit has no value for an extension but the timestamp: list the case as a difference',
      );
  }
}

/** The JavaScript values that stand for the case's value when writing. */
function valuesToWrite(value: SuiteValue): unknown[] {
  switch (value.kind) {
    case 'nil':
      return [null];
    case 'binary':
      return [bytesOf(value.hex)];
    case 'number':
      // A bignum case gives a number and a bigint: wirekit writes both as the same integer.
      return value.bignum === undefined ? [value.value] : [value.value, BigInt(value.bignum)];
    case 'bignum':
      return [BigInt(value.bignum)];
    case 'timestamp':
      return [dateOf(value.seconds, value.nanoseconds)];
    case 'ext':
      return [];
    default:
      return [value.value];
  }
}

function dateOf(seconds: number, nanoseconds: number): Date {
  if (nanoseconds % 1_000_000 !== 0) {
    throw new Error('a Date holds milliseconds: list the case as a difference');
  }
  return new Date(seconds * 1000 + nanoseconds / 1_000_000);
}

/** `c4-01-01` → its bytes (a plain Uint8Array, as the codec's own output is). */
function bytesOf(suiteHexText: string): Uint8Array {
  return new Uint8Array(Buffer.from(suiteHexText.replaceAll('-', ''), 'hex'));
}

/** Bytes in the suite's spelling, so that they compare with its lists. */
function suiteHex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('-');
}

/**
 * The suite's JSON (its package's main file, built from src/*.yaml), checked as it is read: an
 * unknown kind of value or a malformed case fails loudly instead of being passed over.
 */
function loadSuite(): SuiteCase[] {
  const require = createRequire(import.meta.url);
  const groups = require('msgpack-test-suite') as Record<string, unknown>;
  const cases: SuiteCase[] = [];
  for (const [group, list] of Object.entries(groups)) {
    if (!Array.isArray(list)) throw new Error(`${group}: not a list of cases`);
    for (const raw of list as Record<string, unknown>[]) {
      const { msgpack, ...values } = raw;
      if (
        !Array.isArray(msgpack) ||
        !msgpack.every((e) => typeof e === 'string' && /^[0-9a-f]{2}(-[0-9a-f]{2})*$/.test(e))
      ) {
        throw new Error(`${group}: a case without its encodings: ${JSON.stringify(raw)}`);
      }
      const [kind] = Object.keys(values);
      const value = parseValue(values);
      // A bignum is a decimal string: shown bare, it reads as the number it is.
      const shown = kind === 'bignum' ? String(values.bignum) : JSON.stringify(values[kind as string]);
      cases.push({ group, name: `${kind} ${shown}`, value, encodings: msgpack });
    }
  }
  return cases;
}

function parseValue(values: Record<string, unknown>): SuiteValue {
  const keys = Object.keys(values).join(',');
  const fail = () => new Error(`an unexpected case: ${JSON.stringify(values)}`);
  const { nil, bool, binary, number, bignum, string, array, map, timestamp, ext } = values;
  switch (keys) {
    case 'nil':
      if (nil !== null) throw fail();
      return { kind: 'nil' };
    case 'bool':
      if (typeof bool !== 'boolean') throw fail();
      return { kind: 'bool', value: bool };
    case 'binary':
      if (typeof binary !== 'string') throw fail();
      return { kind: 'binary', hex: binary };
    case 'number':
    case 'number,bignum':
      if (typeof number !== 'number' || !(bignum === undefined || typeof bignum === 'string')) throw fail();
      return { kind: 'number', value: number, bignum };
    case 'bignum':
      if (typeof bignum !== 'string') throw fail();
      return { kind: 'bignum', bignum };
    case 'string':
      if (typeof string !== 'string') throw fail();
      return { kind: 'string', value: string };
    case 'array':
      return { kind: 'array', value: array };
    case 'map':
      return { kind: 'map', value: map };
    case 'timestamp': {
      const [seconds, nanoseconds] = Array.isArray(timestamp) ? (timestamp as unknown[]) : [];
      if (typeof seconds !== 'number' || typeof nanoseconds !== 'number') throw fail();
      return { kind: 'timestamp', seconds, nanoseconds };
    }
    case 'ext': {
      const [type, hex] = Array.isArray(ext) ? (ext as unknown[]) : [];
      if (typeof type !== 'number' || typeof hex !== 'string') throw fail();
      return { kind: 'ext', type, hex };
    }
    default:
      throw fail();
  }
}

/** A value to write, as an assertion message shows it. */
function show(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`;
  if (value instanceof Uint8Array) return `bytes ${suiteHex(value)}`;
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(value);
}
