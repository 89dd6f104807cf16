/**
 * One row of `/series`, as the server declares it: the schema wirekit's client checks the Arrow
 * stream against (names and types of its columns) before any batch reaches the chart.
 */
import { t } from 'wirekit-ts/schema';

export const Reading = t.object('Reading', {
  ts: t.timestamp({ precision: 'us' }),
  sensor_id: t.int32(),
  value: t.float64(),
});

/** The same row in JSON and NDJSON: the timestamp as RFC 3339 text. */
export interface ReadingJson {
  readonly ts: string;
  readonly sensor_id: number;
  readonly value: number;
}
