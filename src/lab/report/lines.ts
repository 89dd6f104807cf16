/**
 * A page of line charts for a script that measures something over time (the repository's
 * bench:events draws its consumers' lag with it): the same self-contained page as `wirekit bench
 * --html` — uPlot inlined, the data as a JSON block, the same stylesheet and chart script
 * (charts.ts, its `lines` kind) — so every HTML report of the project opens offline and reads alike.
 * The tables come as Markdown text and are shown as written, since the script has already laid them out.
 */
import { chartScript } from './charts.js';
import { escapeHtml, jsonForScript, pageStyle, uplotAssets } from './html.js';

export interface LineSeries {
  readonly label: string;
  /** [x, y] pairs in increasing x; y null for a gap. */
  readonly points: readonly (readonly [number, number | null])[];
}

export interface LineChart {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly series: readonly LineSeries[];
}

export interface LinesPage {
  readonly title: string;
  /** "label: value" lines under the title: the run's context (command, machine, load). */
  readonly facts: readonly (readonly [string, string])[];
  readonly charts: readonly LineChart[];
  /** Shown under the charts as preformatted text (Markdown tables read as they are). */
  readonly text?: string;
}

export function linesHtml(page: LinesPage): string {
  const { script, css } = uplotAssets();
  const facts = page.facts
    .map(([label, value]) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>`)
    .join('');
  const charts = page.charts
    .map((_, i) => `<figure><div class="chart" data-chart="lines" data-index="${i}"></div></figure>`)
    .join('\n');
  const text = page.text === undefined ? '' : `<pre class="reason">${escapeHtml(page.text)}</pre>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title>
<style>${css}</style>
<style>${pageStyle}</style>
</head>
<body data-chart-count="${page.charts.length}">
<header>
<h1>${escapeHtml(page.title)}</h1>
<dl>${facts}</dl>
</header>
<main>
<div class="charts">
${charts}
</div>
${text}
</main>
<script type="application/json" id="lab-run">${jsonForScript({ lines: page.charts })}</script>
<script>${script}</script>
<script>${chartScript}</script>
</body>
</html>
`;
}
