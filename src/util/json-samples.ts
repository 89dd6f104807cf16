/**
 * Reading data files of JSON values: one JSON value, a JSON array (each item a sample), or NDJSON
 * (one value per line). Used wherever a user hands wirekit their own data (schema inference, the
 * CLI's encode, the bench lab's --data).
 */
import { WirekitError } from '../errors/index.js';

/** Parses JSON text, naming the source in the error (WK_CLI_INPUT). */
export function parseJsonText(text: string, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new WirekitError('WK_CLI_INPUT', `${source} is not valid JSON: ${(cause as Error).message}`, {
      cause,
    });
  }
}

/** The samples in a data file; a top-level array is a list of samples unless `whole` is set. */
export function parseJsonSamples(text: string, source: string, whole = false): unknown[] {
  try {
    const value = JSON.parse(text);
    return Array.isArray(value) && !whole ? value : [value];
  } catch {
    const lines = text.split('\n').filter((line) => line.trim() !== '');
    if (lines.length < 2) parseJsonText(text, source);
    return lines.map((line, i) => parseJsonText(line, `${source}, line ${i + 1}`));
  }
}
