import { isWirekitError, type WirekitError } from '../../src/errors/index.js';

/**
 * The code of the WirekitError that `run` throws: 'no error' when it returns, and the error itself
 * rethrown when it is not a WirekitError (a crash must fail the test, not compare unequal).
 */
export function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isWirekitError(error)) return error.code;
    throw error;
  }
  return 'no error';
}

/** `codeOf` with the error's path: `WK_VALIDATION_FAILED@many.1`, `WK_DECODE_SCHEMA_MISMATCH@` at the root. */
export function codeAndPathOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isWirekitError(error)) return `${error.code}@${(error.path ?? []).join('.')}`;
    throw error;
  }
  return 'no error';
}

/** The WirekitError `run` throws; a test fails when it returns or throws anything else. */
export function thrownError(run: () => unknown): WirekitError {
  try {
    run();
  } catch (error) {
    if (isWirekitError(error)) return error;
    throw error;
  }
  throw new Error('expected a WirekitError');
}
