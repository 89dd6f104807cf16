/**
 * The CBOR codec against Python's cbor2 (Debian's), both ways: cbor2 reads what wirekit writes
 * (datetimes, Decimal, 64-bit integers and bignums, sequences) with exact types, and wirekit reads
 * what cbor2 writes. The codec's own tests are in codec.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { createCborCodec } from '../../../src/codecs/cbor/index.js';
import { type Infer, t } from '../../../src/index.js';
import { EveryKind, everyKindValue } from '../../fixtures/every-kind.js';
import { pythonEveryKind } from '../../fixtures/every-kind-python.js';
import { runPython } from '../../support/python.js';
import { concat, readAll } from '../../support/streams.js';
import { has } from '../../support/tools.js';

const typed = createCborCodec<Infer<typeof EveryKind>>({ schema: EveryKind });
const plain = createCborCodec();

describe.skipIf(!has('python:cbor2'))('cbor interop with Python cbor2', () => {
  const header = `import sys, cbor2, decimal\n${pythonEveryKind.replace('PRICE', "decimal.Decimal('-1234567890.12')")}`;

  test('cbor2 reads what wirekit writes (schema): datetimes, Decimal, 64-bit integers, exact types', () => {
    const out = runPython(
      `${header}
d = cbor2.loads(sys.stdin.buffer.read())
assert d == expected, d
check_types(d)
assert str(d['price']) == '-1234567890.12'
print('ok')`,
      typed.encode(everyKindValue()),
    );
    expect(out.toString().trim()).toBe('ok');
  });

  test('wirekit reads what cbor2 writes: datetimes as text (tag 0) and as numbers (tag 1)', () => {
    for (const options of ['', ', datetime_as_timestamp=True', ', canonical=True']) {
      const bytes = runPython(`${header}
sys.stdout.buffer.write(cbor2.dumps(expected${options}))`);
      expect(typed.decode(new Uint8Array(bytes)), options).toEqual(everyKindValue());
    }
  });

  test('bignums and decimals both ways', () => {
    const bytes = runPython(`import sys, cbor2, decimal
sys.stdout.buffer.write(cbor2.dumps([2**64, -2**64 - 1, 2**100, decimal.Decimal('1e-30'), decimal.Decimal('12345678901234567890123.45')]))`);
    const asValues = plain.decode(new Uint8Array(bytes)) as unknown[];
    expect(asValues.slice(0, 3)).toEqual([2n ** 64n, -(2n ** 64n) - 1n, 2n ** 100n]);
    // Without a schema a decimal fraction is a number, as cbor-x maps it.
    expect(asValues.slice(3)).toEqual([1e-30, 1.2345678901234568e22]);
    const decimals = createCborCodec({ schema: t.array(t.decimal()) });
    const decimalBytes = runPython(`import sys, cbor2, decimal
sys.stdout.buffer.write(cbor2.dumps([decimal.Decimal('1e-30'), decimal.Decimal('12345678901234567890123.45'), decimal.Decimal('-7.50')]))`);
    expect(decimals.decode(new Uint8Array(decimalBytes))).toEqual([
      `0.${'0'.repeat(29)}1`,
      '12345678901234567890123.45',
      '-7.50',
    ]);

    const ours = concat([
      plain.encode([2n ** 64n, -(2n ** 64n) - 1n, 2n ** 100n]),
      decimals.encode(['-123456789012345678901234567890.5', '0.001']),
    ]);
    const out = runPython(
      `import sys, cbor2, decimal, io
stream = io.BytesIO(sys.stdin.buffer.read())
ints = cbor2.load(stream)
decs = cbor2.load(stream)
assert ints == [2**64, -2**64 - 1, 2**100], ints
assert decs == [decimal.Decimal('-123456789012345678901234567890.5'), decimal.Decimal('0.001')], decs
assert str(decs[1]) == '0.001'
print('ok')`,
      ours,
    );
    expect(out.toString().trim()).toBe('ok');
  });

  test('bounded decimals at the edges of the short mantissa (15 digits) and of 2^53, both ways', () => {
    const texts = ['0', '0.05', '-0.05', '100', '-1.5', '999999999999.99', '9999999999999.99'];
    texts.push('-9999999999999.99', '-99999999999999.99', '90071992547409.91', '9999999999999999.99');
    for (const compile of [true, false]) {
      const codec = createCborCodec({ schema: t.array(t.decimal({ precision: 18, scale: 2 })), compile });
      const read = runPython(
        `import sys, cbor2, json
print(json.dumps([str(d) for d in cbor2.loads(sys.stdin.buffer.read())]))`,
        codec.encode(texts),
      );
      expect(JSON.parse(read.toString())).toEqual(texts);
      const written = runPython(`import sys, cbor2, decimal
sys.stdout.buffer.write(cbor2.dumps([decimal.Decimal(t) for t in ${JSON.stringify(texts)}]))`);
      expect(codec.decode(new Uint8Array(written))).toEqual(texts);
    }
  });

  test('cbor2 reads a wirekit CBOR sequence value by value', async () => {
    const bytes = await readAll(plain.encodeStream([1, 'two', { three: 3 }]));
    const out = runPython(
      `import sys, cbor2, io
stream = io.BytesIO(sys.stdin.buffer.read())
print([cbor2.load(stream) for _ in range(3)])`,
      bytes,
    );
    expect(out.toString().trim()).toBe("[1, 'two', {'three': 3}]");
  });
});
