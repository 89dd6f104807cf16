/**
 * bench:events's report: Markdown tables from a run's cases (medians over repetitions, with the
 * range across them, since one repetition on a shared 2-core machine can be off by a step).
 *
 * 1. Per format: bytes per event (payload, and on the broker), decode alone, the consumer's CPU per
 *    event at the highest rate every format kept up with, the rate it falls behind at and how fast
 *    it consumes then, and its lag at that step.
 * 2. The lag curve: each format's worst lag, in events and in seconds (the oldest event's age at
 *    its handling), at each rate — the "lag at peak" of the field report, rate by rate.
 * 3. Every step, with what it produced and consumed.
 */
import { median } from 'wirekit-ts/lab';
import type { ConsumerKind } from './consumer-plug.js';
import type { CaseResult, StepResult } from './run-case.js';
import type { EventFormat } from './subjects.js';

export interface EventsRun {
  readonly command: string;
  readonly date: string;
  readonly node: string;
  readonly kafka: { readonly version: string; readonly bootstrap: string; readonly logDir: string };
  readonly java: string;
  readonly machine: {
    readonly cpus: number;
    readonly model: string;
    readonly loadAtStart: readonly number[];
    readonly loadAtEnd: readonly number[];
  };
  readonly options: {
    readonly formats: readonly EventFormat[];
    readonly rates: readonly number[];
    readonly stepSeconds: number;
    readonly repetitions: number;
    readonly warmupSeconds: number;
    readonly consumers: readonly ConsumerKind[];
    readonly registry: string | undefined;
    readonly maxBatch: number;
    readonly pool: number;
    readonly behindSeconds: number;
  };
  readonly seconds: number;
  readonly results: readonly CaseResult[];
  readonly failures: readonly {
    readonly format: EventFormat;
    readonly consumer: ConsumerKind;
    readonly repetition: number;
    readonly error: string;
  }[];
}

const integer = (value: number): string =>
  Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '—';

function fixed(value: number, digits = 1): string {
  if (!Number.isFinite(value)) return '—';
  return value >= 100 ? integer(value) : value.toFixed(digits);
}

/** A median with the range across repetitions when they differ: "12.3 (11.9-13.0)". */
function spread(values: readonly number[], show: (value: number) => string): string {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return '—';
  const mid = show(median(finite));
  if (finite.length === 1) return mid;
  const low = show(Math.min(...finite));
  const high = show(Math.max(...finite));
  return low === high ? mid : `${mid} (${low}-${high})`;
}

