/**
 * Every Avro logical type, and fixed, through wirekit's model and back: `toAvro(schemaFromAvro(x))`
 * is `x` as fastavro and Apache Avro's Python package parse it (the parsing canonical form, and the
 * parsed schema, which keeps the logical types the canonical form drops), and the values Python
 * writes for each type are read by wirekit as the numbers, text and bytes Avro stores, which wirekit
 * writes back as the same bytes (test/support/peers/avro_logical.py).
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { createAvroCodec } from '../../../src/codecs/avro/index.js';
import { schemaFromAvro } from '../../../src/codecs/avro/schema-from-avro.js';
import { toAvro } from '../../../src/schema/export/avro.js';
import type { JsonValue } from '../../../src/schema/index.js';
import { has, python, venvPython } from '../../support/tools.js';

const peer = new URL('../../support/peers/avro_logical.py', import.meta.url).pathname;

/**
 * One field per logical type: [name, Avro type, the value as Python writes it (tagged JSON, see
 * the peer; `$int` for integers a double cannot hold), the value wirekit reads, Apache's value where its 1.11 ignores the logical type].
 */
const cases: [string, JsonValue, JsonValue, unknown, JsonValue?][] = [
  ['date', { type: 'int', logicalType: 'date' }, { $date: '2022-01-01' }, 18_993],
  ['time_millis', { type: 'int', logicalType: 'time-millis' }, { $time: '01:02:03.004000' }, 3_723_004],
  ['time_micros', { type: 'long', logicalType: 'time-micros' }, { $time: '01:02:03.000004' }, 3_723_000_004n],
  [
    'timestamp_millis',
    { type: 'long', logicalType: 'timestamp-millis' },
    { $datetime: '2023-11-14T22:13:20.123000+00:00' },
    new Date(1_700_000_000_123),
  ],
  [
    'timestamp_micros',
    { type: 'long', logicalType: 'timestamp-micros' },
    { $datetime: '2023-11-14T22:13:20.123000+00:00' },
    new Date(1_700_000_000_123),
  ],
  [
    'timestamp_nanos',
    { type: 'long', logicalType: 'timestamp-nanos' },
    { $int: '1700000000123000000' },
    new Date(1_700_000_000_123),
  ],
  [
    'local_timestamp_millis',
    { type: 'long', logicalType: 'local-timestamp-millis' },
    { $naive: '2023-11-14T22:13:20.123000' },
    1_700_000_000_123n,
    1_700_000_000_123,
  ],
  [
    'local_timestamp_micros',
    { type: 'long', logicalType: 'local-timestamp-micros' },
    { $naive: '2023-11-14T22:13:20.123456' },
    1_700_000_000_123_456n,
    1_700_000_000_123_456,
  ],
  [
    'local_timestamp_nanos',
    { type: 'long', logicalType: 'local-timestamp-nanos' },
    { $int: '1700000000123456789' },
    1_700_000_000_123_456_789n,
  ],
  [
    'uuid',
    { type: 'string', logicalType: 'uuid' },
    { $uuid: '0e3c5a5e-1b7e-4b43-9f0c-0c4ef0d1d0a4' },
    '0e3c5a5e-1b7e-4b43-9f0c-0c4ef0d1d0a4',
    '0e3c5a5e-1b7e-4b43-9f0c-0c4ef0d1d0a4',
  ],
  [
    'uuid_fixed',
    { type: 'fixed', name: 'Uuid', namespace: 'ids', size: 16, logicalType: 'uuid' },
    { $bytes: '0e3c5a5e1b7e4b439f0c0c4ef0d1d0a4' },
    Uint8Array.from(Buffer.from('0e3c5a5e1b7e4b439f0c0c4ef0d1d0a4', 'hex')),
  ],
  [
    'duration',
    { type: 'fixed', name: 'Duration', aliases: ['Span'], size: 12, logicalType: 'duration' },
    { $bytes: '010000000200000003000000' },
    Uint8Array.from([1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0]),
  ],
  [
    'decimal_bytes',
    { type: 'bytes', logicalType: 'decimal', precision: 6, scale: 2 },
    { $decimal: '-12.34' },
    '-12.34',
  ],
  [
    'decimal_fixed',
    { type: 'fixed', name: 'Money', size: 8, logicalType: 'decimal', precision: 12, scale: 4 },
    { $decimal: '-1234.5678' },
    '-1234.5678',
  ],
  // Decimals at the edges of wirekit's Number path (2^53 unscaled) and past it, both ways.
  [
    'decimal_safe_max',
    { type: 'bytes', logicalType: 'decimal', precision: 18, scale: 2 },
    { $decimal: '90071992547409.91' },
    '90071992547409.91',
  ],
  [
    'decimal_past_safe',
    { type: 'bytes', logicalType: 'decimal', precision: 18, scale: 2 },
    { $decimal: '-90071992547409.93' },
    '-90071992547409.93',
  ],
  [
    'decimal_seven_bytes',
    { type: 'bytes', logicalType: 'decimal', precision: 16, scale: 2 },
    { $decimal: '-9999999999999.99' },
    '-9999999999999.99',
  ],
  [
    'decimal_max_precision',
    { type: 'bytes', logicalType: 'decimal', precision: 18, scale: 2 },
    { $decimal: '-9999999999999999.99' },
    '-9999999999999999.99',
  ],
  [
    'decimal_scale_zero',
    { type: 'bytes', logicalType: 'decimal', precision: 10, scale: 0 },
    { $decimal: '-2147483649' },
    '-2147483649',
  ],
  [
    'decimal_zero',
    { type: 'bytes', logicalType: 'decimal', precision: 6, scale: 3 },
    { $decimal: '0.000' },
    '0.000',
  ],
  [
    'decimal_fixed_seven',
    { type: 'fixed', name: 'Cents', size: 7, logicalType: 'decimal', precision: 16, scale: 2 },
    { $decimal: '-0.05' },
    '-0.05',
  ],
  [
    'decimal_fixed_wide',
    { type: 'fixed', name: 'Wide', size: 16, logicalType: 'decimal', precision: 38, scale: 9 },
    { $decimal: '-12345678901234567890123456789.123456789' },
    '-12345678901234567890123456789.123456789',
  ],
  [
    'fixed',
    { type: 'fixed', name: 'Md5', size: 16 },
    { $bytes: 'ff'.repeat(16) },
    new Uint8Array(16).fill(255),
  ],
];

