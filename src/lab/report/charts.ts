/**
 * The browser half of the HTML report: plain JavaScript that reads the run from the page's JSON
 * block and draws every `.chart` placeholder with uPlot. It is a string, not a module, because the
 * report must be one file that opens offline, with nothing to fetch.
 *
 * Each placeholder names its chart kind and dataset (a `lines` chart, which other reports draw
 * through lines.ts, names its index in the page's `lines` list instead); when the last chart has drawn, <body> gets
 * data-chart-ready="N" so that a test (or a person) can tell the page finished, not merely loaded.
 * Each series has its own colour (palette.ts) and its name in the chart's legend.
 */
import { colourOrder, seriesPalette } from './palette.js';

export const chartScript = `(() => {
  const run = JSON.parse(document.getElementById('lab-run').textContent);
  const palette = ${JSON.stringify(seriesPalette)};
  const colourOrder = ${JSON.stringify(colourOrder)};
  // A format's colour is the same in every chart: from its subject's place in the lab's list.
  const colourOf = (r, i) => {
    const at = colourOrder.indexOf(r.spec.subject);
    return palette[(at === -1 ? colourOrder.length + i : at) % palette.length];
  };
  const compressors = ['snappy', 'lz4', 'zstd', 'gzip', 'brotli'];
  const byDataset = new Map();
  for (const r of run.results || []) {
    if (!byDataset.has(r.spec.dataset)) byDataset.set(r.spec.dataset, []);
    byDataset.get(r.spec.dataset).push(r);
  }
  const label = (r) => r.label + (r.implementation === 'wirekit' ? '' : ' *');
  const places = [...document.querySelectorAll('.chart')];
  const drawn = new Set();
  const markReady = () => {
    if (drawn.size === places.length) document.body.setAttribute('data-chart-ready', String(places.length));
  };
  const base = (place, title) => ({
    title,
    width: Math.max(320, Math.min(920, place.clientWidth || 920)),
    height: 320,
    // A colour key, not a live readout: the exact figures are in the table under the charts.
    legend: { live: false },
    hooks: { draw: [() => { drawn.add(place); markReady(); }] },
  });
  const fmt = (digits, unit) => (u, splits) => splits.map((v) => v == null ? '' : v.toFixed(digits) + unit);

  // (a) One point per format: x = bytes / JSON bytes, y = round trip / JSON round trip, both ratios,
  // so JSON sits at (1, 1) and "smaller and faster" is the lower-left quadrant.
  function scatter(place, results) {
    const points = results
      .map((r, i) => ({
        name: label(r),
        colour: colourOf(r, i),
        x: r.bytes / r.jsonBytes,
        y: (r.encode.median + r.decode.median) / (r.jsonEncode.median + r.jsonDecode.median),
      }))
      .sort((a, b) => a.x - b.x);
    const xs = points.map((p) => p.x);
    const data = [xs, ...points.map((p, i) => xs.map((_, k) => (k === i ? p.y : null)))];
    const top = Math.max(1, ...points.map((p) => p.y)) * 1.15;
    const right = Math.max(1, ...xs) * 1.15;
    const dpr = devicePixelRatio || 1;
    const opts = Object.assign(base(place, 'Size vs round-trip time (ratio to JSON; lower left is better)'), {
      scales: { x: { time: false, range: [0, right] }, y: { range: [0, top] } },
      axes: [{ label: 'bytes ÷ JSON bytes', values: fmt(1, '×') }, { label: 'round trip ÷ JSON', values: fmt(1, '×') }],
      series: [{ label: 'bytes ratio' }, ...points.map((p, i) => ({
        label: p.name, stroke: p.colour, fill: p.colour, paths: () => null,
        points: { show: true, size: 9, fill: p.colour, stroke: p.colour },
        value: (u, v) => (v == null ? '-' : v.toFixed(2) + '×'),
      }))],
    });
    opts.hooks.draw.unshift((u) => {
      const ctx = u.ctx;
      ctx.save();
      // Dashed lines through JSON's own point, the yardstick every other point is read against.
      ctx.strokeStyle = '#888';
      ctx.setLineDash([4 * dpr, 4 * dpr]);
      ctx.lineWidth = dpr;
      const x1 = u.valToPos(1, 'x', true);
      const y1 = u.valToPos(1, 'y', true);
      ctx.beginPath();
      ctx.moveTo(x1, u.bbox.top); ctx.lineTo(x1, u.bbox.top + u.bbox.height);
      ctx.moveTo(u.bbox.left, y1); ctx.lineTo(u.bbox.left + u.bbox.width, y1);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.font = 11 * dpr + 'px system-ui, sans-serif';
      ctx.fillStyle = '#222';
      points.forEach((p, i) => {
        ctx.fillText(p.name, u.valToPos(p.x, 'x', true) + 7 * dpr, u.valToPos(p.y, 'y', true) - (i % 2 ? -14 : 6) * dpr);
      });
      ctx.restore();
    });
    return new uPlot(opts, data, place);
  }

  // Grouped bars: one group per format, one bar per series, placed by uPlot's bars path builder
  // with explicit offsets (disp.x0) so the bars of a group sit side by side instead of overlapping.
  function groupedBars(place, title, results, series, yLabel, unit) {
    const xs = results.map((_, i) => i);
    const k = series.length;
    const slot = 0.84 / k;
    const opts = Object.assign(base(place, title), {
      scales: { x: { time: false, range: [-0.5, results.length - 0.5] }, y: { range: (u, min, max) => [0, max * 1.1] } },
      axes: [
        { splits: () => xs, values: (u, splits) => splits.map((i) => (results[i] ? label(results[i]) : '')),
          rotate: -30, size: 80, gap: 4, grid: { show: false } },
        { label: yLabel, values: fmt(unit === 'KB' ? 0 : 1, '') },
      ],
      series: [{ label: 'format', value: (u, i) => (results[i] ? label(results[i]) : '') }, ...series.map((s, j) => ({
        label: s.label, fill: palette[j % palette.length], stroke: palette[j % palette.length], width: 0,
        points: { show: false },
        value: (u, v) => (v == null ? '-' : v.toFixed(1) + ' ' + unit),
        paths: uPlot.paths.bars({
          disp: {
            x0: { unit: 1, values: () => xs.map((i) => i - 0.42 + j * slot) },
            size: { unit: 1, values: () => [slot * 0.9] },
          },
        }),
      }))],
    });
    return new uPlot(opts, [xs, ...series.map((s) => results.map(s.value))], place);
  }

  // (b) Sizes in KB: the raw encoding, then after each compressor.
  function compressed(place, results) {
    const kb = (n) => (n == null ? null : n / 1024);
    return groupedBars(place, 'Size per unit, raw and compressed (KB)', results, [
      { label: 'raw', value: (r) => kb(r.bytes) },
      ...compressors.map((c) => ({ label: c, value: (r) => kb(r.compressed[c] && r.compressed[c].bytes) })),
    ], 'KB', 'KB');
  }

  // (c) MB/s of the format's own bytes: encode produces them, decode consumes them.
  function throughput(place, results) {
    const mbps = (r, t) => (t.median > 0 ? r.bytes / 1048576 / (t.median / 1000) : null);
    return groupedBars(place, 'Throughput (MB/s of encoded bytes)', results, [
      { label: 'encode', value: (r) => mbps(r, r.encode) },
      { label: 'decode', value: (r) => mbps(r, r.decode) },
    ], 'MB/s', 'MB/s');
  }

  // (d) Lines over a shared x axis (lines.ts): each series its own points, aligned by uPlot.join,
  // gaps spanned, so series sampled at different moments share one chart.
  function lines(place, chart) {
    const data = uPlot.join(chart.series.map((s) => [s.points.map((p) => p[0]), s.points.map((p) => p[1])]));
    const opts = Object.assign(base(place, chart.title), {
      scales: { x: { time: false }, y: { range: (u, min, max) => [0, Math.max(1, max) * 1.1] } },
      axes: [{ label: chart.xLabel }, { label: chart.yLabel }],
      series: [{ label: chart.xLabel }, ...chart.series.map((s, i) => ({
        label: s.label, stroke: palette[i % palette.length], width: 2, spanGaps: true, points: { show: false },
      }))],
    });
    return new uPlot(opts, data, place);
  }

  const kinds = { scatter, compressed, throughput };
  for (const place of places) {
    try {
      if (place.dataset.chart === 'lines') lines(place, run.lines[Number(place.dataset.index)]);
      else kinds[place.dataset.chart](place, byDataset.get(place.dataset.dataset) || []);
    } catch (error) {
      // A chart that cannot draw says so in place; the tables below still hold every figure.
      place.textContent = 'chart failed: ' + error.message;
      document.body.setAttribute('data-chart-error', error.message);
    }
  }
  markReady();
})();`;
