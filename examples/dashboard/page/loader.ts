/**
 * What every format's loader is given and must do: fetch `/series` with the query, place each row
 * in `sink.series` as it is read, and call `sink.batch()` after each group of rows so the chart can
 * redraw. A loader resolves once the last row is placed and throws on anything that would leave
 * the chart short (an error reply, a body cut off, text that does not parse): never a partial
 * chart that looks whole.
 */
import type { AlignedSeries } from './series.js';

export interface Sink {
  readonly series: AlignedSeries;
  /** The rows read so far are placed: the chart may redraw (it decides when). */
  batch(): void;
}

export interface SeriesRequest {
  /** `from`, `to` and optionally `sensors`, as `/series` reads them. */
  readonly query: Readonly<Record<string, string>>;
  readonly signal: AbortSignal;
}

export type Loader = (request: SeriesRequest, sink: Sink) => Promise<void>;

/** A failed load, with the server's wirekit error code when the reply carried one. */
export class LoadError extends Error {
  override readonly name = 'LoadError';
  readonly code: string | undefined;
  readonly status: number | undefined;

  constructor(message: string, options: { code?: string; status?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.code = options.code;
    this.status = options.status;
  }
}

/** The URL of `/series` for a request (same origin as the page). */
export function seriesUrl(request: SeriesRequest): string {
  return `/series?${new URLSearchParams(request.query)}`;
}

/**
 * The error for a reply that is not 2xx: the wirekit error record's code and message when the
 * body is one (the server writes it as JSON for JSON and Arrow clients), else the status alone.
 */
export async function replyError(response: Response): Promise<LoadError> {
  let text = '';
  try {
    text = await response.text();
  } catch {
    // The body broke off too: the status is all there is.
  }
  try {
    const record = JSON.parse(text) as { code?: unknown; message?: unknown };
    if (typeof record.code === 'string') {
      const message = typeof record.message === 'string' ? record.message : text;
      return new LoadError(`HTTP ${response.status} ${record.code}: ${message}`, {
        code: record.code,
        status: response.status,
      });
    }
  } catch {
    // Not JSON: a proxy's page, say.
  }
  return new LoadError(`HTTP ${response.status} ${response.statusText}`, { status: response.status });
}
