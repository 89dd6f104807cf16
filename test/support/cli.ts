/**
 * The `wirekit` command run in-process, with its standard streams captured: the CLI tests call
 * `run` the way main.ts does, without spawning a process per call; and, for what only a process
 * shows, the built bin (dist/cli/main.js, which `pretest` builds) as a shell runs it.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { CliIo } from '../../src/cli/io.js';
import { run } from '../../src/cli/main.js';

const builtMain = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

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

/** The built `wirekit` run to its end with `input` on stdin: exit status and both streams as text. */
export function runBuilt(args: readonly string[], input: string | Uint8Array = '') {
  const result = spawnSync(process.execPath, [builtMain, ...args], { input });
  return {
    code: result.status,
    stdout: result.stdout.toString('utf8'),
    stderr: result.stderr.toString('utf8'),
  };
}
