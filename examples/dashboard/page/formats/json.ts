/**
 * JSON, the way a typical dashboard reads it: `fetch`, `response.json()` for the whole array, then
 * one pass over the row objects, `Date.parse` on each timestamp. Nothing is usable before the last
 * byte has arrived and been parsed, and the text and every row object are alive at once.
 */
import { LoadError, type Loader, replyError, seriesUrl } from '../loader.js';
import { wireSize } from '../metrics.js';
import type { ReadingJson } from '../reading.js';

/**
 * The longest string V8 makes (2^29 - 24 characters on 64-bit builds). response.json() decodes the
 * whole body into one string first; past this, Chromium's parse fails as if the text had ended.
 */
const maxStringLength = 2 ** 29 - 24;

export const load: Loader = async (request, sink) => {
  const response = await fetch(seriesUrl(request), {
    headers: { accept: 'application/json' },
    signal: request.signal,
  });
  if (!response.ok) throw await replyError(response);
  let rows: unknown;
  try {
    rows = await response.json();
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    const size = await wireSize('/series', 200);
    if (size !== null && size.decodedBytes > maxStringLength) {
      throw new LoadError(
        `the JSON reply is ${(size.decodedBytes / 1e6).toFixed(0)} MB, past the longest string this browser makes ` +
          `(${maxStringLength.toLocaleString('en-US')} characters), so response.json() cannot read it ` +
          `(${(error as Error).message})`,
        { cause: error },
      );
    }
    throw new LoadError(`the JSON reply did not parse: ${(error as Error).message}`, { cause: error });
  }
  if (!Array.isArray(rows)) throw new LoadError('the JSON reply is not an array of rows');
  const { series } = sink;
  for (const row of rows as ReadingJson[]) {
    series.at(Date.parse(row.ts) / 1000);
    series.put(row.sensor_id, row.value);
  }
  sink.batch();
};
