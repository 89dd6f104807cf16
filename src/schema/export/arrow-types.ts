/**
 * Arrow types named from the facts they stand for: an integer type from its width and signedness,
 * a time unit from its short name. The Arrow exporter (arrow.ts), the IPC metadata reader
 * (codecs/arrow/decode/messages.ts) and the table sources' column builders (boundaries/tables/columns.ts)
 * all name apache-arrow's classes this way; one table here keeps them naming the same type.
 */
import { Int8, Int16, Int32, Int64, TimeUnit, Uint8, Uint16, Uint32, Uint64 } from 'apache-arrow';

export type IntBits = 8 | 16 | 32 | 64;

const signedInts = { 8: Int8, 16: Int16, 32: Int32, 64: Int64 } as const;
const unsignedInts = { 8: Uint8, 16: Uint16, 32: Uint32, 64: Uint64 } as const;

type SignedInt = { 8: Int8; 16: Int16; 32: Int32; 64: Int64 };
type UnsignedInt = { 8: Uint8; 16: Uint16; 32: Uint32; 64: Uint64 };
export type ArrowIntType<B extends IntBits, S extends boolean> = S extends true
  ? SignedInt[B]
  : UnsignedInt[B];

/** The Arrow integer type of this width and signedness (a new instance each time). */
export function arrowIntType<B extends IntBits, S extends boolean>(bits: B, signed: S): ArrowIntType<B, S> {
  return new (signed ? signedInts : unsignedInts)[bits]() as ArrowIntType<B, S>;
}

/** Arrow's TimeUnit of each unit name, as wirekit's timestamps and the table sources' columns spell it. */
export const arrowTimeUnits = {
  s: TimeUnit.SECOND,
  ms: TimeUnit.MILLISECOND,
  us: TimeUnit.MICROSECOND,
  ns: TimeUnit.NANOSECOND,
} as const;
