/**
 * Builds the dashboard page (page/ → dist/) with Vite's JavaScript API, the same build as
 * `npm run demo:page`. `ensureDashboardPage()` builds only when dist/ is missing or older than
 * what it is built from (the page's sources, the Vite config, wirekit's own build in the
 * package's dist/, which the page bundles), for a server to call at start.
 *
 *   npm run demo:page
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
/** Where the built page goes; the demo server serves this folder at /. */
export const dashboardDist = join(here, 'dist');
const pageSources = join(here, 'page');
const configFile = join(here, 'vite.config.ts');
/** The page bundles wirekit from the package's build; every `npm run build` rewrites this file. */
const wirekitBuild = join(here, '../../dist/index.js');

/** Builds the page into `dashboardDist`. */
export async function buildDashboardPage(): Promise<void> {
  if (!existsSync(wirekitBuild)) {
    throw new Error('the page bundles wirekit from its build: run `npm run build` first.');
  }
  // Vite is a devDependency: loaded only when a build is needed.
  const { build } = await import('vite');
  await build({ configFile });
}

/** True when dist/ is missing, or older than a file of the page, its build config or wirekit's build. */
export function dashboardPageIsStale(): boolean {
  let built: number;
  try {
    built = statSync(join(dashboardDist, 'index.html')).mtimeMs;
  } catch {
    return true;
  }
  const inputs = [newestIn(pageSources), statSync(configFile).mtimeMs, statSync(wirekitBuild).mtimeMs];
  return inputs.some((time) => time > built);
}

/**
 * Builds the page if it is stale; says whether it did. Processes that call it at once (test files
 * run in parallel) build one at a time, each looking again once it holds the lock, so the second
 * finds the first one's build rather than emptying dist/ under a page being served from it.
 */
export async function ensureDashboardPage(): Promise<boolean> {
  if (!dashboardPageIsStale()) return false;
  const release = await buildLock();
  try {
    if (!dashboardPageIsStale()) return false;
    await buildDashboardPage();
    return true;
  } finally {
    release();
  }
}

/** A lock folder beside the system's temporary files, named after this checkout's dist/. */
async function buildLock(): Promise<() => void> {
  const name = createHash('sha256').update(dashboardDist).digest('hex').slice(0, 12);
  const lock = join(tmpdir(), `wirekit-dashboard-build-${name}.lock`);
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(lock);
      return () => rmSync(lock, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    // A build takes seconds: a lock this old was left by a process that died.
    try {
      if (Date.now() - statSync(lock).mtimeMs > 120_000) rmSync(lock, { recursive: true, force: true });
    } catch {
      // Released meanwhile.
    }
    if (Date.now() > deadline) throw new Error(`another build of the dashboard page holds ${lock}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function newestIn(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const time = entry.isDirectory() ? newestIn(path) : statSync(path).mtimeMs;
    if (time > newest) newest = time;
  }
  return newest;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildDashboardPage();
  console.log(`dashboard page built into ${dashboardDist}`);
}