const recordOf = (fields: [string, JsonValue][]): JsonValue => ({
  type: 'record',
  name: 'Logical',
  namespace: 'peer.test',
  fields: fields.map(([name, type]) => ({ name, type })),
});

const every = recordOf(cases.map(([name, type]) => [name, type]));
const pythonValue = Object.fromEntries(cases.map(([name, , value]) => [name, value]));
const apacheValue = Object.fromEntries(cases.map(([name, , value, , apache]) => [name, apache ?? value]));
const wirekitValue = Object.fromEntries(cases.map(([name, , , value]) => [name, value]));

function run<T>(interpreter: string, mode: string, lib: string, request: object): T {
  const result = spawnSync(interpreter, [peer, mode, lib], {
    input: JSON.stringify(request),
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout) as T;
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

test.each(cases)('%s: toAvro of the imported schema is the schema it came from', (name, type) => {
  const avsc = recordOf([[name, type]]);
  expect(toAvro(schemaFromAvro(avsc))).toEqual(avsc);
});

test('a record of every logical type comes back as it was', () => {
  expect(toAvro(schemaFromAvro(every))).toEqual(every);
});

const peers = [
  ['fastavro', venvPython, has('venv:fastavro')],
  ['avro', python, has('python:avro')],
] as const;

for (const [lib, interpreter, present] of peers) {
  describe.skipIf(!present)(`${lib}: logical types and fixed`, () => {
    test(`${lib} parses each exported schema as the original`, () => {
      const schemas = [...cases.map(([name, type]) => recordOf([[name, type]])), every];
      const pairs = schemas.map((avsc) => [avsc, toAvro(schemaFromAvro(avsc))]);
      const described = run<[unknown, unknown][]>(interpreter, 'schemas', lib, { pairs });
      for (const [original, exported] of described) expect(exported).toEqual(original);
    });

    test.each([true, false])(
      `wirekit reads what ${lib} writes, and writes the same bytes (compile: %s)`,
      (compile) => {
        const codec = createAvroCodec({ schema: schemaFromAvro(every), compile });
        const value = lib === 'avro' ? apacheValue : pythonValue;
        const { datums } = run<{ datums: string[] }>(interpreter, 'write', lib, {
          schema: every,
          values: [value],
        });
        const datum = Uint8Array.from(Buffer.from(datums[0] as string, 'hex'));
        expect(codec.decode(datum)).toEqual(wirekitValue);
        expect(hex(codec.encode(wirekitValue))).toEqual(datums[0]);
      },
    );

    test(`${lib} reads wirekit's bytes as the values it would write`, () => {
      const codec = createAvroCodec({ schema: schemaFromAvro(every) });
      const read = run<{ equal: boolean[]; read: string[] }>(interpreter, 'read', lib, {
        schema: every,
        datums: [hex(codec.encode(wirekitValue))],
        values: [lib === 'avro' ? apacheValue : pythonValue],
      });
      expect(read.equal, read.read.join('\n')).toEqual([true]);
    });
  });
}

describe.skipIf(!has('venv:fastavro'))('sub-millisecond digits (docs/mapping/avro.md)', () => {
  const avsc = recordOf([
    ['micros', { type: 'long', logicalType: 'timestamp-micros' }],
    ['nanos', { type: 'long', logicalType: 'timestamp-nanos' }],
  ]);
  const written = [
    { micros: { $int: '1700000000123456' }, nanos: { $int: '1700000000123456789' } },
    { micros: -1, nanos: -1 },
  ];

  test('a Date keeps the millisecond, rounded toward the past, and writes zeros below it', () => {
    const codec = createAvroCodec({ schema: schemaFromAvro(avsc) });
    const { datums } = run<{ datums: string[] }>(venvPython, 'write', 'fastavro', {
      schema: avsc,
      values: written,
    });
    const read = datums.map((datum) => codec.decode(Uint8Array.from(Buffer.from(datum, 'hex'))));
    expect(read).toEqual([
      { micros: new Date(1_700_000_000_123), nanos: new Date(1_700_000_000_123) },
      { micros: new Date(-1), nanos: new Date(-1) },
    ]);
    const back = run<{ equal: boolean[] }>(venvPython, 'read', 'fastavro', {
      schema: avsc,
      datums: read.map((value) => hex(codec.encode(value))),
      // fastavro reads a timestamp-micros as a datetime, a timestamp-nanos as its count.
      values: [
        { micros: { $datetime: '2023-11-14T22:13:20.123000+00:00' }, nanos: { $int: '1700000000123000000' } },
        { micros: { $datetime: '1969-12-31T23:59:59.999000+00:00' }, nanos: -1_000_000 },
      ],
    });
    expect(back.equal).toEqual([true, true]);
  });

  test('read as int64, the writer’s count keeps every digit', () => {
    const asCounts = createAvroCodec({
      schema: schemaFromAvro(
        recordOf([
          ['micros', 'long'],
          ['nanos', 'long'],
        ]),
      ),
      writerSchema: JSON.stringify(avsc),
    });
    const { datums } = run<{ datums: string[] }>(venvPython, 'write', 'fastavro', {
      schema: avsc,
      values: written,
    });
    expect(asCounts.decode(Uint8Array.from(Buffer.from(datums[0] as string, 'hex')))).toEqual({
      micros: 1_700_000_000_123_456n,
      nanos: 1_700_000_000_123_456_789n,
    });
  });
});
