/**
 * Schema resolution: data written with one Avro schema (here by avsc, an independent writer) read
 * into a wirekit schema of another shape.
 */
import avsc from 'avsc';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createAvroCodec } from '../../../src/codecs/avro/index.js';
import { type Schema, t } from '../../../src/index.js';
import type { AvroSchemaJson } from '../../../src/schema/export/avro.js';
import { toAvro } from '../../../src/schema/export/avro.js';
import { Category, Circle, Rect, Shape } from '../../fixtures/every-kind.js';
import { codeOf } from '../../support/code-of.js';

/** Bytes that avsc writes for `value` under `schema`. */
const written = (schema: AvroSchemaJson, value: unknown) =>
  new Uint8Array(avsc.Type.forSchema(schema as avsc.Schema, { wrapUnions: false }).toBuffer(value));

const reader = <T = unknown>(schema: Schema, writerSchema: AvroSchemaJson | string) =>
  createAvroCodec<T>({ schema, writerSchema });

const Old: AvroSchemaJson = {
  type: 'record',
  name: 'User',
  namespace: 'com.old',
  fields: [
    { name: 'id', type: 'int' },
    { name: 'title', type: 'string' },
    { name: 'score', type: 'float' },
    { name: 'count', type: 'long' },
    {
      name: 'obsolete',
      type: {
        type: 'array',
        items: { type: 'map', values: ['null', 'string', { type: 'fixed', name: 'F', size: 3 }] },
      },
    },
    { name: 'kind', type: { type: 'enum', name: 'Kind', symbols: ['B', 'A', 'Z'] } },
    { name: 'raw', type: 'string' },
    { name: 'text', type: 'bytes' },
    { name: 'when', type: { type: 'long', logicalType: 'timestamp-micros' } },
    { name: 'amount', type: { type: 'bytes', logicalType: 'decimal', precision: 10, scale: 2 } },
    { name: 'maybe', type: 'int' },
    { name: 'either', type: ['null', 'int'] },
    {
      name: 'home',
      type: { type: 'record', name: 'OldAddress', fields: [{ name: 'street', type: 'string' }] },
    },
    {
      name: 'ids',
      type: {
        type: 'array',
        items: {
          type: 'record',
          name: 'Pair',
          fields: [
            { name: 'value', type: 'string' },
            { name: 'extra', type: 'double' },
            { name: 'key', type: 'int' },
          ],
        },
      },
    },
  ],
};

const oldValue = {
  id: 7,
  title: 'Ada',
  score: 1.5,
  count: 2 ** 40,
  obsolete: [{ a: null, b: 'x', c: Buffer.from('abc') }, {}],
  kind: 'A',
  raw: 'héllo',
  text: Buffer.from('wörld'),
  when: 1_700_000_000_123_456,
  amount: Buffer.from([0x30, 0x39]),
  maybe: -3,
  either: null,
  home: { street: 'Elm' },
  ids: [{ value: 'one', extra: 0.5, key: 1 }],
};

const Kind = t.enum('Kind', ['A', 'B', 'C']);
const Address = t.object(
  'Address',
  { street: t.string(), zip: t.field(t.string(), { default: '00000' }) },
  { aliases: ['OldAddress'] },
);
const User = t.object(
  'User',
  {
    id: t.int64(),
    name: t.field(t.string(), { aliases: ['title'] }),
    score: t.float64(),
    count: t.float64(),
    kind: Kind,
    raw: t.bytes(),
    text: t.string(),
    when: t.timestamp({ precision: 'ms' }),
    amount: t.decimal({ precision: 12, scale: 2 }),
    maybe: t.optional(t.int64()),
    either: t.nullable(t.int64({ as: 'number' })),
    home: Address,
    ids: t.map(t.uint8(), t.string()),
    email: t.field(t.string(), { default: 'none@example.com' }),
    tags: t.field(t.array(t.string()), { default: ['new'] }),
    version: t.literal('v2'),
    note: t.optional(t.string()),
  },
  { namespace: 'com.example' },
);

