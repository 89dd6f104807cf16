/**
 * What the schema registry's schemas cost: wirekit's .proto reader against protobufjs's on the
 * shapes that made protobufjs's cost grow with the square of the file (a oneof, a message of many
 * fields) and one that did not (many messages), and the memory a registry server holds for large
 * stored schemas.
 *
 *   npm run build && npm run bench:registry     # node build/benchmarks/registry/main.js
 *   node build/benchmarks/registry/main.js [--processes 3] [--quick] [--json FILE]
 *
 * Each case runs in fresh processes, one at a time. Reported: medians over processes (of the median
 * of a few runs in each), with the range across processes. `--quick` leaves out the largest size.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { median } from 'wirekit-ts/lab';
import { benchArgs } from '../args.js';
import { type MemoryResult, type ParseResult, type ProtoReader, protoShapes } from './worker.js';

const run = promisify(execFile);
const worker = fileURLToPath(new URL('./worker.js', import.meta.url));

const usage = `Usage: node build/benchmarks/registry/main.js [--processes 3] [--quick] [--json FILE]
The registry's schemas: .proto parsing (wirekit vs protobufjs) and memory per stored schema.`;

const { values } = benchArgs(usage, {
  options: {
    processes: { type: 'string', default: '3' },
    quick: { type: 'boolean', default: false },
    json: { type: 'string' },
  },
});
const processes = Math.max(1, Number(values.processes));
const sizes = values.quick ? [1_000, 4_000] : [1_000, 4_000, 16_000];
const readers: readonly ProtoReader[] = ['wirekit', 'protobufjs'];

async function measure<T>(args: readonly string[]): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < processes; i++) {
    const { stdout } = await run(process.execPath, ['--expose-gc', worker, ...args], {
      maxBuffer: 1024 * 1024,
      timeout: 30 * 60_000,
    });
    results.push(JSON.parse(stdout) as T);
  }
  return results;
}

const format = (values: readonly number[], digits: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  const spread =
    sorted.length > 1 ? ` (${sorted[0]?.toFixed(digits)}-${sorted.at(-1)?.toFixed(digits)})` : '';
  return `${median(sorted).toFixed(digits)}${spread}`;
};

const command = [
  'node',
  relative(process.cwd(), fileURLToPath(import.meta.url)),
  ...process.argv.slice(2).map((arg) => (/^[\w./,=-]+$/.test(arg) ? arg : JSON.stringify(arg))),
].join(' ');
const started = new Date();
process.stdout.write(
  `command: ${command}\n\nbench:registry, ${started.toISOString()}, Node ${process.version}, ${cpus().length} cores, load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}, ${processes} process(es) per case\n\n`,
);
process.stdout.write('Parsing a .proto file into resolved types, ms (median, range across processes)\n');
process.stdout.write(
  `| shape | size | characters | ${readers.join(' | ')} |\n|---|---|---|${readers.map(() => '---|').join('')}\n`,
);
const parse: Record<string, unknown>[] = [];
for (const shape of protoShapes) {
  for (const size of sizes) {
    const cells: string[] = [];
    let chars = 0;
    for (const reader of readers) {
      const results = await measure<ParseResult>(['parse', shape, String(size), reader]);
      chars = results[0]?.chars ?? 0;
      cells.push(
        format(
          results.map((r) => r.ms),
          1,
        ),
      );
      parse.push({ shape, size, reader, ms: results.map((r) => r.ms) });
    }
    process.stdout.write(`| ${shape} | ${size} | ${chars} | ${cells.join(' | ')} |\n`);
  }
}

const count = 40;
const memory = await measure<MemoryResult>(['memory', String(count)]);
const mib = ((memory[0]?.schemaChars ?? 0) / 2 ** 20).toFixed(2);
const line = (label: string, pick: (m: MemoryResult) => number) =>
  `| ${label} | ${format(memory.map(pick), 0)} |\n`;
process.stdout.write(
  `\nA registry server (main thread and schema worker) holding Avro schemas of ${mib} MiB, MB\n` +
    '| | resident (RSS) |\n|---|---|\n' +
    line('before', (m) => m.before.rssMb) +
    line(`${count} schemas`, (m) => m.after.rssMb) +
    line(`${2 * count} schemas`, (m) => m.afterTwice.rssMb) +
    `main thread's heap: ${format(
      memory.map((m) => m.before.heapMb),
      0,
    )} before, ${format(
      memory.map((m) => m.after.heapMb),
      0,
    )} at ${count}, ${format(
      memory.map((m) => m.afterTwice.heapMb),
      0,
    )} at ${2 * count}; per schema past ${count}: ${format(
      memory.map((m) => (m.afterTwice.rssMb - m.after.rssMb) / count),
      2,
    )} MB resident\n`,
);
if (values.json !== undefined) {
  writeFileSync(values.json, JSON.stringify({ started, processes, parse, memory }, null, 1));
}
