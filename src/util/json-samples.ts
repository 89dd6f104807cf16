/**
 * Reading data files of JSON values: one JSON value, a JSON array (each item a sample), or NDJSON
 * (one value per line). Used wherever a user hands wirekit their own data (schema inference, the
 * CLI's encode, the bench lab's --data). The text is held to the JSON codec's rules without a
 * schema: a leading byte order mark is skipped, malformed text is refused with the place of its
 * first fault, and a number past float64 (`1e400`, which JSON.parse reads as Infinity) is refused.
 */
import { WirekitError } from '../errors/index.js';
import { findJsonFault, holdsInfinity, type JsonFault, placeOf } from './json-syntax.js';

/** Parses JSON text, naming the source in the error (WK_CLI_INPUT). */
export function parseJsonText(text: string, source: string): unknown {
  return checked(text, source, parsed(text));
}

/** What a data file holds: one JSON value, or NDJSON lines (text that is not one value, of two lines or more). */
export type JsonDocument = { readonly value: unknown } | { readonly lines: unknown[] };

export function parseJsonDocument(text: string, source: string): JsonDocument {
  const value = parsed(text);
  if (value === unparsed) {
    const lines = text.split('\n').filter((line) => line.trim() !== '');
    if (lines.length >= 2)
      return { lines: lines.map((line, i) => parseJsonText(line, `${source}, line ${i + 1}`)) };
  }
  return { value: checked(text, source, value) };
}

/** The samples in a data file; a top-level array is a list of samples unless `whole` is set. */
export function parseJsonSamples(text: string, source: string, whole = false): unknown[] {
  const document = parseJsonDocument(text, source);
  if ('lines' in document) return document.lines;
  return Array.isArray(document.value) && !whole ? document.value : [document.value];
}

/** What JSON.parse made of `text`, once its numbers are known to fit; the refusal otherwise. */
function checked(text: string, source: string, value: unknown): unknown {
  if (value === unparsed) throw refusal(text, source, findJsonFault(text));
  if (holdsInfinity(value)) throw refusal(text, source, findJsonFault(text, true));
  return value;
}

const unparsed = Symbol('not JSON');

function parsed(text: string): unknown {
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    if (error instanceof SyntaxError) return unparsed;
    throw error;
  }
}

function refusal(text: string, source: string, fault: JsonFault | undefined): WirekitError {
  let reason: string;
  switch (fault?.kind) {
    case 'truncated':
      reason = 'it ends inside a value';
      break;
    case 'trailing':
      reason = `more follows the value, at ${placeOf(text, fault.position)}`;
      break;
    case 'malformed':
      reason = `expected ${fault.expected} at ${placeOf(text, fault.position)}`;
      break;
    case 'overflow':
      reason = `the number at ${placeOf(text, fault.position)} is beyond the range of a float64`;
      break;
    default:
      reason = 'JSON.parse refused it';
  }
  return new WirekitError('WK_CLI_INPUT', `${source} is not valid JSON: ${reason}.`);
}
