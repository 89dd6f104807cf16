/**
 * Python's msgpack and cbor2 as the independent judges of schemaless integers
 * (schemaless-integers.test.ts), in both directions: they read wirekit's bytes as `int` (never
 * `float`) with the right value, write the same bytes for each integer (so wirekit's form is the
 * smallest one), and wirekit reads what they write.
 */
import { describe, expect, test } from 'vitest';
import type { Codec } from '../../../src/codecs/core/codec.js';
import { createMsgpackCodec } from '../../../src/codecs/msgpack/index.js';
import { readEnvelope } from '../../../src/envelope/header.js';
import { encodeEnveloped } from '../../../src/envelope/index.js';
import { t } from '../../../src/index.js';
import {
  codecs,
  createCodecFor,
  type Format,
  floats,
  integers,
  read,
  tableOf,
} from '../../fixtures/schemaless-integers.js';
import { runPython } from '../../support/python.js';
import { hex, toHex } from '../../support/self-describing.js';
import { readAll } from '../../support/streams.js';
import { has } from '../../support/tools.js';

/**
 * A value as the Python side spells it: ["int", digits] or ["float", the float64's big-endian
 * bytes in hex], so that NaN, -0 and integers beyond 2^53 cross JSON exactly.
 */
type Spelled = readonly ['int' | 'float', string];

function spell(value: number | bigint): Spelled {
  if (typeof value === 'bigint' || (Number.isSafeInteger(value) && !Object.is(value, -0)))
    return ['int', value.toString()];
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  return ['float', toHex(new Uint8Array(view.buffer))];
}

function unspell([kind, text]: Spelled): number | bigint {
  if (kind === 'int') return read(BigInt(text));
  return new DataView(hex(text).buffer).getFloat64(0);
}

const pythonTools = `
import sys, json, struct, msgpack, cbor2
def spell(x):
    if type(x) is int: return ['int', str(x)]
    if type(x) is float: return ['float', struct.pack('>d', x).hex()]
    return ['other', repr(x)]
def unspell(s):
    return int(s[1]) if s[0] == 'int' else struct.unpack('>d', bytes.fromhex(s[1]))[0]
def load(fmt, data):
    return msgpack.unpackb(data, raw=False, strict_map_key=False) if fmt == 'msgpack' else cbor2.loads(data)
def dump(fmt, value):
    return msgpack.packb(value) if fmt == 'msgpack' else cbor2.dumps(value)
`;

/** What Python reads from `bytes`: a list of spelled values. */
function pythonReads(format: Format, bytes: Uint8Array): Spelled[] {
  const out = runPython(
    `${pythonTools}
print(json.dumps([spell(x) for x in load('${format}', sys.stdin.buffer.read())]))`,
    bytes,
  );
  return JSON.parse(out.toString()) as Spelled[];
}

const python2 = has('python:msgpack') && has('python:cbor2');

describe.skipIf(!python2)('interop with Python msgpack and cbor2', () => {
  describe.each(['msgpack', 'cbor'] as const)('%s', (format) => {
    const codec: Codec<unknown> = codecs[format];

    test('Python reads wirekit’s integers as int, with the right value, and its other numbers as float', () => {
      const values = [...tableOf(format), ...floats];
      expect(pythonReads(format, codec.encode(values))).toEqual(values.map(spell));
    });

    test('Python writes the same bytes for every integer: wirekit’s form is the smallest', () => {
      const table = tableOf(format);
      const out = runPython(
        `${pythonTools}
print(json.dumps([dump('${format}', unspell(s)).hex() for s in json.load(sys.stdin)]))`,
        new TextEncoder().encode(JSON.stringify(table.map(spell))),
      );
      expect(JSON.parse(out.toString())).toEqual(table.map((value) => toHex(codec.encode(value))));
    });

    test('wirekit reads what Python writes, each value alone and all in a map with an integer key', () => {
      const values = [...tableOf(format), ...floats];
      const out = runPython(
        `${pythonTools}
values = [unspell(s) for s in json.load(sys.stdin)]
print(json.dumps({'alone': [dump('${format}', v).hex() for v in values], 'keyed': dump('${format}', {1: values}).hex()}))`,
        new TextEncoder().encode(JSON.stringify(values.map(spell))),
      );
      const { alone, keyed } = JSON.parse(out.toString()) as { alone: string[]; keyed: string };
      const expected = values.map((value) => unspell(spell(value)));
      alone.forEach((bytes, i) => {
        expect(Object.is(codec.decode(hex(bytes)), expected[i]), `${bytes} → ${String(expected[i])}`).toBe(
          true,
        );
      });
      const all = (codec.decode(hex(keyed)) as Map<number, unknown[]>).get(1) as unknown[];
      all.forEach((value, i) => {
        expect(Object.is(value, expected[i]), String(expected[i])).toBe(true);
      });
    });

    test('Python reads what encodeStream, the envelope and json fields write', async () => {
      const values = [4_294_967_296, -(2 ** 40), 9_007_199_254_740_672];
      const streamed = await readAll(codec.encodeStream(values));
      const out = runPython(
        format === 'msgpack'
          ? `${pythonTools}
print(json.dumps([spell(x) for x in msgpack.Unpacker(sys.stdin.buffer, raw=False)]))`
          : `${pythonTools}
import io
data = io.BytesIO(sys.stdin.buffer.read())
out = []
while data.tell() < len(data.getvalue()): out.append(spell(cbor2.load(data)))
print(json.dumps(out))`,
        streamed,
      );
      expect(JSON.parse(out.toString())).toEqual(values.map(spell));
      const { payload } = readEnvelope(encodeEnveloped(codec, values));
      expect(pythonReads(format, payload)).toEqual(values.map(spell));
      const jsonField = createCodecFor(format, t.array(t.json()), true);
      expect(pythonReads(format, jsonField.encode(values))).toEqual(values.map(spell));
    });
  });

  test('msgpackRecords: Python reads its integers (arrays of numbers hold no records)', () => {
    const records = createMsgpackCodec({ msgpackRecords: true });
    const values = [...integers, ...floats.filter((v) => !Object.is(v, -0))];
    expect(pythonReads('msgpack', records.encode(values))).toEqual(values.map(spell));
  });
});
