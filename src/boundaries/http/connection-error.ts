/**
 * A request that got no response at all: the connection was refused, the name did not resolve, the
 * connect timed out, or the connection broke before a response came. `fetch` reports each of these
 * as a bare `TypeError: fetch failed` whose only clue is its `cause`; the client turns it into one
 * WirekitError that names the request and the reason, keeping fetch's error as `cause`.
 *
 * Only web APIs here: the client that raises it runs in browsers too, where fetch gives no reason
 * at all (`reason` is then undefined).
 */
import { WirekitError } from '../../errors/index.js';

/** The client's error for a request that got no HTTP response (WK_HTTP_CONNECTION_FAILED). */
export class HttpConnectionError extends WirekitError {
  override readonly name = 'HttpConnectionError';
  /** The request's method, as sent. */
  readonly method: string;
  /** The request's URL (the client refuses a base URL with credentials, so it holds none). */
  readonly url: string;
  /**
   * The platform's code for what failed, where it gives one: `ECONNREFUSED`, `ENOTFOUND` (DNS),
   * `ECONNRESET`, or undici's (Node's fetch) `UND_ERR_SOCKET` for a connection closed before the
   * response, `UND_ERR_CONNECT_TIMEOUT`, `UND_ERR_HEADERS_TIMEOUT`. Undefined in a browser.
   */
  readonly reason: string | undefined;

  constructor(method: string, url: string, reason: string | undefined, detail: string, cause: unknown) {
    const why = reason === undefined ? detail : detail.includes(reason) ? detail : `${reason}: ${detail}`;
    super('WK_HTTP_CONNECTION_FAILED', `${method} ${url} got no response (${why}).`, { cause });
    this.method = method;
    this.url = url;
    this.reason = reason;
  }
}

/**
 * What a failed `fetch` call throws from the client: the caller's abort as fetch throws it (the
 * signal's reason), a WirekitError as it is (a test double's, say), fetch's refusal of a URL it
 * cannot parse as it is (a mistake in the call, not the network), anything else as an
 * HttpConnectionError. Checked only once fetch has failed, so a call that succeeds pays nothing.
 */
export function fetchFailure(
  method: string,
  url: string,
  error: unknown,
  signal: AbortSignal | undefined,
): unknown {
  if (signal?.aborted) return signal.reason ?? error;
  if (error instanceof WirekitError) return error;
  if (!URL.canParse(url, pageAddress())) return error;
  const { reason, detail } = reasonOf(error);
  return new HttpConnectionError(method, url, reason, detail, error);
}

/**
 * The innermost error that says what happened, and its code. Node's fetch nests it once (`cause`)
 * and, when a host has several addresses, once more (an AggregateError whose `code` is the first
 * address's); a few levels cover every shape seen, and a cycle cannot hold the loop.
 */
function reasonOf(error: unknown): { reason: string | undefined; detail: string } {
  let current = error;
  let reason: string | undefined;
  let detail = error instanceof Error ? error.message : String(error);
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') reason = code;
    if (current !== error && current.message !== '') detail = current.message;
    const errors = (current as { errors?: unknown }).errors;
    current = current.cause ?? (Array.isArray(errors) ? errors[0] : undefined);
  }
  return { reason, detail };
}

/** The page's address in a browser, against which fetch resolves a relative URL; none on Node. */
function pageAddress(): string | undefined {
  return (globalThis as { location?: { href?: string } }).location?.href;
}
