/**
 * The lab's output as a first-time reader meets it, on a real run (test/fixtures/lab-run.json, saved
 * before per-process figures, failure kinds and notes existed, so it also shows that older saved
 * runs still render): the legend in every output, noise verdicts on picks made by speed, columns
 * that never run into each other, and failures with their whole reason.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { CaseResult, ProcessMedians } from '../../src/lab/case.js';
import { recommend } from '../../src/lab/recommend.js';
import { labHtml } from '../../src/lab/report/html.js';
import { labMarkdown } from '../../src/lab/report/markdown.js';
import type { LabRun } from '../../src/lab/run.js';
import { labTable, renderTable } from '../../src/lab/table.js';

const saved = JSON.parse(
  readFileSync(new URL('../fixtures/lab-run.json', import.meta.url), 'utf8'),
) as LabRun;

/** Processes whose round trips took `ratios` of native JSON's, for one result. */
const processes = (ratios: number[]): ProcessMedians[] =>
  ratios.map((ratio) => ({ encodeMs: ratio / 2, decodeMs: ratio / 2, jsonEncodeMs: 0.5, jsonDecodeMs: 0.5 }));

/** The saved run as if measured by three processes, with these per-process ratios by result label. */
function withProcesses(byLabel: Record<string, number[]>): LabRun {
  const results = saved.results.map((r): CaseResult => {
    const ratios = r.spec.dataset === 'orders' ? byLabel[r.label] : undefined;
    return ratios === undefined ? r : { ...r, processes: processes(ratios) };
  });
  return { ...saved, options: { ...saved.options, processes: 3 }, results };
}

const rpc = (run: LabRun) => recommend(run).find((r) => r.boundary === 'internal RPC');

describe('recommendations: is the winner ahead by more than the noise?', () => {
  test('one process per case: the margin is named and said to be not judged', () => {
    const pick = rpc(saved);
    // On orders, avro (1.79×) beat msgpack (2.01×): 11 % faster.
    expect(pick?.format).toBe('avro');
    expect(pick?.margin).toEqual({
      verdict: 'not judged',
      runnerUp: 'msgpack',
      text: expect.stringMatching(
        /^11 % faster than the runner-up, msgpack \(2\.01×\); one process per case shows no spread/,
      ),
    });
    expect(pick?.margin?.text).toContain('--processes 3');
  });

  test("clear when the winner's slowest process beat the runner-up's fastest", () => {
    const margin = rpc(withProcesses({ avro: [1.7, 1.8, 1.85], msgpack: [1.95, 2.0, 2.1] }))?.margin;
    expect(margin?.verdict).toBe('clear');
    expect(margin?.text).toContain('across 3 processes each, avro took 1.70-1.85× and msgpack 1.95-2.10×');
  });

  test('within the noise when the ranges overlap, and the runner-up is named as a possible pick', () => {
    const margin = rpc(withProcesses({ avro: [1.6, 1.8, 2.0], msgpack: [1.9, 2.0, 2.1] }))?.margin;
    expect(margin?.verdict).toBe('within noise');
    expect(margin?.text).toContain('the ranges overlap, so another run may pick msgpack');
  });

  test('a saved run of several processes without their figures says so', () => {
    const run = { ...saved, options: { ...saved.options, processes: 3 } };
    expect(rpc(run)?.margin?.text).toContain('this saved run kept no per-process figures');
  });

  test('bulk results are judged too; picks by size or by role carry no margin', () => {
    const advice = recommend(saved);
    expect(advice.find((r) => r.boundary === 'bulk tabular results')?.margin?.runnerUp).toBe('avro');
    for (const boundary of ['public API (people read it)', 'cache behind compression']) {
      expect(advice.find((r) => r.boundary === boundary)?.margin).toBeUndefined();
    }
  });

  test('every output flags the verdict', () => {
    const run = withProcesses({ avro: [1.6, 1.8, 2.0], msgpack: [1.9, 2.0, 2.1] });
    expect(labTable(run)).toMatch(/internal RPC: avro\n.*\n {6}WITHIN NOISE: 11 % faster/);
    expect(labMarkdown(run)).toMatch(/\| internal RPC \| avro \| fastest .* \| WITHIN NOISE: 11 % faster/);
    expect(labHtml(run)).toContain('<span class="flag">WITHIN NOISE</span>: 11 % faster');
    expect(labTable(saved)).toContain('NOISE NOT JUDGED: 11 % faster than the runner-up, msgpack');
  });
});

