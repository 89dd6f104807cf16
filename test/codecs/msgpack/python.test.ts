/**
 * The MessagePack codec against Debian's Python msgpack, both ways: Python reads what wirekit writes,
 * with and without a schema, with exact types, and wirekit reads what Python writes (timestamps,
 * integers of every width, maps with integer keys). The codec's own tests are in codec.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { createMsgpackCodec } from '../../../src/codecs/msgpack/index.js';
import type { Infer } from '../../../src/index.js';
import { EveryKind, everyKindValue } from '../../fixtures/every-kind.js';
import { pythonEveryKind } from '../../fixtures/every-kind-python.js';
import { runPython } from '../../support/python.js';
import { has } from '../../support/tools.js';

const typed = createMsgpackCodec<Infer<typeof EveryKind>>({ schema: EveryKind });
const plain = createMsgpackCodec();

describe.skipIf(!has('python:msgpack'))('msgpack interop with Python msgpack', () => {
  const pythonHeader = `import sys, msgpack\n${pythonEveryKind.replace('PRICE', "'-1234567890.12'")}`;

  test('Python reads what wirekit writes (schema), with exact types', () => {
    const out = runPython(
      `${pythonHeader}
d = msgpack.unpackb(sys.stdin.buffer.read(), raw=False, strict_map_key=False, timestamp=3)
assert d == expected, d
check_types(d)
print('ok')`,
      typed.encode(everyKindValue()),
    );
    expect(out.toString().trim()).toBe('ok');
  });

  test('Python reads what wirekit writes (schemaless)', () => {
    const out = runPython(
      `${pythonHeader}
d = msgpack.unpackb(sys.stdin.buffer.read(), raw=False, strict_map_key=False, timestamp=3)
expected['scores']['art'] = -1
expected['shape']['radius'] = 2
expected['shapes'] = [{'kind': 'rect', 'width': 1, 'height': 2.5}, {'kind': 'circle', 'radius': 0}]
assert d == expected, d
print('ok')`,
      plain.encode(everyKindValue()),
    );
    expect(out.toString().trim()).toBe('ok');
  });

  test('wirekit reads what Python writes, timestamps included', () => {
    const bytes = runPython(`${pythonHeader}
sys.stdout.buffer.write(msgpack.packb(expected, datetime=True))`);
    expect(typed.decode(new Uint8Array(bytes))).toEqual(everyKindValue());
    // Python writes float fields that hold integers as floats and ints as the smallest int: both read.
    const back = plain.decode(new Uint8Array(bytes)) as Record<string, unknown>;
    expect(back.createdAt).toEqual(new Date('2024-02-29T12:34:56.789Z'));
    expect(back.u64).toBe(2n ** 64n - 1n);
  });

  test('Python ints of every width, floats, nested maps with int keys', () => {
    const bytes = runPython(
      `import sys, msgpack
sys.stdout.buffer.write(msgpack.packb([0, 127, 128, -33, 65536, 2**32, -2**31 - 1, 1.5, {1: {'a': None}}, b'', '']))`,
    );
    expect(plain.decode(new Uint8Array(bytes))).toEqual([
      0,
      127,
      128,
      -33,
      65536,
      2 ** 32,
      -(2 ** 31) - 1,
      1.5,
      new Map([[1, { a: null }]]),
      new Uint8Array(0),
      '',
    ]);
  });
});
