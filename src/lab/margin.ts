/**
 * Whether a pick made by speed is ahead by more than the run's noise. A pick can rest on a
 * difference smaller than the spread between fresh processes: the pick for internal RPC changed
 * between two runs of the same code. So a pick's lead over the runner-up is compared with the
 * spread between the processes that measured the two: clear when the winner's slowest process
 * still beat the runner-up's fastest, within the noise when the two ranges overlap, and not judged
 * with one process per case, which shows no spread at all.
 */
import type { CaseResult } from './case.js';
import type { LabRun } from './run.js';

export interface Margin {
  readonly verdict: 'clear' | 'within noise' | 'not judged';
  /** The fastest other format in the same pool. */
  readonly runnerUp: string;
  /** The verdict with its numbers, for a reader. */
  readonly text: string;
}

/** A figure a pick is ranked by (lower is better), as a ratio to native JSON in the same process. */
export interface Measure {
  /** The result's figure (the median across its processes). */
  readonly score: (r: CaseResult) => number;
  /** Each process's own figure, when the result kept them (runs saved earlier did not). */
  readonly perProcess: (r: CaseResult) => number[] | undefined;
}

export const pct = (ratio: number) => `${Math.round(ratio * 100)} %`;
export const times = (ratio: number) => `${ratio.toFixed(2)}×`;

export function best(
  results: readonly CaseResult[],
  score: (r: CaseResult) => number,
): CaseResult | undefined {
  return [...results].sort((a, b) => score(a) - score(b))[0];
}

/** How the winner's lead over the fastest other format compares with the spread between processes. */
export function marginOf(
  winner: CaseResult,
  pool: readonly CaseResult[],
  run: LabRun,
  measure: Measure,
): Margin | undefined {
  const { score } = measure;
  const runnerUp = best(
    pool.filter((r) => r.format !== winner.format),
    score,
  );
  if (runnerUp === undefined) return undefined;
  const lead = 1 - score(winner) / score(runnerUp);
  const versus = `${pct(lead)} faster than the runner-up, ${runnerUp.format} (${times(score(runnerUp))}${runnerUp.spec.dataset === winner.spec.dataset ? '' : ` on ${runnerUp.spec.dataset}`})`;
  const a = measure.perProcess(winner);
  const b = measure.perProcess(runnerUp);
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

/** The margin's verdict as a reader should see it: the two that need care stand out. */
export function marginLabel(margin: Margin): string {
  if (margin.verdict === 'clear') return 'clear margin';
  return margin.verdict === 'within noise' ? 'WITHIN NOISE' : 'NOISE NOT JUDGED';
}
