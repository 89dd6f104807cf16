/**
 * What schemaless MessagePack and CBOR cost on integers: encode and decode time, each as a ratio to
 * native JSON timed alternately in the same process, on two kinds of rows:
 *
 *   records  the 8-field records dataset: small integers, strings, a float, a Date, a string list
 *            (the common case, which integer handling must not slow down);
 *   wide     integers beyond 32 bits: millisecond epochs, ids near 2^53, negative offsets below
 *            -2^31, beside a small count, a float and a short string;
 *   bigints  the wide rows with ids from 2^60 as bigints, which only a bigint holds (native JSON
 *            gets them as digit strings).
 *
 * Cases: plain MessagePack, plain CBOR and MessagePack records mode. Each case runs in a fresh
 * process (shared JIT state shifts ratios, see overhead/main.ts); reported are the medians over
 * processes of each process's median.
 *
 *   npm run build && node build/benchmarks/schemaless-integers.js [--processes 3] [--rounds 30]
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createCborCodec } from 'wirekit-ts/cbor';
import type { Codec } from 'wirekit-ts/codecs';
import { type AgainstJson, median, records, seededRandom, timeAgainstJson } from 'wirekit-ts/lab';
import { createMsgpackCodec } from 'wirekit-ts/msgpack';
import { benchArgs } from './args.js';

/** Rows that JSON holds, and how a row becomes the value the codecs get (not timed). */
const datasets: Record<
  string,
  { rows: () => unknown[]; toValue?: (row: Record<string, unknown>) => unknown }
> = {
  records: { rows: () => records(5_000) },
  wide: { rows: () => wideRows(5_000) },
  bigints: {
    rows: () => wideRows(5_000).map((row, i) => ({ ...row, id: String(2n ** 60n + BigInt(i) * 7_919n) })),
    toValue: (row) => ({ ...row, id: BigInt(row.id as string) }),
  },
};

const codecs = {
  msgpack: () => createMsgpackCodec(),
  cbor: () => createCborCodec(),
  'msgpack records': () => createMsgpackCodec({ msgpackRecords: true }),
} as const;

function wideRows(count: number): Record<string, unknown>[] {
  const random = seededRandom(7);
  return Array.from({ length: count }, (_, i) => ({
    id: 9_007_199_254_740_672 - i * 7_919,
    at: 1_700_000_000_000 + random.int(0, 31_536_000_000),
    offset: -random.int(2 ** 31 + 1, 2 ** 40),
    count: random.int(0, 100),
    price: Math.round(random.next() * 100_000) / 100,
    label: `r${i}`,
  }));
}

/** The times are medians in milliseconds per pass over the rows. */
interface Result extends AgainstJson {
  readonly bytes: number;
  readonly jsonBytes: number;
}

function runCase(codecName: keyof typeof codecs, datasetName: string, rounds: number): Result {
  const utf8Out = new TextEncoder();
  const utf8In = new TextDecoder();
  const dataset = datasets[datasetName];
  if (dataset === undefined) throw new Error(`unknown dataset ${datasetName}`);
  // Through JSON once, so that generated strings are flat (as decoded data is) for every subject.
  const rows = JSON.parse(JSON.stringify(dataset.rows())) as Record<string, unknown>[];
  const value = dataset.toValue === undefined ? rows : rows.map(dataset.toValue);
  const codec: Codec<unknown> = codecs[codecName]();
  const bytes = codec.encode(value);
  const jsonBytes = utf8Out.encode(JSON.stringify(rows));
  const times = timeAgainstJson(rounds, {
    jsonEncode: () => utf8Out.encode(JSON.stringify(rows)),
    jsonDecode: () => JSON.parse(utf8In.decode(jsonBytes)),
    encode: () => codec.encode(value),
    decode: () => codec.decode(bytes),
  });
  return { bytes: bytes.length, jsonBytes: jsonBytes.length, ...times };
}

const usage = `Usage: node build/benchmarks/schemaless-integers.js [--processes 3] [--rounds 30]
Schemaless MessagePack and CBOR on small integers, wide integers and bigints, against native JSON.`;

const self = fileURLToPath(import.meta.url);
const [mode, codecArg, datasetArg, roundsArg] = process.argv.slice(2);
if (mode === '--case') {
  const result = runCase(codecArg as keyof typeof codecs, datasetArg as string, Number(roundsArg));
  process.stdout.write(`${JSON.stringify(result)}\n`);
} else {
  const { values } = benchArgs(usage, {
    options: { processes: { type: 'string', default: '3' }, rounds: { type: 'string', default: '30' } },
  });
  const rows = [
    '| dataset | case | bytes | vs JSON bytes | encode / JSON (range) | decode / JSON (range) |',
    '|---|---|---:|---:|---:|---:|',
  ];
  for (const datasetName of Object.keys(datasets)) {
    for (const codecName of Object.keys(codecs)) {
      const runs: Result[] = [];
      for (let p = 0; p < Number(values.processes); p++) {
        const out = execFileSync(process.execPath, [self, '--case', codecName, datasetName, values.rounds], {
          encoding: 'utf8',
        });
        runs.push(JSON.parse(out.trim().split('\n').pop() as string) as Result);
      }
      const encode = runs.map((r) => r.encode / r.jsonEncode);
      const decode = runs.map((r) => r.decode / r.jsonDecode);
      const span = (xs: number[]) =>
        `${median(xs).toFixed(2)} (${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)})`;
      const first = runs[0] as Result;
      rows.push(
        `| ${datasetName} | ${codecName} | ${first.bytes.toLocaleString('en')} | ` +
          `${(first.bytes / first.jsonBytes).toFixed(2)} | ${span(encode)} | ${span(decode)} |`,
      );
    }
  }
  console.log(
    `${values.processes} processes × ${values.rounds} rounds, 5,000 rows, node ${process.version}\n\n${rows.join('\n')}`,
  );
}
