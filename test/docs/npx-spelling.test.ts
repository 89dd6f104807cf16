/**
 * A reader who types `npx wirekit …` in a folder without wirekit-ts installed gets the unrelated
 * npm package named `wirekit`, downloaded and run. So every command the docs, the CLI's help and
 * the library's messages give spells it `npx -p wirekit-ts wirekit …` (or the installed binary,
 * `wirekit …`), and README says why.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { docFiles } from '../support/doc-blocks.js';
import { filesUnder } from '../support/tiers.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** `npx wirekit` run as a command (followed by its arguments or the line's end), not `npx -p wirekit-ts wirekit`. */
function bareNpxCommands(text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, index) =>
      [...line.matchAll(/\bnpx\s+(?:--?\w[\w-]*\s+)*wirekit(?=\s+[\w-]|\s*$)/g)]
        .filter((match) => !/-p\s+wirekit-ts\b/.test(match[0]) && !/--package[= ]wirekit-ts\b/.test(match[0]))
        .map(() => `${index + 1}: ${line.trim()}`),
    );
}

describe('npx spelling', () => {
  test('the check tells a bare npx wirekit from the package-qualified one', () => {
    expect(bareNpxCommands('npx wirekit --help')).toHaveLength(1);
    expect(bareNpxCommands('run `npx wirekit inspect order.bin` to see it')).toHaveLength(1);
    expect(bareNpxCommands('npx --yes wirekit bench')).toHaveLength(1);
    expect(bareNpxCommands('npx -p wirekit-ts wirekit --help')).toEqual([]);
    expect(bareNpxCommands('npx --package=wirekit-ts wirekit bench')).toEqual([]);
    expect(bareNpxCommands('a bare `npx wirekit` fetches another package')).toEqual([]);
  });

  test('README, docs/ and src/ never tell a reader to run a bare npx wirekit', () => {
    const files = [
      ...docFiles(root),
      ...filesUnder(join(root, 'src'), (name) => name.endsWith('.ts')).map((path) => relative(root, path)),
    ];
    const found = files.flatMap((file) =>
      bareNpxCommands(readFileSync(join(root, file), 'utf8')).map((hit) => `${file}:${hit}`),
    );
    expect(found).toEqual([]);
  });

  test('README says why it spells the command with -p wirekit-ts', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain('npx -p wirekit-ts wirekit --help');
    expect(readme).toMatch(
      /bare `npx wirekit` outside a project that installed wirekit-ts downloads and runs/,
    );
  });
});
