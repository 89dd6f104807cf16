import type { ErrorCode } from './codes.js';

/** Where in a value (object keys and array indexes, outermost first) a problem was found. */
export type Path = readonly (string | number)[];

export interface WirekitErrorOptions {
  readonly path?: Path;
  /** Byte offset into the input, for decoders. */
  readonly offset?: number;
  readonly cause?: unknown;
}

/**
 * The base of every error wirekit throws. Branch on `code`, never on `message`: codes are stable,
 * messages are written for people and may improve.
 */
export class WirekitError extends Error {
  override readonly name: string = 'WirekitError';
  readonly code: ErrorCode;
  readonly path: Path | undefined;
  readonly offset: number | undefined;

  constructor(code: ErrorCode, message: string, options: WirekitErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.path = options.path;
    this.offset = options.offset;
  }
}

/** True when `error` is a WirekitError, optionally with the given code. */
export function isWirekitError(error: unknown, code?: ErrorCode): error is WirekitError {
  return error instanceof WirekitError && (code === undefined || error.code === code);
}

/** Formats a path the way JavaScript would address it: `orders[2].lines[0].price`. */
export function formatPath(path: Path): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out === '' ? '(root)' : out;
}
