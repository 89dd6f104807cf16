/**
 * How an error travels over HTTP: one small record, `{ status, code, message, path? }`, written in
 * the format the client negotiated so that a binary client decodes it with the codec it already
 * has, and a person with curl reads JSON. `code` is wirekit's stable error code; the client turns
 * the record back into a WirekitError carrying it.
 *
 * Arrow is the exception: a table is no place for one error, so Arrow clients get the JSON form
 * (its Content-Type says so).
 */

import type { Codec, FormatName } from '../../codecs/codec.js';
import { createCodec } from '../../codecs/registry.js';
import { type ErrorCode, errorCodes, formatPath, isWirekitError, WirekitError } from '../../errors/index.js';
import { type Infer, t } from '../../schema/index.js';

export const HttpError = t.object('HttpError', {
  status: t.uint16(),
  code: t.string(),
  message: t.string(),
  /** Where in the body the problem was found, as `orders[2].price`. */
  path: t.optional(t.string()),
  /** The media types the route offers (406 and 415). */
  offered: t.optional(t.array(t.string())),
});
export type HttpError = Infer<typeof HttpError>;

const errorCodecs = new Map<FormatName, Codec<HttpError>>();

/** The codec that writes and reads error records in `format` (JSON for Arrow), one per format. */
export function errorCodecFor(format: FormatName): Codec<HttpError> {
  const written = format === 'arrow' ? 'json' : format;
  let codec = errorCodecs.get(written);
  if (codec === undefined) {
    codec = createCodec(written, { schema: HttpError });
    errorCodecs.set(written, codec);
  }
  return codec;
}

/** A WirekitError raised while answering a request, with the HTTP status it answers with. */
export class HttpWirekitError extends WirekitError {
  override readonly name = 'HttpWirekitError';
  readonly status: number;
  readonly offered: readonly string[] | undefined;

  constructor(status: number, code: ErrorCode, message: string, offered?: readonly string[]) {
    super(code, message);
    this.status = status;
    this.offered = offered;
  }
}

/**
 * The status for a WirekitError met while reading a request: limits on the body are 413, anything
 * else the client sent wrong is 400. Errors thrown by a handler after its body was read are the
 * server's own (500), unless the handler threw an HttpWirekitError.
 */
function statusOfBodyError(code: ErrorCode): number {
  if (code === 'WK_LIMIT_INPUT' || code === 'WK_LIMIT_DECOMPRESSED' || code === 'WK_HTTP_BODY_TOO_LARGE') {
    return 413;
  }
  if (code === 'WK_HTTP_UNSUPPORTED_MEDIA_TYPE') return 415;
  if (code === 'WK_HTTP_NOT_ACCEPTABLE') return 406;
  return 400;
}

/** Fastify's own errors about a request body, in wirekit's terms. */
const fastifyErrors: Readonly<Record<string, readonly [number, ErrorCode]>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'WK_HTTP_BODY_TOO_LARGE'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'WK_HTTP_UNSUPPORTED_MEDIA_TYPE'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'WK_DECODE_TRUNCATED'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'WK_DECODE_TRUNCATED'],
  FST_ERR_CTP_INVALID_TYPE: [415, 'WK_HTTP_UNSUPPORTED_MEDIA_TYPE'],
};

/**
 * The record to answer `error` with. `whileReading` says the error came from reading the request
 * (its status is then the client's fault); a handler's own WirekitError is a 500 unless it is an
 * HttpWirekitError that names its status. Messages of unexpected errors are not sent: they may
 * hold internals.
 */
export function httpErrorOf(error: unknown, whileReading: boolean): HttpError {
  if (error instanceof HttpWirekitError) return recordOf(error.status, error, error.offered);
  if (isWirekitError(error)) return recordOf(whileReading ? statusOfBodyError(error.code) : 500, error);
  const fastifyCode = (error as { code?: unknown } | null)?.code;
  const mapped = typeof fastifyCode === 'string' ? fastifyErrors[fastifyCode] : undefined;
  if (mapped !== undefined) {
    return { status: mapped[0], code: mapped[1], message: (error as Error).message };
  }
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, code: 'WK_HTTP_STATUS', message: (error as Error).message };
  }
  return { status: 500, code: 'WK_HTTP_STATUS', message: 'internal server error' };
}

function recordOf(status: number, error: WirekitError, offered?: readonly string[]): HttpError {
  const record: HttpError = { status, code: error.code, message: error.message };
  if (error.path !== undefined) record.path = formatPath(error.path);
  if (offered !== undefined) record.offered = [...offered];
  return record;
}

/** The WirekitError a client raises for an error response. */
export class WirekitHttpError extends WirekitError {
  override readonly name = 'WirekitHttpError';
  readonly status: number;
  readonly offered: readonly string[] | undefined;
  /** Where in the request body the server found the problem, as `orders[2].price`. */
  readonly at: string | undefined;
  /** The first bytes of a body that held no wirekit error, for WK_HTTP_STATUS. */
  readonly body: Uint8Array | undefined;

  constructor(record: HttpError, body?: Uint8Array) {
    const code = Object.hasOwn(errorCodes, record.code) ? (record.code as ErrorCode) : 'WK_HTTP_STATUS';
    super(code, record.message);
    this.status = record.status;
    this.at = record.path;
    this.offered = record.offered;
    this.body = body;
  }
}
