/**
 * The terminal output: what was measured, one table per dataset (one row per subject, each figure
 * beside its ratio to native JSON measured in the same process), a legend of the columns, the
 * recommendations and the cases that could not run, so the output reads without the docs.
 *
 * Column widths come from the cells themselves, with two spaces between columns, so no label or
 * figure can run into its neighbour; text from the data (loss paths, error reasons) has its control
 * characters escaped so that it cannot break a line.
 */
import type { CaseResult } from './case.js';
import { failureKindText } from './failure.js';
import { terminalLegend } from './legend.js';
import { leftOut, marginLabel, recommend } from './recommend.js';
import type { LabRun } from './run.js';
import { ms, ratio, size } from './units.js';

const columns = [
  'format',
  'bytes',
  'zstd',
  'encode',
  'decode',
  'round trip',
  'loop p99',
  'round trip check',
] as const;

/** Prose is wrapped to this width; tables are as wide as their cells. */
const proseWidth = 100;

export function labTable(run: LabRun): string {
  const blocks: string[] = [];
  for (const note of run.notes ?? []) blocks.push(wrap(note, proseWidth, ''));
  const byDataset = new Map<string, CaseResult[]>();
  for (const result of run.results) {
    const list = byDataset.get(result.spec.dataset) ?? [];
    list.push(result);
    byDataset.set(result.spec.dataset, list);
  }
  for (const [dataset, results] of byDataset) {
    const first = results[0] as CaseResult;
    const unit =
      first.unit === 'batch'
        ? `${first.itemsPerUnit.toLocaleString('en')} item${first.itemsPerUnit === 1 ? '' : 's'} as one batch`
        : `per item (${first.units} items)`;
    const rows = results.map((result) => [
      `${result.label}${result.implementation === 'wirekit' ? '' : ' *'}`,
      `${size(result.bytes)} ${ratio(result.bytes / result.jsonBytes)}`,
      size(result.compressed.zstd?.bytes ?? Number.NaN),
      `${ms(result.encode.median)} ${ratio(result.encode.median / result.jsonEncode.median)}`,
      `${ms(result.decode.median)} ${ratio(result.decode.median / result.jsonDecode.median)}`,
      ratio(
        (result.encode.median + result.decode.median) / (result.jsonEncode.median + result.jsonDecode.median),
      ),
      ms(result.loopDelayP99Ms),
      result.loss === undefined ? 'lossless' : `LOSS ${result.loss}`,
    ]);
    const jsonNote =
      first.jsonFailure === undefined
        ? `JSON ${size(first.jsonBytes)}`
        : `no JSON yardstick: ${first.jsonFailure}`;
    blocks.push(
      `${oneLine(dataset)}: ${unit}; ${oneLine(jsonNote)}\n${renderTable([[...columns], ...rows])}`,
    );
  }
  if (run.results.length > 0) blocks.push(legendText());
  const advice = recommendationText(run);
  if (advice !== '') blocks.push(advice);
  if (run.failures.length > 0) {
    const lines = run.failures.map((f) => {
      const head = `  ${oneLine(f.dataset)} × ${oneLine(f.subject)} (${failureKindText(f.kind)}):`;
      return `${head}\n${f.error
        .split('\n')
        .map((line) => wrap(oneLine(line), proseWidth, '      '))
        .join('\n')}`;
    });
    blocks.push(['Cases that could not run:', ...lines].join('\n'));
  }
  return blocks.join('\n\n');
}

function legendText(): string {
  const width = Math.max(...terminalLegend.map(([term]) => term.length));
  const lines = terminalLegend.map(([term, meaning]) => {
    const indent = ' '.repeat(4 + width);
    return `  ${term.padEnd(width)}  ${wrap(meaning, proseWidth, indent).trimStart()}`;
  });
  return ['How to read the tables:', ...lines].join('\n');
}

/** The recommendations as prose: boundary and pick on one line, the reasons indented beneath. */
function recommendationText(run: LabRun): string {
  const advice = recommend(run);
  if (advice.length === 0) return '';
  const lines = ['Recommendations (from the numbers above):'];
  for (const r of advice) {
    lines.push(`  ${r.boundary}: ${r.format ?? 'no pick'}`);
    lines.push(wrap(r.because, proseWidth, '      '));
    if (r.margin !== undefined)
      lines.push(wrap(`${marginLabel(r.margin)}: ${r.margin.text}`, proseWidth, '      '));
    if (r.apply !== undefined) lines.push(wrap(`apply: ${r.apply}`, proseWidth, '      '));
  }
  const missing = leftOut(run);
  if (missing !== undefined) lines.push(wrap(missing, proseWidth, '  '));
  return lines.join('\n');
}

/**
 * Rows of cells as aligned columns: the first and last left-aligned (names, words), the others
 * right-aligned (figures), each as wide as its widest cell, two spaces apart, no trailing blanks.
 */
export function renderTable(rows: readonly (readonly string[])[]): string {
  const cells = rows.map((row) => row.map((cell) => oneLine(cell).trim()));
  const count = Math.max(...cells.map((row) => row.length));
  const widths = Array.from({ length: count }, (_, i) =>
    Math.max(...cells.map((row) => width(row[i] ?? ''))),
  );
  const line = (row: readonly string[]) =>
    row
      .map((cell, i) => {
        const pad = ' '.repeat((widths[i] as number) - width(cell));
        return i === 0 || i === count - 1 ? cell + pad : pad + cell;
      })
      .join('  ')
      .trimEnd();
  const [header = [], ...body] = cells;
  return [line(header), widths.map((w) => '─'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

/**
 * Columns a cell takes in a terminal: one per code point, two for East Asian wide and fullwidth
 * characters, none for combining marks, so a CJK key in a loss path still lines up.
 */
function width(text: string): number {
  let columns = 0;
  for (const char of text) {
    if (/\p{Mn}|\p{Me}|\u200b|\u200d/u.test(char)) continue;
    columns += wide.test(char) ? 2 : 1;
  }
  return columns;
}

const wide =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;

/** Text from the data on one line: control characters (a newline in a key) shown escaped. */
function oneLine(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is escaped
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (char) =>
    char === '\t' ? ' ' : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Words wrapped to `limit` columns, every line starting with `indent`. A longer word stays whole. */
function wrap(text: string, limit: number, indent: string): string {
  const lines: string[] = [];
  let current = '';
  // A unit stays with its number: "963 B", "28 %".
  const words = text.split(/ +/).reduce<string[]>((out, word) => {
    if (out.length > 0 && /^(B|KB|MB|ms|µs|%)[,.;:)]*$/.test(word)) out[out.length - 1] += ` ${word}`;
    else out.push(word);
    return out;
  }, []);
  for (const word of words) {
    if (current !== '' && width(indent + current) + 1 + width(word) > limit) {
      lines.push(indent + current);
      current = word;
    } else current = current === '' ? word : `${current} ${word}`;
  }
  if (current !== '') lines.push(indent + current);
  return lines.join('\n');
}
