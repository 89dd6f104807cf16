/**
 * The fenced code blocks of the documentation a reader sees: README.md and every docs/**.md. The
 * doc tests (test/docs/) type-check each TypeScript block against the packed package and run the
 * README's commands, so a block names where it came from (file and line) for their messages.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { filesUnder } from './tiers.js';

export interface CodeBlock {
  /** The Markdown file, relative to the repository's root. */
  readonly file: string;
  /** The 1-based line of the block's first line of code (the line after its opening fence). */
  readonly line: number;
  /** The fence's info string's first word (`ts`, `sh`, `json`), '' where the fence names none. */
  readonly lang: string;
  readonly code: string;
}

/** README.md and every Markdown file under docs/, relative to `root`, sorted. */
export function docFiles(root: string): string[] {
  const docs = filesUnder(join(root, 'docs'), (name) => name.endsWith('.md')).map((path) =>
    relative(root, path),
  );
  return ['README.md', ...docs.sort()];
}

/**
 * The fenced blocks of one Markdown text. A fence may be indented (a block inside a list item): the
 * fence's indentation is taken off each line of the block, as CommonMark does.
 */
export function codeBlocks(file: string, text: string): CodeBlock[] {
  const lines = text.split('\n');
  const blocks: CodeBlock[] = [];
  for (let at = 0; at < lines.length; at++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)/.exec(lines[at] as string);
    if (open === null) continue;
    const [, indent = '', fence = '', lang = ''] = open;
    const body: string[] = [];
    let end = at + 1;
    while (end < lines.length && !(lines[end] as string).trim().startsWith(fence)) {
      const line = lines[end] as string;
      body.push(line.startsWith(indent) ? line.slice(indent.length) : line.trimStart());
      end++;
    }
    blocks.push({ file, line: at + 2, lang: lang.toLowerCase(), code: body.join('\n') });
    at = end;
  }
  return blocks;
}

/** Every fenced block of README.md and docs/, in file order. */
export function docBlocks(root: string): CodeBlock[] {
  return docFiles(root).flatMap((file) => codeBlocks(file, readFileSync(join(root, file), 'utf8')));
}
