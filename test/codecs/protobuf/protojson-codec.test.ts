/**
 * The ProtoJSON codec's own forms, without a peer: JSON names as protoc derives them, the fraction
 * digits of Timestamps and Durations, a root that is not a message, and NDJSON sequences and streams.
 */
import { describe, expect, test } from 'vitest';
import {
  createProtobufCodec,
  createProtoJsonCodec,
  schemaFromProto,
} from '../../../src/codecs/protobuf/index.js';
import { jsonNameOf } from '../../../src/codecs/protobuf/protojson-names.js';
import {
  durationText,
  parseDuration,
  parseTimestamp,
  timestampText,
} from '../../../src/codecs/protobuf/protojson-time.js';
import { type Schema, t } from '../../../src/schema/index.js';
import { oneByteAtATime } from '../../support/streams.js';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const utf8 = (value: string) => new TextEncoder().encode(value);

describe('ProtoJSON forms', () => {
  test('JSON names are protoc’s: underscores dropped, the next letter upper-cased', () => {
    expect(['order_id', 'foo_bar_2', 'FooBar', '_leading', 'x__y', 'already'].map(jsonNameOf)).toEqual([
      'orderId',
      'fooBar2',
      'FooBar',
      'Leading',
      'xY',
      'already',
    ]);
  });

  test('Timestamps take 0 or 3 fraction digits, Durations 0, 3, 6 or 9', () => {
    expect(timestampText(new Date('2026-12-07T05:40:00Z'))).toBe('2026-12-07T05:40:00Z');
    expect(timestampText(new Date('2026-12-07T05:40:00.100Z'))).toBe('2026-12-07T05:40:00.100Z');
    expect(timestampText(new Date('1969-12-31T23:59:59.999Z'))).toBe('1969-12-31T23:59:59.999Z');
    expect(timestampText(new Date('0000-12-31T23:59:59.999Z'))).toBeUndefined();
    expect([
      durationText(1n, 340012),
      durationText(-1n, -500_000_000),
      durationText(0n, 0),
      durationText(5n, 1000),
    ]).toEqual(['1.000340012s', '-1.500s', '0s', '5.000001s']);
    expect(durationText(1n, -1)).toBeUndefined();
    expect(parseDuration('-0.5s')).toEqual({ seconds: -0n, nanos: -500_000_000 });
  });

  test('Timestamps are written as toISOString writes them, without .000, over the whole range', () => {
    const first = Date.parse('0001-01-01T00:00:00Z');
    const last = Date.parse('9999-12-31T23:59:59.999Z');
    const instants = [first, last, 0, -1, 951_782_400_000, 4_107_542_400_000, -62_104_060_800_001];
    // A fixed spread over the range (nothing random to reproduce), whole seconds and not.
    for (let i = 0; i < 2000; i++) {
      instants.push(Math.round(first + ((last - first) * ((i * 7919) % 2000)) / 2000) - (i % 1000));
    }
    for (const millis of instants) {
      const iso = new Date(millis).toISOString();
      expect(timestampText(new Date(millis)), iso).toBe(millis % 1000 === 0 ? `${iso.slice(0, 19)}Z` : iso);
    }
    expect(timestampText(new Date(first - 1))).toBeUndefined();
    expect(timestampText(new Date(last + 1))).toBeUndefined();
  });

  test("the printers' form is read as the general pattern reads it, the edge years included", () => {
    const instants = [
      '0001-01-01T00:00:00Z',
      '0099-12-31T23:59:59.999Z',
      '0100-01-01T00:00:00.000Z',
      '1969-12-31T23:59:59.999Z',
      '2024-02-29T12:00:00Z',
      '9999-12-31T23:59:59.999Z',
    ];
    for (const instant of instants) {
      // The same instant in a form only the pattern reads: lower-case t and an offset of +00:00.
      const general = `${instant.slice(0, 10)}t${instant.slice(11, -1)}+00:00`;
      expect(parseTimestamp(instant), instant).toBe(Date.parse(instant.replace(/^00/, '+0000')));
      expect(parseTimestamp(instant), instant).toBe(parseTimestamp(general));
      expect(timestampText(new Date(parseTimestamp(instant) as number)), instant).toBe(
        instant.replace('.000Z', 'Z'),
      );
    }
    for (const wrong of [
      '2023-02-29T00:00:00Z',
      '2024-13-01T00:00:00Z',
      '2024-01-01T24:00:00Z',
      '2024-01-01T00:60:00Z',
      '2024-01-01T00:00:60Z',
      '2024-01-01T00:00:00.-01Z',
      '2024-01-01T00:00:00.00aZ',
      '2024-01-01 00:00:00Z',
      '2024-01-0１T00:00:00Z',
    ]) {
      expect(parseTimestamp(wrong), wrong).toBeUndefined();
    }
  });

  test('a root that is not a message is the { value } message toProto declares', () => {
    const codec = createProtoJsonCodec({ schema: t.array(t.int64()) });
    expect(text(codec.encode([1n, -2n]))).toBe('{"value":["1","-2"]}');
    expect(codec.decode(utf8('{"value":[3, "4"]}'))).toEqual([3n, 4n]);
    expect(codec.decode(utf8('{}'))).toEqual([]);
  });

  test('sequences and streams are NDJSON, one message a line', async () => {
    const Point = schemaFromProto(
      'syntax = "proto3"; message Point { sint64 x_pos = 1; string label = 2; }',
    ).types.get('Point') as Schema;
    const codec = createProtoJsonCodec({ schema: Point });
    const values = [
      { x_pos: 1n, label: 'a' },
      { x_pos: -1n, label: '' },
    ];
    const bytes = codec.encodeSequence(values);
    expect(text(bytes)).toBe('{"xPos":"1","label":"a"}\n{"xPos":"-1"}\n');
    expect(codec.decodeSequence(bytes)).toEqual(values);
    const streamed: unknown[] = [];
    for await (const value of codec.decodeStream(oneByteAtATime(utf8(`${text(bytes)}\n  \n{"x_pos":2}`)))) {
      streamed.push(value);
    }
    expect(streamed).toEqual([...values, { x_pos: 2n, label: '' }]);
  });

  test('a field without presence is left out where the binary writer leaves it out', () => {
    // One rule for both writers (encode/implicit-presence.ts): an integer's -0 is the integer 0,
    // while a double's -0.0 has a bit set and is written, as protoc's runtimes write it.
    const Zeros = schemaFromProto(
      'syntax = "proto3"; message Zeros { int32 count = 1; sint32 delta = 2; double level = 3; }',
    ).types.get('Zeros') as Schema;
    const value = { count: -0, delta: -0, level: -0 };
    const binary = createProtobufCodec({ schema: Zeros }).encode(value);
    expect([...binary]).toEqual([0x19, 0, 0, 0, 0, 0, 0, 0, 0x80]);
    expect(text(createProtoJsonCodec({ schema: Zeros }).encode(value))).toBe('{"level":-0.0}');
  });

  test('an absent field reads as the same proto3 default from both forms', () => {
    // One table of defaults (decode/proto3-defaults.ts) behind the binary and the ProtoJSON reader.
    const Empty = schemaFromProto(`syntax = "proto3";
      enum Mood { MOOD_CALM = 0; MOOD_LOUD = 1; }
      message Empty {
        bool on = 1; int32 i = 2; sint64 l = 3; uint64 u = 4; float f = 5; double d = 6;
        string s = 7; bytes b = 8; Mood mood = 9; repeated int32 list = 10; map<string, int32> m = 11;
      }`).types.get('Empty') as Schema;
    const defaults = {
      on: false,
      i: 0,
      l: 0n,
      u: 0n,
      f: 0,
      d: 0,
      s: '',
      b: new Uint8Array(0),
      mood: 'MOOD_CALM',
      list: [],
      m: {},
    };
    expect(createProtobufCodec({ schema: Empty }).decode(new Uint8Array(0))).toEqual(defaults);
    expect(createProtoJsonCodec({ schema: Empty }).decode(utf8('{}'))).toEqual(defaults);
  });
});
