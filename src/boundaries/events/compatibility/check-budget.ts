/**
 * A bound on the work of one compatibility check, in proportion to the two schemas' sizes. The
 * Avro and wirekit value rules compare a pair of named types once and remember the answer, which
 * is linear for schemas that evolve (each type meets its own counterpart), but a pair of schemas
 * made to have every type of one meet many types of the other (a reader record against a writer
 * union of thousands of records, records referenced from many fields) would cost the product of
 * their sizes. Each comparison (a pair of types, a field, a union branch, an alias, a finding
 * carried up) spends one step; a check that spends more than `stepsPerNode` per node of the two
 * schemas stops, and the schemas count as incompatible, with a finding that says why. Schemas that
 * evolve take a handful of steps per node, so the bound is met only by pairs no one evolves into.
 */
import type { Finding } from './issues.js';

/** Steps one check may spend per node of the two schemas. */
const stepsPerNode = 64;

/** Thrown through the rule's recursion when the budget is spent; caught where the check started. */
export class BudgetSpent extends Error {
  constructor(readonly maxSteps: number) {
    super(`the check took more than ${maxSteps} steps`);
  }
}

export class CheckBudget {
  private spent = 0;
  readonly maxSteps: number;

  /** A budget for two schemas of these node counts. */
  constructor(nodes: number) {
    this.maxSteps = stepsPerNode * Math.max(nodes, 1_000);
  }

  spend(steps = 1): void {
    this.spent += steps;
    if (this.spent > this.maxSteps) throw new BudgetSpent(this.maxSteps);
  }
}

/** The finding of a check stopped by its budget: the schemas are not shown compatible. */
function budgetFinding(maxSteps: number): Finding {
  return {
    errorType: 'CHECK_TOO_COSTLY',
    path: '/',
    additionalInfo: `more than ${maxSteps} comparisons`,
    describe: ({ reader, writer }) =>
      `Checking the ${reader} schema against the ${writer} schema takes more than ${maxSteps} comparisons ` +
      `(${stepsPerNode} per node: their types meet many types of the other schema), so they are not shown compatible`,
  };
}

/** Runs a check under a budget: its findings, or the budget's finding when it ran out. */
export function withinBudget(check: () => Finding[]): Finding[] {
  try {
    return check();
  } catch (error) {
    if (error instanceof BudgetSpent) return [budgetFinding(error.maxSteps)];
    throw error;
  }
}
