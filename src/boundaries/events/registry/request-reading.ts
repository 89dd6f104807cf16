/**
 * Reading a registry request: its path as decoded segments and its JSON body, read only as far as
 * a limit. Everything malformed is a RegistryError with Confluent's code (400, 413, 415), so the
 * server answers it like any refusal.
 */
import type { IncomingMessage } from 'node:http';
import { registryMediaType } from './api.js';
import { isRegistryError, moreRegistryErrorCodes, RegistryError } from './registry-error.js';

/** The request media types Confluent reads as JSON (and no Content-Type at all). */
const jsonMediaTypes = new Set([
  registryMediaType,
  'application/vnd.schemaregistry+json',
  'application/json',
  'application/octet-stream',
]);

const plainError = (errorCode: number, message: string) => new RegistryError(errorCode, message);

/** The decoded path segments of a request target (`/subjects/a%2Fb/versions` → subjects, a/b, versions). */
export function segmentsOf(target: string): string[] {
  const end = target.search(/[?#]/);
  const path = end === -1 ? target : target.slice(0, end);
  if (!path.startsWith('/'))
    throw plainError(moreRegistryErrorCodes.badRequest, 'Bad Request: the path must start with /');
  const segments = path.slice(1).split('/');
  if (segments.at(-1) === '') segments.pop();
  try {
    return segments.map((segment) => decodeURIComponent(segment));
  } catch {
    throw plainError(
      moreRegistryErrorCodes.badRequest,
      'Bad Request: the path has malformed percent-encoding',
    );
  }
}

/** The request's body as JSON, read to at most `limit` bytes (413 past it, 400 when it does not parse). */
export async function jsonBody(request: IncomingMessage, limit: number): Promise<unknown> {
  const mediaType = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== undefined && mediaType !== '' && !jsonMediaTypes.has(mediaType)) {
    throw plainError(
      moreRegistryErrorCodes.unsupportedMediaType,
      `Unsupported Media Type: ${mediaType.slice(0, 100)}`,
    );
  }
  const tooLarge = () =>
    plainError(
      moreRegistryErrorCodes.bodyTooLarge,
      `Payload Too Large: the body is larger than ${limit} bytes`,
    );
  const declared = Number(request.headers['content-length']);
  if (declared > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of request as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) throw tooLarge();
      chunks.push(chunk);
    }
  } catch (cause) {
    if (isRegistryError(cause)) throw cause;
    // The client went away or a timer cut it off mid-body: nobody is left to answer.
    throw plainError(moreRegistryErrorCodes.badRequest, 'Bad Request: the body was not sent whole');
  }
  const text = Buffer.concat(chunks, size).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (cause) {
    const why = cause instanceof Error ? cause.message.slice(0, 200) : 'unreadable';
    throw plainError(moreRegistryErrorCodes.badRequest, `Bad Request: the body is not JSON (${why})`);
  }
}
