/** `wirekit bench`: every format on the built-in datasets (or the user's data), in fresh processes. */
import { writeFile } from 'node:fs/promises';
import { datasets } from '../../lab/datasets/index.js';
import { optionalPeers } from '../../lab/peers/optional.js';
import { labHtml } from '../../lab/report/html.js';
import { labMarkdown } from '../../lab/report/markdown.js';
import { type LabRun, runLab } from '../../lab/run.js';
import { type SubjectName, subjectNames } from '../../lab/subjects.js';
import { labTable } from '../../lab/table.js';
import { type CliIo, inputLimitOf, inputLimitOption } from '../io.js';
import { parseCommand, usageError } from '../usage.js';

const peerList = Object.entries(optionalPeers)
  .map(([name, peer]) => `${name} needs ${peer.package} (npm install ${peer.package}@${peer.version})`)
  .join('; ');

export const benchHelp = `Usage:
  wirekit bench [--quick] [--datasets a,b] [--formats f,g] [--processes N] [--count name=N ...] [--json FILE]
              [--markdown FILE] [--html FILE] [--data FILE [--path P] [--schema S.json] [--per-item]
              [--max-input-bytes N]] [--peers DIR]
      Measures size, compressed size, encode/decode time, event-loop delay, memory and round-trip
      losses of every format on the built-in datasets (${Object.keys(datasets).join(', ')}), each case
      in a fresh process with native JSON timed in the same process (--processes 3 for figures to
      publish: medians across processes, and recommendations that say whether a lead is larger
      than the noise). A default run takes about 5 min on an idle 2-core machine with the first
      eight datasets (--quick: about 2), longer under load: 19 min at a load average of 14; the
      four of issue 35 add to that.
      Formats: ${subjectNames.join(', ')} (json-native, msgpackr and cbor-x are the libraries used
      directly). Optional peers run only when named here, and only where you installed them, since
      wirekit-ts does not: ${peerList}. --peers DIR looks for them from DIR instead of beside wirekit-ts.
      --json FILE keeps the raw results; --markdown FILE writes the tables as Markdown; --html FILE
      writes a self-contained report with charts (uPlot inlined: opens offline, nothing to fetch).
      --large: only timeseries, at 10,000,000 rows (JSON vs Arrow at scale; minutes, GBs of memory).
      --data FILE measures your own data (JSON, a JSON array or NDJSON) instead, with --schema or an
      inferred schema; --per-item times each value on its own, as a cache would see it. --path P
      picks the array of values inside each JSON value, e.g. --path orders for {"orders": [...]}
      (a dotted path: data.items; a number indexes an array). The file is read up to 64 MiB unless
      --max-input-bytes N (e.g. 512M) allows more.
      Exit code 1 when a case that was expected to run could not (a format named in --formats, or
      any case on the built-in datasets); such cases are listed in every output with the reason. A
      default format that cannot hold your --data is listed too, and leaves the exit code at 0.`;

/** Runs the lab and writes its outputs; the exit code is 1 when an expected case could not run. */
export async function benchCommand(args: readonly string[], io: CliIo): Promise<number> {
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
    path: { type: 'string' },
    large: { type: 'boolean' },
    peers: { type: 'string' },
    ...inputLimitOption,
  });
  if (
    values.data === undefined &&
    (values.schema !== undefined ||
      values['per-item'] ||
      values.path !== undefined ||
      values['max-input-bytes'] !== undefined)
  ) {
    throw usageError('--schema, --path, --per-item and --max-input-bytes go with --data FILE.');
  }
  if (values.path?.split('.').some((segment) => segment === '')) {
    throw usageError(
      `--path takes keys separated by dots, e.g. --path orders or --path data.items; got ${values.path}.`,
    );
  }
  const names = values.large ? ['timeseries'] : list(values.datasets);
  for (const name of names ?? []) {
    if (!Object.hasOwn(datasets, name)) throw usageError(`unknown dataset ${name}.`);
  }
  const formats = list(values.formats);
  for (const name of formats ?? []) {
    if (!(subjectNames as readonly string[]).includes(name)) throw usageError(`unknown format ${name}.`);
  }
  const counts: Record<string, number> = {};
  for (const entry of values.count ?? []) {
    const [name, value] = entry.split('=');
    const count = Number(value);
    if (name === undefined || !Object.hasOwn(datasets, name) || !Number.isSafeInteger(count) || count < 1) {
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
    ...(values.peers === undefined ? {} : { peersFrom: values.peers }),
    counts,
    ...(values.data === undefined
      ? {}
      : {
          file: {
            dataFile: values.data,
            ...(values.schema === undefined ? {} : { schemaFile: values.schema }),
            ...(values.path === undefined ? {} : { path: values.path }),
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
  const unexpected = run.failures.filter((failure) => failure.expected !== false);
  if (unexpected.length === 0) return 0;
  // After every output is written, so the reasons are there to read; stderr, so a script sees it.
  const cases = unexpected.map((f) => `${f.subject} on ${f.dataset}`).join(', ');
  io.stderr.write(
    `wirekit: ${unexpected.length} case${unexpected.length === 1 ? '' : 's'} could not run: ${cases} ` +
      '(reasons under "Cases that could not run"); exit code 1.\n',
  );
  return 1;
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
