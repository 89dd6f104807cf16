/**
 * The `wirekit` command run in-process, with its standard streams captured: the CLI tests call
 * `run` the way main.ts does, without spawning a process per call.
 */

import type { CliIo } from '../../src/cli/io.js';
import { run } from '../../src/cli/main.js';

export interface CliResult {
  readonly code: number;
  /** Standard output as bytes (binary formats), and as text. */
  readonly stdout: Buffer;
  readonly text: string;
  readonly stderr: string;
}

export async function cli(args: readonly string[], stdin: string | Uint8Array = ''): Promise<CliResult> {
  const out: Uint8Array[] = [];
  let stderr = '';
  const io: CliIo = {
    stdin: (async function* () {
      yield typeof stdin === 'string' ? new TextEncoder().encode(stdin) : stdin;
    })(),
    stdout: {
      write: (chunk) => out.push(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk),
    },
    stderr: { write: (chunk) => (stderr += chunk) },
  };
  const code = await run([...args], io);
  const stdout = Buffer.concat(out);
  return { code, stdout, text: stdout.toString('utf8'), stderr };
}

/** The labelled lines of inspect's human layout ("format:        msgpack"), by label. */
export function fields(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const match of text.matchAll(/^([a-z][a-z ]*):\s+(\S.*)$/gm))
    out[match[1] as string] = match[2] as string;
  return out;
}
