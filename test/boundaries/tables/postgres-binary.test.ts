/**
 * PostgreSQL's binary DataRow messages decoded into the column builders, from bytes made here: the
 * values of every wire kind, NULLs, and malformed messages (a server that is not PostgreSQL, or a
 * corrupted stream), which fail with WK_TABLE_QUERY_FAILED instead of putting values in the
 * wrong rows.
 */
import { describe, expect, test } from 'vitest';
import { columnFor } from '../../../src/boundaries/tables/columns.js';
import { decodeRows, wireColumnOf } from '../../../src/boundaries/tables/postgres-binary.js';
import { WirekitError } from '../../../src/errors/index.js';

/** A DataRow message of `fields` (null: a NULL field). */
function dataRow(fields: readonly (Uint8Array | null)[], fieldCount = fields.length): Buffer {
  const body = fields.map((field) => {
    const length = Buffer.alloc(4);
    length.writeInt32BE(field === null ? -1 : field.length);
    return field === null ? length : Buffer.concat([length, field]);
  });
  const count = Buffer.alloc(2);
  count.writeInt16BE(fieldCount);
  const payload = Buffer.concat([count, ...body]);
  const header = Buffer.alloc(5);
  header[0] = 0x44;
  header.writeInt32BE(payload.length + 4, 1);
  return Buffer.concat([header, payload]);
}

const be = (bytes: number[]) => new Uint8Array(bytes);
const oids = { int4: 23, int8: 20, float8: 701, bool: 16, text: 25, timestamp: 1114, date: 1082 };

function decode(oidList: readonly number[], rows: readonly Buffer[]) {
  const wires = oidList.map((oid) => {
    const wire = wireColumnOf(oid);
    if (wire === undefined) throw new Error(`no wire for ${oid}`);
    return wire;
  });
  const columns = wires.map((wire, i) => columnFor(`c${i}`, wire.type, rows.length));
  const buffer = Buffer.concat(rows);
  const end = decodeRows(buffer, 0, rows.length, wires, columns);
  return { end, length: buffer.length, data: columns.map((column) => column.finish()) };
}

describe('PostgreSQL binary rows', () => {
  test('values of every wire kind, and NULLs, land in their rows', () => {
    const { end, length, data } = decode(
      [oids.int4, oids.int8, oids.float8, oids.bool, oids.text, oids.timestamp, oids.date],
      [
        dataRow([
          be([0xff, 0xff, 0xff, 0xfe]),
          be([0x80, 0, 0, 0, 0, 0, 0, 0]),
          be([0x80, 0, 0, 0, 0, 0, 0, 0]),
          be([1]),
          Buffer.from('héllo'),
          be([0, 0, 0, 0, 0, 0, 0, 0]),
          be([0xff, 0xff, 0xff, 0xff]),
        ]),
        dataRow([null, null, null, null, null, null, null]),
      ],
    );
    const valuesOf = (column: number) => (data[column] as { values: unknown }).values;
    expect(end).toBe(length);
    expect([...(valuesOf(0) as Int32Array)]).toEqual([-2, 0]);
    expect((valuesOf(1) as BigInt64Array)[0]).toBe(-(2n ** 63n));
    expect(Object.is((valuesOf(2) as Float64Array)[0], -0)).toBe(true);
    expect((valuesOf(3) as Uint8Array)[0]).toBe(1);
    expect(Buffer.from((valuesOf(4) as Uint8Array).subarray(0, 6)).toString()).toBe('héllo');
    expect((valuesOf(5) as BigInt64Array)[0]).toBe(946_684_800_000_000n); // 2000-01-01 in Unix microseconds
    expect((valuesOf(6) as Int32Array)[0]).toBe(10_956); // 1999-12-31
    for (const column of data) expect(column.nullCount).toBe(1);
  });

  test('a wrong field count, a fixed-width field of the wrong size, or a length past the row fails', () => {
    const cases = [
      dataRow([be([0, 0, 0, 1])], 2),
      dataRow([be([0, 0, 1])]),
      (() => {
        const row = dataRow([be([0, 0, 0, 1])]);
        row.writeInt32BE(4_000, 7); // the field claims more bytes than the message has
        return row;
      })(),
      (() => {
        const row = Buffer.concat([dataRow([be([0, 0, 0, 1])]), Buffer.alloc(3)]);
        row.writeInt32BE(row.length - 1, 1); // three bytes after the last field
        return row;
      })(),
    ];
    for (const row of cases) {
      let error: unknown;
      try {
        decode([oids.int4], [row]);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(WirekitError);
      expect((error as WirekitError).code).toBe('WK_TABLE_QUERY_FAILED');
      expect((error as WirekitError).message).toMatch(/malformed DataRow/);
    }
  });
});
