/**
 * M4: a line's points reduced to at most four per pixel column (the first, the last, the lowest and
 * the highest of the column), which draws the very same pixels as the whole line: inside a column
 * the line only moves between its extremes, and it enters and leaves by the first and last points.
 * So a chart of 10 M rows draws about 4 × width points per series, and its draw time no longer
 * grows with the rows (Jugel et al., "M4: A Visualization-Oriented Time Series Data Aggregation",
 * VLDB 2014).
 *
 * The reducer reads the chart's typed arrays by index, as the rows are placed or over a range of
 * them, and keeps indices into those arrays, never copies: the full-resolution columns stay where
 * they are, for a zoom to reduce again. Points left of `from` and right of `to` fall in one column
 * each on either side, so a line still runs to the plot's edges. A NaN value (no reading at that
 * instant) is skipped: the reduced line joins the readings either side. Time must not go back: a
 * smaller x than the last one is refused, as the chart's own arrays refuse it.
 */

export class M4 {
  /** Indices kept so far, ascending; `length` of them are valid. */
  private kept = new Uint32Array(64);
  private keptLength = 0;
  private readonly scale: number;
  private lastX = Number.NEGATIVE_INFINITY;
  /** The open column and the indices of its first, last, lowest and highest point. */
  private column = Number.NaN;
  private first = -1;
  private last = -1;
  private low = -1;
  private high = -1;
  private lowValue = Number.POSITIVE_INFINITY;
  private highValue = Number.NEGATIVE_INFINITY;
  /** The least and greatest value between `from` and `to`: the y range the view needs. */
  min = Number.POSITIVE_INFINITY;
  max = Number.NEGATIVE_INFINITY;

  constructor(
    readonly from: number,
    readonly to: number,
    readonly columns: number,
  ) {
    if (!(Number.isFinite(from) && Number.isFinite(to) && from < to)) {
      throw new RangeError(`M4 needs a range with from < to, got ${from} to ${to}`);
    }
    if (!(Number.isSafeInteger(columns) && columns >= 1)) {
      throw new RangeError(`M4 needs a whole number of columns from 1, got ${columns}`);
    }
    this.scale = columns / (to - from);
  }

  /** Takes the point at `index` (x in ascending order; a NaN y is no reading and skipped). */
  add(index: number, x: number, y: number): void {
    if (!(x >= this.lastX)) {
      throw new RangeError(
        Number.isNaN(x)
          ? `point ${index} has no x`
          : `point ${index} goes back in x: ${x} after ${this.lastX}`,
      );
    }
    this.lastX = x;
    if (Number.isNaN(y)) return;
    const column = this.columnOf(x);
    if (column !== this.column) {
      this.close();
      this.column = column;
      this.first = this.low = this.high = index;
      this.lowValue = this.highValue = y;
    } else if (y < this.lowValue) {
      this.low = index;
      this.lowValue = y;
    } else if (y > this.highValue) {
      this.high = index;
      this.highValue = y;
    }
    this.last = index;
    if (column >= 0 && column < this.columns) {
      if (y < this.min) this.min = y;
      if (y > this.max) this.max = y;
    }
  }

  /** Adds `x[i]`, `y[i]` for every i from `start` to `end` (exclusive). */
  addRange(x: ArrayLike<number>, y: ArrayLike<number>, start: number, end: number): void {
    for (let i = start; i < end; i++) this.add(i, x[i] as number, y[i] as number);
  }

  /**
   * The indices kept, ascending, the open column's included: a view valid until the next `add`.
   * Every column contributes its first and last point and its extremes, each once.
   */
  indices(): Uint32Array {
    const closed = this.keptLength;
    this.close();
    const view = this.kept.subarray(0, this.keptLength);
    // The open column may still grow: it is written past the kept ones, not counted as kept.
    this.keptLength = closed;
    return view;
  }

  private columnOf(x: number): number {
    if (x < this.from) return -1;
    if (x > this.to) return this.columns;
    return Math.min(this.columns - 1, Math.floor((x - this.from) * this.scale));
  }

  /** Writes the open column's points (each index once, in order); the column stays open. */
  private close(): void {
    if (this.first < 0) return;
    if (this.kept.length < this.keptLength + 4) {
      const grown = new Uint32Array(this.kept.length * 2);
      grown.set(this.kept);
      this.kept = grown;
    }
    const a = Math.min(this.low, this.high);
    const b = Math.max(this.low, this.high);
    this.push(this.first);
    this.push(a);
    this.push(b);
    this.push(this.last);
  }

  private push(index: number): void {
    if (this.keptLength > 0 && this.kept[this.keptLength - 1] === index) return;
    this.kept[this.keptLength++] = index;
  }
}

/** The M4 reduction of points `start` to `end` (exclusive) of `x` and `y` over [from, to]. */
export function reduceM4(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  view: { readonly from: number; readonly to: number; readonly columns: number },
  start = 0,
  end = x.length,
): M4 {
  const m4 = new M4(view.from, view.to, view.columns);
  m4.addRange(x, y, start, end);
  return m4;
}
