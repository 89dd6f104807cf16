/**
 * A value that cannot be read as asked (a null where the schema allows none, a number outside the
 * schema's range, a timestamp finer than its unit): the reader of a column throws it with the
 * value's index in that column, each container it passes through adds its step (a field name, an
 * item position, a map key) and turns the index into its own, and the record batch turns it into
 * a WirekitError naming the row and the column: `[17].home.zip: ...`.
 */
import { formatPath, WirekitError } from '../../../errors/index.js';

export class ValueFault {
  constructor(
    /** The value's index in the column that holds it. */
    readonly index: number,
    readonly message: string,
    /** The steps from that column down to the value (filled in on the way up). */
    readonly path: readonly (string | number)[] = [],
  ) {}
}

export const nullMessage = 'a null where the schema allows none';

export function fault(index: number, message: string): never {
  throw new ValueFault(index, message);
}

/**
 * Rethrows `error` as a fault of the container entry `index`, one `step` further from the value;
 * anything other than a fault goes on unchanged.
 */
export function rethrowAt(error: unknown, index: number, step?: string | number): never {
  if (!(error instanceof ValueFault)) throw error;
  throw new ValueFault(index, error.message, step === undefined ? error.path : [step, ...error.path]);
}

/** The error a fault in row `row` of the whole input (its batch at byte `offset`) is reported as. */
export function faultError(error: ValueFault, row: number, offset: number): WirekitError {
  const path = [row, ...error.path];
  return new WirekitError(
    'WK_DECODE_SCHEMA_MISMATCH',
    `${formatPath(path)}: ${error.message} (in the record batch at byte ${offset}).`,
    { path, offset, format: 'arrow' },
  );
}
