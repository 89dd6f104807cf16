/**
 * The demo's IoT table, generated into a DuckDB file on first start and reused after: one row per
 * sensor per interval, 25 sensors, ending 2026-12-01T00:00:00Z, stored in (ts, sensor_id) order so
 * that a range query streams in time order without a sort (DuckDB keeps insertion order) and its
 * zone maps skip the blocks outside the range.
 *
 * The field report's row counts grow faster than its ranges (2 years is 128 times 1 month, not
 * 24): its fleet reported more often in the past. The table reproduces those counts with a
 * reporting interval that changed with each period, so that the last 1, 2, 6, 12 and 24 months
 * hold 81,675, 163,350, 980,100, 4,492,125 and 10,454,400 rows, as in the report.
 */
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { type DuckDBSource, duckdbSource } from 'wirekit-ts/tables/duckdb';

export const sensors = 25;
/**
 * What `value` is: a room temperature in degrees Celsius (18 °C plus 0.3 °C per sensor, a daily
 * swing of ±4 °C and a weekly one of ±1.5 °C, and ±1 °C of noise). /meta says so, and the page
 * labels its axis and legend with it.
 */
export const valueMeaning = { quantity: 'temperature', unit: '°C' } as const;
/** The end of the data (exclusive): fixed, so that every machine builds the same table. */
export const dataEnd = new Date('2026-12-01T00:00:00Z');

/**
 * Samples per sensor in each period, counted back from the end in calendar months: the report's
 * rows for 2, 6, 12 and 24 months, minus the period before, over 25 sensors.
 */
const periods: readonly { readonly fromMonth: number; readonly toMonth: number; readonly samples: number }[] =
  [
    { fromMonth: 0, toMonth: 1, samples: 81_675 / sensors },
    { fromMonth: 1, toMonth: 2, samples: (163_350 - 81_675) / sensors },
    { fromMonth: 2, toMonth: 6, samples: (980_100 - 163_350) / sensors },
    { fromMonth: 6, toMonth: 12, samples: (4_492_125 - 980_100) / sensors },
    { fromMonth: 12, toMonth: 24, samples: (10_454_400 - 4_492_125) / sensors },
  ];

/** `months` calendar months before `date` (UTC). */
export function monthsBefore(date: Date, months: number): Date {
  const d = new Date(date.getTime());
  d.setUTCMonth(d.getUTCMonth() - months);
  return d;
}

/** Where the demo keeps its tables: the user's cache, like the rest of wirekit's. */
export function defaultDataDir(): string {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'wirekit', 'demo');
}

/**
 * The INSERT statements that fill `months` months (periods past 24 months repeat the oldest
 * interval). Each period spreads its samples evenly over the part of it the table covers.
 */
function periodStatements(months: number): string[] {
  const statements: string[] = [];
  const last = periods[periods.length - 1] as (typeof periods)[number];
  const all = [...periods];
  for (let from = 24; from < months; from += 12) {
    all.push({ fromMonth: from, toMonth: from + 12, samples: last.samples });
  }
  for (const period of all) {
    if (period.fromMonth >= months) break;
    const toMonth = Math.min(period.toMonth, months);
    const start = monthsBefore(dataEnd, toMonth).getTime();
    const end = monthsBefore(dataEnd, period.fromMonth).getTime();
    const fullStart = monthsBefore(dataEnd, period.toMonth).getTime();
    const samples = Math.round((period.samples * (end - start)) / (end - fullStart));
    if (samples === 0) continue;
    // Whole seconds, as sensors report: the period's last samples end a little before its end.
    const stepMicros = Math.floor((end - start) / samples / 1000) * 1_000_000;
    // A daily cycle, a weekly one and deterministic noise, each sensor a little off the others.
    statements.push(`
      INSERT INTO staging
      SELECT make_timestamp(${start * 1000} + k * ${stepMicros}) AS ts, s::INTEGER AS sensor_id,
             round(18 + s * 0.3
               + 4 * sin(2 * pi() * ((${start * 1000} + k * ${stepMicros}) / 86400e6) + s / 4)
               + 1.5 * sin(2 * pi() * ((${start * 1000} + k * ${stepMicros}) / 604800e6))
               + ((hash(k * 131 + s) % 2001)::DOUBLE / 1000 - 1), 3) AS value
      FROM range(${samples}) a(k), range(1, ${sensors + 1}) b(s)`);
  }
  return statements;
}

/**
 * Opens the table of `months` months in `dir`, generating it first if it is not there yet (into a
 * temporary file renamed when complete, so that an interrupted start leaves nothing half-made).
 */
export async function openDemoTable(
  dir: string,
  months: number,
  log: (line: string) => void,
): Promise<DuckDBSource> {
  mkdirSync(dir, { recursive: true });
  // The file name carries the generator's version: a change to the data makes a new file.
  const file = join(dir, `iot-v3-${months}m.duckdb`);
  if (!existsSync(file)) {
    const partial = `${file}.partial`;
    rmSync(partial, { force: true });
    rmSync(`${partial}.wal`, { force: true });
    const started = Date.now();
    log(`generating ${months} months of readings into ${file} (once) ...`);
    const building = await duckdbSource({ path: partial });
    await building.run('CREATE TABLE staging (ts TIMESTAMP, sensor_id INTEGER, value DOUBLE)');
    for (const statement of periodStatements(months)) await building.run(statement);
    await building.run('CREATE TABLE readings AS SELECT * FROM staging ORDER BY ts, sensor_id');
    await building.run('DROP TABLE staging');
    await building.run('CHECKPOINT');
    await building.close();
    renameSync(partial, file);
    log(`generated in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  return duckdbSource({ path: file, config: { access_mode: 'READ_ONLY' } });
}
