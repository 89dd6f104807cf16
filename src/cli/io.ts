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
