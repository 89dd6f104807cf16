/**
 * The chart's data as uPlot wants it, "aligned": one x array of unique timestamps (seconds) and one
 * y array per sensor, index i of every array belonging to the same instant. Rows arrive in
 * (ts, sensor_id) order, every instant once per sensor, so a row either opens the next instant
 * or fills a sensor's slot in the current one: no lookup by time, no sort, no join.
 *
 * Columns are typed arrays; `view()` hands uPlot subarrays of the filled part, which cost nothing
 * to make, so a progressive redraw copies no data. Slots no row filled stay NaN. The arrays start
 * small and, when full, grow to what the rest of the range will need at the density seen so far
 * (rows come oldest first, and the older months are the denser ones, so one estimate is usually
 * the last): growing by doubling copied and refilled 26 arrays up to seven times for a year.
 */
import type uPlot from 'uplot';

export class AlignedSeries {
  /** Sensor ids in series order (the chart's series 1..n). */
  readonly sensors: readonly number[];
  /** Rows placed so far. */
  rows = 0;
  /** Instants (x values) so far. */
  length = 0;
  private x: Float64Array;
  private ys: Float64Array[];
  /** Series index of each sensor id, -1 for ids not charted. */
  private readonly slotOf: Int32Array;
  private lastSeconds = Number.NEGATIVE_INFINITY;
  private firstSeconds = Number.NaN;
  /** The end of the range asked for (exclusive), in seconds: what the estimate counts up to. */
  private readonly endSeconds: number;

  constructor(sensors: readonly number[], endSeconds = Number.NaN, capacity = 4096) {
    this.sensors = sensors;
    this.endSeconds = endSeconds;
    const maxId = Math.max(0, ...sensors);
    this.slotOf = new Int32Array(maxId + 1).fill(-1);
    sensors.forEach((id, index) => {
      this.slotOf[id] = index;
    });
    this.x = new Float64Array(capacity);
    this.ys = sensors.map(() => new Float64Array(capacity).fill(Number.NaN));
  }

  /**
   * Opens the instant `seconds` when it differs from the current one. Rows must come in time order:
   * an instant earlier than the last would make a chart whose lines double back, so it is refused.
   */
  at(seconds: number): void {
    if (seconds === this.lastSeconds) return;
    if (Number.isNaN(seconds)) throw new Error('a row whose timestamp is not a date');
    if (!(seconds > this.lastSeconds)) {
      throw new Error(
        `rows out of time order: ${new Date(seconds * 1000).toISOString()} after ${this.lastIso()}`,
      );
    }
    if (this.length === this.x.length) this.grow();
    if (this.length === 0) this.firstSeconds = seconds;
    this.x[this.length++] = seconds;
    this.lastSeconds = seconds;
  }

  /** Puts one sensor's value at the current instant (call `at` first). */
  put(sensorId: number, value: number): void {
    // Ids past the table, negative, fractional or missing (JSON) all read as undefined.
    const slot = this.slotOf[sensorId] ?? -1;
    if (slot < 0) throw new Error(`a row for sensor ${sensorId}, which is not charted`);
    (this.ys[slot] as Float64Array)[this.length - 1] = value;
    this.rows++;
  }

  /** The filled part of every column, as uPlot's aligned data (views, not copies). */
  view(): uPlot.AlignedData {
    const n = this.length;
    return [this.x.subarray(0, n), ...this.ys.map((y) => y.subarray(0, n))];
  }

  /** Values the chart holds: filled slots (a slot no row reached is NaN, a gap in its line). */
  points(): number {
    let count = 0;
    for (const y of this.ys) {
      for (let i = 0; i < this.length; i++) if (!Number.isNaN(y[i])) count++;
    }
    return count;
  }

  private grow(): void {
    const capacity = this.nextCapacity();
    const x = new Float64Array(capacity);
    x.set(this.x);
    this.x = x;
    this.ys = this.ys.map((old) => {
      const y = new Float64Array(capacity).fill(Number.NaN, old.length);
      y.set(old);
      return y;
    });
  }

  /**
   * Room for the rest of the range at the density so far (10% spare), or double without a range.
   * Never more than four times the present size at once: a first stretch of rows much denser than
   * the rest (or a server that lies) must not make the page allocate gigabytes.
   */
  private nextCapacity(): number {
    const now = this.x.length;
    const elapsed = this.lastSeconds - this.firstSeconds;
    const remaining = this.endSeconds - this.lastSeconds;
    if (!(elapsed > 0) || !(remaining >= 0)) return now * 2;
    const estimate = Math.ceil(now + ((remaining * this.length) / elapsed) * 1.1);
    return Math.min(4 * now, Math.max(estimate, Math.ceil(now * 1.25)));
  }

  private lastIso(): string {
    return new Date(this.lastSeconds * 1000).toISOString();
  }
}
