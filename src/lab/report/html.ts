/**
 * `wirekit bench --html FILE`: one self-contained page. uPlot's script and stylesheet are read from
 * the installed package and inlined, and the run travels as a JSON block, so the file opens offline,
 * from an archive or a CI artifact, years later, with nothing to fetch. The tables are plain HTML and
 * read without JavaScript; the charts are drawn on top by charts.ts.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { failureKindText } from '../failure.js';
import { reportLegend } from '../legend.js';
import { leftOut, marginLabel, recommend } from '../recommend.js';
import type { LabRun } from '../run.js';
import { chartScript } from './charts.js';
import { runFacts, sections, tableHeaders } from './figures.js';

const chartKinds = ['scatter', 'compressed', 'throughput'] as const;

export const pageStyle = `
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #222;
  margin: 0 auto; padding: 1.5rem; max-width: 1200px; }
h1 { margin: 0 0 .5rem; } h2 { margin: 2.5rem 0 .25rem; border-bottom: 1px solid #ddd; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .1rem 1rem; margin: 0; }
dt { font-weight: 600; } dd { margin: 0; }
.note, .caption { color: #555; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(460px, 1fr)); gap: 1rem; }
figure { margin: 0; } .chart { min-height: 320px; }
.uplot .u-legend { white-space: normal; }
/* The figures fit the page (a laptop's 1280 px and up): cells wrap between figures, never inside
   one (a number and its unit are joined by a no-break space), and headers wrap between words. On a
   narrower window the table scrolls in its own box with the format column held in place. */
