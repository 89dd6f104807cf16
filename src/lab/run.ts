/**
 * The lab's orchestrator: every (dataset, subject) case in fresh processes, one at a time.
 *
 * Why processes: timing several libraries in one process shifted their ratios to JSON by up to 3.7×
 * on this machine (shared JIT state and type feedback), enough to reverse a recommendation. Why one
 * at a time: on 2 cores, two cases side by side would time each other.
 */
import { execFile } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { CaseResult, CaseSpec, ProcessMedians } from './case.js';
import { datasetFromFile, type FileDatasetSpec } from './datasets/from-file.js';
import { datasets } from './datasets/index.js';
import { type CaseFailure, crashReason, type FailureKind, failureLine } from './failure.js';
import { median } from './stats.js';
import { defaultSubjects, type SubjectName } from './subjects.js';

const run = promisify(execFile);
const caseScript = fileURLToPath(new URL('./case.js', import.meta.url));

export interface LabOptions {
  readonly datasets?: readonly string[];
  readonly subjects?: readonly SubjectName[];
  /**
   * Fresh processes per case; results are medians across them. Default 1, so the default run fits
   * in about 5 minutes on an idle 2-core machine (README and `wirekit bench --help`); figures to publish want 3 or more (absolute times vary ~1.5× between
   * processes here, ratios to JSON in the same process much less).
   */
  readonly processes?: number;
  readonly quick?: boolean;
  readonly seed?: number;
  /** Item counts by dataset name, overriding the defaults. */
  readonly counts?: Readonly<Record<string, number>>;
  readonly onProgress?: (done: number, total: number, label: string) => void;
  /** Measure the user's own data instead of the built-in datasets. */
  readonly file?: FileDatasetSpec;
  /** Where optional peers (Fury) are resolved from; by default beside wirekit-ts. */
  readonly peersFrom?: string;
}

export interface LabRun {
  readonly date: string;
  readonly machine: {
    readonly cpus: number;
    readonly model: string;
    readonly memoryGb: number;
    readonly platform: string;
  };
  readonly node: string;
  readonly v8: string;
  readonly options: { readonly processes: number; readonly quick: boolean; readonly seed: number };
  readonly results: readonly CaseResult[];
  /** Cases that could not run, with the whole reason: reported, never dropped silently. */
  readonly failures: readonly CaseFailure[];
  /**
   * What the lab has to say about its input before any figure is read: for --data, what was
   * measured, and a warning when that is probably not what the user meant. Missing from runs saved
   * before it was added.
   */
  readonly notes?: readonly string[];
}

/** Quick runs shrink every dataset so that the whole lab takes about half a minute. */
const quickCounts: Readonly<Record<string, number>> = {
  users: 2_000,
  records: 1_000,
  products: 40,
  orders: 20,
  documents: 200,
  messages: 1_000,
  accounts: 200,
  timeseries: 20_000,
  statuses: 200,
  'statuses-each': 200,
  catalog: 1,
  'catalog-each': 1,
};

export async function runLab(options: LabOptions = {}): Promise<LabRun> {
  const quick = options.quick === true;
  const processes = options.processes ?? 1;
  const seed = options.seed ?? 1;
  const { file } = options;
  const names = file !== undefined ? [basename(file.dataFile)] : (options.datasets ?? Object.keys(datasets));
  const subjects = options.subjects ?? defaultSubjects;
  const total = names.length * subjects.length;
  const results: CaseResult[] = [];
  const failures: CaseFailure[] = [];
  const notes: string[] = [];
  let done = 0;
  for (const dataset of names) {
    // Read here once too, so a bad file fails before any child starts.
    const fromFile = file !== undefined ? datasetFromFile(file) : undefined;
    const definition = fromFile ?? (Object.hasOwn(datasets, dataset) ? datasets[dataset] : undefined);
    if (definition === undefined) throw new Error(`unknown dataset ${dataset}`);
    if (fromFile !== undefined) {
      notes.push(`Measured: ${fromFile.measured}.`);
      if (fromFile.integers !== undefined)
        notes.push(`${fromFile.integers.warning ? 'WARNING: ' : ''}${fromFile.integers.text}`);
      if (fromFile.notice !== undefined) notes.push(`WARNING: ${fromFile.notice}`);
    }
    const count =
      options.counts?.[dataset] ??
      (quick ? (quickCounts[dataset] ?? definition.defaultCount) : definition.defaultCount);
    for (const subject of subjects) {
      options.onProgress?.(done, total, `${dataset} × ${subject}`);
      const spec: CaseSpec = {
        dataset,
        ...(file === undefined ? {} : { file }),
        subject,
        count,
        seed,
        rounds: quick ? 5 : 15,
        budgetMs: quick ? 300 : 800,
        loopProbeMs: quick ? 60 : 100,
        ...(options.peersFrom === undefined ? {} : { peersFrom: options.peersFrom }),
      };
      try {
        const runs: CaseResult[] = [];
        for (let p = 0; p < processes; p++) runs.push(await runInChild(spec));
        results.push(mergeRuns(runs));
      } catch (error) {
        const { kind, reason } =
          error instanceof CaseRunError ? error : { kind: 'error' as const, reason: String(error) };
        // Named formats, and every default format on wirekit's own datasets, are expected to run.
        const expected = options.subjects !== undefined || file === undefined;
        failures.push({ dataset, subject, error: reason, kind, expected });
      }
      done++;
    }
  }
  options.onProgress?.(done, total, 'done');
  const cpuList = cpus();
  return {
    date: new Date().toISOString(),
    machine: {
      cpus: cpuList.length,
      model: cpuList[0]?.model ?? 'unknown',
      memoryGb: Math.round(totalmem() / 1024 ** 3),
      platform: `${process.platform} ${process.arch}`,
    },
    node: process.version,
    v8: process.versions.v8,
    options: { processes, quick, seed },
    results,
    failures,
    notes,
  };
}

