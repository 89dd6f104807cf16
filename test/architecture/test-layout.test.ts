/**
 * A module's tests are found from the module's path: the tests of src/X/Y/*.ts live in test/X/Y/
 * (src/codecs/arrow/ in test/codecs/arrow/, src/boundaries/cache/ in test/boundaries/cache/), and a
 * suite that covers a whole layer by design sits at that layer's folder (the cross-format suites
 * in test/codecs/). So every folder under test/ mirrors a folder of src/, but for the few declared
 * here, which hold no module's tests. A test folder without its src folder (a module moved or
 * renamed, its tests left behind; a folder named for a behaviour) fails here.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The top folders of test/ that mirror no src folder, and why. */
const declaredFolders: Readonly<Record<string, string>> = {
  architecture: 'rules about the whole tree (layers, exports, tiers, this layout)',
  examples: 'the programs of examples/, run as a reader runs them',
  package: 'the packed tarball, installed outside the repository as a user installs it',
  docs: 'README.md and docs/ held to the code: their snippets compiled, their commands run, their claims checked',
  support: 'code the tests share: probes and servers, shared suites, the peer programs of interop tests',
  fixtures: 'data the tests share: values, schemas, texts, hand-built bytes',
  scripts: "the repository's own scripts (scripts/), run as npm runs them",
};

/** Every folder under `dir`, relative to `base`. */
function foldersUnder(dir: string, base: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'node_modules')
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      return [relative(base, path), ...foldersUnder(path, base)];
    });
}

/** The test folders (relative to test/) that mirror no src folder and are not declared. */
function strays(testFolders: readonly string[], isSrcFolder: (path: string) => boolean): string[] {
  return testFolders.filter((folder) => {
    const top = folder.split('/')[0] as string;
    return !(top in declaredFolders) && !isSrcFolder(folder);
  });
}

const isDirectory = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

describe('test layout', () => {
  test('every folder under test/ mirrors a folder of src/, or is declared', () => {
    const folders = foldersUnder(join(root, 'test'), join(root, 'test'));
    expect(strays(folders, (folder) => isDirectory(join(root, 'src', folder)))).toEqual([]);
  });

  test('the check catches a folder with no src counterpart, declared folders aside', () => {
    const src = new Set(['codecs', 'codecs/arrow', 'boundaries', 'boundaries/cache']);
    const folders = [
      'codecs',
      'codecs/arrow',
      'codecs/arrow-interop',
      'boundaries/cache',
      'boundaries/cache/legacy',
      'support/suites',
      'fixtures/tiers',
      'interop',
    ];
    expect(strays(folders, (folder) => src.has(folder))).toEqual([
      'codecs/arrow-interop',
      'boundaries/cache/legacy',
      'interop',
    ]);
  });
});
