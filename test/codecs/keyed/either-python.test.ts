/**
 * t.either in MessagePack and CBOR against Debian's Python msgpack and cbor2, both ways: the value
 * travels as itself, so Python reads each branch as its own type with no tag around it, and wirekit
 * reads what Python writes by the type of each item (a datetime, bytes or Decimal is text; keys tell
 * the objects apart). The codec's own tests are in either.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { createCborCodec } from '../../../src/codecs/cbor/index.js';
import { createMsgpackCodec } from '../../../src/codecs/msgpack/index.js';
import { t } from '../../../src/schema/index.js';
import { runPython } from '../../support/python.js';
import { has } from '../../support/tools.js';

const Point = t.object('Point', { x: t.float64(), y: t.float64() });
const Circle = t.object('Circle', { r: t.float64(), label: t.optional(t.string()) });
const Row = t.object('Row', {
  id: t.either([t.string(), t.uint32()]),
  big: t.either([t.int64(), t.bool()]),
  when: t.either([t.timestamp(), t.float64()]),
  blob: t.either([t.bytes(), t.array(t.uint8())]),
  shape: t.either([Point, Circle, t.decimal()]),
  many: t.array(t.either([t.string(), t.float64(), t.map(t.string(), t.bool())])),
  none: t.nullable(t.either([t.bool(), t.string()])),
});

const values = [
  {
    id: 'ab12',
    big: 9_007_199_254_740_993n,
    when: new Date(Date.UTC(2024, 1, 29, 12, 0, 0, 5)),
    blob: new Uint8Array([1, 2, 3]),
    shape: { r: 2.5, label: 'o' },
    many: ['a', 1.5, { on: true }],
    none: null,
  },
  { id: 7, big: false, when: -0.5, blob: [9], shape: { y: 2.5, x: 1.5 }, many: [], none: 'n' },
  { id: 0, big: -1n, when: 0.25, blob: new Uint8Array(0), shape: '-12.50', many: [{}], none: true },
];

/** The same values in Python, and a check that each item has its branch's type (True is no 0). */
const pythonValues = (decimal: string) => `
import datetime, decimal
values = [
  {'id': 'ab12', 'big': 9007199254740993,
   'when': datetime.datetime(2024, 2, 29, 12, 0, 0, 5000, tzinfo=datetime.timezone.utc),
   'blob': b'\\x01\\x02\\x03', 'shape': {'r': 2.5, 'label': 'o'}, 'many': ['a', 1.5, {'on': True}], 'none': None},
  {'id': 7, 'big': False, 'when': -0.5, 'blob': [9], 'shape': {'y': 2.5, 'x': 1.5}, 'many': [], 'none': 'n'},
  {'id': 0, 'big': -1, 'when': 0.25, 'blob': b'', 'shape': ${decimal}, 'many': [{}], 'none': True},
]
def same_types(got, want):
    assert type(got) is type(want), (got, want)
    if isinstance(want, dict):
        assert got.keys() == want.keys(), (got, want)
        for key in want: same_types(got[key], want[key])
    if isinstance(want, list):
        assert len(got) == len(want), (got, want)
        for a, b in zip(got, want): same_types(a, b)
`;

const peers = [
  {
    name: 'msgpack',
    module: 'python:msgpack',
    codec: createMsgpackCodec<unknown>({ schema: Row }),
    interpreted: createMsgpackCodec<unknown>({ schema: Row, compile: false }),
    header: `import sys, msgpack\n${pythonValues("'-12.50'")}`,
    load: 'msgpack.unpackb(data, raw=False, timestamp=3)',
    dump: 'msgpack.packb(value, datetime=True)',
  },
  {
    name: 'cbor2',
    module: 'python:cbor2',
    codec: createCborCodec<unknown>({ schema: Row }),
    interpreted: createCborCodec<unknown>({ schema: Row, compile: false }),
    header: `import sys, cbor2\n${pythonValues("decimal.Decimal('-12.50')")}`,
    load: 'cbor2.loads(data)',
    dump: 'cbor2.dumps(value, datetime_as_timestamp=(i == 1))',
  },
] as const;

/** Values back to back, each behind its 4-byte big-endian length. */
function framed(parts: readonly Uint8Array[]): Uint8Array {
  const out = Buffer.alloc(parts.reduce((sum, part) => sum + 4 + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.writeUInt32BE(part.length, at);
    out.set(part, at + 4);
    at += 4 + part.length;
  }
  return new Uint8Array(out);
}

function unframed(bytes: Buffer): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += 4 + bytes.readUInt32BE(at)) {
    out.push(new Uint8Array(bytes.subarray(at + 4, at + 4 + bytes.readUInt32BE(at))));
  }
  return out;
}

describe.each(peers)('t.either with Python $name', (peer) => {
  describe.skipIf(!has(peer.module))(peer.name, () => {
    test('Python reads each branch of what wirekit writes as itself, with its own type', () => {
      for (const codec of [peer.codec, peer.interpreted]) {
        const out = runPython(
          `${peer.header}
stream = sys.stdin.buffer.read()
at, i = 0, 0
while at < len(stream):
    size = int.from_bytes(stream[at:at + 4], 'big')
    data = stream[at + 4:at + 4 + size]
    got = ${peer.load}
    assert got == values[i], (got, values[i])
    same_types(got, values[i])
    at, i = at + 4 + size, i + 1
assert i == len(values)
print('ok')`,
          framed(values.map((value) => codec.encode(value))),
        );
        expect(out.toString().trim()).toBe('ok');
      }
    });

    test('wirekit reads what Python writes, choosing each branch by the type it meets', () => {
      const bytes = runPython(`${peer.header}
for i, value in enumerate(values):
    data = ${peer.dump}
    sys.stdout.buffer.write(len(data).to_bytes(4, 'big') + data)`);
      const parts = unframed(bytes);
      expect(parts.length).toBe(values.length);
      for (const codec of [peer.codec, peer.interpreted]) {
        expect(parts.map((part) => codec.decode(part))).toEqual(values);
      }
    });
  });
});
