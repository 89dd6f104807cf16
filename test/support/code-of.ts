import { isWirekitError } from '../../src/errors/index.js';

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