const expected = {
  id: 7n,
  name: 'Ada',
  score: 1.5,
  count: 2 ** 40,
  kind: 'A',
  raw: new TextEncoder().encode('héllo'),
  text: 'wörld',
  when: new Date(1_700_000_000_123),
  amount: '123.45',
  maybe: -3n,
  either: null,
  home: { street: 'Elm', zip: '00000' },
  ids: new Map([[1, 'one']]),
  email: 'none@example.com',
  tags: ['new'],
  version: 'v2',
};

describe('avro: schema resolution', () => {
  const c = reader(User, Old);
  const bytes = written(Old, oldValue);

  test('renamed, added, removed, promoted and reordered fields all resolve', () => {
    expect(c.decode(bytes)).toEqual(expected);
  });

  test('the writer schema may be given as JSON text', () => {
    expect(reader(User, JSON.stringify(Old)).decode(bytes)).toEqual(expected);
  });

  test('mutated bytes under resolution (skips, promotions, fills) only give values or wirekit errors', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 5 }),
        (edits) => {
          const mutated = bytes.slice();
          for (const [position, value] of edits) mutated[position % mutated.length] = value;
          codeOf(() => c.decode(mutated));
        },
      ),
      { numRuns: 1000 },
    );
  });

  test('defaults are copied per value, never shared', () => {
    const first = c.decode(bytes) as { tags: string[] };
    first.tags.push('mutated');
    expect((c.decode(bytes) as { tags: string[] }).tags).toEqual(['new']);
  });

  test('an enum symbol the reader lacks fails only when data holds it', () => {
    expect(codeOf(() => c.decode(written(Old, { ...oldValue, kind: 'Z' })))).toBe(
      'WK_DECODE_SCHEMA_MISMATCH',
    );
    expect((c.decode(written(Old, { ...oldValue, kind: 'B' })) as { kind: string }).kind).toBe('B');
  });

  test('reader fields the writer lacks need a default (or to be optional or a literal)', () => {
    const Strict = t.object('User', { id: t.int64(), missing: t.string() });
    expect(codeOf(() => reader(Strict, Old))).toBe('WK_DECODE_SCHEMA_MISMATCH');
  });

  test('types that do not promote are refused when the codec is made', () => {
    const writer: AvroSchemaJson = { type: 'record', name: 'R', fields: [{ name: 'n', type: 'long' }] };
    expect(codeOf(() => reader(t.object('R', { n: t.int32() }), writer))).toBe('WK_DECODE_SCHEMA_MISMATCH');
    expect(codeOf(() => reader(t.object('R', { n: t.string() }), writer))).toBe('WK_DECODE_SCHEMA_MISMATCH');
    expect(codeOf(() => reader(t.object('Other', { n: t.int64() }), writer))).toBe(
      'WK_DECODE_SCHEMA_MISMATCH',
    );
  });

  test('a writer union resolves branch by branch; a branch the reader cannot take fails when met', () => {
    const writer: AvroSchemaJson = {
      type: 'record',
      name: 'R',
      fields: [{ name: 'v', type: ['null', 'string', 'int'] }],
    };
    const r = reader(t.object('R', { v: t.nullable(t.string()) }), writer);
    expect(r.decode(written(writer, { v: 'x' }))).toEqual({ v: 'x' });
    expect(r.decode(written(writer, { v: null }))).toEqual({ v: null });
    expect(codeOf(() => r.decode(written(writer, { v: 5 })))).toBe('WK_DECODE_SCHEMA_MISMATCH');
    const plain = reader(t.object('R', { v: t.string() }), writer);
    expect(plain.decode(written(writer, { v: 'y' }))).toEqual({ v: 'y' });
    expect(codeOf(() => plain.decode(written(writer, { v: null })))).toBe('WK_DECODE_SCHEMA_MISMATCH');
  });

  test('a non-union writer reads into a nullable or optional reader, and records into a tagged union', () => {
    const writer: AvroSchemaJson = {
      type: 'record',
      name: 'R',
      fields: [
        { name: 'a', type: 'string' },
        { name: 's', type: toAvro(Rect) as AvroSchemaJson },
      ],
    };
    const Reader = t.object('R', { a: t.optional(t.nullable(t.string())), s: Shape });
    expect(reader(Reader, writer).decode(written(writer, { a: 'x', s: { width: 1, height: 2 } }))).toEqual({
      a: 'x',
      s: { kind: 'rect', width: 1, height: 2 },
    });
  });

  test('union variants match by name, whatever their order', () => {
    const Swapped = t.union('Shape', 'kind', [Rect, Circle]);
    const writer = toAvro(Shape);
    const r = reader(Swapped, writer);
    expect(r.decode(createAvroCodec({ schema: Shape }).encode({ kind: 'circle', radius: 3 }))).toEqual({
      kind: 'circle',
      radius: 3,
    });
  });

  test('recursive types resolve, with fields added on the reader side', () => {
    interface Node {
      name: string;
      children: Node[];
      weight: number;
    }
    const Node: Schema = t.object('Category', {
      name: t.string(),
      children: t.array(t.lazy(() => Node as never)),
      weight: t.field(t.float64(), { default: 1 }),
    });
    const value = { name: 'root', children: [{ name: 'leaf', children: [] }] };
    const decoded = reader<Node>(Node, toAvro(Category)).decode(
      createAvroCodec({ schema: Category }).encode(value),
    );
    expect(decoded).toEqual({
      name: 'root',
      children: [{ name: 'leaf', children: [], weight: 1 }],
      weight: 1,
    });
  });

  test('a bare (non-record) writer schema reads into a scalar root', () => {
    expect(reader(t.int64(), '"int"').decode(written('int', -2))).toBe(-2n);
    expect(codeOf(() => reader(t.float64(), { type: 'array', items: 'long' }))).toBe(
      'WK_DECODE_SCHEMA_MISMATCH',
    );
    expect(
      reader(t.array(t.float64()), { type: 'array', items: 'long' }).decode(
        written({ type: 'array', items: 'long' }, [1, 2]),
      ),
    ).toEqual([1, 2]);
  });

  test('writer-only fields of every type are skipped, blocks with byte sizes too', () => {
    const writer: AvroSchemaJson = {
      type: 'record',
      name: 'R',
      fields: [
        { name: 'a', type: { type: 'map', values: { type: 'array', items: ['null', 'double', 'bytes'] } } },
        { name: 'b', type: { type: 'fixed', name: 'Sixteen', size: 16 } },
        { name: 'c', type: ['boolean', { type: 'enum', name: 'E', symbols: ['x'] }] },
        { name: 'keep', type: 'string' },
      ],
    };
    const value = { a: { k: [null, 1.5, Buffer.from('z')] }, b: Buffer.alloc(16, 1), c: 'x', keep: 'yes' };
    const r = reader(t.object('R', { keep: t.string() }), writer);
    expect(r.decode(written(writer, value))).toEqual({ keep: 'yes' });
    // A block with a negative count carries its byte size, and is stepped over whole.
    const sized: AvroSchemaJson = {
      type: 'record',
      name: 'R',
      fields: [
        { name: 'a', type: { type: 'array', items: 'long' } },
        { name: 'keep', type: 'string' },
      ],
    };
    const bytes = Uint8Array.of(0x03, 0x04, 0x02, 0x04, 0x00, 0x06, 0x79, 0x65, 0x73);
    expect(reader(t.object('R', { keep: t.string() }), sized).decode(bytes)).toEqual({ keep: 'yes' });
  });

  test('decimals from fixed types and padded bytes; oversized ones fail cheaply', () => {
    const writer: AvroSchemaJson = {
      type: 'record',
      name: 'D',
      fields: [
        {
          name: 'f',
          type: { type: 'fixed', name: 'Money', size: 8, logicalType: 'decimal', precision: 10, scale: 2 },
        },
        { name: 'b', type: { type: 'bytes', logicalType: 'decimal', precision: 10, scale: 2 } },
        { name: 'raw', type: { type: 'fixed', name: 'Raw', size: 2 } },
      ],
    };
    const Reader = t.object('D', {
      f: t.decimal({ precision: 12, scale: 2 }),
      b: t.decimal(),
      raw: t.bytes(),
    });
    const value = {
      f: Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x6a]),
      b: Buffer.from([0x00, 0x00, 0x30, 0x39]),
      raw: Buffer.from([1, 2]),
    };
    expect(reader(Reader, writer).decode(written(writer, value))).toEqual({
      f: '-1.50',
      b: '123.45',
      raw: Uint8Array.of(1, 2),
    });
    const wide: AvroSchemaJson = { type: 'bytes', logicalType: 'decimal', precision: 100_000, scale: 0 };
    const huge = written(wide, Buffer.alloc(5000, 0x7f));
    expect(codeOf(() => reader(t.decimal(), wide).decode(huge))).toBe('WK_DECODE_SCHEMA_MISMATCH');
    expect(codeOf(() => reader(t.decimal({ precision: 10, scale: 1 }), writer))).toBe(
      'WK_DECODE_SCHEMA_MISMATCH',
    );
  });

  test('an invalid writer schema is refused', () => {
    expect(codeOf(() => reader(User, '{"type":"record"}'))).toBe('WK_SCHEMA_INVALID');
    expect(codeOf(() => reader(User, '[["int"]]'))).toBe('WK_SCHEMA_INVALID');
    expect(codeOf(() => reader(User, 'not json'))).toBe('WK_SCHEMA_INVALID');
    expect(codeOf(() => reader(User, '"Nowhere"'))).toBe('WK_SCHEMA_INVALID');
  });
});

