/**
 * How long `npm start` (`wirekit bench`) takes is said in two places a reader meets it, README and
 * `wirekit bench --help`: with one figure, so the sentence in the help text must be README's too.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { benchHelp } from '../../src/cli/commands/bench.js';
import { docFiles } from '../support/doc-blocks.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const plain = (text: string) => text.replace(/`/g, '').replace(/\s+/g, ' ');

test("README says the bench's run time in the words of wirekit bench --help, and no other page gives another", () => {
  const sentence = /A default run takes about \d+ min on an idle 2-core machine[^.]*\./.exec(
    plain(benchHelp),
  );
  expect(sentence, 'bench --help states the run time').not.toBeNull();
  expect(plain(readFileSync(join(root, 'README.md'), 'utf8'))).toContain((sentence as RegExpExecArray)[0]);
  // A second figure beside `npm start` elsewhere, as docs/benchmarks.md once had ("1 min 59 s here").
  const elsewhere = docFiles(root)
    .filter((file) => file !== 'README.md')
    .flatMap((file) =>
      readFileSync(join(root, file), 'utf8')
        .split('\n')
        .filter((line) => /npm start\b.*\d+\s*(?:min|s)\b/.test(line))
        .map((line) => `${file}: ${line.trim()}`),
    );
  expect(elsewhere).toEqual([]);
});
