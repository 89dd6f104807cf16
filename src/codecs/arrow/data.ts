/**
 * apache-arrow Data built straight from buffers that are already typed and checked. makeData goes
 * through a visitor that re-derives every buffer's view per column, which costs more than writing
 * or reading a small batch.
 */
import { Data, type DataType, type Vector } from 'apache-arrow';

/** A zero-length bitmap (immutable: nothing can be written into no bytes), as makeData leaves. */
const noBitmap = new Uint8Array(0);

export interface NullInfo {
  readonly nullCount: number;
  readonly nullBitmap?: Uint8Array | undefined;
}

export interface Buffers {
  readonly offsets?: Int32Array | BigInt64Array;
  readonly values?: ArrayBufferView;
  readonly typeIds?: Int8Array;
}

export function newData(
  type: DataType,
  length: number,
  validity: NullInfo,
  buffers: Buffers = {},
  children: Data[] = [],
  dictionary?: Vector,
  variadicBuffers?: readonly Uint8Array[],
): Data {
  const nullBitmap = validity.nullCount > 0 ? (validity.nullBitmap ?? noBitmap) : noBitmap;
  const slots = [buffers.offsets, buffers.values, nullBitmap, buffers.typeIds];
  return new Data(type, 0, length, validity.nullCount, slots as never, children, dictionary, variadicBuffers);
}
