/**
 * The schemaless Protobuf reader of `inspect --registry` (protobuf-raw.ts): every wire type,
 * nesting, repeated fields, groups, the text/message/bytes choice, limits, and hostile bytes (a
 * fuzz: a value or a WirekitError, never a crash or a hang). protoc --decode_raw reads the same
 * numbers: protobuf-raw-protoc.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { decodeRawProtobuf } from '../../src/cli/protobuf-raw.js';
import { isWirekitError } from '../../src/errors/index.js';

const bytes = (...values: number[]) => Uint8Array.from(values);
const text = (s: string) => [...Buffer.from(s)];

describe('decodeRawProtobuf', () => {
  test('every wire type', () => {
    const message = bytes(
      0x08,
      0x96,
      0x01, // 1: varint 150
      0x11,
      1,
      0,
      0,
      0,
      0,
      0,
      0,
      0, // 2: fixed64 1
      0x1a,
      3,
      ...text('abc'), // 3: "abc"
      0x25,
      0,
      0,
      0x80,
      0x3f, // 4: fixed32 (1.0f)
      0x2b,
      0x08,
      0x01,
      0x2c, // 5: group { 1: 1 }
    );
    expect(decodeRawProtobuf(message)).toEqual({
      '1': 150,
      '2': '0x0000000000000001',
      '3': 'abc',
      '4': '0x3f800000',
      '5': { '1': 1 },
    });
  });

  test('repeated fields become arrays in wire order; fields come out by number', () => {
    expect(decodeRawProtobuf(bytes(0x10, 2, 0x08, 1, 0x10, 3, 0x10, 4))).toEqual({ '1': 1, '2': [2, 3, 4] });
  });

  test('length-delimited: printable text, else a message that parses whole, else base64 bytes', () => {
    const nested = [0x08, 0x07, 0x12, 2, ...text('hi')];
    expect(decodeRawProtobuf(bytes(0x0a, nested.length, ...nested))).toEqual({ '1': { '1': 7, '2': 'hi' } });
    expect(decodeRawProtobuf(bytes(0x0a, 3, 0xff, 0xfe, 0x00))).toEqual({ '1': '//4A' });
    expect(decodeRawProtobuf(bytes(0x0a, 0))).toEqual({ '1': '' });
    expect(decodeRawProtobuf(bytes(0x0a, 6, ...text('héllo')))).toEqual({ '1': 'héllo' });
  });

  test('varints past 2^53 are digit strings; the full 64 bits', () => {
    const max = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
    expect(decodeRawProtobuf(bytes(0x08, ...max))).toEqual({ '1': '18446744073709551615' });
  });

  test('nesting deeper than maxDepth is shown as bytes, not followed', () => {
    let inner = [0x08, 0x01];
    for (let i = 0; i < 5; i++) inner = [0x0a, inner.length, ...inner];
    const shallow = decodeRawProtobuf(Uint8Array.from(inner), { maxDepth: 2 }) as Record<string, unknown>;
    const second = (shallow['1'] as Record<string, unknown>)['1'] as Record<string, unknown>;
    expect(typeof second['1']).toBe('string');
  });

  test.each([
    ['a truncated varint', bytes(0x08, 0x80), 'WK_DECODE_TRUNCATED'],
    ['a length past the end', bytes(0x0a, 5, 1), 'WK_DECODE_TRUNCATED'],
    ['a truncated fixed64', bytes(0x09, 1, 2), 'WK_DECODE_TRUNCATED'],
    ['field number 0', bytes(0x00, 1), 'WK_DECODE_MALFORMED'],
    ['wire type 7', bytes(0x0f), 'WK_DECODE_MALFORMED'],
    ['an 11-byte varint', bytes(0x08, ...Array(10).fill(0x80), 1), 'WK_DECODE_MALFORMED'],
    ['an end of group never opened', bytes(0x0c), 'WK_DECODE_MALFORMED'],
    ['a group never closed', bytes(0x0b, 0x08, 1), 'WK_DECODE_TRUNCATED'],
  ])('%s is %s', (_name, input, code) => {
    expect(() => decodeRawProtobuf(input)).toThrow(expect.objectContaining({ code }));
  });

  test('groups nested past maxDepth are refused', () => {
    expect(() => decodeRawProtobuf(Uint8Array.from(Array(100).fill(0x0b)), { maxDepth: 10 })).toThrow(
      expect.objectContaining({ code: 'WK_DECODE_MALFORMED' }),
    );
  });

  test('fuzz: random bytes are a message or a WirekitError', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (input) => {
        try {
          decodeRawProtobuf(input);
        } catch (error) {
          if (!isWirekitError(error)) throw error;
        }
      }),
      { numRuns: 5000 },
    );
  });

  test('fuzz: deeply self-similar input stays cheap (each level parsed once)', () => {
    // 2,000 nested length-delimited fields: the nested parse is tried at each level at most once.
    let inner: number[] = [0x08, 1];
    for (let i = 0; i < 2000; i++) {
      const length = [];
      let n = inner.length;
      while (n >= 0x80) {
        length.push((n & 0x7f) | 0x80);
        n >>>= 7;
      }
      length.push(n);
      inner = [0x0a, ...length, ...inner];
      if (inner.length > 50_000) break;
    }
    const started = Date.now();
    decodeRawProtobuf(Uint8Array.from(inner));
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
