/**
 * What Arrow decoding costs by reader: the generated row reader, the interpreter (compile: false)
 * and the schemaless read, on 20,000 flat rows (five leaf columns) and 20,000 nested ones (a
 * nullable float, a list, a map, a nullable struct and a tagged union beside two leaves). The three
 * share one column reader (src/codecs/arrow/decode/columns.ts), so a change to it shows here.
 *
 * With --against, the same cases also run on another build of the library (another checkout's
 * dist/), in processes interleaved with this build's, so that the machine's load falls on both
 * alike. Both builds are imported by path, the only way to reach the other one, so that each is
 * loaded the same way. Each run is a fresh process (shared JIT state shifts timings, see overhead/main.ts);
 * reported are the medians over processes of each process's median decode, in milliseconds.
 *
 *   npm run build && node build/benchmarks/arrow-readers.js [--processes 9] [--against DIST] [case …]
 */
import { execFileSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchArgs } from './args.js';

const cases = [
  'flat-compiled',
  'flat-interpreted',
  'flat-schemaless',
  'nested-compiled',
  'nested-interpreted',
  'nested-schemaless',
];
const rows = 20_000;

const usage = `Usage: node build/benchmarks/arrow-readers.js [--processes 9] [--against DIST] [case …]
Arrow decode time by reader (generated, interpreted, schemaless) on flat and nested rows.
Cases: ${cases.join(', ')}. DIST: another build's dist/ folder, timed in alternation.`;

const { values, positionals } = benchArgs(usage, {
  options: {
    processes: { type: 'string', default: '9' },
    against: { type: 'string' },
    /** Internal: time one case of one build in this process. */
    worker: { type: 'string' },
    dist: { type: 'string' },
  },
  allowPositionals: true,
});

/** The library's build this script runs against (the package's own dist/, by its name). */
const ownDist = resolve(dirname(fileURLToPath(import.meta.resolve('wirekit-ts'))));

async function timeCase(dist: string, name: string): Promise<number> {
  const { t } = await import(pathToFileURL(`${dist}/index.js`).href);
  const { createArrowCodec } = await import(pathToFileURL(`${dist}/codecs/arrow/index.js`).href);
  const [shape, reader] = name.split('-');
  const Circle = t.object('Circle', { kind: t.literal('circle'), r: t.float64() });
  const Rect = t.object('Rect', { kind: t.literal('rect'), w: t.float64(), h: t.float64() });
  const schema =
    shape === 'flat'
      ? t.object('Flat', {
          id: t.int32(),
          name: t.string(),
          score: t.float64(),
          at: t.timestamp(),
          ok: t.bool(),
        })
      : t.object('Nested', {
          id: t.int32(),
          name: t.string(),
          score: t.nullable(t.float64()),
          tags: t.array(t.string()),
          attrs: t.map(t.string(), t.int32()),
          home: t.nullable(t.object('Address', { city: t.string(), zip: t.int32() })),
          shape: t.union('Shape', 'kind', [Circle, Rect]),
        });
  const values = Array.from({ length: rows }, (_, i) =>
    shape === 'flat'
      ? { id: i, name: `user ${i}`, score: i / 3, at: new Date(1e12 + i), ok: i % 2 === 0 }
      : {
          id: i,
          name: `user ${i}`,
          score: i % 5 === 0 ? null : i / 3,
          tags: ['a', `t${i % 7}`],
          attrs: { x: i, y: i + 1 },
          home: i % 4 === 0 ? null : { city: `c${i % 50}`, zip: 10_000 + i },
          shape: i % 2 ? { kind: 'circle', r: i } : { kind: 'rect', w: i, h: 2 },
        },
  );
  const bytes = createArrowCodec({ schema }).encode(values);
  const codec =
    reader === 'schemaless'
      ? createArrowCodec()
      : createArrowCodec({ schema, compile: reader === 'compiled' });
  const times: number[] = [];
  for (let round = 0; round < 40; round++) {
    const start = performance.now();
    for (let k = 0; k < 5; k++) codec.decode(bytes);
    times.push((performance.now() - start) / 5);
  }
  // The first rounds warm the JIT up.
  return median(times.slice(10));
}

function median(numbers: readonly number[]): number {
  const sorted = [...numbers].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

if (values.worker !== undefined) {
  process.stdout.write(`${await timeCase(values.dist ?? ownDist, values.worker)}\n`);
} else {
  const processes = Number(values.processes);
  const builds = values.against === undefined ? [ownDist] : [ownDist, resolve(values.against)];
  const script = fileURLToPath(import.meta.url);
  for (const name of positionals.length > 0 ? positionals : cases) {
    const times = builds.map(() => [] as number[]);
    for (let p = 0; p < processes; p++)
      builds.forEach((dist, b) => {
        const out = execFileSync(process.execPath, [script, '--worker', name, '--dist', dist], {
          encoding: 'utf8',
        });
        times[b]?.push(Number(out));
      });
    const cells = times.map(
      (t) => `${median(t).toFixed(2)} ms [${Math.min(...t).toFixed(2)}–${Math.max(...t).toFixed(2)}]`,
    );
    const ratio =
      times.length === 2
        ? `  this/against ${(median(times[0] ?? []) / median(times[1] ?? [])).toFixed(3)}`
        : '';
    process.stdout.write(`${name.padEnd(19)} ${cells.join('   against ')}${ratio}\n`);
  }
}