function table(header: readonly string[], align: readonly ('l' | 'r')[], rows: readonly string[][]): string {
  return [
    `| ${header.join(' | ')} |`,
    `|${align.map((side) => (side === 'l' ? '---' : '---:')).join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}

/** A row of the report: one format on one consumer. */
interface Subject {
  readonly format: EventFormat;
  readonly consumer: ConsumerKind;
  /** Short, for the tables keyed by rate. */
  readonly name: string;
  readonly label: string;
}

/** The subjects of a run in the order of --formats, wirekit's consumer before the kafkajs loop. */
function subjectsOf(run: EventsRun): Subject[] {
  const subjects: Subject[] = [];
  for (const format of run.options.formats) {
    for (const consumer of ['wirekit', 'kafkajs'] as const) {
      const first = run.results.find((result) => result.format === format && result.consumer === consumer);
      if (first === undefined) continue;
      const loop = consumer === 'kafkajs' && format !== 'plain-json';
      subjects.push({
        format,
        consumer,
        name: loop ? `${format} on the kafkajs loop` : format,
        label: loop ? `${first.label}, kafkajs eachBatch loop` : first.label,
      });
    }
  }
  return subjects;
}

/** The cases of one subject, in repetition order. */
function casesOf(run: EventsRun, subject: Subject): CaseResult[] {
  return run.results
    .filter((result) => result.format === subject.format && result.consumer === subject.consumer)
    .sort((a, b) => a.repetition - b.repetition);
}

function stepAt(result: CaseResult, rate: number): StepResult | undefined {
  return result.steps.find((step) => step.rate === rate);
}

/** The rate a case fell behind at; Infinity when it kept up with every rate it ran. */
function behindRate(result: CaseResult): number {
  return result.steps.find((step) => step.behind)?.rate ?? Number.POSITIVE_INFINITY;
}

/**
 * The highest rate every case ran (kept up with or not: its CPU per event counts its events either
 * way), so one column compares every subject at one rate; the first rate if none.
 */
function commonRate(run: EventsRun): number | undefined {
  let common: number | undefined;
  for (const rate of run.options.rates) {
    if (!run.results.every((result) => stepAt(result, rate) !== undefined)) break;
    common = rate;
  }
  return common ?? run.options.rates[0];
}

/** The rate a subject fell behind at, over the repetitions that did (the others said how many). */
function fellBehind(cases: readonly CaseResult[], behind: readonly number[]): string {
  const did = behind.filter(Number.isFinite);
  if (did.length === 0) return notBehind(cases);
  const shown = spread(did, integer);
  return did.length === behind.length
    ? shown
    : `${shown} in ${did.length}/${behind.length}; ${notBehind(cases.filter((_, i) => !Number.isFinite(behind[i])))}`;
}

/** What a format that never fell behind reached: the last rate run, or the producer's limit. */
function notBehind(cases: readonly CaseResult[]): string {
  const lastSteps = cases
    .map((result) => result.steps[result.steps.length - 1])
    .filter((step) => step !== undefined);
  const bound = lastSteps.filter((step) => step.producerBound);
  if (bound.length === 0) return `not up to ${integer(Math.max(...lastSteps.map((step) => step.rate)))}`;
  return `not up to ${integer(median(bound.map((step) => step.producedPerSecond)))} (the producer's most)`;
}

/** The step a case ended on: where it fell behind, or its last one. */
function lastStep(result: CaseResult): StepResult | undefined {
  return result.steps.find((step) => step.behind) ?? result.steps[result.steps.length - 1];
}

function summaryTable(run: EventsRun, subjects: readonly Subject[], common: number | undefined): string {
  return table(
    [
      'format',
      'consumer',
      'payload B/event',
      'on the broker B/event',
      'decode + handler alone µs/event',
      `consumer CPU µs/event at ${integer(common ?? Number.NaN)}/s`,
      'keeps up at (events/s)',
      'falls behind at',
      'consumed/s then',
      'ceiling on a core of its own',
      'lag max then: events / oldest event s',
    ],
    ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    subjects.map((subject) => {
      const cases = casesOf(run, subject);
      const behind = cases.map(behindRate);
      const behindSteps = cases.map((result) => result.steps.find((step) => step.behind));
      // A step the producer could not drive to its rate says nothing about that rate.
      const kept = cases.map((result) =>
        Math.max(
          0,
          ...result.steps.filter((step) => !step.behind && !step.producerBound).map((step) => step.rate),
        ),
      );
      const atCommon = cases.map((result) => (common === undefined ? undefined : stepAt(result, common)));
      const lagThen = behindSteps.filter((step) => step !== undefined);
      return [
        subject.label,
        [...new Set(cases.map((result) => result.consumer))].join(', '),
        spread(
          cases.map((result) => result.payloadBytes.mean),
          integer,
        ),
        spread(
          cases.map((result) => result.brokerBytesPerEvent),
          integer,
        ),
        spread(
          cases.map((result) => result.calibration.decodeUs + result.calibration.handleUs),
          (v) => fixed(v, 2),
        ),
        spread(
          atCommon.map((step) => step?.processCpuUs ?? Number.NaN),
          (v) => fixed(v),
        ),
        spread(kept, (v) => (v === 0 ? 'none' : integer(v))),
        fellBehind(cases, behind),
        spread(
          behindSteps.map((step) => step?.consumedPerSecond ?? Number.NaN),
          integer,
        ),
        // The loop thread is where the events are decoded and handled, one at a time: a core of
        // its own would run 1 s ÷ its CPU time per event, whatever else shares this machine.
        spread(
          cases.map((result) => 1e6 / (lastStep(result)?.threadCpuUs ?? Number.NaN)),
          integer,
        ),
        lagThen.length === 0
          ? '—'
          : `${integer(median(lagThen.map((step) => step.lagMax)))} / ${fixed(median(lagThen.map((step) => step.ageMaxMs / 1000)), 1)}`,
      ];
    }),
  );
}

/** Worst lag per format and rate: events behind / the oldest event's age at its handling. */
function lagCurveTable(run: EventsRun, subjects: readonly Subject[], rates: readonly number[]): string {
  return table(
    ['format', ...rates.map((rate) => `${integer(rate)}/s`)],
    ['l', ...rates.map(() => 'r' as const)],
    subjects.map((subject) => {
      const cases = casesOf(run, subject);
      return [
        subject.name,
        ...rates.map((rate) => {
          const steps = cases.map((result) => stepAt(result, rate)).filter((step) => step !== undefined);
          if (steps.length === 0) return 'behind before';
          const ran = steps.length < cases.length ? ` (${steps.length}/${cases.length} ran)` : '';
          const mark = steps.filter((step) => step.behind).length * 2 > steps.length ? ' ✗' : '';
          return `${integer(median(steps.map((step) => step.lagMax)))} / ${fixed(median(steps.map((step) => step.ageMaxMs / 1000)), 1)}${mark}${ran}`;
        }),
      ];
    }),
  );
}

/**
 * The rate to show lag second by second at: where the plain-JSON baseline fell behind (the field
 * report's "peak" is the one its old consumer could not take), else the lowest any subject did,
 * by their medians over repetitions; the step rate nearest that median.
 */
function peakRate(
  run: EventsRun,
  subjects: readonly Subject[],
): { rate: number; baseline: boolean } | undefined {
  const behindAt = (subject: Subject) => median(casesOf(run, subject).map(behindRate));
  const nearestStep = (rate: number) =>
    run.options.rates.reduce((best, step) => (Math.abs(step - rate) < Math.abs(best - rate) ? step : best));
  const baseline = subjects.find((subject) => subject.format === 'plain-json');
  if (baseline !== undefined && Number.isFinite(behindAt(baseline)))
    return { rate: nearestStep(behindAt(baseline)), baseline: true };
  const rates = subjects.map(behindAt).filter((rate) => Number.isFinite(rate));
  return rates.length === 0 ? undefined : { rate: nearestStep(Math.min(...rates)), baseline: false };
}

/** Lag (events) second by second through the step at `rate`, and when the drain ended. */
function lagOverTimeTable(run: EventsRun, subjects: readonly Subject[], rate: number): string {
  const seconds = Math.ceil(run.options.stepSeconds);
  const marks = Array.from({ length: seconds }, (_, i) => i + 1);
  const rows: string[][] = [];
  for (const subject of subjects) {
    const steps = casesOf(run, subject)
      .map((result) => stepAt(result, rate))
      .filter((step) => step !== undefined);
    if (steps.length === 0) continue;
    const lagAt = (step: StepResult, t: number) => {
      let nearest = step.samples[0];
      for (const sample of step.samples) {
        if (Math.abs(sample.t - t) < Math.abs((nearest?.t ?? Number.POSITIVE_INFINITY) - t)) nearest = sample;
      }
      return nearest?.lag ?? Number.NaN;
    };
    rows.push([
      subject.name,
      ...marks.map((t) => integer(median(steps.map((step) => lagAt(step, t))))),
      fixed(median(steps.map((step) => step.windowSeconds + step.drainSeconds)), 1),
    ]);
  }
  return table(
    ['format', ...marks.map((t) => `${t} s`), 'lag gone at (s)'],
    ['l', ...marks.map(() => 'r' as const), 'r'],
    rows,
  );
}

function stepsTable(run: EventsRun, subjects: readonly Subject[], rates: readonly number[]): string {
  const rows: string[][] = [];
  for (const subject of subjects) {
    const cases = casesOf(run, subject);
    for (const rate of rates) {
      const steps = cases.map((result) => stepAt(result, rate)).filter((step) => step !== undefined);
      if (steps.length === 0) continue;
      const m = (pick: (step: StepResult) => number) => median(steps.map(pick));
      rows.push([
        subject.name,
        integer(rate),
        integer(m((step) => step.producedPerSecond)),
        spread(
          steps.map((step) => step.consumedPerSecond),
          integer,
        ),
        integer(m((step) => step.lagMax)),
        integer(m((step) => step.lagEnd)),
        integer(m((step) => step.committedLagMax)),
        fixed(
          m((step) => step.ageMaxMs / 1000),
          2,
        ),
        fixed(
          m((step) => step.drainSeconds),
          1,
        ),
        spread(
          steps.map((step) => step.processCpuUs),
          (v) => fixed(v),
        ),
        fixed(m((step) => step.threadCpuUs)),
        fixed(
          m((step) => step.waitedShare * 100),
          0,
        ),
        integer(m((step) => step.producer.maxLateMs)),
        `${steps.filter((step) => !step.behind).length}/${steps.length}`,
        steps.every((step) => step.produced === step.consumed) ? 'yes' : 'no',
      ]);
    }
  }
  return table(
    [
      'format',
      'rate/s',
      'produced/s',
      'consumed/s (range)',
      'lag max',
      'lag at end',
      'committed lag max',
      'oldest event s',
      'drain s',
      'CPU µs/event',
      'loop thread µs/event',
      'waited for a CPU %',
      'producer late ms',
      'kept up',
      'produced = consumed',
    ],
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
    rows,
  );
}

export function eventsReport(run: EventsRun): string {
  const out: string[] = [];
  const { options, machine } = run;
  out.push(`command: ${run.command}`, '');
  out.push(
    `node ${run.node}, Kafka ${run.kafka.version} (one KRaft node on loopback, Java ${run.java}), ${machine.cpus} × ${machine.model}, ${run.date}; ` +
      `steps of ${options.stepSeconds} s at ${options.rates.map(integer).join(', ')} events/s after a ${options.warmupSeconds} s warm-up, ` +
      `${options.repetitions} repetition(s), each case in fresh producer and consumer processes; handler batches of ${options.maxBatch}; ` +
      `fallen behind = lag at the end of a step over ${options.behindSeconds} s of its production; ${fixed(run.seconds, 0)} s in all. ` +
      `Load average ${machine.loadAtStart.map((load) => load.toFixed(2)).join(' ')} at start, ${machine.loadAtEnd.map((load) => load.toFixed(2)).join(' ')} at end.`,
    '',
  );
  const subjects = subjectsOf(run);
  const rates = options.rates.filter((rate) =>
    run.results.some((result) => stepAt(result, rate) !== undefined),
  );
  out.push(summaryTable(run, subjects, commonRate(run)), '');
  if (
    options.registry === undefined &&
    subjects.some((subject) => subject.format === 'avro' || subject.format === 'protobuf')
  ) {
    out.push(
      'Avro and Protobuf ran in wirekit’s envelope (--registry none): with Confluent framing the registry is asked once per schema id, and each event carries 5 bytes of frame (+1 for Protobuf’s message index) instead of the envelope’s header.',
      '',
    );
  } else if (options.registry !== undefined) {
    out.push(
      `Avro and Protobuf in Confluent framing through a schema registry (${options.registry}): the producer registered its schema with its first event and the consumer fetched it by id with its first; every other event is read with the cached schema.`,
      '',
    );
  }
  out.push(
    'decode + handler alone: the consumer process decoding and handling the same events without a broker (its loop thread’s CPU time). Consumer CPU: the whole consumer process (kafkajs, the collector, every thread) over a step and its drain ÷ the step’s events. Ceiling: 1 s ÷ the loop thread’s CPU time per event in the last step, the rate a core of its own would sustain.',
    '',
    'Lag curve: the worst lag in each step, events behind / the oldest event at its handling (s), medians over the repetitions that ran the step (✗: fell behind).',
    '',
    lagCurveTable(run, subjects, rates),
    '',
  );
  const peak = peakRate(run, subjects);
  if (peak !== undefined) {
    out.push(
      `At ${integer(peak.rate)} events/s, ${peak.baseline ? 'where the plain-JSON baseline fell behind' : 'the lowest rate a subject fell behind at'}: lag in events second by second, for the subjects that ran it (medians over the repetitions that did).`,
      '',
      lagOverTimeTable(run, subjects, peak.rate),
      '',
    );
  }
  out.push(
    'Every step (medians over the repetitions that ran it):',
    '',
    stepsTable(run, subjects, rates),
    '',
  );
  const mismatched = run.results.filter((result) => result.tally.mismatches > 0 || result.consumerErrors > 0);
  for (const result of mismatched) {
    out.push(
      `${result.format} on ${result.consumer}'s consumer (repetition ${result.repetition + 1}): ${result.tally.mismatches} events whose amounts did not add up, ${result.consumerErrors} consumer errors.`,
    );
  }
  for (const failure of run.failures) {
    out.push(
      `${failure.format} on ${failure.consumer}'s consumer (repetition ${failure.repetition + 1}) failed: ${failure.error.split('\n')[0]}`,
    );
  }
  if (mismatched.length > 0 || run.failures.length > 0) out.push('');
  return `${out.join('\n')}\n`;
}
