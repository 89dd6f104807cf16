/**
 * `npm run build`: compiles each TypeScript project into a fresh folder beside its output, then
 * moves the new files into place one rename at a time and removes the files no source produces any
 * more. A rename replaces a file atomically, so a process that imports from dist/ meanwhile (a test,
 * the CLI, a demo) sees the old module or the new one, never a missing one, which deleting dist/
 * first did. The output is still exactly what a clean build gives: no stale files survive.
 *
 * --if-stale skips the build when nothing it reads has changed since the last one (the demos and
 * examples start with it): the paths, sizes and modification times of the sources under each
 * project's rootDir, the tsconfig files and the compiler's version, hashed into a stamp kept in the
 * last output folder.
 *
 * Usage: node scripts/build.mjs [--if-stale] [--executable FILE] PROJECT:OUTDIR [PROJECT:OUTDIR …]
 * Each OUTDIR must be the project's own outDir (so that source maps point where they should), and
 * a project may read what an earlier one built: they run in order, each swapped in before the next.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';

const stampName = '.build-stamp';
const require = createRequire(import.meta.url);
const tsc = require.resolve('typescript/bin/tsc');

const args = process.argv.slice(2);
const ifStale = args.includes('--if-stale');
const executableAt = args.indexOf('--executable');
const executable = executableAt === -1 ? undefined : args[executableAt + 1];
const projects = args
  .filter((arg, i) => !arg.startsWith('--') && (executableAt === -1 || i !== executableAt + 1))
  .map((arg) => {
    const [project, outDir] = arg.split(':');
    if (!project || !outDir) throw new Error(`expected PROJECT:OUTDIR, got ${arg}`);
    return { project, outDir };
  });
if (projects.length === 0)
  throw new Error('usage: build.mjs [--if-stale] [--executable FILE] PROJECT:OUTDIR …');

const stampFile = join(projects.at(-1).outDir, stampName);
const stamp = inputStamp();
if (ifStale && projects.every((p) => existsSync(p.outDir)) && readText(stampFile) === stamp) {
  console.error(`build: up to date (${projects.map((p) => p.outDir).join(', ')}), skipped`);
  process.exit(0);
}
removeAbandoned();
for (const { project, outDir } of projects) {
  // Beside the output, at the same depth, so that relative paths in source maps stay right after the move.
  const next = join(dirname(outDir), `dist-next-${process.pid}-${outDir.replace(/[^a-z0-9]/gi, '_')}`);
  rmSync(next, { recursive: true, force: true });
  try {
    execFileSync(process.execPath, [tsc, '-p', project, '--outDir', next], { stdio: 'inherit' });
    if (executable?.startsWith(`${outDir}/`)) chmodSync(join(next, relative(outDir, executable)), 0o755);
    swapIn(next, outDir);
  } finally {
    rmSync(next, { recursive: true, force: true });
  }
}
writeFileSync(stampFile, stamp);

/** Folders of builds that were killed before they could remove them (their process is gone). */
function removeAbandoned() {
  for (const dir of new Set(projects.map((p) => dirname(p.outDir)))) {
    for (const name of readdirSync(dir)) {
      const pid = /^dist-next-(\d+)-/.exec(name)?.[1];
      if (pid !== undefined && !isRunning(Number(pid)))
        rmSync(join(dir, name), { recursive: true, force: true });
    }
  }
}

function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Moves every file of `from` into `to` by rename, then removes what `to` holds beyond them. */
function swapIn(from, to) {
  const fresh = new Set(listFiles(from));
  for (const file of fresh) {
    mkdirSync(dirname(join(to, file)), { recursive: true });
    renameSync(join(from, file), join(to, file));
  }
  for (const file of listFiles(to)) {
    if (!fresh.has(file) && file !== stampName) rmSync(join(to, file), { force: true });
  }
  removeEmptyFolders(to);
}

/** Paths relative to `dir`, of every file below it (none when it does not exist). */
function listFiles(dir, prefix = '') {
  if (!existsSync(join(dir, prefix))) return [];
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix === '' ? entry.name : join(prefix, entry.name);
    return entry.isDirectory() ? listFiles(dir, path) : [path];
  });
}

function removeEmptyFolders(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const path = join(dir, entry.name);
    removeEmptyFolders(path);
    if (readdirSync(path).length === 0) rmdirSync(path);
  }
}

/**
 * What the outputs depend on, hashed: the source files under each project's rootDir (their paths,
 * sizes, modification times), the tsconfig files, and the compiler's version. A project's rootDir
 * holds everything it compiles, and what it imports from elsewhere in the repository (the
 * benchmarks import examples/ and test/ helpers), so this errs on the side of building: an edit
 * to any source there counts, outputs and dependencies do not.
 */
function inputStamp() {
  const hash = createHash('sha256');
  hash.update(
    `typescript ${JSON.parse(readFileSync(require.resolve('typescript/package.json'), 'utf8')).version}\n`,
  );
  hash.update(`${args.filter((arg) => arg !== '--if-stale').join(' ')}\n`);
  const outputs = new Set(projects.map((p) => join(p.outDir)));
  for (const { project } of projects) {
    for (const config of configChain(project)) hash.update(`${config}\n${readFileSync(config)}\n`);
    const root = rootDirOf(project);
    for (const file of sourceFiles(root, outputs).sort()) {
      const { size, mtimeMs } = statSync(file);
      hash.update(`${file} ${size} ${mtimeMs}\n`);
    }
  }
  return hash.digest('hex');
}

/** The project's rootDir (from it or what it extends), relative to where the build runs. */
function rootDirOf(project) {
  for (const config of configChain(project)) {
    const rootDir = readJsonc(config).compilerOptions?.rootDir;
    if (typeof rootDir === 'string') return join(dirname(config), rootDir);
  }
  return dirname(project);
}

/** A file tsc may read as a source: TypeScript, JavaScript, JSON. */
function isSourceFile(name) {
  return /\.(?:[cm]?[jt]s|tsx|json)$/.test(name);
}

/** Folders that hold outputs or dependencies, never sources: skipped wherever they are. */
function notSources(name) {
  return (
    ['node_modules', 'dist', 'build', 'coverage'].includes(name) ||
    name.startsWith('dist-') ||
    name.startsWith('.')
  );
}

function sourceFiles(dir, outputs) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return notSources(entry.name) || outputs.has(path) ? [] : sourceFiles(path, outputs);
    return isSourceFile(entry.name) ? [path] : [];
  });
}

/** The tsconfig file and those it extends (relative paths only, as this repository writes them). */
function configChain(project) {
  const chain = [project];
  const { extends: base } = readJsonc(project);
  if (typeof base === 'string' && base.startsWith('.'))
    chain.push(...configChain(join(dirname(project), base)));
  return chain;
}

/** tsconfig files allow comments and trailing commas; neither is inside a string here. */
function readJsonc(file) {
  const text = readFileSync(file, 'utf8')
    .replace(/^\s*\/\/.*$/gm, '')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/,(\s*[}\]])/g, '$1');
  return JSON.parse(text);
}

function readText(file) {
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}
