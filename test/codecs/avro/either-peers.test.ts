/**
 * Avro unions of primitives, of a record with primitives, and nullable ones, across wirekit and
 * Python's two Avro implementations: fastavro (PyPI) and Apache Avro's own package (Debian's
 * python3-avro). The schema is imported from the .avsc (schemaFromAvro), so the unions are
 * t.either; single datums are the same bytes from wirekit and fastavro (Apache's package picks
 * other branches: see asApacheWrites), and datums and container files written by each are read by
 * the others (test/support/peers/avro_unions.py).
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { createAvroCodec, readContainer, writeContainer } from '../../../src/codecs/avro/index.js';
import { schemaFromAvro } from '../../../src/codecs/avro/schema-from-avro.js';
import { type JsonValue, schemaToJson } from '../../../src/schema/index.js';
import { has, python, venvPython } from '../../support/tools.js';

const peer = new URL('../../support/peers/avro_unions.py', import.meta.url).pathname;

const avsc = {
  type: 'record',
  name: 'Event',
  namespace: 'peer.test',
  fields: [
    { name: 'id', type: ['string', 'long'] },
    { name: 'note', type: ['null', 'string', 'long'], default: null },
    { name: 'reading', type: ['int', 'double'] },
    { name: 'flag', type: ['boolean', 'double', { type: 'array', items: 'string' }] },
    {
      name: 'shape',
      type: [
        'null',
        'string',
        {
          type: 'record',
          name: 'Point',
          fields: [
            { name: 'x', type: 'double' },
            { name: 'y', type: 'double' },
          ],
        },
      ],
    },
    { name: 'items', type: { type: 'array', items: ['string', 'int'] } },
    { name: 'meta', type: { type: 'map', values: ['null', 'boolean', 'long'] } },
  ],
};

const values = [
  { id: 'a', note: null, reading: 3, flag: true, shape: null, items: ['x', 1], meta: { k: null } },
  {
    id: 42,
    note: 'n',
    reading: 2.5,
    flag: 1.5,
    shape: { x: 1, y: -2 },
    items: [],
    meta: { a: true, b: 7 },
  },
  {
    id: Number.MAX_SAFE_INTEGER,
    note: -5,
    reading: -2_147_483_648,
    flag: ['p', 'q'],
    shape: 's',
    items: [7, 'y'],
    meta: {},
  },
];

const schema = schemaFromAvro(avsc as JsonValue);

/**
 * Apache Avro's Python package (1.11) writes a value in the *last* union branch that accepts it,
 * and Python's True is an int: true goes to "double" in flag and to "long" in meta, so those read
 * back as 1 (their writer changed the value; 3 in ["int", "double"] goes to "double" too, and reads
 * back as the same number). fastavro takes the first branch that fits, as wirekit does.
 */
const asApacheWrites = [{ ...values[0], flag: 1 }, { ...values[1], meta: { a: 1, b: 7 } }, values[2]];

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const bytesOf = (text: string) => new Uint8Array(Buffer.from(text, 'hex'));

interface Written {
  readonly datums: string[];
  readonly container: string;
}

function run<T>(lib: string, mode: 'write' | 'read', request: object): T {
  const interpreter = lib === 'fastavro' ? venvPython : python;
  const result = spawnSync(interpreter, [peer, mode, lib], {
    input: JSON.stringify({ schema: avsc, ...request }),
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout) as T;
}

test('the imported schema holds the unions as t.either, nullable where "null" is a branch', () => {
  const fields = (schemaToJson(schema).root as { fields: { name: string; schema: unknown }[] }).fields;
  expect(fields.map((field) => field.schema)).toMatchObject([
    { kind: 'either', branches: [{ kind: 'string' }, { kind: 'int64', as: 'number' }] },
    { kind: 'nullable', inner: { kind: 'either' } },
    { kind: 'either', branches: [{ kind: 'int32' }, { kind: 'float64' }] },
    { kind: 'either', branches: [{ kind: 'bool' }, { kind: 'float64' }, { kind: 'array' }] },
    { kind: 'nullable', inner: { kind: 'either', branches: [{ kind: 'string' }, { kind: 'object' }] } },
    { kind: 'array', items: { kind: 'either' } },
    { kind: 'map', values: { kind: 'nullable', inner: { kind: 'either' } } },
  ]);
});

const peers = [
  ['fastavro', has('venv:fastavro')],
  ['avro', has('python:avro')],
] as const;

for (const [lib, present] of peers) {
  describe.skipIf(!present)(`${lib} and wirekit, unions both ways`, () => {
    const theirValues = lib === 'avro' ? asApacheWrites : values;

    test.each([true, false])(`wirekit reads ${lib}'s single datums (compile: %s)`, (compile) => {
      const codec = createAvroCodec({ schema, compile });
      const theirs = run<Written>(lib, 'write', { values });
      expect(theirs.datums.map((datum) => codec.decode(bytesOf(datum)))).toEqual(theirValues);
      // Both take the first branch that fits: the same bytes.
      if (lib === 'fastavro') expect(values.map((value) => hex(codec.encode(value)))).toEqual(theirs.datums);
    });

    test(`${lib} reads wirekit's datums and container file`, async () => {
      const codec = createAvroCodec({ schema });
      const container = await writeContainer(values, { schema, codec: 'deflate' });
      const read = run<{ datums: unknown[]; container: unknown[] }>(lib, 'read', {
        datums: values.map((value) => hex(codec.encode(value))),
        container: hex(container),
      });
      expect(read.datums).toEqual(values);
      expect(read.container).toEqual(values);
    });

    test(`wirekit reads ${lib}'s container file, by the schema it embeds`, async () => {
      const theirs = run<Written>(lib, 'write', { values });
      const { values: read } = await readContainer(bytesOf(theirs.container), { schema });
      expect(read).toEqual(theirValues);
    });

    test('a whole number written in the double branch reads as that number, which is the int branch on the way back', () => {
      const codec = createAvroCodec({ schema });
      const [datum] = run<Written>(lib, 'write', {
        values: [{ ...values[0], reading: { $float: 4 } }],
      }).datums;
      const read = codec.decode(bytesOf(datum as string)) as { reading: unknown };
      expect(read.reading).toBe(4);
      // Branch 1 (double) on their side; wirekit's rule puts the integer 4 in branch 0 (int).
      expect((datum as string).slice(8, 10)).toBe('02');
      expect(hex(codec.encode(read)).slice(8, 10)).toBe('00');
    });
  });
}