describe('a field renamed after the reader was written', () => {
  // The writer renamed `customer` to `buyer` and says so in an alias; a reader of the old name
  // still finds it (a reader alias would need the reader to know the new name in advance).
  const Renamed: AvroSchemaJson = {
    type: 'record',
    name: 'Order',
    fields: [
      { name: 'id', type: 'string' },
      { name: 'buyer', type: 'string', aliases: ['customer'] },
    ],
  };
  const OldReader = t.object('Order', { id: t.string(), customer: t.string() });

  test('is read through the writer alias', () => {
    const bytes = written(Renamed, { id: 'o1', buyer: 'Ada' });
    expect(reader(OldReader, Renamed).decode(bytes)).toEqual({ id: 'o1', customer: 'Ada' });
  });

  test('a field of the reader that the writer has under its own name wins over an alias', () => {
    const Both: AvroSchemaJson = {
      type: 'record',
      name: 'Order',
      fields: [
        { name: 'buyer', type: 'string', aliases: ['customer'] },
        { name: 'customer', type: 'string' },
      ],
    };
    const bytes = written(Both, { customer: 'by name', buyer: 'by alias' });
    expect(reader(t.object('Order', { customer: t.string() }), Both).decode(bytes)).toEqual({
      customer: 'by name',
    });
  });
});

