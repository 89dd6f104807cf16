/** `wirekit bench --markdown FILE`: the lab run as a Markdown page, one table per dataset. */
import { recommend } from '../lab/recommend.js';
import type { LabRun } from '../lab/run.js';
import { footnote, runFacts, sections, tableHeaders } from './figures.js';

export function labMarkdown(run: LabRun): string {
  const lines = ['# wirekit bench', ''];
  for (const [label, value] of runFacts(run)) lines.push(`- **${label}**: ${cell(value)}`);
  lines.push('', `_${cell(footnote)}_`);
  const advice = recommend(run);
  if (advice.length > 0) {
    lines.push(
      '',
      '## Recommendations',
      '',
      tableRow(['boundary', 'format', 'because']),
      tableRow(['---', '---', '---']),
    );
    for (const r of advice) lines.push(tableRow([r.boundary, r.format, r.because]));
  }
  for (const section of sections(run)) {
    lines.push('', `## ${section.dataset}`, '', `${section.caption}`, '');
    lines.push(tableRow(tableHeaders));
    // Every column but the format name and the round-trip check is a number: right-aligned.
    lines.push(
      tableRow(tableHeaders.map((_, i) => (i === 0 || i === tableHeaders.length - 1 ? '---' : '---:'))),
    );
    for (const row of section.rows) lines.push(tableRow(row));
  }
  if (run.failures.length > 0) {
    lines.push('', '## Cases that failed', '');
    for (const f of run.failures) lines.push(`- ${cell(f.dataset)} × ${cell(f.subject)}: ${cell(f.error)}`);
  }
  return `${lines.join('\n')}\n`;
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
