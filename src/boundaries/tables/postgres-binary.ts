/**
 * PostgreSQL's binary result format, read straight into the column builders. The server sends
 * each row as a DataRow message (`D`, int32 length, int16 field count, then per field an int32
 * length, -1 for NULL, and that many bytes); in binary format the bytes of a field are the type's
 * `send` representation: integers and floats big-endian, booleans one byte, text and bytea as
 * they are, timestamps int64 microseconds and dates int32 days since 2000-01-01. Decoding reads
 * those bytes in place from the network buffer: no object per row or per field.
 */
import { WirekitError } from '../../errors/index.js';
import type { AnyColumn, BoolColumn, BytesColumn, ColumnType, FixedWidthColumn } from './columns.js';

/**
 * How a column's field bytes become builder values: a fixed-width number, big-endian
 * (int2/int4/int8/float4/float8); a boolean byte; int64 microseconds since 2000-01-01 (to
 * microseconds since 1970-01-01); int32 days since 2000-01-01 (to days since 1970-01-01); bytes
 * as they are (text, varchar, bpchar and name in UTF-8, the connection's client_encoding; bytea).
 */
const bigEndian = 0;
const bool = 1;
const timestamp = 2;
const date = 3;
const bytes = 4;
type Wire = typeof bigEndian | typeof bool | typeof timestamp | typeof date | typeof bytes;

export interface WireColumn {
  readonly type: ColumnType;
  readonly wire: Wire;
  /** The field's byte length, for fixed-width types; -1 for variable ones. */
  readonly width: number;
}

/** The types the source reads, by the OID PostgreSQL describes a result column with. */
const byOid = new Map<number, WireColumn>([
  [16, { type: { kind: 'bool' }, wire: bool, width: 1 }],
  [17, { type: { kind: 'binary' }, wire: bytes, width: -1 }],
  [19, { type: { kind: 'utf8' }, wire: bytes, width: -1 }], // name
  [20, { type: { kind: 'int', bits: 64, signed: true }, wire: bigEndian, width: 8 }],
  [21, { type: { kind: 'int', bits: 16, signed: true }, wire: bigEndian, width: 2 }],
  [23, { type: { kind: 'int', bits: 32, signed: true }, wire: bigEndian, width: 4 }],
  [25, { type: { kind: 'utf8' }, wire: bytes, width: -1 }], // text
  [700, { type: { kind: 'float', bits: 32 }, wire: bigEndian, width: 4 }],
  [701, { type: { kind: 'float', bits: 64 }, wire: bigEndian, width: 8 }],
  [1042, { type: { kind: 'utf8' }, wire: bytes, width: -1 }], // bpchar: char(n), padded
  [1043, { type: { kind: 'utf8' }, wire: bytes, width: -1 }], // varchar
  [1082, { type: { kind: 'date' }, wire: date, width: 4 }],
  [1114, { type: { kind: 'timestamp', unit: 'us' }, wire: timestamp, width: 8 }],
  [1184, { type: { kind: 'timestamp', unit: 'us', timezone: 'UTC' }, wire: timestamp, width: 8 }],
]);

/** How the source reads a column of type `oid`, or undefined when it does not. */
export function wireColumnOf(oid: number): WireColumn | undefined {
  return byOid.get(oid);
}

/** Microseconds from 1970-01-01 to 2000-01-01, as the 32-bit halves of an int64. */
const epochShift = 946_684_800_000_000;
const shiftHigh = Math.floor(epochShift / 2 ** 32);
const shiftLow = epochShift % 2 ** 32;
/** Days from 1970-01-01 to 2000-01-01. */
const dayShift = 10_957;

/**
 * Decodes `rows` DataRow messages from `buffer` at `at` into `columns` (one per WireColumn),
 * returning where the next message starts. Every length is checked against its message, and a
 * fixed-width field against its type's width, so a malformed message fails instead of shifting
 * values into the wrong rows or columns.
 */
export function decodeRows(
  buffer: Uint8Array,
  at: number,
  rows: number,
  wires: readonly WireColumn[],
  columns: readonly AnyColumn[],
): number {
  const count = wires.length;
  for (let row = 0; row < rows; row++) {
    const end = at + 1 + readInt32(buffer, at + 1);
    if (((buffer[at + 5] as number) << 8) + (buffer[at + 6] as number) !== count) malformed('field count');
    let p = at + 7;
    for (let c = 0; c < count; c++) {
      const length = readInt32(buffer, p);
      p += 4;
      const column = columns[c] as AnyColumn;
      if (length === -1) {
        column.appendNull();
        continue;
      }
      const wire = wires[c] as WireColumn;
      if (length < 0 || p + length > end || (wire.width !== -1 && length !== wire.width)) {
        malformed('field length');
      }
      switch (wire.wire) {
        case bigEndian:
          (column as FixedWidthColumn).appendBigEndian(buffer, p);
          break;
        case bool:
          (column as BoolColumn).append(buffer[p] !== 0);
          break;
        case timestamp:
          appendTimestamp(column as FixedWidthColumn, readInt32(buffer, p), readInt32(buffer, p + 4) >>> 0);
          break;
        case date:
          appendDate(column as FixedWidthColumn, readInt32(buffer, p));
          break;
        default:
          (column as BytesColumn).appendSlice(buffer, p, p + length);
      }
      p += length;
    }
    if (p !== end) malformed('row length');
    at = end;
  }
  return at;
}

function readInt32(buffer: Uint8Array, at: number): number {
  return (
    ((buffer[at] as number) << 24) |
    ((buffer[at + 1] as number) << 16) |
    ((buffer[at + 2] as number) << 8) |
    (buffer[at + 3] as number)
  );
}

/**
 * A timestamp shifted to the Unix epoch. PostgreSQL's infinity and -infinity (the largest and
 * smallest int64) become DuckDB's (the largest int64 and its negation); a finite value past the
 * largest Unix-epoch int64 (after the year 294,246) cannot be shifted and fails.
 */
function appendTimestamp(column: FixedWidthColumn, high: number, low: number): void {
  if (high === 0x7fffffff && low === 0xffffffff) column.appendInt64Words(high, low);
  else if (high === -0x80000000 && low === 0) column.appendInt64Words(high, 1);
  else appendShifted(column, high, low);
}

function appendShifted(column: FixedWidthColumn, high: number, low: number): void {
  const sum = low + shiftLow;
  const carry = sum >= 2 ** 32 ? 1 : 0;
  const shifted = high + shiftHigh + carry;
  if (shifted > 0x7fffffff) {
    throw new WirekitError(
      'WK_TABLE_QUERY_FAILED',
      'PostgreSQL: a timestamp after the year 294,246 does not fit an Arrow timestamp in microseconds since 1970.',
    );
  }
  column.appendInt64Words(shifted, sum - carry * 2 ** 32);
}

/** A date shifted to the Unix epoch; infinity and -infinity as DuckDB stores them. */
function appendDate(column: FixedWidthColumn, days: number): void {
  if (days === 0x7fffffff) column.appendInt32(days);
  else if (days === -0x80000000) column.appendInt32(-0x7fffffff);
  else column.appendInt32(days + dayShift);
}

function malformed(what: string): never {
  throw new WirekitError('WK_TABLE_QUERY_FAILED', `PostgreSQL: a malformed DataRow message (${what}).`);
}
