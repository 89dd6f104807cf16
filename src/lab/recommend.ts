/**
 * A recommendation per boundary, reasoned from the measured numbers and naming them. The rules are
 * deliberately simple, so that a reader can check each verdict against the table:
 * - only wirekit codecs whose round trip was lossless, and that were timed beside native JSON,
 *   are candidates; a case that could not run has no result, so it is never one;
 * - "round trip" is (encode + decode) as a ratio to native JSON timed in the same process.
 *
 * A pick made by speed can rest on a difference smaller than the run's noise: the pick for internal
 * RPC changed between two runs of the same code. So each such pick says how its margin over the
 * runner-up compares with the spread between the processes that measured them (--processes): clear
 * when the winner's slowest process still beat the runner-up's fastest, within the noise when the
 * two ranges overlap, and not judged with one process per case, which shows no spread at all.
 */
import type { CaseResult } from './case.js';
import type { LabRun } from './run.js';

export interface Recommendation {
  readonly boundary: string;
  readonly format: string;
  /** Why, with the numbers it rests on. */
  readonly because: string;
  /** For a pick made by speed: whether its lead over the next format is larger than the noise. */
  readonly margin?: Margin;
}

export interface Margin {
  readonly verdict: 'clear' | 'within noise' | 'not judged';
  /** The fastest other format in the same pool. */
  readonly runnerUp: string;
  /** The verdict with its numbers, for a reader. */
  readonly text: string;
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
    const margin = marginOf(
      rpc,
      rpcPool.filter((r) => r.format !== 'json' && r.format !== 'arrow'),
      run,
    );
    out.push({
      boundary: 'internal RPC',
      format: rpc.format,
      because: `fastest lossless round trip on ${rpc.spec.dataset}: ${times(roundTrip(rpc))} JSON's time at ${pct(rpc.bytes / rpc.jsonBytes)} of its size.`,
      ...(margin === undefined ? {} : { margin }),
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
  const bulkPool = batches.filter((r) => r.itemsPerUnit === rows);
  const bulk = best(bulkPool, roundTrip);
  if (bulk !== undefined) {
    const margin = marginOf(bulk, bulkPool, run);
    out.push({
      boundary: 'bulk tabular results',
      format: bulk.format,
      because: `fastest lossless round trip on the largest batches (${bulk.spec.dataset}, ${bulk.itemsPerUnit.toLocaleString('en')} row${bulk.itemsPerUnit === 1 ? '' : 's'}): ${times(roundTrip(bulk))} JSON's time at ${pct(bulk.bytes / bulk.jsonBytes)} of its size.`,
      ...(margin === undefined ? {} : { margin }),
    });
  }
  return out;
}

/** The round-trip ratio each process measured, when the result kept them (runs saved earlier did not). */
function perProcess(r: CaseResult): number[] | undefined {
  return r.processes?.map((p) => (p.encodeMs + p.decodeMs) / (p.jsonEncodeMs + p.jsonDecodeMs));
}

/** How the winner's lead over the fastest other format compares with the spread between processes. */
function marginOf(winner: CaseResult, pool: readonly CaseResult[], run: LabRun): Margin | undefined {
  const runnerUp = best(
    pool.filter((r) => r.format !== winner.format),
    roundTrip,
  );
  if (runnerUp === undefined) return undefined;
  const lead = 1 - roundTrip(winner) / roundTrip(runnerUp);
  const versus = `${pct(lead)} faster than the runner-up, ${runnerUp.format} (${times(roundTrip(runnerUp))}${runnerUp.spec.dataset === winner.spec.dataset ? '' : ` on ${runnerUp.spec.dataset}`})`;
  const a = perProcess(winner);
  const b = perProcess(runnerUp);
  if (a === undefined || b === undefined || a.length < 2 || b.length < 2) {
    const why =
      run.options.processes > 1 && (a === undefined || b === undefined)
        ? 'this saved run kept no per-process figures to compare that with'
        : 'one process per case shows no spread to compare that with';
    return {
      verdict: 'not judged',
      runnerUp: runnerUp.format,
      text: `${versus}; ${why}: run with --processes 3 to tell a real lead from chance.`,
    };
  }
  const range = (values: number[]) => `${Math.min(...values).toFixed(2)}-${Math.max(...values).toFixed(2)}×`;
  const spread = `across ${Math.min(a.length, b.length)} processes each, ${winner.format} took ${range(a)} and ${runnerUp.format} ${range(b)}`;
  if (Math.max(...a) < Math.min(...b)) {
    return {
      verdict: 'clear',
      runnerUp: runnerUp.format,
      text: `${versus}; ${spread}: even ${winner.format}'s slowest process beat ${runnerUp.format}'s fastest.`,
    };
  }
  return {
    verdict: 'within noise',
    runnerUp: runnerUp.format,
    text: `${versus}; ${spread}: the ranges overlap, so another run may pick ${runnerUp.format}.`,
  };
}

/** The cases the recommendations could not consider, because they did not run. */
export function leftOut(run: LabRun): string | undefined {
  if (run.failures.length === 0) return undefined;
  const cases = run.failures.map((f) => `${f.subject} on ${f.dataset}`);
  return `Not considered, because they could not run (see "Cases that could not run"): ${cases.join(', ')}.`;
}

/** The margin's verdict as a reader should see it: the two that need care stand out. */
export function marginLabel(margin: Margin): string {
  if (margin.verdict === 'clear') return 'clear margin';
  return margin.verdict === 'within noise' ? 'WITHIN NOISE' : 'NOISE NOT JUDGED';
}
