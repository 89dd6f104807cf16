/**
 * The dashboard page's data structure, in Node: rows in (ts, sensor_id) order become uPlot's
 * aligned arrays, whatever the number of rows and however wrong the first size estimate; rows
 * that would draw a wrong chart are refused. And the page's "last N months", clamped like SQL.
 */
import { describe, expect, test } from 'vitest';
import { monthsBefore } from '../../examples/dashboard/page/range.js';
import { AlignedSeries } from '../../examples/dashboard/page/series.js';

describe('AlignedSeries', () => {
  test('every row lands in its instant and sensor, across growth whatever the estimate', () => {
    for (const [instants, end] of [
      [10_000, 10_000], // the range's end matches the data
      [10_000, 100], // an end far too early: growth must still make room
      [10_000, 1e9], // an end far too late: the estimate is capped, not gigabytes
      [3, Number.NaN], // no end: doubling
    ] as const) {
      const sensors = [3, 1, 7];
      const series = new AlignedSeries(sensors, end, 16);
      for (let i = 0; i < instants; i++) {
        series.at(i);
        for (const id of [1, 3, 7]) series.put(id, i * 10 + id);
      }
      const [x, ...ys] = series.view() as Float64Array[];
      // The arrays behind the views: never more than four times what the rows need.
      expect((x as Float64Array).buffer.byteLength).toBeLessThanOrEqual(Math.max(16, 4 * instants) * 8);
      expect(series.length).toBe(instants);
      expect(series.rows).toBe(instants * 3);
      expect(series.points()).toBe(instants * 3);
      expect(Array.from(x as Float64Array)).toEqual(Array.from({ length: instants }, (_, i) => i));
      sensors.forEach((id, s) => {
        expect(Array.from(ys[s] as Float64Array)).toEqual(
          Array.from({ length: instants }, (_, i) => i * 10 + id),
        );
      });
    }
  });

  test('a sensor missing at an instant is a gap (NaN), not a shifted line', () => {
    const series = new AlignedSeries([1, 2]);
    series.at(1);
    series.put(1, 10);
    series.at(2);
    series.put(1, 11);
    series.put(2, 21);
    const [, first, second] = series.view() as Float64Array[];
    expect(Array.from(first as Float64Array)).toEqual([10, 11]);
    expect(Array.from(second as Float64Array)).toEqual([Number.NaN, 21]);
    expect(series.points()).toBe(3);
  });

  test('rows out of time order, unknown sensors and unreadable timestamps are refused', () => {
    const series = new AlignedSeries([1, 2]);
    series.at(100);
    expect(() => series.at(99)).toThrow(/out of time order/);
    expect(() => series.put(3, 1)).toThrow(/sensor 3/);
    expect(() => series.put(-1, 1)).toThrow(/sensor -1/);
    expect(() => series.put(Number.NaN, 1)).toThrow(/sensor NaN/);
    expect(() => series.put(1.5, 1)).toThrow(/sensor 1.5/);
    expect(() => series.at(Number.NaN)).toThrow(/not a date/);
  });
});

describe('monthsBefore', () => {
  test('calendar months back in UTC, the day clamped to the shorter month', () => {
    expect(monthsBefore('2026-12-01T00:00:00.000Z', 1)).toBe('2026-11-01T00:00:00.000Z');
    expect(monthsBefore('2026-12-01T00:00:00.000Z', 12)).toBe('2025-12-01T00:00:00.000Z');
    expect(monthsBefore('2026-12-01T00:00:00.000Z', 24)).toBe('2024-12-01T00:00:00.000Z');
    expect(monthsBefore('2026-03-31T12:30:00.000Z', 1)).toBe('2026-02-28T12:30:00.000Z');
    expect(monthsBefore('2024-03-31T00:00:00.000Z', 1)).toBe('2024-02-29T00:00:00.000Z');
    expect(monthsBefore('2026-01-15T00:00:00.000Z', 2)).toBe('2025-11-15T00:00:00.000Z');
    expect(() => monthsBefore('soon', 1)).toThrow(RangeError);
  });
});
