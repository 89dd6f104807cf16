/**
 * scripts/build.mjs, which `npm run build` and the demos run: a process importing from the output
 * while it rebuilds never finds a module missing (deleting dist/ first made 12 tests fail when a
 * demo started during a run), the output is still clean (a deleted source leaves no file behind),
 * and --if-stale skips a build whose inputs have not changed.
 *
 * It builds a small project of its own in a temporary folder, so that it neither waits for the
 * library's build nor changes the dist/ other tests are reading.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';

const script = fileURLToPath(new URL('../../scripts/build.mjs', import.meta.url));
const run = promisify(execFile);
const moduleCount = 60;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wirekit-build-'));
  mkdirSync(join(dir, 'src', 'parts'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        declaration: true,
        sourceMap: true,
        rootDir: 'src',
        outDir: 'dist',
        types: [],
      },
      include: ['src'],
    }),
  );
  for (let i = 0; i < moduleCount; i++)
    writeFileSync(join(dir, 'src', 'parts', `part${i}.ts`), `export const part${i}: number = ${i};\n`);
  writeFileSync(join(dir, 'src', 'obsolete.ts'), 'export const obsolete = true;\n');
  writeFileSync(
    join(dir, 'src', 'main.ts'),
    `#!/usr/bin/env node\n${Array.from({ length: moduleCount }, (_, i) => `export { part${i} } from './parts/part${i}.js';`).join('\n')}\n`,
  );
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const build = (...flags: string[]) =>
  run(process.execPath, [script, ...flags, '--executable', 'dist/main.js', 'tsconfig.json:dist'], {
    cwd: dir,
  });

/**
 * A process that imports every module of dist/ afresh (a new URL each round, so nothing is cached)
 * until told to stop, then prints how many rounds it made and which imports failed.
 */
const readerSource = `
const { pathToFileURL } = await import('node:url');
const files = JSON.parse(process.argv[1]);
let rounds = 0;
const failures = [];
let stop = false;
process.on('message', () => { stop = true; });
while (!stop) {
  rounds++;
  for (const file of files) {
    try {
      await import(pathToFileURL(file).href + '?round=' + rounds);
    } catch (error) {
      failures.push(file + ': ' + error.code + ' ' + error.message.split('\\n')[0]);
    }
  }
  if (rounds === 1) process.send('ready');
  await new Promise((resolve) => setImmediate(resolve));
}
process.send({ rounds, failures: [...new Set(failures)] });
`;

function startReader(files: string[]): ChildProcess {
  return spawn(process.execPath, ['--input-type=module', '-e', readerSource, JSON.stringify(files)], {
    cwd: dir,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

function stopReader(reader: ChildProcess): Promise<{ rounds: number; failures: string[] }> {
  return new Promise((resolve, reject) => {
    reader.on('message', (result) => {
      if (result !== 'ready') resolve(result as { rounds: number; failures: string[] });
    });
    reader.once('exit', (code) => reject(new Error(`the reader exited (${code}) before reporting`)));
    reader.send('stop');
  });
}

describe('scripts/build.mjs', () => {
  test('a process importing from dist/ during a rebuild never finds a module missing', async () => {
    await build();
    expect(statSync(join(dir, 'dist', 'main.js')).mode & 0o111).not.toBe(0);
    // Every module that the rebuild produces again: main.js and each part (obsolete.ts goes below).
    const modules = [
      join(dir, 'dist', 'main.js'),
      ...Array.from({ length: moduleCount }, (_, i) => join(dir, 'dist', 'parts', `part${i}.js`)),
    ];
    rmSync(join(dir, 'src', 'obsolete.ts'));
    writeFileSync(join(dir, 'src', 'parts', 'part0.ts'), 'export const part0: number = 1000;\n');

    const reader = startReader(modules);
    await new Promise((resolve) => reader.once('message', resolve));
    await build();
    const { rounds, failures } = await stopReader(reader);

    expect(failures).toEqual([]);
    // It kept importing while the build ran, not only before.
    expect(rounds).toBeGreaterThan(2);
    // The rebuild took effect, and left nothing behind from the deleted source.
    const { part0 } = (await import(`${join(dir, 'dist', 'main.js')}?after`)) as { part0: number };
    expect(part0).toBe(1000);
    expect(existsSync(join(dir, 'dist', 'obsolete.js'))).toBe(false);
    expect(existsSync(join(dir, 'dist', 'obsolete.d.ts'))).toBe(false);
    expect(readdirSync(dir).filter((name) => name.startsWith('dist-next'))).toEqual([]);
    expect(statSync(join(dir, 'dist', 'main.js')).mode & 0o111).not.toBe(0);
  }, 120_000);

  test('--if-stale skips the build when no input changed, and builds when one did', async () => {
    await build('--if-stale');
    const main = join(dir, 'dist', 'main.js');
    const built = statSync(main).mtimeMs;

    const again = await build('--if-stale');
    expect(again.stderr).toContain('up to date');
    expect(statSync(main).mtimeMs).toBe(built);

    // A source edited (a new modification time) is a change, even with the same size.
    const source = join(dir, 'src', 'parts', 'part1.ts');
    const later = new Date(Date.now() + 5_000);
    utimesSync(source, later, later);
    const rebuilt = await build('--if-stale');
    expect(rebuilt.stderr).not.toContain('up to date');
    expect(statSync(main).mtimeMs).not.toBe(built);

    // A plain build always builds.
    const forced = await build();
    expect(forced.stderr).not.toContain('up to date');
  }, 120_000);
});
