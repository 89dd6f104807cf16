/**
 * What CBOR's preferred floats cost to write (RFC 8949 §4.1: the shortest of half, single and
 * double that holds each float, a check per float): CBOR's encode next to MessagePack's, which
 * writes every float as a double through the same writer machinery, on three float-heavy sets of
 * rows, each run in fresh processes (medians, with the range, of the per-process medians).
 *
 *   npm run build && node build/benchmarks/cbor-floats.js [--processes 5]
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createCborCodec } from 'wirekit-ts/cbor';
import type { Codec } from 'wirekit-ts/codecs';
import { Reading, seededRandom, timeseries } from 'wirekit-ts/lab';
import { createMsgpackCodec } from 'wirekit-ts/msgpack';
import { type Schema, t } from 'wirekit-ts/schema';

interface Case {
  readonly schema: Schema;
  readonly value: unknown;
}

function cases(): Record<string, Case> {
  const random = seededRandom(7);
  return {
    'timeseries, 100,000 rows (values to 0.01: doubles)': {
      schema: t.array(Reading),
      value: timeseries(100_000, 1),
    },
    'random doubles, 200,000': {
      schema: t.array(t.float64()),
      value: Array.from({ length: 200_000 }, () => random.next() * 1000),
    },
    'rows of quarters, 100,000 (halves hold them)': {
      schema: t.array(t.object('Quarter', { a: t.float64(), b: t.float64() })),
      value: Array.from({ length: 100_000 }, (_, i) => ({ a: (i % 1000) / 4, b: -(i % 64) / 8 })),
    },
  };
}

/** Milliseconds per call: the median of 31 calls after 10 to warm up. */
function time(run: () => unknown): number {
  for (let i = 0; i < 10; i++) run();
  const times: number[] = [];
  for (let i = 0; i < 31; i++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[15] as number;
}

interface Measured {
  readonly cbor: number;
  readonly msgpack: number;
  readonly cborBytes: number;
  readonly msgpackBytes: number;
}

/** One process: every case, CBOR and MessagePack alternately. */
function child(): void {
  const out: Record<string, Measured> = {};
  for (const [name, { schema, value }] of Object.entries(cases())) {
    const cbor = createCborCodec({ schema }) as Codec<unknown>;
    const msgpack = createMsgpackCodec({ schema }) as Codec<unknown>;
    out[name] = {
      cbor: time(() => cbor.encode(value)),
      msgpack: time(() => msgpack.encode(value)),
      cborBytes: cbor.encode(value).length,
      msgpackBytes: msgpack.encode(value).length,
    };
  }
  process.stdout.write(JSON.stringify(out));
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1] as number;
}

function main(): void {
  const at = process.argv.indexOf('--processes');
  const processes = at === -1 ? 5 : Number(process.argv[at + 1]);
  const runs: Record<string, Measured>[] = [];
  for (let i = 0; i < processes; i++) {
    const result = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child'], {
      encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(result.stderr);
    runs.push(JSON.parse(result.stdout) as Record<string, Measured>);
  }
  console.log(`CBOR (preferred floats) and MessagePack (doubles) encode, ${processes} fresh processes`);
  for (const name of Object.keys(runs[0] as object)) {
    const of = (pick: (m: Measured) => number) => runs.map((run) => pick(run[name] as Measured));
    const range = (values: number[]) => `${Math.min(...values).toFixed(2)}-${Math.max(...values).toFixed(2)}`;
    const cbor = of((m) => m.cbor);
    const msgpack = of((m) => m.msgpack);
    const ratio = of((m) => m.cbor / m.msgpack);
    const first = runs[0]?.[name] as Measured;
    console.log(`\n${name}`);
    console.log(`  CBOR        ${median(cbor).toFixed(2)} ms (${range(cbor)}), ${first.cborBytes} bytes`);
    console.log(
      `  MessagePack ${median(msgpack).toFixed(2)} ms (${range(msgpack)}), ${first.msgpackBytes} bytes`,
    );
    console.log(`  CBOR / MessagePack ${median(ratio).toFixed(2)} (${range(ratio)})`);
  }
}

if (process.argv.includes('--child')) child();
else main();
