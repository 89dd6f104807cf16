/**
 * Arrow: wirekit's client reads the IPC stream and yields apache-arrow RecordBatches as their bytes
 * arrive, each checked by wirekit's decoder (messages, buffers, and the columns' names and types
 * against the row schema) before it is handed over. The chart's arrays are filled straight from
 * the batch's column buffers: no row objects, and no BigInt per timestamp (the int64 microseconds
 * are read as two 32-bit halves).
 *
 * This module, the client and apache-arrow are loaded only when the Arrow format is chosen.
 */
import { type Data, type RecordBatch, TimeUnit, Type } from 'apache-arrow';
import { createClient, lazyFormat } from 'wirekit-ts/http/client';
import { LoadError, type Loader } from '../loader.js';
import { Reading } from '../reading.js';

const twoTo32 = 4_294_967_296;
/** A timestamp's ticks per millisecond, by unit. */
const ticksPerMs: Record<number, number> = {
  [TimeUnit.SECOND]: 1e-3,
  [TimeUnit.MILLISECOND]: 1,
  [TimeUnit.MICROSECOND]: 1e3,
  [TimeUnit.NANOSECOND]: 1e6,
};

export const load: Loader = async (request, sink) => {
  const client = createClient({
    baseUrl: location.origin,
    // Each loaded on first use, as before this module; Arrow's errors come as JSON.
    codecs: [lazyFormat('arrow'), lazyFormat('json')],
  });
  const { series } = sink;
  // The instant of the last row, in the stream's unit, carried across batches.
  let last = Number.NaN;
  try {
    for await (const batch of client.batches('/series', {
      row: Reading,
      query: request.query,
      signal: request.signal,
    })) {
      const { ts, perMs } = timestamps(batch);
      const ids = columnValues(batch, 'sensor_id', Type.Int) as ArrayLike<number>;
      const values = columnValues(batch, 'value', Type.Float) as ArrayLike<number>;
      for (let i = 0; i < batch.numRows; i++) {
        // Low half unsigned, high half signed: the exact int64 while it is below 2^53 (every
        // microsecond timestamp until the year 2255).
        const instant = (ts[2 * i + 1] as number) * twoTo32 + ((ts[2 * i] as number) >>> 0);
        if (instant !== last) {
          // The chart resolves milliseconds, as a Date does and as the JSON text carries them:
          // finer ticks are dropped toward the past, as wirekit's JSON writer drops them, so that
          // every format charts the very same x values.
          series.at(perMs >= 1 ? Math.floor(instant / perMs) / 1000 : instant);
          last = instant;
        }
        series.put(ids[i] as number, values[i] as number);
      }
      sink.batch();
    }
  } catch (error) {
    throw asLoadError(error);
  }
};

/** The one Data of a batch's column, refusing nulls (a required field) and other kinds of column. */
function columnData(batch: RecordBatch, name: string, typeId: Type): Data {
  const column = batch.getChild(name);
  const data = column?.data[0];
  if (column === null || data === undefined) throw new LoadError(`the stream has no ${name} column`);
  if (data.typeId !== typeId) throw new LoadError(`the ${name} column is ${data.type}, not ${Type[typeId]}`);
  if (data.nullCount > 0) throw new LoadError(`the ${name} column holds nulls`);
  return data;
}

function columnValues(batch: RecordBatch, name: string, typeId: Type): ArrayLike<number | bigint> {
  const data = columnData(batch, name, typeId);
  const values = data.values as ArrayLike<number | bigint>;
  if (values instanceof BigInt64Array || values instanceof BigUint64Array) {
    throw new LoadError(`the ${name} column is ${data.type}: 64-bit values are not read here`);
  }
  return (values as Int32Array).subarray(data.offset, data.offset + data.length);
}

/** The ts column as 32-bit halves (little-endian: low then high), and its ticks per millisecond. */
function timestamps(batch: RecordBatch): { ts: Int32Array; perMs: number } {
  const data = columnData(batch, 'ts', Type.Timestamp);
  const perMs = ticksPerMs[(data.type as unknown as { unit: TimeUnit }).unit];
  if (perMs === undefined) throw new LoadError('the ts column has an unknown unit');
  const values = data.values as BigInt64Array | Int32Array;
  // apache-arrow keeps int64 values in a BigInt64Array (older versions used Int32 pairs).
  const pairs =
    values instanceof BigInt64Array
      ? new Int32Array(values.buffer, values.byteOffset, values.length * 2)
      : values;
  return { ts: pairs.subarray(2 * data.offset, 2 * (data.offset + data.length)), perMs };
}

/** wirekit's errors (an HTTP error record, a malformed stream) keep their code. */
function asLoadError(error: unknown): unknown {
  if (error instanceof LoadError || !(error instanceof Error)) return error;
  if (error.name === 'AbortError') return error;
  const { code, status } = error as { code?: unknown; status?: unknown };
  return new LoadError(error.message, {
    ...(typeof code === 'string' && { code }),
    ...(typeof status === 'number' && { status }),
    cause: error,
  });
}
