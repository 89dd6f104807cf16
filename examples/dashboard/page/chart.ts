/**
 * The uPlot chart and when it redraws. A redraw walks every point placed so far (about 100 ms for
 * 5 M points here), and the page reads and draws on one thread: while it draws, the bytes wait.
 * Redrawing on every batch would spend more time drawing than reading. So the first rows are
 * drawn at once (something to look at), later ones at most every `interval` ms and never sooner
 * than four times the last draw took (drawing gets at most a fifth of the time, however slow it
 * is), and the whole data once at the end.
 *
 * "Rendered" is when the last draw has reached the screen: uPlot draws in a microtask after
 * setData and calls its `draw` hook when done; the frame after it is the one that shows it.
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { AlignedSeries } from './series.js';

export interface ChartOptions {
  /** Least time between progressive redraws, in ms (default 500). */
  readonly interval?: number;
  /** Called after each draw (heap sampling, say). */
  readonly onDraw?: () => void;
}

export class Chart {
  readonly plot: uPlot;
  private readonly interval: number;
  private readonly onDraw: (() => void) | undefined;
  private drawn: (() => void) | undefined;
  private lastDrawEnd = Number.NEGATIVE_INFINITY;
  private lastDrawTook = 0;
  private drawStart = 0;
  /** Rows in the data last handed to uPlot, and whether uPlot has yet to draw it. */
  private rowsSet = -1;
  private pending = false;
  /** Draws of data (the final one included; not uPlot's first, empty one) and their total ms. */
  draws = 0;
  drawMs = 0;

  constructor(target: HTMLElement, sensors: readonly number[], options: ChartOptions = {}) {
    this.interval = options.interval ?? 500;
    this.onDraw = options.onDraw;
    const empty: uPlot.AlignedData = [new Float64Array(0), ...sensors.map(() => new Float64Array(0))];
    this.plot = new uPlot(
      {
        width: Math.max(320, target.clientWidth),
        height: 420,
        legend: { show: false },
        scales: { x: { time: true } },
        axes: [{}, { label: 'value' }],
        series: [
          {},
          ...sensors.map((id, i) => ({
            label: `sensor ${id}`,
            stroke: `hsl(${Math.round((i * 360) / sensors.length)} 70% 45%)`,
            width: 1,
            points: { show: false },
          })),
        ],
        hooks: {
          draw: [
            () => {
              // uPlot also draws on creation and resize: only the draws of new data count.
              if (!this.pending) return;
              this.pending = false;
              const now = performance.now();
              this.lastDrawEnd = now;
              this.lastDrawTook = now - this.drawStart;
              this.draws++;
              this.drawMs += this.lastDrawTook;
              this.onDraw?.();
              this.drawn?.();
            },
          ],
        },
      },
      empty,
      target,
    );
  }

  /** Offers a progressive redraw of what `series` holds now; draws (and says so) only when it is time. */
  offer(series: AlignedSeries): boolean {
    if (series.length === 0 || this.pending) return false;
    const wait = Math.max(this.interval, 4 * this.lastDrawTook);
    if (this.draws > 0 && performance.now() - this.lastDrawEnd < wait) return false;
    this.setData(series);
    return true;
  }

  /**
   * Draws everything and resolves when that draw is on screen, with the time it got there. Data
   * already handed to uPlot (a loader's last batch drew it all) is not drawn a second time.
   */
  async finish(series: AlignedSeries): Promise<number> {
    if (series.rows !== this.rowsSet || this.pending) {
      const drawn = new Promise<void>((resolve) => {
        this.drawn = resolve;
      });
      if (series.rows !== this.rowsSet) this.setData(series);
      await drawn;
      this.drawn = undefined;
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

  private setData(series: AlignedSeries): void {
    this.drawStart = performance.now();
    this.rowsSet = series.rows;
    this.pending = true;
    this.plot.setData(series.view());
  }
}
