/**
 * A recommendation per boundary, reasoned from the measured numbers and naming them. The rules are
 * deliberately simple, so that a reader can check each verdict against the table:
 * - only wirekit codecs whose round trip was lossless, and that were timed beside native JSON,
 *   are candidates;
 * - "round trip" is (encode + decode) as a ratio to native JSON timed in the same process.
 */
import type { CaseResult } from './case.js';
import type { LabRun } from './run.js';

export interface Recommendation {
  readonly boundary: string;
  readonly format: string;
  /** Why, with the numbers it rests on. */
  readonly because: string;
}

const roundTrip = (r: CaseResult) =>
  (r.encode.median + r.decode.median) / (r.jsonEncode.median + r.jsonDecode.median);
const pct = (ratio: number) => `${Math.round(ratio * 100)} %`;
const times = (ratio: number) => `${ratio.toFixed(2)}×`;

function best(results: readonly CaseResult[], score: (r: CaseResult) => number): CaseResult | undefined {
  return [...results].sort((a, b) => score(a) - score(b))[0];
}

export function recommend(run: LabRun): Recommendation[] {
  // A case without its JSON yardstick (10M rows, past V8's string limit) has no ratios to rank by.
  const candidates = run.results.filter(
    (r) => r.implementation === 'wirekit' && r.loss === undefined && r.jsonFailure === undefined,
  );
  const items = candidates.filter((r) => r.unit === 'item');
  const batches = candidates.filter((r) => r.unit === 'batch');
  const out: Recommendation[] = [];

  const json = candidates.filter((r) => r.format === 'json');
  if (json.length > 0) {
    const cost = Math.max(...json.map(roundTrip));
    out.push({
      boundary: 'public API (people read it)',
      format: 'json',
      because: `people and every tool read it; wirekit's schema-checked JSON costs up to ${times(cost)} native JSON's round trip here, and keeps types that native JSON loses.`,
    });
  }

  const rpcPool = items.length > 0 ? items : batches;
  const rpc = best(
    rpcPool.filter((r) => r.format !== 'json' && r.format !== 'arrow'),
    roundTrip,
  );
  if (rpc !== undefined) {
    out.push({
      boundary: 'internal RPC',
      format: rpc.format,
      because: `fastest lossless round trip on ${rpc.spec.dataset}: ${times(roundTrip(rpc))} JSON's time at ${pct(rpc.bytes / rpc.jsonBytes)} of its size.`,
    });
  }

  // Behind compression, sizes converge; among formats no slower than 1.2× JSON (or all, if none is),
  // take the smallest after zstd.
  const zstdPool = (items.length > 0 ? items : batches).filter((r) => r.compressed.zstd !== undefined);
  const quick = zstdPool.filter((r) => roundTrip(r) <= 1.2);
  const cache = best(
    quick.length > 0 ? quick : zstdPool,
    (r) => (r.compressed.zstd?.bytes ?? 0) / r.jsonBytes,
  );
  // Against wirekit's JSON, whose bytes carry the same values (native JSON spells bytes as objects).
  const jsonZstd =
    cache &&
    run.results.find(
      (r) => r.spec.dataset === cache.spec.dataset && r.format === 'json' && r.implementation === 'wirekit',
    );
  if (cache !== undefined) {
    const jsonAfter = jsonZstd?.compressed.zstd?.bytes;
    out.push({
      boundary: 'cache behind compression',
      format: `${cache.format} + zstd`,
      because:
        `smallest after zstd on ${cache.spec.dataset}${quick.length > 0 ? ' among formats no slower than 1.2× JSON' : ''}: ` +
        `${Math.round(cache.compressed.zstd?.bytes ?? 0)} B` +
        (jsonAfter === undefined ? '' : ` against JSON's ${Math.round(jsonAfter)} B after zstd`) +
        `, round trip ${times(roundTrip(cache))}.`,
    });
  }

  const avro = best(
    candidates.filter((r) => r.format === 'avro'),
    (r) => r.bytes / r.jsonBytes,
  );
  if (avro !== undefined) {
    out.push({
      boundary: 'event stream with an evolving schema',
      format: 'avro',
      because: `writer→reader schema resolution lets producers and consumers upgrade apart; ${pct(avro.bytes / avro.jsonBytes)} of JSON's size on ${avro.spec.dataset}, round trip ${times(roundTrip(avro))}.`,
    });
  }

  const rows = Math.max(0, ...batches.map((r) => r.itemsPerUnit));
  const bulk = best(
    batches.filter((r) => r.itemsPerUnit === rows),
    roundTrip,
  );
  if (bulk !== undefined) {
    out.push({
      boundary: 'bulk tabular results',
      format: bulk.format,
      because: `fastest lossless round trip on the largest batches (${bulk.spec.dataset}, ${bulk.itemsPerUnit.toLocaleString('en')} rows): ${times(roundTrip(bulk))} JSON's time at ${pct(bulk.bytes / bulk.jsonBytes)} of its size.`,
    });
  }
  return out;
}

export function recommendationText(run: LabRun): string {
  const lines = recommend(run).map((r) => `  ${r.boundary.padEnd(38)} ${r.format.padEnd(14)} ${r.because}`);
  return lines.length === 0 ? '' : `Recommendations (from the numbers above):\n${lines.join('\n')}`;
}