/** Why a case could not run, as its process reported it or as it ended. */
class CaseRunError extends Error {
  constructor(
    readonly kind: FailureKind,
    readonly reason: string,
  ) {
    super(reason);
  }
}

async function runInChild(spec: CaseSpec): Promise<CaseResult> {
  let stdout: string;
  try {
    ({ stdout } = await run(
      process.execPath,
      ['--max-old-space-size=8192', caseScript, JSON.stringify(spec)],
      {
        maxBuffer: 16 * 1024 * 1024,
      },
    ));
  } catch (error) {
    // execFile's error carries what the process wrote and how it ended.
    const ended = error as {
      stdout?: string;
      stderr?: string;
      code?: number | string | null;
      signal?: string | null;
    };
    const reported = failureLine(ended.stdout ?? '');
    if (reported !== undefined) throw new CaseRunError(reported.kind, reported.reason);
    const code = typeof ended.code === 'number' ? ended.code : null;
    const stderr =
      typeof ended.code === 'string'
        ? `${(error as Error).message}\n${ended.stderr ?? ''}`
        : (ended.stderr ?? '');
    throw new CaseRunError('crash', crashReason({ code, signal: ended.signal ?? null }, stderr));
  }
  return JSON.parse(stdout.trim().split('\n').pop() as string) as CaseResult;
}

/**
 * One result from several processes: the median of every timing, sizes from the first, and each
 * process's own medians kept, so that a reader (and the recommendations) can see the noise.
 */
function mergeRuns(runs: readonly CaseResult[]): CaseResult {
  const first = runs[0] as CaseResult;
  const perProcess: ProcessMedians[] = runs.map((run) => ({
    encodeMs: run.encode.median,
    decodeMs: run.decode.median,
    jsonEncodeMs: run.jsonEncode.median,
    jsonDecodeMs: run.jsonDecode.median,
    ...(run.tables === undefined ? {} : { tablesMs: run.tables.serverMs + run.tables.clientMs }),
  }));
  if (runs.length === 1) return { ...first, processes: perProcess };
  const mid = (pick: (run: CaseResult) => number) => median(runs.map(pick));
  const timing = (pick: (run: CaseResult) => CaseResult['encode']) => ({
    median: mid((run) => pick(run).median),
    p75: mid((run) => pick(run).p75),
    p99: mid((run) => pick(run).p99),
    samples: runs.reduce((sum, run) => sum + pick(run).samples, 0),
  });
  return {
    ...first,
    encode: timing((run) => run.encode),
    decode: timing((run) => run.decode),
    jsonEncode: timing((run) => run.jsonEncode),
    jsonDecode: timing((run) => run.jsonDecode),
    loopDelayP99Ms: mid((run) => run.loopDelayP99Ms),
    memory: {
      peakRssMb: mid((run) => run.memory.peakRssMb),
      heapUsedMb: mid((run) => run.memory.heapUsedMb),
    },
    ...(first.tables === undefined
      ? {}
      : {
          tables: {
            ...first.tables,
            serverMs: mid((run) => run.tables?.serverMs ?? Number.NaN),
            clientMs: mid((run) => run.tables?.clientMs ?? Number.NaN),
          },
        }),
    processes: perProcess,
  };
}
