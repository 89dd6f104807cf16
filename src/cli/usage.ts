import { type ParseArgsConfig, parseArgs } from 'node:util';
import { WirekitError } from '../errors/index.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** parseArgs with wirekit's error: an unknown flag is a usage error (exit code 2), not a crash. */
export function parseCommand<O extends Options>(
  args: readonly string[],
  options: O,
): ReturnType<typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>> {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (cause) {
    throw new WirekitError('WK_CLI_USAGE', (cause as Error).message, { cause });
  }
}

export function usageError(message: string): WirekitError {
  return new WirekitError('WK_CLI_USAGE', message);
}
