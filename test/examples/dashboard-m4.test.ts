/**
 * The dashboard's per-pixel-column reduction (M4), in Node: every column keeps its first, last,
 * lowest and highest point, so the reduced line covers, column by column, exactly the values the
 * whole line covers; at most four points a column; fed a batch at a time it keeps what it keeps
 * fed at once; empty, one point, NaN and time going back.
 */
import { describe, expect, test } from 'vitest';
import { M4, reduceM4 } from '../../examples/dashboard/page/m4.js';

/** A deterministic walk with a daily-like cycle: many points per column, extremes anywhere. */
function line(n: number, seed = 7): { x: Float64Array; y: Float64Array } {
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  let state = seed;
  for (let i = 0; i < n; i++) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    x[i] = 1000 + i * 3 + (i % 5 === 0 ? 0 : 1); // repeated-looking steps, never backwards
    y[i] = 20 + 4 * Math.sin(i / 50) + (state / 2_147_483_648 - 0.5) * 3;
  }
  return { x, y };
}

/** Per column: [first, last, min, max] of the values whose x falls in it (the same binning). */
function envelope(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  indices: Iterable<number>,
  from: number,
  to: number,
  columns: number,
): Map<number, [number, number, number, number]> {
  const byColumn = new Map<number, [number, number, number, number]>();
  for (const i of indices) {
    const v = y[i] as number;
    if (Number.isNaN(v)) continue;
    const xi = x[i] as number;
    const column =
      xi < from
        ? -1
        : xi > to
          ? columns
          : Math.min(columns - 1, Math.floor(((xi - from) * columns) / (to - from)));
    const seen = byColumn.get(column);
    if (seen === undefined) byColumn.set(column, [v, v, v, v]);
    else byColumn.set(column, [seen[0], v, Math.min(seen[2], v), Math.max(seen[3], v)]);
  }
  return byColumn;
}

const all = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('M4 reduction', () => {
  test('per column the first, last, min and max are kept: the envelope of the whole line', () => {
    const { x, y } = line(100_000);
    const view = { from: x[0] as number, to: x[x.length - 1] as number, columns: 800 };
    const m4 = reduceM4(x, y, view);
    const kept = Array.from(m4.indices());
    expect(kept.length).toBeLessThanOrEqual(4 * view.columns);
    expect(kept.length).toBeGreaterThan(2 * view.columns);
    // Ascending, each once.
    for (let i = 1; i < kept.length; i++) expect(kept[i]).toBeGreaterThan(kept[i - 1] as number);
    expect(envelope(x, y, kept, view.from, view.to, view.columns)).toEqual(
      envelope(x, y, all(x.length), view.from, view.to, view.columns),
    );
    // The first and the last point of the whole line are there: the line spans the plot.
    expect(kept[0]).toBe(0);
    expect(kept[kept.length - 1]).toBe(x.length - 1);
    // The y range of the view is the whole line's.
    expect(m4.min).toBe(Math.min(...y));
    expect(m4.max).toBe(Math.max(...y));
  });

  test('a range of the points, in a narrower view: the points outside keep the line running to the edges', () => {
    const { x, y } = line(50_000);
    const from = x[10_000] as number;
    const to = x[20_000] as number;
    // Like a zoom: the points in view and one either side.
    const m4 = reduceM4(x, y, { from, to, columns: 300 }, 9_999, 20_002);
    const kept = Array.from(m4.indices());
    expect(kept[0]).toBe(9_999);
    expect(kept[kept.length - 1]).toBe(20_001);
    expect(envelope(x, y, kept, from, to, 300)).toEqual(
      envelope(x, y, all(50_000).slice(9_999, 20_002), from, to, 300),
    );
    const inView = all(50_000)
      .slice(10_000, 20_001)
      .map((i) => y[i] as number);
    expect(m4.min).toBe(Math.min(...inView));
    expect(m4.max).toBe(Math.max(...inView));
  });

  test('fewer points than columns are all kept', () => {
    const { x, y } = line(500);
    const m4 = reduceM4(x, y, { from: x[0] as number, to: x[499] as number, columns: 1200 });
    expect(Array.from(m4.indices())).toEqual(all(500));
  });

  test('fed a batch at a time (read in between), it keeps what it keeps fed at once', () => {
    const { x, y } = line(30_000);
    const view = { from: x[0] as number, to: x[x.length - 1] as number, columns: 500 };
    const whole = Array.from(reduceM4(x, y, view).indices());
    const streamed = new M4(view.from, view.to, view.columns);
    for (let start = 0; start < x.length; start += 4_099) {
      streamed.addRange(x, y, start, Math.min(x.length, start + 4_099));
      // A progressive draw reads the kept points, the open column's included.
      const partial = Array.from(streamed.indices());
      expect(partial[partial.length - 1]).toBe(Math.min(x.length, start + 4_099) - 1);
    }
    expect(Array.from(streamed.indices())).toEqual(whole);
  });

  test('empty, one point, equal values', () => {
    const empty = new M4(0, 10, 4);
    expect(Array.from(empty.indices())).toEqual([]);
    expect(empty.min).toBe(Number.POSITIVE_INFINITY);
    const one = reduceM4([5], [1.5], { from: 0, to: 10, columns: 4 });
    expect(Array.from(one.indices())).toEqual([0]);
    expect([one.min, one.max]).toEqual([1.5, 1.5]);
    // A flat column keeps its first and last point only.
    const flat = reduceM4(all(100), new Array(100).fill(3), { from: 0, to: 99, columns: 1 });
    expect(Array.from(flat.indices())).toEqual([0, 99]);
  });

  test('NaN values (no reading) are skipped; the line joins the readings either side', () => {
    const x = all(8);
    const y = [1, Number.NaN, 5, Number.NaN, Number.NaN, 2, 9, Number.NaN];
    const m4 = reduceM4(x, y, { from: 0, to: 7, columns: 8 });
    expect(Array.from(m4.indices())).toEqual([0, 2, 5, 6]);
    expect([m4.min, m4.max]).toEqual([1, 9]);
    const none = reduceM4(x, new Array(8).fill(Number.NaN), { from: 0, to: 7, columns: 2 });
    expect(Array.from(none.indices())).toEqual([]);
  });

  test('time going back, a missing x and a bad view are refused', () => {
    expect(() => reduceM4([1, 3, 2], [0, 0, 0], { from: 0, to: 3, columns: 2 })).toThrow(/goes back in x/);
    expect(() => reduceM4([1, Number.NaN], [0, 0], { from: 0, to: 3, columns: 2 })).toThrow(/has no x/);
    expect(() => new M4(5, 5, 10)).toThrow(RangeError);
    expect(() => new M4(0, 1, 0)).toThrow(RangeError);
    expect(() => new M4(0, 1, 2.5)).toThrow(RangeError);
  });
});
