/**
 * The repository's root folder. Benchmarks run compiled from build/benchmarks/ and are tested from
 * their sources in benchmarks/, one folder level apart, so a path climbing from `import.meta.url`
 * would be right in one and wrong in the other: the root is found by its package.json instead.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'wirekit-ts'
    ) {
      return dir;
    }
    if (dirname(dir) === dir) throw new Error(`no wirekit-ts package.json above ${from}`);
  }
}

export const repoRoot: string = findRoot(dirname(fileURLToPath(import.meta.url)));
