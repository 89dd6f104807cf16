/**
 * A recommendation per boundary, reasoned from the measured numbers and naming them. The rules are
 * deliberately simple, so that a reader can check each verdict against the table:
 * - only wirekit codecs whose round trip was lossless, and that were timed beside native JSON,
 *   are candidates; a case that could not run has no result, so it is never one;
 * - "round trip" is (encode + decode) as a ratio to native JSON timed in the same process;
 * - a pick made from measurements needs enough items measured (minimumItems): below that, the
 *   boundary says how many it had and picks nothing, since a figure from one record says how that
 *   record encodes, not how the boundary's traffic will.
 * A pick made by speed also says whether its lead is larger than the noise (margin.ts).
 */
import { applyLine } from './apply.js';
import type { CaseResult } from './case.js';
import { best, type Margin, type Measure, marginOf, pct, times } from './margin.js';
import type { LabRun } from './run.js';
import { size } from './units.js';

export { type Margin, marginLabel } from './margin.js';

export interface Recommendation {
  readonly boundary: string;
  /** The pick; undefined when the boundary's measure rests on too few items (`because` says so). */
  readonly format: string | undefined;
  /** Why, with the numbers it rests on. */
  readonly because: string;
  /**
   * What the pick rests on: the row round trip, the size after zstd, the tables measure (Arrow
   * through the tables source read as columns, against the row formats' round trip), or the
   * format's role (public API, schema evolution).
   */
  readonly measure: 'round trip' | 'size after zstd' | 'tables measure' | 'role';
  /** How to apply the pick: the option and value in the boundary's API, as a line of code. */
  readonly apply?: string;
  /** For a pick made by speed: whether its lead over the next format is larger than the noise. */
  readonly margin?: Margin;
}

const roundTrip = (r: CaseResult) =>
  (r.encode.median + r.decode.median) / (r.jsonEncode.median + r.jsonDecode.median);

/** Encode + decode against native JSON's, per process. */
const roundTripMeasure: Measure = {
  score: roundTrip,
  perProcess: (r) => r.processes?.map((p) => (p.encodeMs + p.decodeMs) / (p.jsonEncodeMs + p.jsonDecodeMs)),
};

/** The boundaries whose pick rests on measured items, and so can rest on too few of them. */
export type MeasuredBoundary = 'internal RPC' | 'cache behind compression' | 'bulk tabular results';

/**
 * The fewest items each measured boundary's pick needs, with the reason a reader is shown:
 * - RPC and cache payloads are single values: ten of them spread the pick over the field mix a
 *   service sends (one record's long text or map alone can reorder the formats);
 * - bulk tables are judged on one batch, and a thousand rows is where per-row costs outweigh each
 *   format's fixed cost per batch (Arrow's schema message, a container header); fewer rows are
 *   not a bulk result.
 */
export const minimumItems: Readonly<
  Record<MeasuredBoundary, { readonly items: number; readonly why: string }>
> = {
  'internal RPC': { items: 10, why: "one record's field mix alone can reorder the formats" },
  'cache behind compression': { items: 10, why: "one record's field mix alone can reorder the formats" },
  'bulk tabular results': {
    items: 1_000,
    why: "below that a format's fixed cost per batch weighs as much as the rows",
  },
};

export interface RecommendOptions {
  /** The fewest items a measured boundary picks from, overriding minimumItems. */
  readonly minItems?: Partial<Record<MeasuredBoundary, number>>;
}

/** Items behind a result: a batch's rows, or the values timed one by one. */
const itemsOf = (r: CaseResult) => (r.unit === 'batch' ? r.itemsPerUnit : r.units);

/**
 * For a pool whose largest dataset holds fewer items than the boundary needs, the no-pick that
 * says so; otherwise undefined.
 */
function tooFew(
  boundary: MeasuredBoundary,
  pool: readonly CaseResult[],
  options: RecommendOptions,
): Recommendation | undefined {
  if (pool.length === 0) return undefined;
  const needed = options.minItems?.[boundary] ?? minimumItems[boundary].items;
  const most = pool.reduce((top, r) => (itemsOf(r) > itemsOf(top) ? r : top));
  const count = itemsOf(most);
  if (count >= needed) return undefined;
  const fromFile = most.spec.file !== undefined;
  return {
    boundary,
    format: undefined,
    measure:
      boundary === 'internal RPC'
        ? 'round trip'
        : boundary === 'bulk tabular results'
          ? 'tables measure'
          : 'size after zstd',
    because:
      `no pick: ${count.toLocaleString('en')} item${count === 1 ? '' : 's'} on ${most.spec.dataset}, too few to judge ` +
      `${boundary} (it needs ${needed.toLocaleString('en')}: ${minimumItems[boundary].why}). ` +
      (fromFile
        ? 'Give --path to the array of records inside the file, or a file of more records.'
        : 'Measure more items (--count).'),
  };
}

