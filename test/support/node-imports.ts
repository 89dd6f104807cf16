/**
 * What an entry point costs a Node service that imports it: the modules the import loads, counted
 * by a loader hook in a child process, and the wall time of a cold import, in fresh processes of
 * their own without the hook (the hook runs on a thread of its own and would slow the import). For
 * the bundle benchmark's Node table, and for the tests that check an entry point leaves the other
 * formats' libraries unloaded.
 */
import { spawnSync } from 'node:child_process';

/** Reports every module the process loads, ESM or CommonJS imported by ESM, on stderr. */
const hooks = `
import { writeSync } from 'node:fs';
export async function load(url, context, next) {
  writeSync(2, 'wirekit-loaded ' + url + '\\n');
  return next(url, context);
}`;
const register = `import { register } from 'node:module';
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
const registerUrl = `data:text/javascript,${encodeURIComponent(register)}`;

/** The modules `import(specifier)` loads, from `cwd` (where `specifier` resolves). */
export function modulesLoadedByImport(specifier: string, cwd: string): string[] {
  return modulesLoaded(`await import(${JSON.stringify(specifier)});`, cwd);
}

/**
 * The URLs of the modules that running `script` (an ES module's source, run from `cwd`) loads, in
 * load order: `file:` URLs, and `node:` ones for Node's modules imported by name.
 */
export function modulesLoaded(script: string, cwd: string): string[] {
  const { stderr } = spawnNode(['--import', registerUrl, '--input-type=module', '-e', script], cwd);
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('wirekit-loaded '))
    .map((line) => line.slice('wirekit-loaded '.length))
    .filter((url) => !url.startsWith('data:'));
}

/** The packages among `urls` (by their node_modules folder), each once. */
export function packagesOf(urls: readonly string[]): string[] {
  const names = new Set<string>();
  for (const url of urls) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    if (match !== null) names.add(match[1] as string);
  }
  return [...names];
}

/**
 * Milliseconds a cold `import(specifier)` takes in a fresh process, the median of `processes`
 * runs (module loading varies from process to process, and the first run warms the disk cache).
 */
export function coldImportMs(
  specifier: string,
  cwd: string,
  processes = 5,
): { median: number; min: number; max: number } {
  const script = `const start = performance.now(); await import(${JSON.stringify(specifier)}); process.stdout.write(String(performance.now() - start));`;
  spawnNode(['--input-type=module', '-e', script], cwd);
  const times: number[] = [];
  for (let i = 0; i < processes; i++)
    times.push(Number(spawnNode(['--input-type=module', '-e', script], cwd).stdout));
  times.sort((a, b) => a - b);
  return {
    median: times[Math.floor(times.length / 2)] as number,
    min: times[0] as number,
    max: times.at(-1) as number,
  };
}

function spawnNode(args: readonly string[], cwd: string): { stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} failed: ${result.stderr}`);
  return { stdout: result.stdout, stderr: result.stderr };
}
