/** `wirekit bench --markdown FILE`: the lab run as a Markdown page, one table per dataset. */
import { failureKindText } from '../failure.js';
import { reportLegend } from '../legend.js';
import { leftOut, marginLabel, recommend } from '../recommend.js';
import type { LabRun } from '../run.js';
import { runFacts, sections, tableHeaders } from './figures.js';

export function labMarkdown(run: LabRun): string {
  const lines = ['# wirekit bench', ''];
  for (const [label, value] of runFacts(run)) lines.push(`- **${label}**: ${cell(value)}`);
  for (const note of run.notes ?? []) lines.push('', `> ${cell(note)}`);
  lines.push('', '**How to read the tables**', '');
  for (const [term, meaning] of reportLegend) lines.push(`- **${cell(term)}**: ${cell(meaning)}`);
  const advice = recommend(run);
  if (advice.length > 0) {
    lines.push(
      '',
      '## Recommendations',
      '',
      tableRow(['boundary', 'format', 'because', 'margin over the next format']),
      tableRow(['---', '---', '---', '---']),
    );
    for (const r of advice) {
      const margin = r.margin === undefined ? '' : `${marginLabel(r.margin)}: ${r.margin.text}`;
      lines.push(
        tableRow([
          r.boundary,
          r.format ?? 'no pick',
          r.apply === undefined ? r.because : `${r.because} Apply: ${r.apply}`,
          margin,
        ]),
      );
    }
    const missing = leftOut(run);
    if (missing !== undefined) lines.push('', cell(missing));
  }
  for (const section of sections(run)) {
    lines.push('', `## ${cell(section.dataset)}`, '', `${cell(section.caption)}`, '');
    lines.push(tableRow(tableHeaders));
    // Every column but the format name and the round-trip check is a number: right-aligned.
    lines.push(
      tableRow(tableHeaders.map((_, i) => (i === 0 || i === tableHeaders.length - 1 ? '---' : '---:'))),
    );
    for (const row of section.rows) lines.push(tableRow(row));
  }
  if (run.failures.length > 0) {
    lines.push('', '## Cases that could not run', '');
    for (const f of run.failures) {
      lines.push(
        `- ${cell(f.dataset)} × ${cell(f.subject)} (${failureKindText(f.kind)}):`,
        '',
        fenced(f.error),
        '',
      );
    }
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

function tableRow(cells: readonly string[]): string {
  return `| ${cells.map(cell).join(' | ')} |`;
}

/**
 * Loss messages and error texts come from the data (paths like `$[0].a|b`): a bare `|` would split
 * the cell, a newline would end the table, and `*` or `_` (the "used directly" mark, snake_case
 * paths) could pair up into emphasis, and `<` could open raw HTML, so all of them are escaped.
 */
function cell(text: string): string {
  return text
    .replace(/[\\|*_`]/g, '\\$&')
    .replace(/</g, '&lt;')
    .replace(/\r?\n/g, ' ');
}

/**
 * A reason as a code block inside the list item, kept whole and verbatim (several lines, markup
 * characters): the fence is longer than any run of backticks in the text, so nothing can close it.
 */
function fenced(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  const body = text.replace(/\r\n?/g, '\n');
  return [`  ${fence}text`, ...body.split('\n').map((line) => `  ${line}`), `  ${fence}`].join('\n');
}