describe('the legend: what loop p99 and the ratios mean, in the output itself', () => {
  const outputs = { table: labTable(saved), markdown: labMarkdown(saved), html: labHtml(saved) };

  test.each(Object.entries(outputs))('%s explains loop p99 and the ratio baseline', (_, text) => {
    const flat = text.replace(/\s+/g, ' ').replace(/&#39;/g, "'");
    expect(flat).toContain('event-loop delay: the 99th percentile of how late a 1 ms timer fired');
    expect(flat).toContain(
      "the figure divided by native JSON's for the same values, timed in the same process",
    );
    expect(flat).toContain('JSON.stringify plus UTF-8 encoding to encode');
  });

  test('the terminal legend comes after the tables and before the recommendations', () => {
    const table = outputs.table;
    const legend = table.indexOf('How to read the tables:');
    expect(legend).toBeGreaterThan(table.lastIndexOf('msgpackr *'));
    expect(legend).toBeLessThan(table.indexOf('Recommendations'));
  });
});

describe('the terminal table: columns never run into each other', () => {
  /** Each column's span, from the rule line under the header: [first, last + 1). */
  function spans(rule: string): [number, number][] {
    return [...rule.matchAll(/─+/g)].map((m) => [m.index, m.index + m[0].length]);
  }

  /** Every line of the block lies inside the spans, with only spaces in the gaps between them. */
  function expectAligned(block: string): void {
    const [header = '', rule = '', ...rows] = block.split('\n');
    const columns = spans(rule);
    expect(columns.length).toBeGreaterThan(2);
    for (const line of [header, ...rows]) {
      for (let i = 1; i < columns.length; i++) {
        const gap = line.slice((columns[i - 1] as [number, number])[1], (columns[i] as [number, number])[0]);
        expect(gap, `gap ${i} in ${JSON.stringify(line)}`).toMatch(/^ {2,}$/);
      }
      expect(line).toBe(line.trimEnd());
    }
  }

  test('with a very long label, a long loss path and a newline from the data', () => {
    const results = saved.results.map((r, i) =>
      i === 1
        ? {
            ...r,
            label: 'msgpack with a label longer than any column header (plugin build)',
            loss: '$[0].a key\nwith a newline: string became number',
          }
        : r,
    );
    const table = labTable({ ...saved, results });
    const block = table.split('\n\n')[0] as string;
    const lines = block.split('\n').slice(1);
    expectAligned(lines.join('\n'));
    expect(block).toContain('\nmsgpack with a label longer than any column header (plugin build)  ');
    // The newline is shown escaped, on the row's own line.
    expect(block).toContain('LOSS $[0].a key\\u000awith a newline: string became number');
    expect(lines).toHaveLength(2 + results.filter((r) => r.spec.dataset === 'records').length);
  });

  test('the saved run as it is', () => {
    for (const block of labTable(saved)
      .split('\n\n')
      .filter((b) => b.includes('─'))) {
      expectAligned(block.split('\n').slice(1).join('\n'));
    }
  });

  test('wide characters count as two columns', () => {
    const text = renderTable([
      ['format', 'bytes', 'check'],
      ['東京 *', '1 B', 'lossless'],
      ['x', '12345 B', 'lossless'],
    ]);
    const [header, , wideRow, plainRow] = text.split('\n') as [string, string, string, string];
    // 東 and 京 take two columns each, so the row is two code units shorter than it is wide.
    expect(wideRow.length + 2).toBe(plainRow.length);
    expect(plainRow.indexOf('12345 B') + 7).toBe(header.indexOf('bytes') + 5);
  });
});

describe('cases that could not run', () => {
  const reason =
    'fury needs @furyjs/fury, an optional peer that wirekit-ts does not install, and it is not installed where the lab looked (from /tmp/x).\nsecond line with | and ``` and <b>';
  const run: LabRun = {
    ...saved,
    failures: [{ dataset: 'records', subject: 'fury', error: reason, kind: 'unavailable', expected: true }],
  };

  test('every output has the whole reason and the kind', () => {
    const table = labTable(run);
    expect(table).toContain('records × fury (not installed):');
    expect(table.replace(/\n +/g, ' ')).toContain(reason.replace('\n', ' '));
    const markdown = labMarkdown(run);
    expect(markdown).toContain('- records × fury (not installed):');
    // Verbatim inside a fence longer than any backtick run in the text.
    expect(markdown).toContain(`  \`\`\`\`text\n  ${reason.replace('\n', '\n  ')}\n  \`\`\`\``);
    const html = labHtml(run);
    expect(html).toContain('records × fury (not installed):<pre class="reason">fury needs @furyjs/fury');
    expect(html).toContain('second line with | and ``` and &lt;b&gt;</pre>');
  });

  test('the recommendations say which cases they could not consider', () => {
    const note =
      'Not considered, because they could not run (see "Cases that could not run"): fury on records.';
    expect(labTable(run).replace(/\n +/g, ' ')).toContain(note);
    expect(labMarkdown(run)).toContain(note.replace(/"/g, '"'));
    expect(labHtml(run)).toContain('fury on records.</p>');
  });
});
