/**
 * The refusals of a request before its handler runs, each an HttpReplyError with its status,
 * wirekit's code, a message that says what was wrong, and what would have been accepted: the
 * media types the route reads (415), its body limit (413), the content codings it undoes. The
 * plugin raises them from the headers before a byte of the body is read, and turns Fastify's
 * own refusals (raised while Fastify reads the body) into the same records.
 */
import { HttpReplyError } from './wire-error.js';

/** What a route reads, to say so when Fastify refuses a body on its own. */
export interface BodyRules {
  /** The media types the route reads. */
  readonly types: readonly string[];
  /** The body limit in bytes. */
  readonly limit: number;
  /** The request's Content-Type, as sent. */
  readonly contentType: string | undefined;
}

/**
 * Fastify's own refusals of a request body, in wirekit's terms and with what would have been
 * accepted. These come from Fastify's body reading (a body that grows past the limit while it
 * arrives, a length that differs from Content-Length, a Content-Type it cannot parse), after the
 * plugin's own checks have passed the headers.
 */
export function fastifyRefusal(error: unknown, body: BodyRules): HttpReplyError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return bodyTooLarge(body.limit, 'the body');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_ROUTE_MISSING_CONTENT_TYPE':
      return unsupportedType(body.contentType, body.types);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new HttpReplyError(400, 'WK_DECODE_TRUNCATED', 'the body is not as long as its Content-Length.');
    default:
      return undefined;
  }
}

/** 415 for a body in a media type the route does not read (or without a Content-Type). */
export function unsupportedType(contentType: string | undefined, types: readonly string[]): HttpReplyError {
  const what =
    contentType === undefined || contentType.trim() === '' ? 'a body without a Content-Type' : contentType;
  return new HttpReplyError(
    415,
    'WK_HTTP_UNSUPPORTED_MEDIA_TYPE',
    `this route does not read ${what}; it reads ${types.join(', ')}.`,
    types,
  );
}

/** 415 for a Content-Encoding the route does not undo. */
export function unsupportedEncoding(coding: string, encodings: readonly string[]): HttpReplyError {
  return new HttpReplyError(
    415,
    'WK_HTTP_UNSUPPORTED_MEDIA_TYPE',
    `unsupported Content-Encoding ${coding}; send the body as it is or in ${encodings.join(', ')}.`,
    undefined,
    { encodings },
  );
}

/** 413: `what` (the body, a Content-Length, the decompressed body) is larger than the limit. */
export function bodyTooLarge(limit: number, what: string): HttpReplyError {
  return new HttpReplyError(
    413,
    'WK_HTTP_BODY_TOO_LARGE',
    `${what} is larger than this route's limit of ${limit} bytes.`,
    undefined,
    { limit },
  );
}
