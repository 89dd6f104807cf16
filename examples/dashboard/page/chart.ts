/**
 * The uPlot chart and when it redraws. uPlot holds every row (the full-resolution columns), but
 * each series is drawn from its M4 reduction (m4.ts): at most four points per pixel column, which
 * cover the same pixels as the whole line. While the rows come, each series' reducer is fed the new
 * rows for the range asked for at the plot's width, so a draw walks about 4 × width points a series
 * however many rows there are. A zoom (drag across the plot; double-click to go back) or a resize
 * reduces again, from the full-resolution columns of the range in view.
 *
 * The page still reads and draws on one thread, so the first rows are drawn at once (something to
 * look at), later ones at most every `interval` ms and never sooner than four times the last draw
 * took, and the whole data once at the end. "Rendered" is when the last draw has reached the
 * screen: uPlot draws in a microtask after setData and calls its `draw` hook when done; the frame
 * after it is the one that shows it.
 *
 * `reduce: false` draws with uPlot's own line paths from every point, as the page did before, for
 * the benchmark to compare against.
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { M4, reduceM4 } from './m4.js';
import type { AlignedSeries } from './series.js';

export interface ChartOptions {
  /** Sensor ids in series order, and the colour of each. */
  readonly sensors: readonly number[];
  readonly colour: (sensorId: number) => string;
  /** The range asked for, in seconds: the x axis before any zoom. */
  readonly from: number;
  readonly to: number;
  /** What the values are and their unit: the y axis label and the legend's values. */
  readonly quantity: string;
  readonly unit: string;
  /** Least time between progressive redraws, in ms (default 500). */
  readonly interval?: number;
  /** Reduce per pixel column (default); false draws every point with uPlot's own paths. */
  readonly reduce?: boolean;
  /** Called after each draw (heap sampling, say). */
  readonly onDraw?: () => void;
}

/** What the last draw drew: the plot's width in pixel columns and the points of each series. */
export interface Drawn {
  columns: number;
  /** Points in each series' drawn line (null when uPlot drew every point itself). */
  points: (number | null)[];
  /** The x range in view, in seconds. */
  view: [number, number];
}

/** A colour per sensor, adjacent hues told apart by lightness too. */
export function sensorColour(index: number, count: number): string {
  const hue = Math.round((index * 360) / Math.max(1, count));
  return `hsl(${hue} 75% ${index % 2 === 0 ? 38 : 55}%)`;
}

const axisDate = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ');

export class Chart {
  readonly plot: uPlot;
  readonly drawn: Drawn;
  private readonly interval: number;
  private readonly reduce: boolean;
  private readonly onDraw: (() => void) | undefined;
  private readonly from: number;
  private readonly to: number;
  private drawnResolve: (() => void) | undefined;
  private lastDrawEnd = Number.NEGATIVE_INFINITY;
  private lastDrawTook = 0;
  private drawStart = 0;
  /** Rows in the data last handed to uPlot, and whether uPlot has yet to draw it. */
  private rowsSet = -1;
  private pending = false;
  /** Reducers fed as rows come, for the range asked for at the width the plot had then. */
  private readonly streaming: M4[];
  private fed = 0;
  /** Reductions of another view (zoomed, resized), made from the full columns when first drawn. */
  private other: { key: string; reductions: M4[] } | undefined;
  /** Draws of data (the final one included; not uPlot's first, empty one) and their total ms. */
  draws = 0;
  drawMs = 0;
  /** The last draw of new data (the whole data, once finished), in ms. */
  lastDrawMs = 0;
  /** Time spent feeding the reducers as the rows came, in ms (outside drawMs). */
  reduceMs = 0;

