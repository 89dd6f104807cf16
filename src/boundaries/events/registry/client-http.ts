/**
 * The HTTP underneath `registryClient`: one JSON request to a Confluent-compatible registry, made
 * safe to point at any server. Each attempt has a deadline that covers the body as well as the
 * headers (a registry that answers headers and then stalls is as down as one that never answers); a
 * body past `maxResponseBytes` is cut off, not buffered; connection failures, timeouts and 5xx are
 * retried with a doubling backoff, 4xx never (asking again will not change the answer). Every
 * failure is a RegistryClientError: a WirekitError whose code says what the caller can do about it,
 * with the HTTP status and Confluent's `error_code` in `details` for whoever needs the exact answer.
 */
import type { ErrorCode } from '../../../errors/codes.js';
import { WirekitError } from '../../../errors/index.js';
import { registryErrorCodes, registryMediaType } from './api.js';

export interface RegistryErrorDetails {
  readonly method: string;
  /** The request's path and query below the registry's base URL. */
  readonly path: string;
  /** The HTTP status; absent when no response arrived (connection refused, reset, timeout). */
  readonly status?: number;
  /** Confluent's `error_code` from the error body, when the body was one. */
  readonly errorCode?: number;
  /** How many times the request was sent. */
  readonly attempts: number;
}

export class RegistryClientError extends WirekitError {
  override readonly name: string = 'RegistryClientError';
  readonly details: RegistryErrorDetails;

  constructor(code: ErrorCode, message: string, details: RegistryErrorDetails, cause?: unknown) {
    super(code, message, cause === undefined ? {} : { cause });
    this.details = details;
  }
}

export interface RegistryHttpOptions {
  /** The base URL: origin and path prefix, without credentials or a trailing slash. */
  readonly baseUrl: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly fetch: typeof fetch;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly retries: number;
  readonly retryDelayMs: number;
  readonly maxRetryDelayMs: number;
}

export type RegistryRequest = (
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: unknown,
) => Promise<unknown>;

/** Confluent's "operation not permitted" (READONLY mode), which the committed contract does not list. */
const operationNotPermitted = 42205;

/** A registry's server message is shown, but no further than this: it is the server's text, not ours. */
const maxMessageChars = 500;

/** Why one attempt failed, and whether another attempt could do better. */
class AttemptFailure {
  constructor(
    readonly code: ErrorCode,
    readonly message: string,
    readonly retryable: boolean,
    readonly status?: number,
    readonly errorCode?: number,
    readonly cause?: unknown,
  ) {}
}

export function registryHttp(options: RegistryHttpOptions): RegistryRequest {
  const baseHeaders = {
    Accept: `${registryMediaType}, application/json`,
    ...options.headers,
  };
  return async (method, path, body) => {
    const init = {
      method,
      headers: body === undefined ? baseHeaders : { ...baseHeaders, 'Content-Type': registryMediaType },
      body: body === undefined ? undefined : JSON.stringify(body),
    };
    for (let attempt = 1; ; attempt++) {
      const outcome = await attemptOnce(options, `${options.baseUrl}${path}`, init);
      if (!(outcome instanceof AttemptFailure)) return outcome.json;
      if (!outcome.retryable || attempt > options.retries) {
        const details: RegistryErrorDetails = {
          method,
          path,
          attempts: attempt,
          ...(outcome.status === undefined ? {} : { status: outcome.status }),
          ...(outcome.errorCode === undefined ? {} : { errorCode: outcome.errorCode }),
        };
        const tries = attempt > 1 ? ` (after ${attempt} attempts)` : '';
        throw new RegistryClientError(
          outcome.code,
          `schema registry ${method} ${path}: ${outcome.message}${tries}`,
          details,
          outcome.cause,
        );
      }
      await sleep(Math.min(options.retryDelayMs * 2 ** (attempt - 1), options.maxRetryDelayMs));
    }
  };
}

async function attemptOnce(
  options: RegistryHttpOptions,
  url: string,
  init: RequestInit,
): Promise<{ json: unknown } | AttemptFailure> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  const timedOut = () =>
    new AttemptFailure('WK_REGISTRY_UNAVAILABLE', `no complete answer within ${options.timeoutMs} ms`, true);
  try {
    let response: Response;
    try {
      response = await options.fetch(url, { ...init, signal: controller.signal });
    } catch (cause) {
      if (controller.signal.aborted) return timedOut();
      return new AttemptFailure(
        'WK_REGISTRY_UNAVAILABLE',
        `cannot connect: ${networkReason(cause)}`,
        true,
        undefined,
        undefined,
        cause,
      );
    }
    const { status } = response;
    const text = await readText(response, options.maxResponseBytes, controller.signal);
    if (text instanceof AttemptFailure) {
      return controller.signal.aborted ? timedOut() : withStatus(text, status);
    }
    if (status >= 200 && status < 300) {
      try {
        return { json: JSON.parse(text) as unknown };
      } catch (cause) {
        return new AttemptFailure(
          'WK_REGISTRY_UNAVAILABLE',
          `answered ${status} with a body that is not JSON (${preview(text)}): is this a schema registry?`,
          false,
          status,
          undefined,
          cause,
        );
      }
    }
    return refusal(status, text);
  } finally {
    clearTimeout(timer);
  }
}

