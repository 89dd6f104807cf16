/**
 * What a command touches outside itself, passed in so that tests can run commands in-process and
 * read what they wrote.
 */
import { readFile } from 'node:fs/promises';
import { WirekitError } from '../errors/index.js';

export interface CliIo {
  readonly stdin: AsyncIterable<Uint8Array | string>;
  readonly stdout: { write(chunk: string | Uint8Array): unknown };
  readonly stderr: { write(chunk: string): unknown };
}

export const processIo: CliIo = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };

/** Reads a file, or standard input for '-'. */
export async function readInput(io: CliIo, path: string): Promise<Buffer> {
  if (path === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of io.stdin)
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
    return Buffer.concat(chunks);
  }
  try {
    return await readFile(path);
  } catch (cause) {
    throw new WirekitError('WK_CLI_INPUT', `cannot read ${path}: ${(cause as Error).message}`, { cause });
  }
}

/** Parses JSON text, naming the input in the error. */
export function parseJson(text: string, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new WirekitError('WK_CLI_INPUT', `${source} is not valid JSON: ${(cause as Error).message}`, {
      cause,
    });
  }
}

/**
 * Reads samples from JSON, a JSON array, or NDJSON (one JSON value per line). A top-level array is
 * taken as a list of samples, as data files usually are.
 */
export function parseSamples(text: string, source: string, whole: boolean): unknown[] {
  try {
    const value = JSON.parse(text);
    return Array.isArray(value) && !whole ? value : [value];
  } catch {
    const lines = text.split('\n').filter((line) => line.trim() !== '');
    if (lines.length < 2) parseJson(text, source);
    return lines.map((line, i) => parseJson(line, `${source}, line ${i + 1}`));
  }
}
