/**
 * Interop both ways with independent Avro implementations: Debian's Python avro 1.11 (datums and
 * Object Container Files with every codec, and schema resolution), and avsc.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import avsc from 'avsc';
import { describe, expect, test } from 'vitest';
import {
  containerCodecs,
  createAvroCodec,
  readContainer,
  writeContainer,
} from '../../../src/codecs/avro/index.js';
import { t } from '../../../src/index.js';
import { type AvroSchemaJson, toAvro } from '../../../src/schema/export/avro.js';
import { avroValue } from '../../fixtures/avro-values.js';
import { EveryKind } from '../../fixtures/every-kind.js';
import { chunked, collect } from '../../support/streams.js';
import { has, python, withTempDir } from '../../support/tools.js';

const codec = createAvroCodec({ schema: EveryKind });
const schemaText = JSON.stringify(toAvro(EveryKind));
const hex = (data: Uint8Array) => Buffer.from(data).toString('hex');

/** Variations of the fixture, so a container holds distinct rows. */
const rows = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    ...avroValue(),
    i32: i,
    name: `row ${i} 🚀`,
    tags: ['t'.repeat(i)],
  }));

function runPython(script: string, input = ''): string {
  const result = spawnSync(python, ['-c', script], { input, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`python failed:\n${result.stderr}`);
  return result.stdout;
}

/** Python literal of the fixture's value (u64 at Avro's maximum), row `i` as in `rows`. */
const pythonRows = `
import datetime, decimal
utc = datetime.timezone.utc
def row(i):
    return {
        'flag': True, 'i8': -128, 'i16': 32767, 'i32': i, 'u8': 255, 'u16': 65535,
        'u32': 4294967295, 'i64': -9223372036854775808, 'u64': 9223372036854775807,
        'i64n': 9007199254740991, 'f32': 1.5, 'f64': -0.1,
        'price': decimal.Decimal('-1234567890.12'), 'name': 'row %d \\U0001F680' % i,
        'blob': b'\\x00\\x01\\x02\\xfe\\xff',
        'createdAt': datetime.datetime(2024, 2, 29, 12, 34, 56, 789000, tzinfo=utc),
        'updatedAt': datetime.datetime(1969, 12, 31, 23, 59, 59, 999000, tzinfo=utc),
        'color': 'green', 'home': {'street': '1 Main St', 'zip': '12345'}, 'work': None,
        'tags': ['t' * i], 'matrix': [[1, 2], [], [3]], 'scores': {'math': 9.5, 'art': -1.0},
        'byId': [{'key': 7, 'value': {'street': 'Elm', 'zip': '9'}},
                 {'key': -1, 'value': {'street': '', 'zip': ''}}],
        'nickname': None, 'manager': None, 'shape': {'radius': 2.0},
        'shapes': [{'width': 1.0, 'height': 2.5}, {'radius': 0.0}],
        'extra': '{"any": ["json", 1, null, true, {"nested": "yes"}]}', 'legacy': 'old',
        'category': {'name': 'root', 'children': [{'name': 'leaf', 'children': []}]},
    }
`;

const readDatumScript = `
import io, json, sys
import avro.io, avro.schema
schema_text, data = sys.stdin.read().split('\\n', 1)
schema = avro.schema.parse(schema_text)
buf = io.BytesIO(bytes.fromhex(data.strip()))
datum = avro.io.DatumReader(schema).read(avro.io.BinaryDecoder(buf))
assert buf.read() == b'', 'bytes left over'
out = io.BytesIO()
avro.io.DatumWriter(schema).write(datum, avro.io.BinaryEncoder(out))
print(json.dumps({'again': out.getvalue().hex(), 'datum': datum}, default=lambda v: v.hex() if isinstance(v, bytes) else str(v)))
`;

const writeDatumScript = `${pythonRows}
import io, sys
import avro.io, avro.schema
schema = avro.schema.parse(sys.stdin.read())
out = io.BytesIO()
avro.io.DatumWriter(schema).write(row(3), avro.io.BinaryEncoder(out))
print(out.getvalue().hex())
`;

const readFileScript = `
import io, json, sys
import avro.datafile, avro.io
rows = []
with avro.datafile.DataFileReader(open(sys.argv[1], 'rb'), avro.io.DatumReader()) as reader:
    codec = reader.get_meta('avro.codec').decode()
    schema = reader.datum_reader.writers_schema
    for datum in reader:
        out = io.BytesIO()
        avro.io.DatumWriter(schema).write(datum, avro.io.BinaryEncoder(out))
        rows.append(out.getvalue().hex())
print(json.dumps({'codec': codec, 'rows': rows}))
`;

const writeFileScript = `${pythonRows}
import sys
import avro.datafile, avro.io, avro.schema
schema = avro.schema.parse(open(sys.argv[2]).read())
with avro.datafile.DataFileWriter(open(sys.argv[1], 'wb'), avro.io.DatumWriter(), schema, codec=sys.argv[3]) as writer:
    for i in range(int(sys.argv[4])):
        writer.append(row(i))
`;

describe.skipIf(!has('python:avro'))('avro interop: Python avro 1.11', () => {
  // Python avro offers snappy and zstandard only with python3-snappy and python3-zstandard.
  const pythonCodecs = containerCodecs.filter(
    (name) =>
      (name !== 'snappy' || has('python:snappy')) && (name !== 'zstandard' || has('python:zstandard')),
  );

  test('Python reads a wirekit datum, and writes back the same bytes', () => {
    const bytes = codec.encode(avroValue());
    const { again, datum } = JSON.parse(runPython(readDatumScript, `${schemaText}\n${hex(bytes)}`));
    expect(again).toBe(hex(bytes));
    expect(datum).toMatchObject({
      i64: expect.any(Number),
      price: '-1234567890.12',
      name: 'Zoë 🚀',
      blob: '000102feff',
      createdAt: '2024-02-29 12:34:56.789000+00:00',
      updatedAt: '1969-12-31 23:59:59.999000+00:00',
      color: 'green',
      byId: [
        { key: 7, value: { street: 'Elm', zip: '9' } },
        { key: -1, value: { street: '', zip: '' } },
      ],
      shape: { radius: 2 },
      extra: '{"any":["json",1,null,true,{"nested":"yes"}]}',
      work: null,
      category: { name: 'root', children: [{ name: 'leaf', children: [] }] },
    });
  });

  test('wirekit reads a datum Python wrote', () => {
    const bytes = Buffer.from(runPython(writeDatumScript, schemaText).trim(), 'hex');
    expect(codec.decode(bytes)).toEqual(rows(4)[3]);
  });

  test.each(pythonCodecs)('Python reads a %s container wirekit wrote', async (name) => {
    const values = rows(30);
    const file = await writeContainer(values, { schema: EveryKind, codec: name, blockSize: 1500 });
    const result = withTempDir((dir) => {
      writeFileSync(join(dir, 'rows.avro'), file);
      return JSON.parse(
        runPython(readFileScript.replace('sys.argv[1]', JSON.stringify(join(dir, 'rows.avro')))),
      );
    });
    expect(result.codec).toBe(name);
    expect(result.rows).toEqual(values.map((value) => hex(codec.encode(value))));
  });

  test.each(pythonCodecs)('wirekit reads a %s container Python wrote', async (name) => {
    const bytes = withTempDir((dir) => {
      const schemaFile = join(dir, 'schema.avsc');
      writeFileSync(schemaFile, schemaText);
      const script = writeFileScript.replace('sys.argv[1]', JSON.stringify(join(dir, 'rows.avro')));
      runPython(
        script
          .replace('sys.argv[2]', JSON.stringify(schemaFile))
          .replace('sys.argv[3]', `'${name}'`)
          .replace('int(sys.argv[4])', '25'),
      );
      return new Uint8Array(readFileSync(join(dir, 'rows.avro')));
    });
    const file = await readContainer(bytes, { schema: EveryKind });
    expect(file.codec).toBe(name);
    expect(file.values).toEqual(rows(25));
    expect(await collect(codec.decodeStream(chunked(bytes, [1, 7, 300])))).toEqual(rows(25));
  });

  // Python writes with an old schema; wirekit reads with the current one.
  const oldSchema = {
    type: 'record',
    name: 'Account',
    namespace: 'com.example',
    fields: [
      { name: 'id', type: 'int' },
      { name: 'title', type: 'string' },
      { name: 'balance', type: 'float' },
      { name: 'legacyFlags', type: { type: 'array', items: 'boolean' } },
    ],
  };
  const Account = t.object(
    'Account',
    {
      id: t.int64(),
      name: t.field(t.string(), { aliases: ['title'] }),
      balance: t.float64(),
      currency: t.field(t.string(), { default: 'EUR' }),
      nickname: t.optional(t.string()),
    },
    { namespace: 'com.example' },
  );
  const resolutionScript = `
import io, json, sys
import avro.datafile, avro.io, avro.schema
schema = avro.schema.parse(sys.argv[1])
datums = [{'id': i, 'title': 'acct %d' % i, 'balance': i + 0.5, 'legacyFlags': [True] * i} for i in range(3)]
out = io.BytesIO()
avro.io.DatumWriter(schema).write(datums[2], avro.io.BinaryEncoder(out))
with avro.datafile.DataFileWriter(open(sys.argv[2], 'wb'), avro.io.DatumWriter(), schema, codec='deflate') as w:
    for d in datums:
        w.append(d)
print(out.getvalue().hex())
`;
  const expected = (i: number) => ({ id: BigInt(i), name: `acct ${i}`, balance: i + 0.5, currency: 'EUR' });

  test('Python writes with an old schema; wirekit reads with the new one (alias, default, int→long, float→double)', async () => {
    const { datum, file } = withTempDir((dir) => {
      const path = join(dir, 'old.avro');
      const result = spawnSync(python, ['-c', resolutionScript, JSON.stringify(oldSchema), path], {
        encoding: 'utf8',
      });
      if (result.status !== 0) throw new Error(result.stderr);
      return { datum: Buffer.from(result.stdout.trim(), 'hex'), file: new Uint8Array(readFileSync(path)) };
    });
    const reader = createAvroCodec({ schema: Account, writerSchema: oldSchema as AvroSchemaJson });
    expect(reader.decode(datum)).toEqual(expected(2));
    expect((await readContainer(file, { schema: Account })).values).toEqual([0, 1, 2].map(expected));
    const streamed = await collect(createAvroCodec({ schema: Account }).decodeStream(chunked(file, [5])));
    expect(streamed).toEqual([0, 1, 2].map(expected));
  });
});

/** avsc with longs as bigints, so the fixture's 64-bit extremes survive. */
const bigLong = avsc.types.LongType.__with({
  fromBuffer: (buf: Buffer) => buf.readBigInt64LE(),
  toBuffer: (n: bigint) => {
    const buf = Buffer.alloc(8);
    buf.writeBigInt64LE(BigInt(n));
    return buf;
  },
  fromJSON: BigInt,
  toJSON: Number,
  isValid: (n: unknown) => typeof n === 'bigint',
  compare: (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0),
});

describe('avro interop: avsc', () => {
  const type = avsc.Type.forSchema(toAvro(EveryKind) as avsc.Schema, { registry: { long: bigLong } });

  test('avsc reads a wirekit datum and writes back the same bytes', () => {
    const bytes = codec.encode(avroValue());
    const datum = type.fromBuffer(Buffer.from(bytes));
    expect(hex(type.toBuffer(datum))).toBe(hex(bytes));
    expect(datum).toMatchObject({
      i64: -(2n ** 63n),
      u64: 2n ** 63n - 1n,
      u32: 4_294_967_295n,
      name: 'Zoë 🚀',
      // Timestamps come through avsc's default long type (a logical type there), as numbers.
      createdAt: Date.parse('2024-02-29T12:34:56.789Z'),
      updatedAt: -1000,
      color: 'green',
      shape: { Circle: { radius: 2 } },
    });
  });

  test('wirekit reads a datum avsc wrote', () => {
    const datum = type.fromBuffer(Buffer.from(codec.encode(avroValue())));
    datum.name = 'from avsc';
    datum.tags = ['x', 'y'];
    datum.shape = { Rect: { width: 3, height: 4 } };
    datum.work = { street: 'Work St', zip: '1' };
    datum.price = Buffer.from([0xff, 0x38]);
    expect(codec.decode(type.toBuffer(datum))).toEqual({
      ...avroValue(),
      name: 'from avsc',
      tags: ['x', 'y'],
      shape: { kind: 'rect', width: 3, height: 4 },
      work: { street: 'Work St', zip: '1' },
      price: '-2.00',
    });
  });

  test('decimals at the edges of the Number path (2^53 unscaled) both ways, bytes and fixed', () => {
    // avsc has no decimal logical type of its own: it reads and writes the two's-complement bytes.
    const values = ['0.00', '-0.05', '1.27', '-1.28', '-21474836.49', '90071992547409.91'];
    values.push('-90071992547409.91', '90071992547409.93', '-9999999999999.99', '-9999999999999999.99');
    for (const avro of [undefined, { name: 'Dec', size: 8 }]) {
      const schema = t.object('Row', {
        amount: t.decimal({ precision: 18, scale: 2, ...(avro === undefined ? {} : { avro }) }),
      });
      const wirekit = createAvroCodec({ schema });
      const peer = avsc.Type.forSchema(toAvro(schema) as avsc.Schema);
      for (const amount of values) {
        const bytes = wirekit.encode({ amount });
        const datum = peer.fromBuffer(Buffer.from(bytes)) as { amount: Buffer };
        const unscaled = BigInt(amount.replace('.', ''));
        const width = avro === undefined ? datum.amount.length : 8;
        expect(BigInt.asIntN(8 * width, BigInt(`0x${datum.amount.toString('hex') || '0'}`)), amount).toBe(
          unscaled,
        );
        expect(wirekit.decode(peer.toBuffer(datum)), amount).toEqual({ amount });
      }
    }
  });
});