  constructor(target: HTMLElement, options: ChartOptions) {
    const { sensors } = options;
    this.interval = options.interval ?? 500;
    this.reduce = options.reduce ?? true;
    this.onDraw = options.onDraw;
    this.from = options.from;
    this.to = options.to;
    this.drawn = { columns: 0, points: sensors.map(() => null), view: [options.from, options.to] };
    const empty: uPlot.AlignedData = [new Float64Array(0), ...sensors.map(() => new Float64Array(0))];
    const valueText = (_: uPlot, value: number | null) =>
      value === null || Number.isNaN(value) ? '–' : `${value.toFixed(2)} ${options.unit}`;
    const reduced: Partial<uPlot.Series> = this.reduce
      ? { paths: (u, seriesIndex) => this.path(u, seriesIndex), auto: false }
      : {};
    this.plot = new uPlot(
      {
        width: Math.max(320, target.clientWidth),
        height: 420,
        legend: { show: true, live: true },
        // Dates on the axis and in the legend in UTC, as the table and the address have them.
        tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
        scales: {
          x: { time: true, ...(this.reduce && { range: (u, min, max) => this.xRange(u, min, max) }) },
          ...(this.reduce && { y: { range: () => this.yRange() } }),
        },
        axes: [{ label: 'time (UTC)' }, { label: `${options.quantity} (${options.unit})` }],
        series: [
          { label: 'time (UTC)', value: (_, seconds) => (seconds === null ? '–' : axisDate(seconds)) },
          ...sensors.map((id) => ({
            label: `sensor ${id}`,
            stroke: options.colour(id),
            width: 1,
            points: { show: false },
            value: valueText,
            ...reduced,
          })),
        ],
        hooks: { draw: [() => this.afterDraw()] },
      },
      empty,
      target,
    );
    const columns = this.columns();
    this.streaming = sensors.map(() => new M4(this.from, this.to, columns));
  }

  /** Offers a progressive redraw of what `series` holds now; draws (and says so) only when it is time. */
  offer(series: AlignedSeries): boolean {
    if (series.length === 0 || this.pending) return false;
    const wait = Math.max(this.interval, 4 * this.lastDrawTook);
    if (this.draws > 0 && performance.now() - this.lastDrawEnd < wait) return false;
    this.setData(series, false);
    return true;
  }

  /**
   * Draws everything and resolves when that draw is on screen, with the time it got there. Data
   * already handed to uPlot (a loader's last batch drew it all) is not drawn a second time.
   */
  async finish(series: AlignedSeries): Promise<number> {
    // The reducers wait for the last instant's rows until the end: it is fed, and drawn, now.
    const unfed = this.reduce && this.fed < series.length;
    if (series.rows !== this.rowsSet || this.pending || unfed) {
      const drawn = new Promise<void>((resolve) => {
        this.drawnResolve = resolve;
      });
      this.setData(series, true);
      await drawn;
      this.drawnResolve = undefined;
    }
    // The frame after the draw presents it; the task after that frame runs once it is painted.
    await new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    return performance.now();
  }

  resize(width: number): void {
    this.plot.setSize({ width: Math.max(320, width), height: this.plot.height });
  }

  destroy(): void {
    this.plot.destroy();
  }

  private setData(series: AlignedSeries, whole: boolean): void {
    if (this.reduce) {
      const started = performance.now();
      this.feed(series, whole);
      this.reduceMs += performance.now() - started;
    }
    this.drawStart = performance.now();
    this.rowsSet = series.rows;
    this.pending = true;
    this.other = undefined;
    this.plot.setData(series.view());
  }

  /**
   * Feeds the reducers the instants placed since the last feed. The last instant may still be
   * waiting for some sensors' rows (they come in the next batch), so it waits too, unless whole.
   */
  private feed(series: AlignedSeries, whole: boolean): void {
    const until = whole ? series.length : series.length - 1;
    if (until <= this.fed) return;
    const [x, ...ys] = series.view() as Float64Array[];
    this.streaming.forEach((m4, s) => {
      m4.addRange(x as Float64Array, ys[s] as Float64Array, this.fed, until);
    });
    this.fed = until;
  }

