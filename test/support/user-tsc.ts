/**
 * TypeScript as a user's project compiles it: strict ESM (nodenext, skipLibCheck off) against the
 * packed package installed in a project of packed-package.ts. The documentation's code blocks
 * (test/docs/snippets.test.ts) and the modules `wirekit schema import --to ts` writes
 * (test/package/schema-import.test.ts) are both checked so.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Packages a user's project holds beside wirekit-ts for the code to compile: the types tsc needs. */
export const userTypePackages = ['@types/node', '@types/ws', '@types/pg', 'ws'];

/** A user's strict project; `noEmit` unless the caller runs what it compiles. */
const userCompilerOptions = {
  strict: true,
  module: 'nodenext',
  moduleResolution: 'nodenext',
  target: 'ES2022',
  lib: ['ES2022', 'DOM'],
  types: ['node'],
  skipLibCheck: false,
  noEmit: true,
  noUnusedLocals: false,
};

/**
 * Writes `dir`/tsconfig.json with the user's options (and `options` over them) for the files
 * `include` names, runs the repo's tsc on it, and returns tsc's output: empty when it compiled.
 */
export function runUserTsc(
  dir: string,
  include: readonly string[],
  options: Record<string, unknown> = {},
): string {
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { ...userCompilerOptions, ...options }, include }, null, 2),
  );
  try {
    execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return '';
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return `${failed.stdout ?? ''}${failed.stderr ?? ''}`;
  }
}
