/**
 * The .proto-driven Protobuf reader of `inspect --registry` (protobuf-named.ts), against bytes
 * protobufjs writes from the same .proto: every scalar type (negative int32 and int64, zigzag,
 * fixed, float and double), enums by name, nested messages, maps, packed and unpacked repeated
 * fields, proto2 groups, fields the .proto does not declare, and fields whose wire type disagrees
 * with the .proto (shown raw and counted). Hostile bytes: a value or a WirekitError.
 */
import fc from 'fast-check';
import protobuf from 'protobufjs';
import { describe, expect, test } from 'vitest';
import { messageAt } from '../../src/boundaries/events/compatibility/protobuf-indexes.js';
import { parseProtoFile } from '../../src/boundaries/events/compatibility/protobuf-schema.js';
import { decodeProtobufByMessage } from '../../src/cli/protobuf-named.js';
import { isWirekitError } from '../../src/errors/index.js';

const proto3 = `
  syntax = "proto3";
  package shop;
  enum State { NEW = 0; PAID = 1; SHIPPED = 2; }
  message Order {
    int32 i32 = 1;
    int64 i64 = 2;
    uint32 u32 = 3;
    uint64 u64 = 4;
    sint32 s32 = 5;
    sint64 s64 = 6;
    fixed32 f32 = 7;
    fixed64 f64 = 8;
    sfixed32 sf32 = 9;
    sfixed64 sf64 = 10;
    float fl = 11;
    double db = 12;
    bool flag = 13;
    string name = 14;
    bytes blob = 15;
    State state = 16;
    message Line { string sku = 1; int32 qty = 2; }
    repeated Line lines = 17;
    repeated int32 packed = 18;
    repeated string tags = 19;
    map<string, int64> counts = 20;
    map<int32, Line> byNumber = 21;
    oneof pay { string card = 22; string cash = 23; }
  }
`;

const file = parseProtoFile(proto3);
const order = messageAt(file, [0]);
const Order = protobuf.parse(proto3).root.lookupType('shop.Order');

describe('decodeProtobufByMessage', () => {
  test('every scalar type, enums, nested messages, maps, packed repeated fields, a oneof', () => {
    const bytes = Order.encode(
      Order.fromObject({
        i32: -5,
        i64: '-9007199254740993',
        u32: 4_000_000_000,
        u64: '18446744073709551615',
        s32: -7,
        s64: '-42',
        f32: 4_000_000_001,
        f64: '12',
        sf32: -3,
        sf64: '-4',
        fl: 1.5,
        db: -2.25,
        flag: true,
        name: 'Ada ✓',
        blob: Buffer.from([1, 2, 3]),
        state: 2,
        lines: [{ sku: 'A', qty: 1 }, { sku: 'B' }],
        packed: [1, -1, 300],
        tags: ['x', 'y'],
        counts: { a: '1', b: '-2' },
        byNumber: { 7: { sku: 'S', qty: 9 } },
        cash: 'yes',
      }),
    ).finish();
    const { value, mismatched } = decodeProtobufByMessage(bytes, order);
    expect(mismatched).toBe(0);
    expect(value).toEqual({
      i32: -5,
      i64: '-9007199254740993',
      u32: 4_000_000_000,
      u64: '18446744073709551615',
      s32: -7,
      s64: -42,
      f32: 4_000_000_001,
      f64: 12,
      sf32: -3,
      sf64: -4,
      fl: 1.5,
      db: -2.25,
      flag: true,
      name: 'Ada ✓',
      blob: 'AQID',
      state: 'SHIPPED',
      lines: [{ sku: 'A', qty: 1 }, { sku: 'B' }],
      packed: [1, -1, 300],
      tags: ['x', 'y'],
      counts: { a: 1, b: -2 },
      byNumber: { '7': { sku: 'S', qty: 9 } },
      cash: 'yes',
    });
    // Declaration order, whatever order the wire had.
    expect(Object.keys(value).slice(0, 3)).toEqual(['i32', 'i64', 'u32']);
  });

  test('an enum number the .proto does not name stays a number; NaN and infinities are named', () => {
    const bytes = Order.encode(
      Order.fromObject({ state: 9, fl: Number.NaN, db: Number.NEGATIVE_INFINITY }),
    ).finish();
    expect(decodeProtobufByMessage(bytes, order).value).toEqual({ fl: 'NaN', db: '-Infinity', state: 9 });
  });

  test('unpacked repeated scalars read as well as packed ones; a non-repeated field keeps its last value', () => {
    // 18: 1 and 18: 2 unpacked (varint wire type), then 1: 5 twice.
    const bytes = Uint8Array.of(0x90, 0x01, 1, 0x90, 0x01, 2, 0x08, 4, 0x08, 5);
    expect(decodeProtobufByMessage(bytes, order).value).toEqual({ i32: 5, packed: [1, 2] });
  });

  test('fields the .proto does not declare are shown by number, after the declared ones', () => {
    const bytes = Uint8Array.of(0x08, 1, 0xf8, 0x06, 42, 0x82, 0x07, 2, 0x68, 0x69);
    expect(decodeProtobufByMessage(bytes, order).value).toEqual({ i32: 1, '111': 42, '112': 'hi' });
  });

  test('a wire type the .proto does not declare is shown raw and counted', () => {
    // name (14) sent as a varint; lines (17) sent as a fixed32.
    const bytes = Uint8Array.of(0x70, 7, 0x8d, 0x01, 1, 0, 0, 0);
    const { value, mismatched } = decodeProtobufByMessage(bytes, order);
    expect(mismatched).toBe(2);
    expect(value).toEqual({ name: 7, lines: ['0x00000001'] });
  });

  test('proto2 groups', () => {
    const text =
      'syntax = "proto2"; message A { optional group G = 1 { optional int32 x = 2; } optional int32 y = 3; }';
    const A = protobuf.parse(text).root.lookupType('A');
    const bytes = A.encode(A.fromObject({ g: { x: -1 }, y: 4 })).finish();
    expect(decodeProtobufByMessage(bytes, messageAt(parseProtoFile(text), [0])).value).toEqual({
      g: { x: -1 },
      y: 4,
    });
  });

  test('nesting past maxDepth is shown as base64', () => {
    const text = 'syntax = "proto3"; message N { N next = 1; int32 v = 2; }';
    const N = protobuf.parse(text).root.lookupType('N');
    const bytes = N.encode(N.fromObject({ next: { next: { next: { v: 1 } } } })).finish();
    const { value } = decodeProtobufByMessage(bytes, messageAt(parseProtoFile(text), [0]), { maxDepth: 2 });
    expect(typeof ((value.next as Record<string, unknown>).next as Record<string, unknown>).next).toBe(
      'string',
    );
  });

  test('a map field of another wire type is shown by number, not read as entries', () => {
    // Field 21 with wire type 5 (fixed32), four zero bytes: found by the fuzz test below.
    const field = order.fields.find((f) => f.number === 21);
    expect(field?.type.kind).toBe('map');
    const { value, mismatched } = decodeProtobufByMessage(Uint8Array.from([173, 1, 0, 0, 0, 0]), order);
    expect(mismatched).toBe(1);
    expect(Object.keys(value)).toEqual(['21']);
  });

  test('fuzz: random bytes read by the .proto are a value or a WirekitError', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (input) => {
        try {
          decodeProtobufByMessage(input, order);
        } catch (error) {
          if (!isWirekitError(error)) throw error;
        }
      }),
      { numRuns: 3000 },
    );
  });
});
