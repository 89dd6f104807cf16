/**
 * The package as a user's Node runs it. The built tree (`npm run build`, which `pretest` runs) is
 * packed with `npm pack` and extracted into node_modules/wirekit-ts of a temporary project outside
 * the repo; beside it, node_modules holds symlinks to the dependencies and optional peers this
 * repo's `npm ci` installed, and to nothing else, so a module the package imports but does not
 * declare is not found, and nothing is fetched (it works offline, as on a fresh CI machine).
 *
 * installBuiltWithoutPeers makes the project of a user who installed no optional peer: the runtime
 * dependencies alone.
 *
 * Scripts run there in plain `node`, with no loader and no test-runner transform: Node's own ESM
 * loader loads wirekit and each CommonJS peer, exposing only the named exports cjs-module-lexer
 * finds, where vitest's interop would have filled in the rest.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
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
export function plainNodeEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  delete env.NODE_PATH;
  return env;
}

interface Manifest {
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { readonly optional?: boolean }>;
  readonly exports?: Record<string, unknown>;
}

function manifest(): Manifest {
  return JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;
}

function declaredPackages(): string[] {
  const { dependencies = {}, peerDependencies = {} } = manifest();
  return [...Object.keys(dependencies), ...Object.keys(peerDependencies), ...userPackages];
}

/**
 * A new temporary folder where Node finds no package but those put in it: Node looks for a package
 * in the node_modules of every folder above the importing module, so none of those may hold one (a
 * /tmp/node_modules would serve every package the project leaves out). The system's temp folder,
 * else /var/tmp.
 */
export function isolatedTempDir(prefix: string): string {
  const bases = [tmpdir(), '/var/tmp'];
  for (const base of bases) {
    if (packagesAbove(base) === undefined) return mkdtempSync(join(base, prefix));
  }
  const found = bases.map(packagesAbove).join(', ');
  throw new Error(`no temporary folder without node_modules above it (found ${found}); set TMPDIR to one`);
}

/** The first node_modules in `dir` or a folder above it. */
function packagesAbove(dir: string): string | undefined {
  for (let at = resolve(dir); ; at = dirname(at)) {
    if (existsSync(join(at, 'node_modules'))) return join(at, 'node_modules');
    if (dirname(at) === at) return undefined;
  }
}

function checkBuilt(): void {
  if (!existsSync(join(root, 'dist', 'cli', 'main.js'))) {
    throw new Error('dist/ is missing: run `npm run build` first (npm test does it)');
  }
}

/** Symlinks node_modules/NAME of the project in `dir` to this repo's installed copy of each package. */
function linkPackages(dir: string, names: readonly string[]): void {
  for (const name of names) {
    const target = join(root, 'node_modules', name);
    if (!existsSync(target)) throw new Error(`${name} is not installed in the repo (npm ci)`);
    const link = join(dir, 'node_modules', name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(target, link, 'dir');
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'wirekit-user', private: true }));
}

/**
 * Packs the built package and installs it, with symlinked dependencies, into a new temporary
 * project. `alsoLink` names more of the repo's packages a user's project would hold (type packages
 * such as @types/node for a type-checked project).
 */
export function installPacked(options: { readonly alsoLink?: readonly string[] } = {}): PackedProject {
  const packed = packBuilt();
  try {
    return installTarball(packed.tarball, [...new Set([...declaredPackages(), ...(options.alsoLink ?? [])])]);
  } finally {
    packed.remove();
  }
}

export interface PackedTarball {
  /** The .tgz `npm pack` wrote. */
  readonly tarball: string;
  remove(): void;
}

/** The built package packed by `npm pack` into a temporary folder of its own, to install once or many times. */
export function packBuilt(): PackedTarball {
  checkBuilt();
  const dir = isolatedTempDir('wirekit-tarball-');
  try {
    const name = execFileSync('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', dir], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
    return { tarball: join(dir, name), remove: () => rmSync(dir, { recursive: true, force: true }) };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * A new temporary project with `tarball` extracted into node_modules/wirekit-ts and, beside it,
 * symlinks to this repo's installed copy of each of `packages` and of nothing else. A linked
 * package finds its own dependencies from its real path in the repo, as an installed one would.
 */
export function installTarball(tarball: string, packages: readonly string[]): PackedProject {
  const dir = isolatedTempDir('wirekit-packed-');
  try {
    const installed = join(dir, 'node_modules', 'wirekit-ts');
    mkdirSync(installed, { recursive: true });
    execFileSync('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
    linkPackages(dir, packages);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return projectIn(dir);
}

/** The package's runtime `dependencies`, by name. */
export function runtimeDependencies(): string[] {
  return Object.keys(manifest().dependencies ?? {});
}

/** The optional peers, from package.json's `peerDependenciesMeta`, so a new one is covered by itself. */
export function optionalPeers(): string[] {
  const meta = manifest().peerDependenciesMeta ?? {};
  return Object.keys(meta).filter((name) => meta[name]?.optional === true);
}

/** The subpaths of package.json's `exports` that lead to code (`.`, `./cache`, ...; not ./package.json). */
export function entryPoints(): string[] {
  return Object.entries(manifest().exports ?? {})
    .filter(([, target]) => typeof target === 'object')
    .map(([subpath]) => subpath);
}

/**
 * The built tree without its optional peers: package.json and dist/ copied (not packed, which is
 * slower and adds nothing to a test of what loads) into node_modules/wirekit-ts of a new temporary
 * project, beside symlinks to the package's runtime `dependencies` alone. Copied, not linked: Node
 * resolves a symlink to its real path, and from there it would find every package in this repo.
 */
export function installBuiltWithoutPeers(): PackedProject {
  checkBuilt();
  const dir = isolatedTempDir('wirekit-no-peers-');
  try {
    const installed = join(dir, 'node_modules', 'wirekit-ts');
    mkdirSync(installed, { recursive: true });
    copyFileSync(join(root, 'package.json'), join(installed, 'package.json'));
    cpSync(join(root, 'dist'), join(installed, 'dist'), { recursive: true });
    linkPackages(dir, Object.keys(manifest().dependencies ?? {}));
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return projectIn(dir);
}

function projectIn(dir: string): PackedProject {
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
