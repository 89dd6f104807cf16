/** `wirekit bench`: every format on the built-in datasets (or the user's data), in fresh processes. */
import { writeFile } from 'node:fs/promises';
import { datasets } from '../../bench/datasets/index.js';
import { type LabRun, runLab } from '../../bench/lab/run.js';
import { type SubjectName, subjectNames } from '../../bench/lab/subjects.js';
import { labTable } from '../../bench/lab/table.js';
import { labHtml } from '../../bench/report/html.js';
import { labMarkdown } from '../../bench/report/markdown.js';
import { type CliIo, inputLimitOf, inputLimitOption } from '../io.js';
import { parseCommand, usageError } from '../usage.js';

export const benchHelp = `Usage:
  wirekit bench [--quick] [--datasets a,b] [--formats f,g] [--processes N] [--count name=N ...] [--json FILE]
              [--markdown FILE] [--html FILE] [--data FILE [--schema S.json] [--per-item] [--max-input-bytes N]]
      Measures size, compressed size, encode/decode time, event-loop delay, memory and round-trip
      losses of every format on the built-in datasets (${Object.keys(datasets).join(', ')}), each case
      in a fresh process with native JSON timed in the same process (--processes 3 for figures to
      publish: medians across processes). Default run ~2-3 min on 2 cores; --quick ~1 min.
      Formats: ${subjectNames.join(', ')} (json-native, msgpackr and cbor-x are the libraries used directly; fury,
      Apache Fury's own format, runs only when named here).
      --json FILE keeps the raw results; --markdown FILE writes the tables as Markdown; --html FILE
      writes a self-contained report with charts (uPlot inlined: opens offline, nothing to fetch).
      --large: only timeseries, at 10,000,000 rows (JSON vs Arrow at scale; minutes, GBs of memory).
      --data FILE measures your own data (JSON, a JSON array or NDJSON) instead, with --schema or an
      inferred schema; --per-item times each value on its own, as a cache would see it. The file is
      read up to 64 MiB unless --max-input-bytes N (e.g. 512M) allows more.`;

export async function benchCommand(args: readonly string[], io: CliIo): Promise<void> {
  const { values } = parseCommand(args, {
    quick: { type: 'boolean' },
    datasets: { type: 'string' },
    formats: { type: 'string' },
    processes: { type: 'string' },
    count: { type: 'string', multiple: true },
    json: { type: 'string' },
    markdown: { type: 'string' },
    html: { type: 'string' },
    data: { type: 'string' },
    schema: { type: 'string' },
    'per-item': { type: 'boolean' },
    large: { type: 'boolean' },
    ...inputLimitOption,
  });
  if (
    values.data === undefined &&
    (values.schema !== undefined || values['per-item'] || values['max-input-bytes'] !== undefined)
  ) {
    throw usageError('--schema, --per-item and --max-input-bytes go with --data FILE.');
  }
  const names = values.large ? ['timeseries'] : list(values.datasets);
  for (const name of names ?? []) if (!(name in datasets)) throw usageError(`unknown dataset ${name}.`);
  const formats = list(values.formats);
  for (const name of formats ?? []) {
    if (!(subjectNames as readonly string[]).includes(name)) throw usageError(`unknown format ${name}.`);
  }
  const counts: Record<string, number> = {};
  for (const entry of values.count ?? []) {
    const [name, value] = entry.split('=');
    const count = Number(value);
    if (name === undefined || !(name in datasets) || !Number.isSafeInteger(count) || count < 1) {
      throw usageError(`--count takes dataset=N, e.g. --count users=5000; got ${entry}.`);
    }
    counts[name] = count;
  }
  if (values.large) counts.timeseries ??= 10_000_000;
  const processes = values.processes === undefined ? undefined : Number(values.processes);
  if (processes !== undefined && (!Number.isSafeInteger(processes) || processes < 1))
    throw usageError('--processes takes a positive integer.');

  const run: LabRun = await runLab({
    quick: values.quick === true,
    ...(names === undefined ? {} : { datasets: names }),
    ...(formats === undefined ? {} : { subjects: formats as SubjectName[] }),
    ...(processes === undefined ? {} : { processes }),
    counts,
    ...(values.data === undefined
      ? {}
      : {
          file: {
            dataFile: values.data,
            ...(values.schema === undefined ? {} : { schemaFile: values.schema }),
            unit: values['per-item'] ? ('item' as const) : ('batch' as const),
            maxInputBytes: inputLimitOf(values),
          },
        }),
    onProgress: (done, total, label) => io.stderr.write(progress(done, total, label)),
  });
  io.stderr.write('\n');
  io.stdout.write(`${labTable(run)}\n`);
  if (values.json !== undefined) await writeFile(values.json, `${JSON.stringify(run, null, 2)}\n`);
  if (values.markdown !== undefined) await writeFile(values.markdown, labMarkdown(run));
  if (values.html !== undefined) await writeFile(values.html, labHtml(run));
}

function list(value: string | undefined): string[] | undefined {
  return value === undefined
    ? undefined
    : value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
}

function progress(done: number, total: number, label: string): string {
  const width = 30;
  const filled = Math.round((done / Math.max(1, total)) * width);
  return `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${label.padEnd(28).slice(0, 28)}`;
}
