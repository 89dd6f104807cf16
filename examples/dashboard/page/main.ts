/**
 * The dashboard page: one uPlot line chart of the chosen sensors' temperatures over the chosen
 * range, a legend, loaded in the chosen format, with a readout of what the load cost. Each
 * format's loader is its own module, imported when first chosen, so a page that only ever loads
 * JSON never downloads apache-arrow.
 *
 * `?format=arrow|json|ndjson&months=N` starts a load on open, `sensors=1,2,3` narrows it (the
 * server then sends those sensors' rows only) and `reduce=off` draws every point with uPlot's own
 * paths instead of the per-pixel-column reduction (for the benchmark's "before").
 * For automation the page keeps `window.wirekitDemo` up to date (`{ state: 'loading' }`, then
 * `'done'` with the measurements or `'error'` with the message and wirekit code), the chart in
 * `window.wirekitDemoChart` (its `data` is every row loaded, at full resolution) and what the last
 * draw drew in `window.wirekitDemoDrawn` (the plot's pixel columns and each series' points).
 */
import type uPlot from 'uplot';
import { Chart, type Drawn, sensorColour } from './chart.js';
import { LoadError, type Loader } from './loader.js';
import { HeapSampler, wireSize } from './metrics.js';
import { monthsBefore } from './range.js';
import { AlignedSeries } from './series.js';
import './style.css';

const formats = ['arrow', 'json', 'ndjson'] as const;
type Format = (typeof formats)[number];
const ranges = [1, 2, 6, 12, 24] as const;

const loaders: Record<Format, () => Promise<{ load: Loader }>> = {
  arrow: () => import('./formats/arrow.js'),
  json: () => import('./formats/json.js'),
  ndjson: () => import('./formats/ndjson.js'),
};

interface Meta {
  readonly from: string;
  readonly to: string;
  readonly months: number;
  readonly sensors: readonly number[];
  readonly rows: number;
  /** What a value is, and its unit ('temperature', '°C'). */
  readonly quantity: string;
  readonly unit: string;
}

export type DemoState =
  | { readonly state: 'idle' }
  | { readonly state: 'loading'; readonly format: string; readonly months: number }
  | {
      readonly state: 'done';
      readonly format: Format;
      readonly months: number;
      readonly from: string;
      readonly to: string;
      readonly rows: number;
      readonly points: number;
      /** Body bytes on the wire (compressed size when compressed); null if the browser did not say. */
      readonly bytes: number | null;
      readonly transferBytes: number | null;
      readonly decodedBytes: number | null;
      /** Request start to the first rows placed in the chart's arrays. */
      readonly firstBatchMs: number;
      /** Request start to the last draw on screen. */
      readonly renderedMs: number;
      readonly rowsPerSecond: number;
      readonly heapPeakBytes: number | null;
      /** Time to load the format's module, before the request started (not in renderedMs). */
      readonly moduleMs: number;
      readonly draws: number;
      /** Time the draws took together, within renderedMs. */
      readonly drawMs: number;
      /** The last draw, of the whole data (setData to uPlot's draw hook), within drawMs. */
      readonly lastDrawMs: number;
      /** Time spent reducing the rows per pixel column as they came, within renderedMs (0 with reduce=off). */
      readonly reduceMs: number;
      /** Whether the lines were drawn reduced per pixel column. */
      readonly reduced: boolean;
    }
  | {
      readonly state: 'error';
      readonly format: string;
      readonly message: string;
      readonly code?: string;
      /** Request start to the failure, when the request had started. */
      readonly elapsedMs?: number;
    };

declare global {
  interface Window {
    wirekitDemo: DemoState;
    wirekitDemoChart: uPlot | undefined;
    wirekitDemoDrawn: Drawn | undefined;
  }
}

const element = <T extends HTMLElement>(id: string): T => {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`the page has no #${id}`);
  return found as T;
};

const form = element<HTMLFormElement>('controls');
const chartPlace = element<HTMLDivElement>('chart');
const errorLine = element<HTMLParagraphElement>('error');
const sensorChoices = element<HTMLFieldSetElement>('sensors');
const out = {
  state: element('out-state'),
  first: element('out-first'),
  rendered: element('out-rendered'),
  rows: element('out-rows'),
  rate: element('out-rate'),
  bytes: element('out-bytes'),
  heap: element('out-heap'),
};

window.wirekitDemo = { state: 'idle' };
let chart: Chart | undefined;
let current: AbortController | undefined;
let meta: Promise<Meta> | undefined;

function setState(state: DemoState): void {
  window.wirekitDemo = state;
  out.state.textContent = state.state;
  document.body.dataset.state = state.state;
}

