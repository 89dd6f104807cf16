/**
 * What lies under a null entry is no value. Arrow keeps a struct's child slots under its null
 * entries and lets a null list or map entry span child entries; a writer may leave anything there
 * (wirekit writes placeholders, others leave what they had). The reader neither checks those slots
 * against the schema's constraints nor refuses them: only present values are held to the schema,
 * as `validate` holds them. The bytes here come from apache-arrow's own IPC writer, with leftovers
 * that each constraint of the reader's schema refuses. A codec without a schema reads through the
 * same column reader, so the same holds there: a leftover that is no valid value of its column
 * (text that is not JSON in a column marked as JSON) is not read.
 */
import {
  Schema as ArrowSchema,
  type Data,
  type DataType,
  Field,
  Int32,
  List,
  Map_,
  makeData,
  RecordBatch,
  Struct,
  Table,
  tableToIPC,
  Utf8,
} from 'apache-arrow';
import { describe, expect, test } from 'vitest';
import { createArrowCodec } from '../../../src/codecs/arrow/index.js';
import { type Schema, t } from '../../../src/index.js';

function utf8(texts: readonly string[]): Data<Utf8> {
  const encoded = texts.map((text) => new TextEncoder().encode(text));
  const offsets = new Int32Array(texts.length + 1);
  encoded.forEach((bytes, i) => {
    offsets[i + 1] = (offsets[i] as number) + bytes.length;
  });
  const data = new Uint8Array(offsets[texts.length] as number);
  for (const [i, bytes] of encoded.entries()) data.set(bytes, offsets[i]);
  return makeData({ type: new Utf8(), length: texts.length, valueOffsets: offsets, data });
}

/** The IPC stream of one batch of two rows of the column `v`. */
function streamOf(column: Data): Uint8Array {
  const schema = new ArrowSchema([new Field('v', column.type as DataType, true)]);
  const rows = makeData({ type: new Struct(schema.fields), length: 2, nullCount: 0, children: [column] });
  return tableToIPC(new Table([new RecordBatch(schema, rows)]), 'stream');
}

/** Validity of two entries: the first null, the second present; or both present. */
type Validity = { nullCount: number; nullBitmap?: Uint8Array };
const firstNull: Validity = { nullCount: 1, nullBitmap: Uint8Array.of(0b10) };
const bothPresent: Validity = { nullCount: 0 };

/** A constrained string: 'X' breaks both its constraints. */
const word = t.string({ minLength: 2, pattern: '^[a-z]+$' });

const cases: { label: string; reader: Schema; column: (validity: Validity) => Data; present: unknown }[] = [
  {
    label: 'the children of a null struct entry',
    reader: t.nullable(t.object('Held', { s: word, list: t.array(t.int32(), { minItems: 1 }) })),
    column: (validity) => {
      // Under the null entry: the string 'X' and an empty list.
      const ints = makeData({ type: new Int32(), length: 1, data: Int32Array.of(7) });
      const listType = new List(new Field('item', new Int32(), false));
      const list = makeData({
        type: listType,
        length: 2,
        nullCount: 0,
        valueOffsets: Int32Array.of(0, 0, 1),
        child: ints,
      });
      const type = new Struct([new Field('s', new Utf8(), false), new Field('list', listType, false)]);
      return makeData({ type, length: 2, ...validity, children: [utf8(['X', 'ab']), list] });
    },
    present: { s: 'ab', list: [7] },
  },
  {
    label: 'the items a null list entry spans',
    reader: t.nullable(t.array(word, { minItems: 2 })),
    column: (validity) => {
      // The null entry spans one item, 'X': too few items, and an item each constraint refuses.
      const type = new List(new Field('item', new Utf8(), false));
      return makeData({
        type,
        length: 2,
        ...validity,
        valueOffsets: Int32Array.of(0, 1, 3),
        child: utf8(['X', 'ab', 'cd']),
      });
    },
    present: ['ab', 'cd'],
  },
  {
    label: 'the entries a null map entry spans',
    reader: t.nullable(t.map(word, word)),
    column: (validity) => {
      const entriesType = new Struct([
        new Field('key', new Utf8(), false),
        new Field('value', new Utf8(), false),
      ]);
      const entries = makeData({
        type: entriesType,
        length: 2,
        nullCount: 0,
        children: [utf8(['X', 'ab']), utf8(['Y', 'cd'])],
      });
      const type = new Map_(new Field('entries', entriesType, false));
      return makeData({
        type,
        length: 2,
        ...validity,
        valueOffsets: Int32Array.of(0, 1, 2),
        child: entries,
      });
    },
    present: { ab: 'cd' },
  },
];

describe('arrow: what lies under a null entry is not read as a value', () => {
  for (const c of cases) {
    for (const compile of [true, false]) {
      test(`${c.label}${compile ? '' : ' (interpreted)'}`, () => {
        const codec = createArrowCodec({ schema: t.object('Row', { v: c.reader }), compile });
        expect(codec.decode(streamOf(c.column(firstNull)))).toEqual([{ v: null }, { v: c.present }]);
        // The same entry present is a value, held to the schema: refused at its row.
        expect(() => codec.decode(streamOf(c.column(bothPresent)))).toThrow(
          expect.objectContaining({
            code: 'WK_DECODE_SCHEMA_MISMATCH',
            path: expect.arrayContaining([0, 'v']),
          }),
        );
      });
    }
  }
});

describe('arrow without a schema: what lies under a null entry is not read as a value', () => {
  const json = new Map([['wirekit.kind', 'json']]);
  const jsonText = (name: string) => new Field(name, new Utf8(), false, json);
  const schemaless: { label: string; column: (validity: Validity) => Data; present: unknown }[] = [
    {
      label: 'the children of a null struct entry',
      column: (validity) =>
        makeData({
          type: new Struct([jsonText('j')]),
          length: 2,
          ...validity,
          children: [utf8(['X', '[1]'])],
        }),
      present: { j: [1] },
    },
    {
      label: 'the items a null list entry spans',
      column: (validity) =>
        makeData({
          type: new List(jsonText('item')),
          length: 2,
          ...validity,
          valueOffsets: Int32Array.of(0, 1, 2),
          child: utf8(['X', '[1]']),
        }),
      present: [[1]],
    },
  ];
  for (const c of schemaless) {
    test(c.label, () => {
      const codec = createArrowCodec();
      expect(codec.decode(streamOf(c.column(firstNull)))).toEqual([{ v: null }, { v: c.present }]);
      // The same entry present is a value: text that is not JSON is refused at its row.
      expect(() => codec.decode(streamOf(c.column(bothPresent)))).toThrow(
        expect.objectContaining({
          code: 'WK_DECODE_SCHEMA_MISMATCH',
          path: expect.arrayContaining([0, 'v']),
        }),
      );
    });
  }
});
