/**
 * `timeseries`: IoT sensor rows (timestamp, device id, temperature, humidity), the shape behind
 * the published "JSON ~215-270 k rows/s vs Arrow ~3.5 M rows/s" figures. 100,000 rows by default;
 * the bench takes up to 10,000,000.
 *
 * Memory, measured on Node 20 (x64, --expose-gc, heap used after GC): a row is 208 bytes (the
 * object, its Date, two boxed doubles, the array slot; device id strings are shared), so 10 M rows
 * take 2.1 GB of heap (2.2 GB peak RSS). V8's default heap limit depends on the machine's memory
 * (4.3 GB on a 24 GB machine, less on small ones): give a large run --max-old-space-size=3072 or
 * more. `timeseriesColumns` holds the same readings in typed arrays, 26 bytes a row (260 MB for
 * 10 M). Neither generator allocates anything per row beyond what it returns: the PRNG state is a
 * number, per-device state sits in typed arrays, device ids are built once, and the row array is
 * allocated at its final length (no regrowth copies).
 */
import { type Infer, t } from '../../schema/index.js';
import { type Random, seededRandom } from '../random.js';
import type { Dataset } from './dataset.js';

export const Reading = t.object('Reading', {
  timestamp: t.timestamp(),
  deviceId: t.string(),
  // float64 holding values rounded to 0.01, as a gateway would report them: JSON then writes
  // "21.37", not the 17 digits a float32 widened to a double would need.
  temperature: t.float64(),
  humidity: t.float64(),
});

export type Reading = Infer<typeof Reading>;

/** The same readings as columns: typed arrays, and device ids as indexes into `devices`. */
export interface TimeseriesColumns {
  readonly count: number;
  /** Milliseconds since the Unix epoch. */
  readonly timestamps: Float64Array;
  readonly devices: readonly string[];
  readonly deviceIndex: Uint16Array;
  readonly temperature: Float64Array;
  readonly humidity: Float64Array;
}

const deviceCount = 200;
const start = 1_700_000_000_000;
/** Every device reports once per interval, in turn, each a little late (jitter below 1 s). */
const intervalMs = 10_000;
const day = 86_400_000;

/**
 * The one sequence of readings both generators walk. `next` writes into the reusable fields of the
 * returned state rather than returning an object per row.
 */
function readingSource(seed: number) {
  const random: Random = seededRandom(seed);
  const hex = '0123456789abcdef';
  const devices = Array.from({ length: deviceCount }, () => {
    const digits = Array.from({ length: 8 }, () => hex[random.int(0, 15)]);
    return ['sensor', digits.join('')].join('-');
  });
  const baseTemperature = Float64Array.from({ length: deviceCount }, () => 15 + random.next() * 10);
  const baseHumidity = Float64Array.from({ length: deviceCount }, () => 35 + random.next() * 30);
  const state = {
    devices,
    row: 0,
    time: 0,
    device: 0,
    temperature: 0,
    humidity: 0,
    next(): void {
      const device = state.row % deviceCount;
      const time = start + Math.floor(state.row / deviceCount) * intervalMs + random.int(0, 999);
      // A daily cycle plus noise: values vary like real readings, so compressors see real entropy.
      const cycle = Math.sin((2 * Math.PI * (time % day)) / day);
      const temperature = (baseTemperature[device] as number) + 4 * cycle + (random.next() - 0.5);
      const humidity = (baseHumidity[device] as number) - 8 * cycle + 2 * (random.next() - 0.5);
      state.device = device;
      state.time = time;
      state.temperature = Math.round(temperature * 100) / 100;
      state.humidity = Math.round(Math.min(100, Math.max(0, humidity)) * 100) / 100;
      state.row++;
    },
  };
  return state;
}

export function timeseries(count = 100_000, seed = 1): Reading[] {
  const source = readingSource(seed);
  // Allocated at its final length: pushing would copy the backing store as it grows (V8 keeps
  // a preallocated array in fast elements, checked up to 10 M with %HasFastElements).
  const rows = new Array<Reading>(count);
  for (let i = 0; i < count; i++) {
    source.next();
    rows[i] = {
      timestamp: new Date(source.time),
      deviceId: source.devices[source.device] as string,
      temperature: source.temperature,
      humidity: source.humidity,
    };
  }
  return rows;
}

/** The readings `timeseries(count, seed)` gives, as columns: for Arrow-style, column-oriented code. */
export function timeseriesColumns(count = 100_000, seed = 1): TimeseriesColumns {
  const source = readingSource(seed);
  const timestamps = new Float64Array(count);
  const deviceIndex = new Uint16Array(count);
  const temperature = new Float64Array(count);
  const humidity = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    source.next();
    timestamps[i] = source.time;
    deviceIndex[i] = source.device;
    temperature[i] = source.temperature;
    humidity[i] = source.humidity;
  }
  return { count, timestamps, devices: source.devices, deviceIndex, temperature, humidity };
}

export const timeseriesDataset: Dataset<Reading> = {
  name: 'timeseries',
  description: 'IoT sensor rows (timestamp, device id, temperature, humidity), 200 devices',
  schema: Reading,
  defaultCount: 100_000,
  unit: 'batch',
  generate: timeseries,
};
