/**
 * The package as a user's Node runs it. The built tree (`npm run build`, which `pretest` runs) is
 * packed with `npm pack` and extracted into node_modules/wirekit-ts of a temporary project outside
 * the repo; beside it, node_modules holds symlinks to the dependencies and optional peers this
 * repo's `npm ci` installed, and to nothing else, so a module the package imports but does not
 * declare is not found, and nothing is fetched (it works offline, as on a fresh CI machine).
 *
 * Scripts run there in plain `node`, with no loader and no test-runner transform: Node's own ESM
 * loader loads wirekit and each CommonJS peer, exposing only the named exports cjs-module-lexer
 * finds, where vitest's interop would have filled in the rest.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const scripts = join(root, 'test', 'package', 'scripts');

/** Packages a user installs beside wirekit-ts that it declares nowhere (undici: Node 20's WebSocket). */
const userPackages = ['undici'];

export interface ProcessResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunningCli {
  readonly firstLine: string;
  /** Stops it with SIGTERM; resolves with how it ended. */
  stop(): Promise<ProcessResult>;
}

export interface PackedProject {
  readonly dir: string;
  /** The installed package's CLI, `wirekit` (node_modules/wirekit-ts/dist/cli/main.js). */
  readonly cli: string;
  /**
   * Runs test/package/scripts/NAME (copied into the project) in plain node, with `input` as its one
   * argument (JSON); resolves with the JSON the script printed last, rejects with its stderr.
   */
  runScript<T = unknown>(name: string, input: unknown, timeoutMs?: number): Promise<T>;
  /** Runs the installed CLI with `args` to its end. */
  runCli(args: readonly string[], timeoutMs?: number): Promise<ProcessResult>;
  /** Starts the installed CLI as a server; resolves with the first line it prints (its URL). */
  startCli(args: readonly string[], timeoutMs?: number): Promise<RunningCli>;
  remove(): void;
}

/** The environment of a user's plain `node`: nothing the test runner or the shell preloads. */
function plainNodeEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  delete env.NODE_PATH;
  return env;
}

function declaredPackages(): string[] {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
  return [
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
    ...userPackages,
  ];
}

/** Packs the built package and installs it, with symlinked dependencies, into a new temporary project. */
export function installPacked(): PackedProject {
  if (!existsSync(join(root, 'dist', 'cli', 'main.js'))) {
    throw new Error('dist/ is missing: run `npm run build` first (npm test does it)');
  }
  const dir = mkdtempSync(join(tmpdir(), 'wirekit-packed-'));
  try {
    const tarball = execFileSync('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', dir], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
    const installed = join(dir, 'node_modules', 'wirekit-ts');
    mkdirSync(installed, { recursive: true });
    execFileSync('tar', ['-xzf', join(dir, tarball), '-C', installed, '--strip-components=1']);
    rmSync(join(dir, tarball));
    for (const name of declaredPackages()) {
      const target = join(root, 'node_modules', name);
      if (!existsSync(target)) throw new Error(`${name} is not installed in the repo (npm ci)`);
      const link = join(dir, 'node_modules', name);
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(target, link, 'dir');
    }
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'wirekit-user', private: true }));
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const cli = join(dir, 'node_modules', 'wirekit-ts', 'dist', 'cli', 'main.js');
  return {
    dir,
    cli,
    async runScript<T>(name: string, input: unknown, timeoutMs = 60_000): Promise<T> {
      const script = join(dir, basename(name));
      copyFileSync(join(scripts, name), script);
      const result = await runNode([script, JSON.stringify(input)], dir, timeoutMs);
      const last = result.stdout.trim().split('\n').pop() ?? '';
      if (result.code !== 0 || last === '') {
        throw new Error(`${name} exited with ${result.code}:\n${result.stderr}${result.stdout}`);
      }
      return JSON.parse(last) as T;
    },
    runCli(args, timeoutMs = 60_000) {
      return runNode([cli, ...args], dir, timeoutMs);
    },
    startCli(args, timeoutMs = 60_000) {
      return startNode([cli, ...args], dir, timeoutMs);
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `node ARGS` in `cwd` to its end, killed after `timeoutMs`. */
function runNode(args: readonly string[], cwd: string, timeoutMs: number): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd,
      env: plainNodeEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr: code === null ? `${stderr}\n(killed after ${timeoutMs} ms)` : stderr });
    });
  });
}

/** `node ARGS` in `cwd`, resolved once it printed a first line; rejected if it exits or is silent first. */
function startNode(args: readonly string[], cwd: string, timeoutMs: number): Promise<RunningCli> {
  const child = spawn(process.execPath, args, {
    cwd,
    env: plainNodeEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const ended = new Promise<ProcessResult>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no line within ${timeoutMs} ms; stderr: ${stderr}`));
    }, timeoutMs);
    const onData = () => {
      const end = stdout.indexOf('\n');
      if (end === -1) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      resolve({
        firstLine: stdout.slice(0, end),
        stop() {
          child.kill('SIGTERM');
          return ended;
        },
      });
    };
    child.stdout.on('data', onData);
    void ended.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before printing a line; stderr: ${stderr}`));
    });
  });
}