describe('writer references', () => {
  // A registry's writer schema may name a type another schema defines (Confluent's references).
  const Point: AvroSchemaJson = {
    type: 'record',
    name: 'Point',
    namespace: 'geo',
    fields: [
      { name: 'x', type: 'int' },
      { name: 'y', type: 'int' },
    ],
  };
  const Segment: AvroSchemaJson = {
    type: 'record',
    name: 'Segment',
    namespace: 'geo',
    fields: [
      { name: 'from', type: 'geo.Point' },
      { name: 'to', type: 'Point' },
    ],
  };
  const P = t.object('Point', { x: t.int32(), y: t.int32() }, { namespace: 'geo' });
  const S = t.object('Segment', { from: P, to: P }, { namespace: 'geo' });

  test('a writer schema naming types of its references reads with them, and not without', () => {
    const selfContained = toAvro(S);
    const bytes = written(selfContained, { from: { x: 1, y: 2 }, to: { x: -3, y: 4 } });
    const codec = createAvroCodec({ schema: S, writerSchema: Segment, writerReferences: [Point] });
    expect(codec.decode(bytes)).toEqual({ from: { x: 1, y: 2 }, to: { x: -3, y: 4 } });
    expect(codeOf(() => createAvroCodec({ schema: S, writerSchema: Segment }))).toBe('WK_SCHEMA_INVALID');
  });
});
