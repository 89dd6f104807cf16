/**
 * NDJSON: one JSON object per line, read as the body arrives. The bytes go through a
 * TextDecoderStream; each chunk's complete lines are parsed (`JSON.parse` per line) and placed,
 * and the chart is offered a redraw after each chunk. A line cut short by a body that breaks off
 * does not parse and fails the load rather than ending the chart early.
 */
import { LoadError, type Loader, replyError, seriesUrl } from '../loader.js';
import type { ReadingJson } from '../reading.js';

export const load: Loader = async (request, sink) => {
  const response = await fetch(seriesUrl(request), {
    headers: { accept: 'application/x-ndjson' },
    signal: request.signal,
  });
  if (!response.ok) throw await replyError(response);
  if (response.body === null) throw new LoadError('the reply has no body');
  const { series } = sink;
  let line = 0;
  const place = (text: string): void => {
    line++;
    if (text.trim() === '') return;
    let row: ReadingJson;
    try {
      row = JSON.parse(text) as ReadingJson;
    } catch (error) {
      throw new LoadError(`line ${line} of the NDJSON reply did not parse: ${(error as Error).message}`);
    }
    series.at(Date.parse(row.ts) / 1000);
    series.put(row.sensor_id, row.value);
  };
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let rest = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const text = rest + value;
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      place(text.slice(start, end));
      start = end + 1;
    }
    rest = text.slice(start);
    sink.batch();
  }
  // The last line needs no newline after it.
  if (rest !== '') place(rest);
  sink.batch();
};
