/**
 * Cases that cannot run. A case runs in a process of its own, so it can fail three ways: a peer it
 * needs is not installed (the user can fix that), its code throws (a format refuses the schema, or a
 * bug), or the process dies without a word (out of memory, a signal). Each is reported with its
 * whole reason in every output, and none of them feeds a recommendation: a recommendation only ever
 * ranks results that exist.
 */
import { errorLine, isWirekitError } from '../errors/index.js';
import { PeerUnavailableError } from './peers/optional.js';

export type FailureKind = 'unavailable' | 'error' | 'crash';

/** One case that could not run, as LabRun.failures holds it. */
export interface CaseFailure {
  readonly dataset: string;
  readonly subject: string;
  /** The whole reason, as the case's process gave it (bounded to a few thousand characters). */
  readonly error: string;
  /** Missing from runs saved before it was added; read those as 'error'. */
  readonly kind?: FailureKind;
  /**
   * True when the case was expected to run: its format was named (--formats), or it is one of the
   * built-in datasets, on which every default format runs. An expected case that cannot run makes
   * `wirekit bench` exit with 1; a default format that cannot hold the user's own data (--data
   * without --formats) is a finding, reported, and leaves the exit code at 0.
   */
  readonly expected?: boolean;
}

/** The kind of failure in a few words, for the reports. */
export function failureKindText(kind: FailureKind | undefined): string {
  if (kind === 'unavailable') return 'not installed';
  if (kind === 'crash') return 'its process died';
  return 'failed';
}

/** What a case process prints instead of its result when the case cannot run. */
export interface CaseFailureLine {
  readonly failure: { readonly kind: Exclude<FailureKind, 'crash'>; readonly reason: string };
}

/** The whole reason a case threw `error`, as its process reports it. */
export function failureOf(error: unknown): CaseFailureLine['failure'] {
  if (error instanceof PeerUnavailableError) return { kind: 'unavailable', reason: bounded(error.message) };
  let reason: string;
  if (isWirekitError(error)) reason = errorLine(error);
  else if (error instanceof Error) {
    // Not one of wirekit's errors, so possibly a bug: where it was thrown helps whoever reports it.
    const frame = error.stack?.split('\n').find((line) => line.trimStart().startsWith('at '));
    reason = `${error.name}: ${error.message}${frame === undefined ? '' : ` (${frame.trim()})`}`;
  } else reason = `threw ${String(error)}`;
  return { kind: 'error', reason: bounded(reason) };
}

/** The failure line among a case process's output lines, if it printed one. */
export function failureLine(stdout: string): CaseFailureLine['failure'] | undefined {
  const last = stdout.trim().split('\n').pop() ?? '';
  if (!last.startsWith('{"failure":')) return undefined;
  try {
    const { failure } = JSON.parse(last) as CaseFailureLine;
    if (typeof failure?.reason === 'string' && (failure.kind === 'unavailable' || failure.kind === 'error'))
      return { kind: failure.kind, reason: bounded(failure.reason) };
  } catch {
    // Not ours after all: treated as a process that ended without a result.
  }
  return undefined;
}

/**
 * The reason for a process that ended without a result or a failure line: how it ended, and the
 * end of what it wrote to stderr (where Node puts "heap out of memory" and uncaught errors).
 */
export function crashReason(exit: { code?: number | null; signal?: string | null }, stderr: string): string {
  const how =
    exit.signal !== undefined && exit.signal !== null
      ? `was killed by ${exit.signal}`
      : `exited with code ${exit.code ?? 'unknown'}`;
  const lines = stderr.trimEnd().split('\n');
  const tail = lines.slice(-12).join('\n').trim();
  const said = tail === '' ? 'and wrote nothing to stderr' : `; the end of its stderr:\n${tail}`;
  return bounded(`the case's process ${how} before reporting a result ${said}`.replace(' ;', ';'));
}

const maxReason = 4_000;

/** Reasons come from other processes and from the user's data: long ones are cut, and say so. */
function bounded(text: string): string {
  return text.length <= maxReason
    ? text
    : `${text.slice(0, maxReason)}… (${text.length - maxReason} more characters)`;
}