  private afterDraw(): void {
    // uPlot also draws on creation, resize, zoom and cursor moves: only the draws of new data count.
    if (!this.pending) return;
    this.pending = false;
    const now = performance.now();
    this.lastDrawEnd = now;
    this.lastDrawTook = now - this.drawStart;
    this.lastDrawMs = this.lastDrawTook;
    this.draws++;
    this.drawMs += this.lastDrawTook;
    this.onDraw?.();
    this.drawnResolve?.();
  }

  /** Pixel columns of the plotting area (canvas pixels: what a line is drawn on). */
  private columns(): number {
    return Math.max(1, Math.round(this.plot.bbox.width));
  }

  /** The range asked for when uPlot fits the data (on load, on double-click); a zoom's range as is. */
  private xRange(u: uPlot, min: number | null, max: number | null): uPlot.Range.MinMax {
    const x = u.data[0];
    const fitting = min === null || max === null || (min === x[0] && max === x[x.length - 1]);
    this.drawn.view = fitting ? [this.from, this.to] : [min, max];
    return this.drawn.view;
  }

  /** The y range of the reduced lines in view (the same as the full data's: M4 keeps the extremes). */
  private yRange(): uPlot.Range.MinMax {
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    this.reductions().forEach((m4, s) => {
      if (this.plot.series[s + 1]?.show === false) return;
      min = Math.min(min, m4.min);
      max = Math.max(max, m4.max);
    });
    if (min > max) return [0, 1];
    return uPlot.rangeNum(min, max, 0.05, true);
  }

  /** Each series' reduction for the view and width now: the streaming one, or one made for it. */
  private reductions(): M4[] {
    const [from, to] = this.drawn.view;
    const columns = this.columns();
    this.drawn.columns = columns;
    const first = this.streaming[0];
    if (first === undefined || (from === first.from && to === first.to && columns === first.columns)) {
      return this.streaming;
    }
    const x = this.plot.data[0];
    const key = `${from} ${to} ${columns} ${x.length}`;
    if (this.other?.key !== key) {
      // The rows in view and one either side, so each line runs to the plot's edges.
      const start = Math.max(0, lowerBound(x, from) - 1);
      const end = Math.min(x.length, lowerBound(x, to, start) + 1);
      const view = { from, to: Math.max(to, from + 1e-9), columns };
      const reductions = this.plot.data
        .slice(1)
        .map((y) => reduceM4(x, y as ArrayLike<number>, view, start, end));
      this.other = { key, reductions };
    }
    return this.other.reductions;
  }

  /** One series' line through its reduced points, in canvas pixels. */
  private path(u: uPlot, seriesIndex: number): uPlot.Series.Paths {
    const reduction = this.reductions()[seriesIndex - 1];
    const stroke = new Path2D();
    if (reduction === undefined) return { stroke };
    const x = u.data[0];
    const y = u.data[seriesIndex] as ArrayLike<number>;
    const indices = reduction.indices();
    for (let k = 0; k < indices.length; k++) {
      const i = indices[k] as number;
      // Whole canvas pixels, as uPlot's own paths have them (it offsets odd widths by half a pixel).
      // x is floored, as the reducer's columns are: a column's points then share one x, and its
      // extremes are one vertical stroke, the cheapest line to rasterize (rounded, a column's later
      // points fell in the next pixel, and its strokes slanted, which cost twice as much).
      const px = Math.floor(u.valToPos(x[i] as number, 'x', true));
      const py = Math.round(u.valToPos(y[i] as number, 'y', true));
      if (k === 0) stroke.moveTo(px, py);
      else stroke.lineTo(px, py);
    }
    this.drawn.points[seriesIndex - 1] = indices.length;
    return { stroke, fill: null, clip: null, band: null, flags: 0 };
  }
}

/** The first index whose value is ≥ `value` in ascending `values`. */
function lowerBound(values: ArrayLike<number>, value: number, start = 0): number {
  let low = start;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((values[middle] as number) < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
