/**
 * The floor under any row-object decoder: what it costs V8 to build the `timeseries` rows (an
 * object and a Date each) from columns that are already decoded, with no format involved, beside
 * native JSON's round trip of the same rows in the same process. A codec that hands out row objects
 * cannot round-trip faster than this floor plus its encoder; the ratio is the best it could reach.
 *
 *   npm run build && node build/benchmarks/overhead/row-floor.js [--count 1000000] [--rounds 5]
 */

import { median, timeMs as time, timeseriesColumns } from 'wirekit-ts/lab';
import { benchArgs } from '../args.js';

const usage = `Usage: node build/benchmarks/overhead/row-floor.js [--count 1000000] [--rounds 5]
What building the timeseries rows from decoded columns costs, beside native JSON's round trip.`;

const { values } = benchArgs(usage, {
  options: {
    count: { type: 'string', default: '1000000' },
    rounds: { type: 'string', default: '5' },
  },
});
const count = Number(values.count);
const columns = timeseriesColumns(count);

/** Rows built the cheapest way JavaScript has: one object literal per row, from typed arrays. */
function buildRows(withDates: boolean): unknown[] {
  const { timestamps, devices, deviceIndex, temperature, humidity } = columns;
  const rows = new Array<unknown>(count);
  for (let i = 0; i < count; i++) {
    const time = timestamps[i] as number;
    rows[i] = {
      timestamp: withDates ? new Date(time) : time,
      deviceId: devices[deviceIndex[i] as number],
      temperature: temperature[i],
      humidity: humidity[i],
    };
  }
  return rows;
}

const rows = buildRows(true);
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const samples = { dates: [] as number[], numbers: [] as number[], json: [] as number[] };
for (let round = 0; round < Number(values.rounds) + 1; round++) {
  const dates = time(() => buildRows(true));
  const numbers = time(() => buildRows(false));
  const json = time(() => JSON.parse(decoder.decode(encoder.encode(JSON.stringify(rows)))));
  if (round === 0) continue;
  samples.dates.push(dates);
  samples.numbers.push(numbers);
  samples.json.push(json);
}
const json = median(samples.json);
const report = {
  rows: count,
  buildRowsWithDatesMs: Math.round(median(samples.dates)),
  buildRowsWithNumbersMs: Math.round(median(samples.numbers)),
  nativeJsonRoundTripMs: Math.round(json),
  floorRatioWithDates: Number((median(samples.dates) / json).toFixed(3)),
  floorRatioWithNumbers: Number((median(samples.numbers) / json).toFixed(3)),
  node: process.version,
};
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