/** /meta once per page: the table's range and sensors. */
function getMeta(): Promise<Meta> {
  meta ??= fetch('/meta', { headers: { accept: 'application/json' } }).then(async (response) => {
    if (!response.ok)
      throw new LoadError(`GET /meta answered HTTP ${response.status}`, { status: response.status });
    return (await response.json()) as Meta;
  });
  meta.catch(() => {
    meta = undefined;
  });
  return meta;
}

async function run(format: Format, months: number, sensorsParam: string | null): Promise<void> {
  current?.abort();
  const controller = new AbortController();
  current = controller;
  const stale = () => current !== controller;
  setState({ state: 'loading', format, months });
  showError(undefined);
  clearReadout();
  chart?.destroy();
  chart = undefined;
  window.wirekitDemoChart = undefined;
  window.wirekitDemoDrawn = undefined;

  let heap: HeapSampler | undefined;
  let start: number | undefined;
  try {
    const table = await getMeta();
    const { from, to, sensors } = await rangeOf(months, sensorsParam);
    const moduleStart = performance.now();
    const { load } = await loaders[format]();
    const moduleMs = performance.now() - moduleStart;
    if (stale()) return;

    const address = new URLSearchParams(location.search);
    const redraw = Number(address.get('redraw') ?? Number.NaN);
    const drawing = new Chart(chartPlace, {
      sensors,
      colour: (id) => sensorColour(table.sensors.indexOf(id), table.sensors.length),
      from: Date.parse(from) / 1000,
      to: Date.parse(to) / 1000,
      quantity: table.quantity,
      unit: table.unit,
      reduce: address.get('reduce') !== 'off',
      onDraw: () => heap?.sample(),
      ...(redraw >= 0 && { interval: redraw }),
    });
    chart = drawing;
    window.wirekitDemoChart = drawing.plot;
    window.wirekitDemoDrawn = drawing.drawn;
    const series = new AlignedSeries(sensors, Date.parse(to) / 1000);
    const query: Record<string, string> = { from, to };
    if (sensorsParam !== null) query.sensors = sensorsParam;
    performance.clearResourceTimings();
    heap = new HeapSampler();

    const started = performance.now();
    start = started;
    let firstBatchMs: number | undefined;
    await load(
      { query, signal: controller.signal },
      {
        series,
        batch() {
          if (firstBatchMs === undefined && series.rows > 0) firstBatchMs = performance.now() - started;
          heap?.sampleEvery(50);
          if (drawing.offer(series)) showProgress(series.rows, performance.now() - started);
        },
      },
    );
    heap.sample();
    const renderedMs = (await drawing.finish(series)) - started;
    const heapPeakBytes = heap.stop();
    const size = await wireSize('/series');
    if (stale()) return;
    const done: DemoState = {
      state: 'done',
      format,
      months,
      from,
      to,
      rows: series.rows,
      points: series.points(),
      bytes: size?.bytes ?? null,
      transferBytes: size?.transferBytes ?? null,
      decodedBytes: size?.decodedBytes ?? null,
      firstBatchMs: firstBatchMs ?? renderedMs,
      renderedMs,
      rowsPerSecond: series.rows / (renderedMs / 1000),
      heapPeakBytes,
      moduleMs,
      draws: drawing.draws,
      drawMs: drawing.drawMs,
      lastDrawMs: drawing.lastDrawMs,
      reduceMs: drawing.reduceMs,
      reduced: address.get('reduce') !== 'off',
    };
    showDone(done);
    setState(done);
  } catch (error) {
    const elapsedMs = start === undefined ? undefined : performance.now() - start;
    heap?.stop();
    if (stale()) return;
    // No chart rather than one cut short that looks whole.
    chart?.destroy();
    chart = undefined;
    window.wirekitDemoChart = undefined;
    window.wirekitDemoDrawn = undefined;
    const message = error instanceof Error ? error.message : String(error);
    const code = error instanceof LoadError ? error.code : undefined;
    showError(`${format} load failed: ${message}${code === undefined ? '' : ` (${code})`}`);
    setState({
      state: 'error',
      format,
      message,
      ...(code !== undefined && { code }),
      ...(elapsedMs !== undefined && { elapsedMs }),
    });
  } finally {
    if (current === controller) current = undefined;
  }
}

