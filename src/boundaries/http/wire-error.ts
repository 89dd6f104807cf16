/**
 * How an error travels over HTTP: one small record, `{ status, code, message, path?, offered?,
 * limit?, encodings?, format? }` (offered, limit and encodings say what would have been accepted;
 * format, which wire format raised the error), written in
 * the format the client negotiated so that a binary client decodes it with the codec it already
 * has, and a person with curl reads JSON. `code` is wirekit's stable error code; the client turns
 * the record back into a WirekitError carrying it.
 *
 * Arrow is the exception: a table is no place for one error, so Arrow clients get the JSON form
 * (its Content-Type says so).
 */

import type { FormatName } from '../../codecs/core/codec.js';
import { factsOf } from '../../codecs/formats.js';
import {
  type ErrorCode,
  errorCodes,
  formatPath,
  isWirekitError,
  type WireFormat,
  WirekitError,
  wireFormats,
} from '../../errors/index.js';
import { type Infer, t } from '../../schema/index.js';

export const HttpError = t.object('HttpError', {
  status: t.uint16(),
  code: t.string(),
  message: t.string(),
  /** Where in the body the problem was found, as `orders[2].price`. */
  path: t.optional(t.string()),
  /** The media types the route offers (406) or reads (415). */
  offered: t.optional(t.array(t.string())),
  /** The body limit in bytes (413). */
  limit: t.optional(t.uint64({ as: 'number' })),
  /** The content codings the route reads a body in (415 for a Content-Encoding). */
  encodings: t.optional(t.array(t.string())),
  /** The wire format that raised the error (`WirekitError.format`), e.g. `avro`. Last, so older records read. */
  format: t.optional(t.string()),
});
export type HttpError = Infer<typeof HttpError>;

/** The format error records are written in for a client of `format`: its own, JSON for Arrow. */
export function errorFormatOf(format: FormatName): FormatName {
  return factsOf(format).errorsIn;
}

/** What a refusal says would have been accepted. */
export interface Accepted {
  readonly offered?: readonly string[];
  readonly limit?: number;
  readonly encodings?: readonly string[];
}

/*
 * Two error classes, one per side, named for what each one is about:
 * - HttpReplyError (server): an error a route *replies* with; the plugin raises it (or a handler
 *   throws it) to answer with its status and what would have been accepted.
 * - HttpResponseError (client): the *response* the client got was an error; it is rebuilt from the
 *   record the server sent.
 */

/** A WirekitError raised while answering a request, with the HTTP status the route replies with. */
export class HttpReplyError extends WirekitError {
  override readonly name = 'HttpReplyError';
  readonly status: number;
  readonly offered: readonly string[] | undefined;
  readonly limit: number | undefined;
  readonly encodings: readonly string[] | undefined;

  constructor(
    status: number,
    code: ErrorCode,
    message: string,
    offered?: readonly string[],
    accepted: Omit<Accepted, 'offered'> = {},
  ) {
    super(code, message);
    this.status = status;
    this.offered = offered;
    this.limit = accepted.limit;
    this.encodings = accepted.encodings;
  }
}

/**
 * The status for a WirekitError met while reading a request: limits on the body are 413, anything
 * else the client sent wrong is 400. Errors thrown by a handler after its body was read are the
 * server's own (500), unless the handler threw an HttpReplyError.
 */
function statusOfBodyError(code: ErrorCode): number {
  if (code === 'WK_LIMIT_INPUT' || code === 'WK_LIMIT_DECOMPRESSED' || code === 'WK_HTTP_BODY_TOO_LARGE') {
    return 413;
  }
  if (code === 'WK_HTTP_UNSUPPORTED_MEDIA_TYPE') return 415;
  if (code === 'WK_HTTP_NOT_ACCEPTABLE') return 406;
  return 400;
}

/**
 * The record to answer `error` with. `whileReading` says the error came from reading the request
 * (its status is then the client's fault); a handler's own WirekitError is a 500 unless it is an
 * HttpReplyError that names its status. Messages of unexpected errors are not sent: they may
 * hold internals; Fastify's own (FST_ERR_*, with their status) are fixed texts and are.
 */
export function httpErrorOf(error: unknown, whileReading: boolean): HttpError {
  if (error instanceof HttpReplyError) return recordOf(error.status, error, error);
  if (isWirekitError(error)) return recordOf(whileReading ? statusOfBodyError(error.code) : 500, error);
  const code = (error as { code?: unknown } | null)?.code;
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  const fastify = typeof code === 'string' && code.startsWith('FST_ERR_');
  if (typeof status === 'number' && status >= 400 && status < 600 && (status < 500 || fastify)) {
    return { status, code: 'WK_HTTP_STATUS', message: (error as Error).message };
  }
  return { status: 500, code: 'WK_HTTP_STATUS', message: 'internal server error' };
}

function recordOf(status: number, error: WirekitError, accepted: Accepted = {}): HttpError {
  const record: HttpError = { status, code: error.code, message: error.message };
  if (error.path !== undefined) record.path = formatPath(error.path);
  if (accepted.offered !== undefined) record.offered = [...accepted.offered];
  if (accepted.limit !== undefined) record.limit = accepted.limit;
  if (accepted.encodings !== undefined) record.encodings = [...accepted.encodings];
  if (error.format !== undefined) record.format = error.format;
  return record;
}

/** The WirekitError a client raises for an error response. */
export class HttpResponseError extends WirekitError {
  override readonly name = 'HttpResponseError';
  readonly status: number;
  /** The media types the route offers (406) or reads (415). */
  readonly offered: readonly string[] | undefined;
  /** The route's body limit in bytes (413). */
  readonly limit: number | undefined;
  /** The content codings the route reads a body in (415 for a Content-Encoding). */
  readonly encodings: readonly string[] | undefined;
  /** Where in the request body the server found the problem, as `orders[2].price`. */
  readonly at: string | undefined;
  /** The first bytes of a body that held no wirekit error, for WK_HTTP_STATUS. */
  readonly body: Uint8Array | undefined;

  constructor(record: HttpError, body?: Uint8Array) {
    const code = Object.hasOwn(errorCodes, record.code) ? (record.code as ErrorCode) : 'WK_HTTP_STATUS';
    super(code, record.message, { format: wireFormatOf(record.format) });
    this.status = record.status;
    this.at = record.path;
    this.offered = record.offered;
    this.limit = record.limit;
    this.encodings = record.encodings;
    this.body = body;
  }
}

/** A record's `format`, when it names one of wirekit's formats (a newer server may know more). */
function wireFormatOf(name: string | undefined): WireFormat | undefined {
  return (wireFormats as readonly (string | undefined)[]).includes(name) ? (name as WireFormat) : undefined;
}