function withStatus(failure: AttemptFailure, status: number): AttemptFailure {
  return new AttemptFailure(
    failure.code,
    failure.message,
    failure.retryable,
    status,
    undefined,
    failure.cause,
  );
}

/**
 * The body as text, at most `max` bytes. A declared length past the limit is refused before a
 * byte is read; a body that grows past it is cancelled there. Neither is retried: the registry
 * would send the same body again.
 */
async function readText(
  response: Response,
  max: number,
  signal: AbortSignal,
): Promise<string | AttemptFailure> {
  const tooLarge = (size: string) =>
    new AttemptFailure(
      'WK_REGISTRY_UNAVAILABLE',
      `answered with ${size} bytes, more than maxResponseBytes (${max})`,
      false,
    );
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > max) {
    await response.body?.cancel().catch(() => undefined);
    return tooLarge(String(declared));
  }
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      size += next.value.length;
      if (size > max) {
        await reader.cancel().catch(() => undefined);
        return tooLarge(`over ${max}`);
      }
      parts.push(next.value);
    }
  } catch (cause) {
    if (signal.aborted) return new AttemptFailure('WK_REGISTRY_UNAVAILABLE', 'timed out', true);
    return new AttemptFailure(
      'WK_REGISTRY_UNAVAILABLE',
      `the connection broke off after ${size} bytes of the answer: ${networkReason(cause)}`,
      true,
      undefined,
      undefined,
      cause,
    );
  }
  return Buffer.concat(parts, size).toString('utf8');
}

/**
 * A non-2xx answer: Confluent's error body `{"error_code", "message"}` when it is one, else the
 * status alone (a proxy's HTML page, an empty 503). The code follows what the caller can do:
 * 5xx is the registry's trouble (retried), 401 and 403 credentials or a role to fix, 42205 a write
 * the registry's mode or exhausted ids forbid, 409 an incompatible schema, 42201 an invalid one,
 * 404xx a missing subject, version or id, any other refusal a request the registry would not take.
 */
function refusal(status: number, text: string): AttemptFailure {
  const body = confluentError(text);
  const said = body === undefined ? preview(text) : `${body.errorCode}: ${clip(body.message)}`;
  const message = `answered ${status}${said === '' ? '' : ` (${said})`}`;
  const errorCode = body?.errorCode;
  let code: ErrorCode = 'WK_REGISTRY_REQUEST';
  if (status >= 500) code = 'WK_REGISTRY_UNAVAILABLE';
  else if (status === 401 || status === 403) code = 'WK_REGISTRY_AUTH';
  else if (errorCode === operationNotPermitted) code = 'WK_REGISTRY_NOT_PERMITTED';
  else if (status === registryErrorCodes.incompatibleSchema) code = 'WK_REGISTRY_INCOMPATIBLE';
  else if (errorCode === registryErrorCodes.invalidSchema) code = 'WK_REGISTRY_SCHEMA_INVALID';
  else if (errorCode !== undefined && errorCode >= 40400 && errorCode <= 40499)
    code = 'WK_REGISTRY_NOT_FOUND';
  return new AttemptFailure(code, message, status >= 500, status, errorCode);
}

function confluentError(text: string): { errorCode: number; message: string } | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof json !== 'object' || json === null) return undefined;
  const { error_code: errorCode, message } = json as { error_code?: unknown; message?: unknown };
  if (typeof errorCode !== 'number' || !Number.isSafeInteger(errorCode)) return undefined;
  return { errorCode, message: typeof message === 'string' ? message : '' };
}

function clip(text: string): string {
  return text.length > maxMessageChars ? `${text.slice(0, maxMessageChars)}…` : text;
}

/** The start of a body that is not what was expected, on one line. */
function preview(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${JSON.stringify(line.slice(0, 80))}…` : line === '' ? '' : JSON.stringify(line);
}

/** fetch's "fetch failed" says nothing: the reason is its cause (ECONNREFUSED, a socket closed). */
function networkReason(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  const inner = cause instanceof Error ? cause : error instanceof Error ? error : undefined;
  if (inner === undefined) return String(error);
  const code = (inner as { code?: unknown }).code;
  return typeof code === 'string' && !inner.message.includes(code)
    ? `${code}: ${inner.message}`
    : inner.message;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
