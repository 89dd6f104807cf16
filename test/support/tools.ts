/**
 * External tools (protoc, flatc, Debian's Python modules) that interop tests run. On a developer's
 * machine without them, the tests that need them skip with a loud message; under CI (CI=true) a
 * missing tool fails instead, because .ci/run installs every one of them.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumArgs, chromiumPath } from './servers/chromium.js';

/** Debian's interpreter: the `python3` on PATH may be another copy that cannot see Debian's modules. */
export const python = '/usr/bin/python3';

/**
 * The interpreter of the virtual environment .ci/run makes for the PyPI packages in
 * .ci/requirements.txt (pyarrow): Debian's Python with those added. Its folder is named by the
 * requirements' hash, by the rule .ci/run uses.
 */
export const venvPython = (() => {
  const requirements = readFileSync(new URL('../../.ci/requirements.txt', import.meta.url));
  const hash = createHash('sha256').update(requirements).digest('hex').slice(0, 12);
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(cache, 'wirekit', `venv-${hash}`, 'bin', 'python');
})();

/**
 * grpcurl, the gRPC command-line client the RPC tests call through server reflection. It is a Go
 * program: .ci/run builds it once with `go install` into this cache folder (named by its version,
 * as the Kafka jars' is); WIREKIT_GRPCURL points at another copy.
 */
const grpcurlVersion = 'v1.9.4';
export const grpcurlPath =
  process.env.WIREKIT_GRPCURL ||
  join(
    process.env.XDG_CACHE_HOME || join(homedir(), '.cache'),
    'wirekit',
    `grpcurl-${grpcurlVersion}`,
    'bin',
    'grpcurl',
  );

/** Debian's Chromium and its offline flags, which the browser tests drive through playwright-core. */
export { chromiumArgs, chromiumPath };

const cache = new Map<string, string | undefined>();

/** Why `check` fails (undefined when the tool works). */
function probe(name: string, check: () => void): string | undefined {
  if (!cache.has(name)) {
    try {
      check();
      cache.set(name, undefined);
    } catch (error) {
      cache.set(name, error instanceof Error ? error.message.split('\n')[0] : String(error));
    }
  }
  return cache.get(name);
}

const checks: Record<string, () => void> = {
  protoc: () => execFileSync('protoc', ['--version'], { stdio: 'pipe' }),
  flatc: () => execFileSync('flatc', ['--version'], { stdio: 'pipe' }),
  chromium: () => execFileSync(chromiumPath, ['--version'], { stdio: 'pipe' }),
  grpcurl: () => execFileSync(grpcurlPath, ['-version'], { stdio: 'pipe' }),
};

/**
 * True when `tool` is usable. `tool` is a command from `checks`, `python:MODULE` for a module of
 * Debian's Python, or `venv:MODULE` for a module of the venv .ci/run makes (`venvPython`). Call
 * at module level and pass the result to `describe.skipIf(!has(...))`.
 */
export function has(tool: string): boolean {
  const [kind, module] = tool.split(':') as [string, string | undefined];
  const interpreter = kind === 'python' ? python : kind === 'venv' ? venvPython : undefined;
  const check =
    interpreter !== undefined && module !== undefined
      ? () => {
          const result = spawnSync(interpreter, ['-c', `import ${module}`], { stdio: 'pipe' });
          if (result.error !== undefined) throw new Error(`${interpreter}: ${result.error.message}`);
          if (result.status !== 0) throw new Error(`${interpreter} cannot import ${module}`);
        }
      : checks[tool];
  if (check === undefined) throw new Error(`unknown tool ${tool}`);
  return usable(tool, check);
}

/**
 * True when the command-line program `command` runs (`command ...args` exits 0), with the same
 * rules as `has`: a loud skip on a developer's machine, a failure under CI. For CLIs that `checks`
 * does not list, such as the `zstd`, `lz4` and `gzip` programs that compression interop runs.
 */
export function hasCommand(command: string, args: readonly string[] = ['--version']): boolean {
  return usable(command, () => {
    const result = spawnSync(command, args, { stdio: 'pipe' });
    if (result.error !== undefined) throw result.error;
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`);
  });
}

function usable(tool: string, check: () => void): boolean {
  // The unit tier holds the files that import no probe (tiers.ts); one asked there slipped past it.
  if (process.env.WIREKIT_TEST_TIER === 'unit')
    throw new Error(
      `a unit-tier test asked for ${tool}: import the probe where the test file sees it (tiers.ts)`,
    );
  const problem = probe(tool, check);
  if (problem === undefined) return true;
  if (process.env.CI) throw new Error(`CI must provide ${tool} (.ci/run installs it): ${problem}`);
  console.warn(`\n*** SKIPPING tests that need ${tool}: ${problem}. Install it (see .ci/run). ***\n`);
  return false;
}

/** Runs `body` with a fresh temporary directory, removed afterwards. */
export function withTempDir<T>(body: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'wirekit-test-'));
  try {
    return body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export { freePort, freePorts } from './servers/free-port.js';
