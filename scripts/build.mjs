/**
 * `npm run build`: compiles each TypeScript project into a fresh folder beside its output, then
 * moves the new files into place one rename at a time and removes the files no source produces any
 * more. A rename replaces a file atomically, so a process that imports from dist/ meanwhile (a test,
 * the CLI, a demo) sees the old module or the new one, never a missing one, which deleting dist/
 * first did. The output is still exactly what a clean build gives: no stale files survive.
 *
 * --if-stale skips the build when nothing it reads has changed since the last one (the demos and
 * examples start with it): the sources' paths, sizes and modification times, the tsconfig files and
 * the compiler's version, hashed into a stamp kept in the last output folder.
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
 * What the outputs depend on, hashed: every file under the folders the projects include (their
 * paths, sizes, modification times), the tsconfig files they extend, and the compiler's version.
 */
function inputStamp() {
  const hash = createHash('sha256');
  hash.update(
    `typescript ${JSON.parse(readFileSync(require.resolve('typescript/package.json'), 'utf8')).version}\n`,
  );
  hash.update(`${args.filter((arg) => arg !== '--if-stale').join(' ')}\n`);
  for (const { project } of projects) {
    for (const config of configChain(project)) hash.update(`${config}\n${readFileSync(config)}\n`);
    for (const dir of includedFolders(project)) {
      for (const file of listFiles(dir).sort()) {
        const { size, mtimeMs } = statSync(join(dir, file));
        hash.update(`${join(dir, file)} ${size} ${mtimeMs}\n`);
      }
    }
  }
  return hash.digest('hex');
}

/** The tsconfig file and those it extends (relative paths only, as this repository writes them). */
function configChain(project) {
  const chain = [project];
  const { extends: base } = readJsonc(project);
  if (typeof base === 'string' && base.startsWith('.'))
    chain.push(...configChain(join(dirname(project), base)));
  return chain;
}

/** The folders of a project's "include" (its own, or what it extends), which is where its sources live. */
function includedFolders(project) {
  for (const config of configChain(project)) {
    const { include } = readJsonc(config);
    if (Array.isArray(include))
      return include
        .map((pattern) => join(dirname(config), pattern.replace(/\/?\*.*$/, '')))
        .filter((dir) => existsSync(dir) && statSync(dir).isDirectory());
  }
  return [];
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
