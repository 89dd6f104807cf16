import type { Path } from './wirekit-error.js';
import { WirekitError } from './wirekit-error.js';

/**
 * Why one part of a value does not match its schema. `code` is stable (branch on it); `message`
 * is for people.
 */
export interface ValidationIssue {
  readonly code: IssueCode;
  readonly path: Path;
  readonly message: string;
}

export const issueCodes = [
  'expected_type',
  'out_of_range',
  'not_integer',
  'too_short',
  'too_long',
  'pattern_mismatch',
  'not_well_formed',
  'unsafe_key',
  'invalid_decimal',
  'invalid_date',
  'precision_loss',
  'not_a_member',
  'literal_mismatch',
  'missing_field',
  'unknown_field',
  'unknown_variant',
  'too_deep',
  'oneof_conflict',
] as const;

export type IssueCode = (typeof issueCodes)[number];

/** Thrown by `assert` and by decoders that validate: every issue found, not only the first. */
export class ValidationError extends WirekitError {
  override readonly name = 'ValidationError';
  readonly issues: readonly ValidationIssue[];

  constructor(issues: readonly ValidationIssue[]) {
    const first = issues[0];
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    super('WK_VALIDATION_FAILED', `${first ? first.message : 'invalid value'}${more}`, { path: first?.path });
    this.issues = issues;
  }
}
