/**
 * One benchmark case in a process of its own (see main.ts for why): times native JSON and the case
 * alternately on the same records, and prints one JSON line of medians.
 */
import { createCodec } from '../../codecs/registry.js';
import { t } from '../../schema/index.js';
import { type AgainstJson, timeAgainstJson } from '../stats.js';
import { casesFor, limits, overheadDatasets, touch } from './cases.js';

/** The times are medians in milliseconds per round of the whole dataset. */
export interface CaseResult extends AgainstJson {
  readonly case: string;
  readonly name: string;
  readonly bytes: number;
  readonly jsonBytes: number;
  /**
   * Cold start: making the codec (compiling it, for compiled codecs) plus the first encode and
   * decode of the first record, in milliseconds, before anything else in the process ran it.
   */
  readonly coldMs: number;
}

export function runCase(
  caseName: string,
  count: number,
  rounds: number,
  datasetName = 'records',
): CaseResult {
  const dataset = overheadDatasets[datasetName as keyof typeof overheadDatasets];
  if (dataset === undefined)
    throw new Error(`unknown dataset ${datasetName}; known: ${Object.keys(overheadDatasets).join(', ')}`);
  const cases = casesFor(dataset.schema);
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
  const first = subject.prepare(rows.slice(0, 1));
  touch(subject.decode(subject.encode(first)));
  const coldMs = Number(process.hrtime.bigint() - coldStart) / 1e6;
  const native = cases['json native']?.() as NonNullable<
    ReturnType<NonNullable<(typeof cases)['json native']>>
  >;
  const input = subject.prepare(rows);
  const jsonInput = native.prepare(rows);
  const bytes = subject.encode(input);
  const jsonBytes = native.encode(jsonInput);

  const times = timeAgainstJson(rounds, {
    jsonEncode: () => native.encode(jsonInput),
    jsonDecode: () => touch(native.decode(jsonBytes)),
    encode: () => subject.encode(input),
    decode: () => touch(subject.decode(bytes)),
  });
  return {
    case: caseName,
    name: subject.name,
    bytes: bytes.length,
    jsonBytes: jsonBytes.length,
    ...times,
    coldMs,
  };
}

/** A case that cannot run on a dataset (a library that cannot hold its shape) says why. */
export interface CaseFailure {
  readonly case: string;
  readonly error: string;
}

const [caseName, count, rounds, dataset] = process.argv.slice(2);
if (caseName !== undefined) {
  let result: CaseResult | CaseFailure;
  try {
    result = runCase(caseName, Number(count), Number(rounds ?? 30), dataset ?? 'records');
  } catch (error) {
    result = { case: caseName, error: (error as Error).message.split('\n')[0]?.slice(0, 120) ?? '' };
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
