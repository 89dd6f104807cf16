/**
 * How much of Arrow's integration suite wirekit reads: the gold files of apache/arrow-testing
 * (data/arrow-ipc-stream/integration/<producer>/*.stream and *.arrow_file), each decoded without a
 * schema, counted as read or refused (with the code and reason), per producer. With --python (an
 * interpreter with pyarrow), each file wirekit reads is also checked: pyarrow reads it and writes
 * it again as a plain little-endian stream, and wirekit's rows of the two must be equal, so that
 * big-endian, compressed and pre-0.15 inputs are proven read right, not just read.
 *
 *   git clone https://github.com/apache/arrow-testing
 *   npm run build && npm run bench:arrow-suite -- arrow-testing/data/arrow-ipc-stream/integration \
 *     [--python .venv/bin/python] [--json FILE]
 *
 * The files are Apache-licensed test data and stay outside this repository.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { createArrowCodec } from 'wirekit-ts/arrow';
import { isWirekitError } from 'wirekit-ts/errors';
import { benchArgs } from '../args.js';

const usage = `Usage: node build/benchmarks/arrow-suite/main.js DIR [--python PATH] [--json FILE]
DIR: arrow-testing's data/arrow-ipc-stream/integration. Reads every .stream and .arrow_file without a
schema; with --python (pyarrow), checks each file read against pyarrow's reading of it.`;

const { values, positionals } = benchArgs(usage, {
  options: { python: { type: 'string' }, json: { type: 'string' } },
  allowPositionals: true,
});

const root = positionals[0];
if (root === undefined) {
  process.stderr.write(`${usage}\n`);
  process.exit(2);
}

interface FileResult {
  readonly file: string;
  readonly read: boolean;
  /** The refusal: its code and message. */
  readonly refused?: string;
  /** With --python: whether wirekit's rows equal those of pyarrow's rewrite. */
  readonly sameAsPyarrow?: boolean | string;
}

const files = readdirSync(root)
  .filter((dir) => statSync(join(root, dir)).isDirectory())
  .sort()
  .flatMap((dir) =>
    readdirSync(join(root, dir))
      .filter((name) => /\.(stream|arrow_file)$/.test(name))
      .sort()
      .map((name) => `${dir}/${name}`),
  );

/** pyarrow reads every file and writes it again plainly under `out`, by the same relative path. */
const rewriteScript = `
import os, sys, pyarrow as pa
root, out = sys.argv[1], sys.argv[2]
for rel in sys.argv[3:]:
    data = pa.OSFile(os.path.join(root, rel), "rb").read()
    try:
        reader = pa.ipc.open_file(data) if rel.endswith(".arrow_file") else pa.ipc.open_stream(data)
        table = reader.read_all()
        os.makedirs(os.path.dirname(os.path.join(out, rel)), exist_ok=True)
        with pa.OSFile(os.path.join(out, rel), "wb") as sink:
            with pa.ipc.new_stream(sink, table.schema) as writer:
                writer.write_table(table)
    except Exception as error:
        print(rel, type(error).__name__, error, file=sys.stderr)
`;

const codec = createArrowCodec();
const reference = values.python === undefined ? undefined : mkdtempSync(join(tmpdir(), 'arrow-suite-'));
if (reference !== undefined)
  execFileSync(values.python as string, ['-c', rewriteScript, root, reference, ...files], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });

const results: FileResult[] = files.map((file) => {
  let rows: unknown;
  try {
    rows = codec.decode(readFileSync(join(root, file)));
  } catch (error) {
    const refused = isWirekitError(error) ? `${error.code}: ${error.message}` : `crash: ${String(error)}`;
    return { file, read: false, refused };
  }
  if (reference === undefined) return { file, read: true };
  let sameAsPyarrow: boolean | string;
  try {
    sameAsPyarrow = isDeepStrictEqual(rows, codec.decode(readFileSync(join(reference, file))));
  } catch (error) {
    sameAsPyarrow = `pyarrow's rewrite is not read: ${String(error)}`;
  }
  return { file, read: true, sameAsPyarrow };
});
if (reference !== undefined) rmSync(reference, { recursive: true, force: true });

const read = results.filter((result) => result.read);
process.stdout.write(`${read.length} of ${results.length} files read\n\nper producer:\n`);
for (const dir of new Set(files.map((file) => file.split('/')[0] as string))) {
  const mine = results.filter((result) => result.file.startsWith(`${dir}/`));
  process.stdout.write(`  ${dir.padEnd(20)} ${mine.filter((r) => r.read).length} of ${mine.length}\n`);
}
if (reference !== undefined) {
  const same = read.filter((result) => result.sameAsPyarrow === true).length;
  process.stdout.write(`\nread as pyarrow reads them: ${same} of ${read.length}\n`);
  for (const result of read.filter((r) => r.sameAsPyarrow !== true))
    process.stdout.write(`  differs: ${result.file} (${String(result.sameAsPyarrow)})\n`);
}
// Refusals grouped by their reason, with offsets left out so that one reason is one line.
const reasons = new Map<string, string[]>();
for (const result of results.filter((r) => !r.read)) {
  const reason = (result.refused as string).replace(/ \((at|in the record batch at) byte \d+\)\.?$/, '');
  reasons.set(reason, [...(reasons.get(reason) ?? []), result.file]);
}
process.stdout.write('\nrefused:\n');
for (const [reason, which] of [...reasons].sort((a, b) => b[1].length - a[1].length))
  process.stdout.write(`  ${which.length} × ${reason}\n      ${which.join('\n      ')}\n`);
if (values.json !== undefined) writeFileSync(values.json, `${JSON.stringify(results, null, 2)}\n`);
