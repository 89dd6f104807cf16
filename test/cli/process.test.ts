/**
 * The built `wirekit` (dist/, built by `pretest`) as a shell runs it: standard output a pipe that
 * its reader closes early (`| head`), and inputs that never end (/dev/zero, a FIFO). These need a
 * real process: EPIPE and memory are not visible in-process.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const main = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
  /** What the process's memory peaked at, in MiB (from /proc, read as it exits). */
  readonly peakMiB?: number;
}

/**
 * Runs the CLI; with `closeAfter`, reads that many bytes of its output and then closes the pipe,
 * as `head -c N` does.
 */
function wirekit(args: readonly string[], options: { readonly closeAfter?: number } = {}): Promise<Ended> {
  return new Promise((resolve, reject) => {
    // The harness reports the peak resident size (maxRSS, KiB) on fd 3 as the CLI's process exits.
    const harness = `
      import { writeSync } from 'node:fs';
      process.on('exit', () => writeSync(3, String(process.resourceUsage().maxRSS)));
      process.argv = [process.argv[0], ${JSON.stringify(main)}, ...${JSON.stringify(args)}];
      await import(${JSON.stringify(main)});
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', harness], {
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    const [, stdout, errors, report] = child.stdio as unknown as Readable[];
    let stderr = '';
    let peak = '';
    let seen = 0;
    errors?.on('data', (chunk) => (stderr += chunk));
    report?.on('data', (chunk) => (peak += chunk));
    stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (options.closeAfter !== undefined && seen >= options.closeAfter) stdout.destroy();
    });
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolve({ code, signal, stderr, ...(peak !== '' && { peakMiB: Number(peak) / 1024 }) }),
    );
  });
}

let dir: string;
beforeAll(async () => {
  expect(existsSync(main), 'dist/cli/main.js is missing: run npm run build').toBe(true);
  dir = await mkdtemp(`${tmpdir()}/wirekit-process-`);
  const rows = Array.from({ length: 100_000 }, (_, i) => ({ id: i, name: `row ${i}`, tags: ['a', 'b'] }));
  await writeFile(`${dir}/rows.ndjson`, `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`);
  await writeFile(`${dir}/rows.json`, JSON.stringify(rows));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('a reader that closes the pipe early', () => {
  test('decode … | head -c 10 ends quietly, status 0', async () => {
    const ended = await wirekit(['decode', '--format', 'json', '--sequence', '--in', `${dir}/rows.ndjson`], {
      closeAfter: 10,
    });
    expect(ended.stderr).toBe('');
    expect(ended).toMatchObject({ code: 0, signal: null });
  });

  test('inspect … | head ends quietly, status 0', async () => {
    const ended = await wirekit(['inspect', `${dir}/rows.json`], { closeAfter: 100 });
    expect(ended.stderr).toBe('');
    expect(ended).toMatchObject({ code: 0, signal: null });
  });
});

describe('input that never ends stops at the input limit, quickly and in bounded memory', () => {
  const limitMessage =
    'wirekit: WK_LIMIT_INPUT: /dev/zero is larger than the input limit of 67108864 bytes (64 MiB); pass --max-input-bytes N to read more.\n';

  test.each([
    ['inspect', ['inspect', '/dev/zero']],
    ['decode', ['decode', '--format', 'msgpack', '--in', '/dev/zero']],
    ['encode', ['encode', '--format', 'json', '--in', '/dev/zero']],
    ['schema infer', ['schema', 'infer', '/dev/zero']],
  ])('%s /dev/zero', async (_, args) => {
    const started = Date.now();
    const ended = await wirekit(args);
    expect(ended.stderr).toBe(limitMessage);
    expect(ended.code).toBe(1);
    expect(Date.now() - started).toBeLessThan(20_000);
    // 64 MiB of input held once, plus Node itself; an unbounded read grows until it is killed.
    expect(ended.peakMiB).toBeLessThan(400);
  });

  test('--max-input-bytes sets the limit; a FIFO that never closes is cut at it too', async () => {
    const small = await wirekit(['inspect', '--max-input-bytes', '1M', '/dev/zero']);
    expect(small.stderr).toContain('input limit of 1048576 bytes (1 MiB)');
    const fifo = `${dir}/fifo`;
    execFileSync('mkfifo', [fifo]);
    // A writer that keeps the FIFO open and full; it ends when the reader goes.
    const writer = spawn('sh', ['-c', `exec cat /dev/zero > ${fifo}`], { stdio: 'ignore' });
    try {
      const ended = await wirekit(['decode', '--format', 'cbor', '--max-input-bytes', '2M', '--in', fifo]);
      expect(ended.code).toBe(1);
      expect(ended.stderr).toContain('WK_LIMIT_INPUT');
    } finally {
      writer.kill();
    }
  });
});