async function rangeOf(
  months: number,
  sensorsParam: string | null,
): Promise<{ from: string; to: string; sensors: readonly number[] }> {
  const table = await getMeta();
  const asked = sensorsParam?.split(',').map(Number);
  // Ids the server will refuse still go to it (it says why); the chart then never draws.
  const sensors = asked?.every((id) => Number.isInteger(id) && id > 0) ? asked : table.sensors;
  return { from: monthsBefore(table.to, months), to: table.to, sensors };
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const mb = (value: number | null) => (value === null ? 'n/a' : `${(value / 1e6).toFixed(2)} MB`);
// One formatter: toLocaleString makes a new one per call, 0.1 ms each.
const integers = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const count = (value: number) => integers.format(value);

function clearReadout(): void {
  for (const [name, place] of Object.entries(out)) if (name !== 'state') place.textContent = '–';
}

function showProgress(rows: number, elapsedMs: number): void {
  out.rows.textContent = count(rows);
  out.rate.textContent = elapsedMs > 0 ? count(rows / (elapsedMs / 1000)) : '–';
}

function showDone(done: Extract<DemoState, { state: 'done' }>): void {
  out.first.textContent = ms(done.firstBatchMs);
  out.rendered.textContent = ms(done.renderedMs);
  out.rows.textContent = count(done.rows);
  out.rate.textContent = count(done.rowsPerSecond);
  out.bytes.textContent =
    done.bytes !== null && done.decodedBytes !== null && done.decodedBytes !== done.bytes
      ? `${mb(done.bytes)} (${mb(done.decodedBytes)} decoded)`
      : mb(done.bytes);
  out.heap.textContent = mb(done.heapPeakBytes);
}

function showError(message: string | undefined): void {
  errorLine.hidden = message === undefined;
  errorLine.textContent = message ?? '';
}

function chosen(name: string): string {
  return (form.elements.namedItem(name) as RadioNodeList).value;
}

function choose(name: string, value: string): void {
  (form.elements.namedItem(name) as RadioNodeList).value = value;
}

/**
 * One checkbox per sensor of the table, in its line's colour, checked as the address asks (all when
 * it does not say). Loading sends the checked ones as `sensors`, so the server sends their rows only.
 */
async function offerSensors(): Promise<void> {
  const table = await getMeta();
  const asked = new URLSearchParams(location.search).get('sensors')?.split(',');
  const boxes = table.sensors.map((id, index) => {
    const label = document.createElement('label');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.name = 'sensor';
    box.value = String(id);
    box.checked = asked === undefined || asked.includes(String(id));
    const swatch = document.createElement('span');
    swatch.className = 'swatch';
    swatch.style.background = sensorColour(index, table.sensors.length);
    label.append(box, swatch, ` ${id}`);
    return label;
  });
  const all = document.createElement('button');
  all.type = 'button';
  all.textContent = 'all';
  const none = document.createElement('button');
  none.type = 'button';
  none.textContent = 'none';
  const check = (checked: boolean) => {
    for (const box of checkedBoxes(false)) box.checked = checked;
  };
  all.addEventListener('click', () => check(true));
  none.addEventListener('click', () => check(false));
  sensorChoices.append(...boxes, all, none);
}

function checkedBoxes(onlyChecked = true): HTMLInputElement[] {
  const boxes = [...sensorChoices.querySelectorAll<HTMLInputElement>('input[name=sensor]')];
  return onlyChecked ? boxes.filter((box) => box.checked) : boxes;
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const format = chosen('format') as Format;
  const months = Number(chosen('months'));
  const params = new URLSearchParams(location.search);
  params.set('format', format);
  params.set('months', String(months));
  const boxes = checkedBoxes(false);
  const checked = checkedBoxes();
  if (boxes.length > 0 && checked.length === 0) {
    showError('Choose at least one sensor.');
    return;
  }
  // Every sensor is the default: the address names them only when some are left out.
  if (checked.length < boxes.length) params.set('sensors', checked.map((box) => box.value).join(','));
  else if (boxes.length > 0) params.delete('sensors');
  history.replaceState(null, '', `?${params}`);
  void run(format, months, params.get('sensors'));
});

window.addEventListener('resize', () => chart?.resize(chartPlace.clientWidth));

/** A load asked for in the address: `?format=…&months=…`. */
function startFromAddress(): void {
  const params = new URLSearchParams(location.search);
  if (!params.has('format') && !params.has('months')) return;
  const format = params.get('format') ?? 'arrow';
  const monthsText = params.get('months');
  const months = Number(monthsText ?? 1);
  if (!formats.includes(format as Format)) {
    setState({ state: 'error', format, message: `unknown format ${format}` });
    showError(`Unknown format "${format}": choose one of ${formats.join(', ')}.`);
    return;
  }
  if (!Number.isInteger(months) || months < 1) {
    setState({ state: 'error', format, message: 'months must be a whole number from 1' });
    showError(`months must be a whole number from 1, not "${monthsText}".`);
    return;
  }
  choose('format', format);
  if ((ranges as readonly number[]).includes(months)) choose('months', String(months));
  void run(format as Format, months, params.get('sensors'));
}

offerSensors().catch((error: unknown) => {
  showError(
    `the table's sensors could not be read: ${error instanceof Error ? error.message : String(error)}`,
  );
});
startFromAddress();