export function recommend(run: LabRun, options: RecommendOptions = {}): Recommendation[] {
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
      measure: 'role',
      because: `people and every tool read it; wirekit's schema-checked JSON costs up to ${times(cost)} native JSON's round trip here, and keeps types that native JSON loses.`,
    });
  }

  const rpcPool = (items.length > 0 ? items : batches).filter(
    (r) => r.format !== 'json' && r.format !== 'arrow',
  );
  const rpcTooFew = tooFew('internal RPC', rpcPool, options);
  const rpc = rpcTooFew === undefined ? best(rpcPool, roundTrip) : undefined;
  if (rpcTooFew !== undefined) out.push(rpcTooFew);
  if (rpc !== undefined) {
    const margin = marginOf(rpc, rpcPool, run, roundTripMeasure);
    out.push({
      boundary: 'internal RPC',
      format: rpc.format,
      measure: 'round trip',
      because: `fastest lossless round trip on ${rpc.spec.dataset}: ${times(roundTrip(rpc))} JSON's time at ${pct(rpc.bytes / rpc.jsonBytes)} of its size.`,
      ...(margin === undefined ? {} : { margin }),
    });
  }

  // Behind compression, sizes converge; among formats no slower than 1.2× JSON (or all, if none is),
  // take the smallest after zstd.
  const zstdPool = (items.length > 0 ? items : batches).filter((r) => r.compressed.zstd !== undefined);
  const quick = zstdPool.filter((r) => roundTrip(r) <= 1.2);
  const cacheTooFew = tooFew('cache behind compression', zstdPool, options);
  if (cacheTooFew !== undefined) out.push(cacheTooFew);
  const cache =
    cacheTooFew === undefined
      ? best(quick.length > 0 ? quick : zstdPool, (r) => (r.compressed.zstd?.bytes ?? 0) / r.jsonBytes)
      : undefined;
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
      measure: 'size after zstd',
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
      measure: 'role',
      because: `writer→reader schema resolution lets producers and consumers upgrade apart; ${pct(avro.bytes / avro.jsonBytes)} of JSON's size on ${avro.spec.dataset}, round trip ${times(roundTrip(avro))}.`,
    });
  }

  const rows = Math.max(0, ...batches.map((r) => r.itemsPerUnit));
  const bulkPool = batches.filter((r) => r.itemsPerUnit === rows);
  const bulkTooFew = tooFew('bulk tabular results', bulkPool, options);
  if (bulkTooFew !== undefined) out.push(bulkTooFew);
  if (bulkTooFew === undefined) {
    const bulk = bulkPick(bulkPool, run);
    if (bulk !== undefined) out.push(bulk);
  }
  return out.map((r) => {
    const apply = r.format === undefined ? undefined : applyLine(r.boundary, r.format, cache);
    return apply === undefined ? r : { ...r, apply };
  });
}

/** The tables measure against native JSON's round trip in the same process. */
const tablesMeasure: Measure = {
  score: (r) =>
    r.tables === undefined
      ? Number.NaN
      : (r.tables.serverMs + r.tables.clientMs) / (r.jsonEncode.median + r.jsonDecode.median),
  perProcess: (r) =>
    r.processes?.every((p) => p.tablesMs !== undefined)
      ? r.processes.map((p) => (p.tablesMs as number) / (p.jsonEncodeMs + p.jsonDecodeMs))
      : undefined,
};

/**
 * Bulk tabular results, from the tables measure where the run has Arrow's: what the tables boundary
 * serves is a stream a browser or DuckDB reads as columns, so Arrow is timed on that path and the
 * row formats on theirs. Without it (Arrow not run, a field no table column holds, a saved run),
 * from the row round trip, saying why.
 */
function bulkPick(pool: readonly CaseResult[], run: LabRun): Recommendation | undefined {
  const rows = (pool[0] as CaseResult).itemsPerUnit.toLocaleString('en');
  const columns = pool.find((r) => r.tables?.path === 'columns');
  if (columns === undefined) {
    const bulk = best(pool, roundTrip);
    if (bulk === undefined) return undefined;
    const arrow = pool.find((r) => r.format === 'arrow');
    const why =
      arrow?.tablesUnavailable ??
      (arrow === undefined ? 'Arrow was not measured' : 'this saved run has no tables measure');
    const margin = marginOf(bulk, pool, run, roundTripMeasure);
    return {
      boundary: 'bulk tabular results',
      format: bulk.format,
      measure: 'round trip',
      because:
        `fastest lossless round trip of row objects on the largest batches (${bulk.spec.dataset}, ${rows} rows): ` +
        `${times(roundTrip(bulk))} JSON's time at ${pct(bulk.bytes / bulk.jsonBytes)} of its size. This rests on the ` +
        `row round trip, not on the tables measure (Arrow's columns path), because ${why}.`,
      ...(margin === undefined ? {} : { margin }),
    };
  }
  const tablesPool = pool.filter((r) => r.tables !== undefined);
  const bulk = best(tablesPool, tablesMeasure.score) as CaseResult;
  const held = (r: CaseResult) => size(r.tables?.serverPeakBytes ?? Number.NaN);
  const path = (r: CaseResult) =>
    r.tables?.path === 'columns'
      ? `record batches of ${(r.tables.batchRows).toLocaleString('en')} rows from the tables source, read as columns`
      : 'rows encoded, then decoded into row objects';
  const versus =
    bulk === columns
      ? ''
      : ` Arrow's columns path took ${times(tablesMeasure.score(columns))}, holding ${held(columns)}.`;
  const margin = marginOf(bulk, tablesPool, run, tablesMeasure);
  return {
    boundary: 'bulk tabular results',
    format: bulk.format,
    measure: 'tables measure',
    because:
      `fastest on the tables measure (${bulk.spec.dataset}, ${rows} rows; ${path(bulk)}): ` +
      `${times(tablesMeasure.score(bulk))} native JSON's round trip, the server holding at most ${held(bulk)} of the ` +
      `response at once (JSON's whole payload: ${size(bulk.jsonBytes)}).${versus}`,
    ...(margin === undefined ? {} : { margin }),
  };
}

/** The cases the recommendations could not consider, because they did not run. */
export function leftOut(run: LabRun): string | undefined {
  if (run.failures.length === 0) return undefined;
  const cases = run.failures.map((f) => `${f.subject} on ${f.dataset}`);
  return `Not considered, because they could not run (see "Cases that could not run"): ${cases.join(', ')}.`;
}
