/**
 * One benchmark case in a process of its own (see main.ts for why): times native JSON and the case
 * alternately on the same records, and prints one JSON line of medians.
 */
import { pathToFileURL } from 'node:url';
import { createCodec } from 'wirekit-ts/codecs';
import { type AgainstJson, timeAgainstJson } from 'wirekit-ts/lab';
import { t } from 'wirekit-ts/schema';
import { type BenchCase, casesFor, limits, touch } from './cases.js';
import { type OverheadDataset, overheadDatasets, type Unit } from './datasets.js';

/** The times are medians in milliseconds per round of the whole dataset. */
export interface CaseResult extends AgainstJson {
  readonly case: string;
  readonly name: string;
  readonly unit: Unit;
  /** Bytes of the whole dataset: the one batch, or every item's own encoding summed. */
  readonly bytes: number;
  readonly jsonBytes: number;
  /**
   * Cold start: making the codec (compiling it, for compiled codecs) plus the first encode and
   * decode of the first record, in milliseconds, before anything else in the process ran it.
   */
  readonly coldMs: number;
}

/** A case made ready to time: its subject, its units and their encodings, and native JSON's beside them. */
export function prepareCase(caseName: string, datasetName: string, count: number) {
  const dataset: OverheadDataset | undefined = overheadDatasets[datasetName as keyof typeof overheadDatasets];
  if (dataset === undefined)
    throw new Error(`unknown dataset ${datasetName}; known: ${Object.keys(overheadDatasets).join(', ')}`);
  const cases = casesFor(dataset.schema, dataset.unit);
  const make = cases[caseName];
  if (make === undefined)
    throw new Error(`unknown case ${caseName}; known: ${Object.keys(cases).join(', ')}`);
  // Through JSON once: generated strings are cons-strings until flattened, which slows some
  // encoders several-fold and would measure the generator instead of the codec.
  const json = createCodec('json', { schema: t.array(dataset.schema), limits });
  const size = Number.isSafeInteger(count) && count > 0 ? count : dataset.count;
  const rows = json.decode(json.encode(dataset.generate(size) as never)) as Record<string, unknown>[];
  // The first record alone, before any warm-up: what a process pays on its first request.
  const coldStart = process.hrtime.bigint();
  const subject = make();
  const [first] = subject.prepare(rows.slice(0, 1));
  touch(subject.decode(subject.encode(first)));
  const coldMs = Number(process.hrtime.bigint() - coldStart) / 1e6;
  const native = cases['json native']?.() as BenchCase;
  const inputs = subject.prepare(rows);
  // Values JSON.stringify cannot carry (bytes) go to it in their JSON form: the text wirekit's
  // JSON codec writes for them, parsed back.
  const jsonRows = dataset.jsonForm
    ? (JSON.parse(new TextDecoder().decode(json.encode(rows))) as typeof rows)
    : rows;
  const jsonInputs = native.prepare(jsonRows);
  const encoded = inputs.map((input) => subject.encode(input));
  const jsonEncoded = jsonInputs.map((input) => native.encode(input));
  return { dataset, subject, coldMs, native, inputs, jsonInputs, encoded, jsonEncoded };
}

export function runCase(
  caseName: string,
  count: number,
  rounds: number,
  datasetName = 'records',
): CaseResult {
  const { dataset, subject, coldMs, native, inputs, jsonInputs, encoded, jsonEncoded } = prepareCase(
    caseName,
    datasetName,
    count,
  );
  // One call per unit, each result kept, so no call can be skipped as dead.
  let sink = 0;
  const encodeAll = (of: BenchCase, units: unknown[]) => () => {
    for (const unit of units) sink += of.encode(unit).length;
  };
  const decodeAll = (of: BenchCase, all: Uint8Array[]) => () => {
    for (const bytes of all) sink += touch(of.decode(bytes));
  };
  const times = timeAgainstJson(rounds, {
    jsonEncode: encodeAll(native, jsonInputs),
    jsonDecode: decodeAll(native, jsonEncoded),
    encode: encodeAll(subject, inputs),
    decode: decodeAll(subject, encoded),
  });
  if (sink < 0) throw new Error('unreachable: keeps the results live');
  return {
    case: caseName,
    name: subject.name,
    unit: dataset.unit,
    bytes: sum(encoded),
    jsonBytes: sum(jsonEncoded),
    ...times,
    coldMs,
  };
}

const sum = (all: readonly Uint8Array[]): number => all.reduce((total, bytes) => total + bytes.length, 0);

/** A case that cannot run on a dataset (a library that cannot hold its shape) says why. */
export interface CaseFailure {
  readonly case: string;
  readonly error: string;
}

// Run as a script (main.ts spawns it); imported, by profile.ts, it only lends prepareCase.
const [caseName, count, rounds, dataset] = process.argv.slice(2);
if (caseName !== undefined && import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  let result: CaseResult | CaseFailure;
  try {
    result = runCase(caseName, Number(count), Number(rounds ?? 30), dataset ?? 'records');
  } catch (error) {
    result = { case: caseName, error: (error as Error).message.split('\n')[0]?.slice(0, 120) ?? '' };
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
