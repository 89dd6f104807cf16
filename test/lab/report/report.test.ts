/**
 * The Markdown and HTML reports on a real lab run (test/fixtures/lab-run.json: a quick run of six
 * subjects on records and orders, plus one failure whose text tries to break out of the page).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, test } from 'vitest';
import { labHtml } from '../../../src/lab/report/html.js';
import { labMarkdown } from '../../../src/lab/report/markdown.js';
import type { LabRun } from '../../../src/lab/run.js';

const run = JSON.parse(
  readFileSync(new URL('../../fixtures/lab-run.json', import.meta.url), 'utf8'),
) as LabRun;
const datasets = [...new Set(run.results.map((r) => r.spec.dataset))];

describe('labMarkdown', () => {
  const markdown = labMarkdown(run);
  const lines = markdown.split('\n');

  test('states the machine, Node, date and options the figures came from', () => {
    expect(markdown).toContain(`- **date**: ${run.date}`);
    expect(markdown).toContain(`AMD EPYC, 2 CPUs, 24 GB, linux x64`);
    expect(markdown).toContain(`- **Node**: ${run.node} (V8 ${run.v8})`);
    expect(markdown).toContain('- **options**: processes 1, quick run, seed 1');
  });

  test('one table per dataset, with every column and one row per result', () => {
    const header =
      '| format | bytes | snappy | lz4 | zstd | gzip | brotli | encode median (p75 / p99) | ' +
      'decode median (p75 / p99) | items/s enc / dec | MB/s enc / dec | loop p99 | peak RSS | round trip check |';
    expect(lines.filter((line) => line === header)).toHaveLength(datasets.length);
    for (const dataset of datasets) {
      const start = lines.indexOf(`## ${dataset}`);
      expect(start).toBeGreaterThan(-1);
      const head = lines.indexOf(header, start);
      const rows: string[] = [];
      for (let i = head + 2; lines[i]?.startsWith('|'); i++) rows.push(lines[i] as string);
      const results = run.results.filter((r) => r.spec.dataset === dataset);
      expect(rows).toHaveLength(results.length);
      for (const [i, row] of rows.entries()) {
        const cells = row.split(/(?<!\\) \| /);
        expect(cells).toHaveLength(14);
        const result = results[i];
        expect(cells[0]).toBe(
          `| ${result?.label.replace(/[*_]/g, '\\$&')}${result?.implementation === 'wirekit' ? '' : ' \\*'}`,
        );
      }
    }
  });

  test('shows each figure with its ratio to JSON, spread, throughput and the round-trip check', () => {
    const row = lines.find((line) => line.startsWith('| avro |') && line.includes('69.9 KB'));
    // records × avro: 71,611 bytes against JSON's 172,548; 0.656 ms to encode against JSON's 1.905 ms.
    expect(row).toContain('| 69.9 KB ×0.42 |');
    expect(row).toContain('| 655.9 µs ×0.34 (1.22 ms / 2.89 ms) |');
    expect(row).toContain('| 1.52M / 715.3k |'); // 1,000 items per batch
    expect(row).toMatch(/\| lossless \|$/);
    expect(markdown).toContain('| LOSS $[0].createdAt: Date became string |');
    expect(markdown).toContain('| avro | 1020 B ×0.28 |'); // orders: bytes per item
  });

  test('lists failures whole, verbatim in a code block that their text cannot break', () => {
    expect(markdown).toContain('## Cases that could not run');
    // A run saved before failures had a kind reads as one that failed.
    expect(markdown).toContain(
      '- orders × flatbuffers (failed):\n\n  ```text\n  Command failed: node case.js {"dataset":"orders"} </script><b>not markup</b> | exit 1\n  ```',
    );
  });
});

describe('labHtml', () => {
  const html = labHtml(run);
  const require = createRequire(import.meta.url);
  const uplot = readFileSync(require.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8');

  test('inlines uPlot and its stylesheet instead of linking them', () => {
    expect(html).toContain(uplot);
    expect(html).toContain(readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8'));
    const remote = [...html.matchAll(/<(?:script|link)\b[^>]*(?:src|href)\s*=\s*["']?https?:/gi)];
    expect(remote).toEqual([]);
    expect(html).not.toMatch(/<script[^>]+src=/i);
    expect(html).not.toMatch(/<link[^>]+href=/i);
  });

  test('carries the run as a JSON block that parses back to the same run', () => {
    const match = html.match(/<script type="application\/json" id="lab-run">([\s\S]*?)<\/script>/);
    expect(match).not.toBeNull();
    expect(JSON.parse(match?.[1] as string)).toEqual(run);
    // The failure text holds "</script>": escaped, so the block cannot end early.
    expect(match?.[1]).not.toContain('</');
    expect(match?.[1]).toContain('\\u003c/script>');
  });

  test('has three chart placeholders per dataset and the tables, readable without JavaScript', () => {
    expect(html).toContain(`<body data-chart-count="${datasets.length * 3}">`);
    for (const dataset of datasets) {
      for (const kind of ['scatter', 'compressed', 'throughput']) {
        expect(html).toContain(`data-chart="${kind}" data-dataset="${dataset}"`);
      }
    }
    expect(html.match(/<table class="figures">/g)).toHaveLength(datasets.length);
    expect(html.match(/<tbody>[\s\S]*?<\/tbody>/g)?.map((body) => body.match(/<tr>/g)?.length)).toEqual(
      datasets.map((d) => run.results.filter((r) => r.spec.dataset === d).length),
    );
    // A number keeps its unit on its line (a no-break space); a timing's spread goes under it.
    expect(html).toContain('<td>69.9\u00a0KB ×0.42</td>');
    expect(html).toContain(
      '<td><span class="figure">655.9\u00a0µs ×0.34</span><span class="spread">(1.22\u00a0ms / 2.89\u00a0ms)</span></td>',
    );
    expect(html).toContain('<td class="loss">LOSS $[0].createdAt: Date became string</td>');
    expect(html).toContain('&lt;/script&gt;&lt;b&gt;not markup&lt;/b&gt;');
  });
});

describe('recommendations in the reports', () => {
  test('both reports carry one row per boundary, with the numbers behind each', () => {
    const markdown = labMarkdown(run);
    expect(markdown).toContain('## Recommendations');
    expect(markdown).toMatch(
      /\| internal RPC \| \w+ \| fastest lossless round trip on \w+: \d\.\d\d× JSON's time/,
    );
    const html = labHtml(run);
    const section = /<section id="recommendations">([\s\S]*?)<\/section>/.exec(html)?.[1] ?? '';
    expect(section.match(/<tr><td>/g)).toHaveLength(5);
    expect(section).toContain('bulk tabular results');
  });
});