.table-wrap { overflow-x: auto; margin-top: 1rem; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
table.figures { width: 100%; font-size: 13px; }
th, td { padding: .25rem .45rem; border-bottom: 1px solid #eee; text-align: right; }
th { background: #f6f6f6; } th:first-child, td:first-child, td:last-child { text-align: left; }
table.figures th:first-child, table.figures td:first-child { position: sticky; left: 0; background: #fff; }
table.figures th:first-child { background: #f6f6f6; }
table.figures .figure { white-space: nowrap; }
table.figures .spread { display: block; font-size: 11px; color: #666; }
table.figures td:last-child { min-width: 6em; max-width: 14em; }
td.loss, .flag { color: #b00020; font-weight: 600; }
.warning { border-left: 4px solid #b00020; padding: .25rem .75rem; background: #fff4f4; }
.legend dt { font-family: ui-monospace, monospace; }
pre.reason { white-space: pre-wrap; background: #f6f6f6; padding: .5rem; margin: .25rem 0 1rem; }
/* The reasons are sentences: they wrap instead of widening the page. */
table.advice { white-space: normal; } table.advice th, table.advice td { text-align: left; vertical-align: top; }
`;

export function labHtml(run: LabRun): string {
  const { script, css } = uplotAssets();
  const parts = sections(run);
  const chartCount = parts.length * chartKinds.length;
  const facts = runFacts(run)
    .map(([label, value]) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>`)
    .join('');
  const body = parts.map((section) => {
    const charts = chartKinds
      .map(
        (kind) =>
          `<figure><div class="chart" data-chart="${kind}" data-dataset="${escapeHtml(section.dataset)}"></div></figure>`,
      )
      .join('\n');
    const head = `<tr>${tableHeaders.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('')}</tr>`;
    const rows = section.rows
      .map((row) => {
        const cells = row.map((cell, i) => {
          const loss = i === row.length - 1 && cell.startsWith('LOSS');
          return `<td${loss ? ' class="loss"' : ''}>${figureHtml(cell)}</td>`;
        });
        return `<tr>${cells.join('')}</tr>`;
      })
      .join('\n');
    return `<section class="dataset" id="dataset-${escapeHtml(section.dataset)}">
<h2>${escapeHtml(section.dataset)}</h2>
<p class="caption">${escapeHtml(section.caption)}</p>
<div class="charts">
${charts}
</div>
<div class="table-wrap"><table class="figures">
<thead>${head}</thead>
<tbody>
${rows}
</tbody></table></div>
</section>`;
  });
  const advice = recommend(run);
  const marginCell = (r: (typeof advice)[number]) => {
    if (r.margin === undefined) return '<td></td>';
    const label = escapeHtml(marginLabel(r.margin));
    const flagged = r.margin.verdict !== 'clear';
    return `<td>${flagged ? `<span class="flag">${label}</span>` : label}: ${escapeHtml(r.margin.text)}</td>`;
  };
  const missing = leftOut(run);
  const recommendations =
    advice.length === 0
      ? ''
      : `<section id="recommendations"><h2>Recommendations</h2><table class="advice"><thead><tr><th scope="col">boundary</th><th scope="col">format</th><th scope="col">because</th><th scope="col">margin over the next format</th></tr></thead><tbody class="advice">${advice
          .map(
            (r) =>
              `<tr><td>${escapeHtml(r.boundary)}</td><td>${escapeHtml(r.format ?? 'no pick')}</td><td>${escapeHtml(r.because)}${r.apply === undefined ? '' : `<br><code>${escapeHtml(r.apply)}</code>`}</td>${marginCell(r)}</tr>`,
          )
          .join(
            '',
          )}</tbody></table>${missing === undefined ? '' : `<p class="note">${escapeHtml(missing)}</p>`}</section>`;
  const failures =
    run.failures.length === 0
      ? ''
      : `<section id="failures"><h2>Cases that could not run</h2><ul>${run.failures
          .map(
            (f) =>
              `<li>${escapeHtml(`${f.dataset} × ${f.subject} (${failureKindText(f.kind)}):`)}<pre class="reason">${escapeHtml(f.error)}</pre></li>`,
          )
          .join('')}</ul></section>`;
  const notes = (run.notes ?? [])
    .map((note) => `<p class="${note.startsWith('WARNING') ? 'warning' : 'note'}">${escapeHtml(note)}</p>`)
    .join('\n');
  const legend = `<details class="legend" open><summary>How to read the tables</summary><dl>${reportLegend
    .map(([term, meaning]) => `<dt>${escapeHtml(term)}</dt><dd>${escapeHtml(meaning)}</dd>`)
    .join('')}</dl></details>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>wirekit bench ${escapeHtml(run.date)}</title>
<style>${css}</style>
<style>${pageStyle}</style>
</head>
<body data-chart-count="${chartCount}">
<header>
<h1>wirekit bench</h1>
<dl>${facts}</dl>
${notes}
${legend}
</header>
<main>
${recommendations}
${body.join('\n')}
${failures}
</main>
<script type="application/json" id="lab-run">${jsonForScript(run)}</script>
<script>${script}</script>
<script>${chartScript}</script>
</body>
</html>
`;
}

/** uPlot's browser build and stylesheet, from the installed package (a dependency, so always there). */
export function uplotAssets(): { script: string; css: string } {
  const require = createRequire(import.meta.url);
  const read = (file: string) => readFileSync(require.resolve(`uplot/dist/${file}`), 'utf8');
  const script = read('uPlot.iife.min.js');
  const css = read('uPlot.min.css');
  // An inlined "</script" or "</style" would end the element early and spill code into the page.
  if (/<\/script/i.test(script) || /<\/style/i.test(css)) throw new Error('uPlot assets cannot be inlined');
  return { script, css };
}

/**
 * JSON inside <script>: the HTML parser ends the element at the first "</script", whatever JSON
 * thinks, so every "<" becomes \u003c (still the same string to JSON.parse); "<!--" is covered too.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/**
 * A cell of the figures table: a number kept on one line with its unit (a no-break space), and a
 * timing's spread "(p75 / p99)" on a line of its own under its median, so that a narrow column
 * wraps between figures, never inside one.
 */
function figureHtml(text: string): string {
  const joined = (part: string) =>
    escapeHtml(part).replace(/(\d) (?=(?:ns|µs|ms|s|B|KB|MB|GB)(?![A-Za-z]))/g, '$1\u00a0');
  const timing = /^(.+?) (\([^()]+ \/ [^()]+\))$/.exec(text);
  if (timing === null) return joined(text);
  return `<span class="figure">${joined(timing[1] as string)}</span><span class="spread">${joined(timing[2] as string)}</span>`;
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
