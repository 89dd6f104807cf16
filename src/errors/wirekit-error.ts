import type { ErrorCode } from './codes.js';

/**
 * The wire formats wirekit speaks, named here at the bottom of the tree so that an error can say
 * which one raised it (the codecs take their list of names from this one).
 */
export const wireFormats = ['json', 'msgpack', 'cbor', 'protobuf', 'avro', 'flatbuffers', 'arrow'] as const;
export type WireFormat = (typeof wireFormats)[number];

/** Where in a value (object keys and array indexes, outermost first) a problem was found. */
export type Path = readonly (string | number)[];

export interface WirekitErrorOptions {
  readonly path?: Path;
  /** Byte offset into the input, for decoders. */
  readonly offset?: number;
  /** The wire format whose codec raised the error; absent where no format is involved. */
  readonly format?: WireFormat | undefined;
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
  /**
   * Which wire format raised it (json, msgpack, cbor, protobuf, avro, flatbuffers, arrow), so that
   * messages need not start with the format's name; undefined where no format is involved.
   */
  readonly format: WireFormat | undefined;

  constructor(code: ErrorCode, message: string, options: WirekitErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.path = options.path;
    this.offset = options.offset;
    this.format = options.format;
  }
}

/**
 * The error in one line for people (the CLI, the benchmark's failure notes): its code, then the
 * format in brackets where one raised it, since messages do not name it: `WK_DECODE_MALFORMED:
 * [arrow] the footer is invalid (at byte 12).`
 */
export function errorLine(error: WirekitError): string {
  const format = error.format === undefined ? '' : `[${error.format}] `;
  return `${error.code}: ${format}${error.message}`;
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

/**
 * Puts `key` in front of the path (and message) of a WirekitError that carries a path; returns any
 * other error as it is. Recursive readers and writers of every format catch around each child and
 * rethrow this, so the path of a problem is built while the stack unwinds and the happy path
 * allocates nothing. A problem with the value starts with an empty path (`path: []`); an error
 * without one (a limit of the whole message, a bug) passes through untouched. It is the one helper
 * for this, so a path reads the same in every format.
 */
export function prependPath(error: unknown, key: string | number): unknown {
  if (!(error instanceof WirekitError) || error.path === undefined) return error;
  const leaf = error.path.length > 0 ? error.message.slice(formatPath(error.path).length + 2) : error.message;
  const path = [key, ...error.path];
  return new WirekitError(error.code, `${formatPath(path)}: ${leaf}`, {
    path,
    offset: error.offset,
    format: error.format,
    cause: error.cause,
  });
}

/** Runs `body`, prepending `key` to the path of an error that escapes it (see prependPath). */
export function atPath<T>(key: string | number, body: () => T): T {
  try {
    return body();
  } catch (error) {
    throw prependPath(error, key);
  }
}
