/**
 * Every TypeScript block of README.md and docs/ compiles as a reader would paste it: each block is
 * its own module in a strict ESM project (nodenext, skipLibCheck off) that has the packed tarball
 * installed, as a user's project has it, and `tsc` checks them all at once. A block is a whole
 * module: it imports what it uses from the package's entry points and declares every name it
 * uses (README's "Writing docs" says so). A failure names the Markdown file, the line in it and
 * tsc's message.
 *
 * Every other block must be of a language that is checked elsewhere or holds no code: `sh` (the
 * README's commands are run by commands.test.ts), `json`, `text`. A ```js block, or one with no
 * language, fails here, so no code is left unchecked.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type CodeBlock, docBlocks } from '../support/doc-blocks.js';
import { installPacked, type PackedProject } from '../support/packed-package.js';
import { runUserTsc, userTypePackages } from '../support/user-tsc.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

const typescript = new Set(['ts', 'typescript']);
/** Block languages that carry no TypeScript: shell commands, data, program output. */
const otherLanguages = new Set(['sh', 'json', 'text']);

/** The module name of a block: its file and line, so tsc's messages can be traced back. */
function moduleName(block: CodeBlock): string {
  return `${block.file.replace(/[/.]/g, '_')}_L${block.line}.ts`;
}

interface Failure {
  readonly where: string;
  readonly message: string;
}

/** tsc's `snippets/NAME.ts(L,C): error TS…` lines, as `FILE.md:LINE` of the block's source. */
function mapDiagnostics(output: string, blocks: ReadonlyMap<string, CodeBlock>): Failure[] {
  const failures: Failure[] = [];
  for (const line of output.split('\n')) {
    const match = /^snippets\/([^(]+)\((\d+),(\d+)\): (error .*)$/.exec(line);
    if (match === null) {
      if (line.trim() !== '' && failures.length > 0) {
        const last = failures.pop() as Failure;
        failures.push({ where: last.where, message: `${last.message}\n${line}` });
      } else if (line.trim() !== '') {
        failures.push({ where: 'tsc', message: line });
      }
      continue;
    }
    const [, name = '', row = '0', column = '0', message = ''] = match;
    const block = blocks.get(name);
    const where =
      block === undefined
        ? name
        : `${block.file}:${block.line + Number(row) - 1}:${column} (block at line ${block.line})`;
    failures.push({ where, message });
  }
  return failures;
}

describe('the documentation’s code blocks', () => {
  const blocks = docBlocks(root);
  const tsBlocks = blocks.filter((block) => typescript.has(block.lang));
  let project: PackedProject | undefined;

  beforeAll(() => {
    project = installPacked({ alsoLink: userTypePackages });
  }, 300_000);

  afterAll(() => project?.remove());

  test('every block names a language, and each language is checked or carries no code', () => {
    const unchecked = blocks
      .filter((block) => !typescript.has(block.lang) && !otherLanguages.has(block.lang))
      .map((block) => `${block.file}:${block.line - 1} \`\`\`${block.lang}`);
    expect(
      unchecked,
      'a block of another language (or none) would go unchecked: use ts, sh, json or text',
    ).toEqual([]);
  });

  test('every TypeScript block compiles as its own strict ESM module against the packed package', () => {
    const dir = (project as PackedProject).dir;
    const snippets = join(dir, 'snippets');
    mkdirSync(snippets, { recursive: true });
    writeFileSync(join(snippets, 'package.json'), JSON.stringify({ type: 'module' }));
    const byName = new Map<string, CodeBlock>();
    for (const block of tsBlocks) {
      byName.set(moduleName(block), block);
      // `export {}` keeps a block without imports a module, as a pasted file in an ESM project is.
      writeFileSync(join(snippets, moduleName(block)), `${block.code}\nexport {};\n`);
    }
    const output = runUserTsc(dir, ['snippets/*.ts']);
    const failures = mapDiagnostics(output, byName).map((failure) => `${failure.where}: ${failure.message}`);
    expect(failures).toEqual([]);
    expect(tsBlocks.length).toBeGreaterThan(30);
  }, 300_000);
});
