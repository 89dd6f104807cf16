/**
 * The unit tier (`npm run test:unit`) must run with nothing but `npm ci`. test/support/tiers.ts puts a
 * test file in the external tier when it imports a probe (`has('protoc')`, `hasRedis()`, ...); this
 * test reads every unit-tier file, and the test modules it imports, for the other sign of a program
 * from outside npm: running one (Python, protoc, flatc, Java, a browser, a server's binary, openssl
 * or a compression CLI), starting a server, or driving a browser. A file that does so without
 * asking first fails here, naming what it does; the fix is to ask with the probe (which also makes
 * it skip loudly where the program is missing, and fail under CI).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import config from '../../vitest.config.js';
import { externalTestFiles, filesUnder, isTestFile, TestTree, testRoots } from '../support/tiers.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Programs that do not come with Node or npm (the tests' own `node`, `npm` and `tar` do). */
const programs = [
  'python3?',
  '/usr/bin/python3',
  'protoc',
  'flatc',
  'java',
  'mvn',
  'redis-server',
  'redis-cli',
  'nats-server',
  'initdb',
  'pg_ctl',
  'postgres',
  'runuser',
  'openssl',
  'chromium',
  'gzip',
  'zstd',
  'lz4',
];

/** Each sign of something outside npm, with what it says in a failure. */
const signs: readonly (readonly [RegExp, string])[] = [
  [
    new RegExp(
      String.raw`\b(?:spawn|spawnSync|execFile|execFileSync|exec|execSync)\(\s*['"\x60](?:${programs.join('|')})['"\x60\s]`,
    ),
    'runs a program from outside npm',
  ],
  [
    /\b(?:spawn|spawnSync|execFile|execFileSync|exec|execSync)\(\s*(?:python|(?:venv|chromium)(?:Python|Path))\b/,
    'runs Python or Chromium',
  ],
  [/\b(?:venv|chromium)(?:Python|Path|Args)\b/, 'runs Python or Chromium'],
  [
    /\b(?:start(?:Redis|RedisCluster|Kafka|Nats|Postgres|LocalServer)|spawnUntilReady)\s*\(/,
    'starts a server',
  ],
  [/['"]playwright-core['"]/, 'drives a browser'],
];

/**
 * For each unit-tier test file, what it (or a test module it imports) does that needs a program
 * from outside npm. Where the programs are defined is not read: the modules that define probes name
 * each program to probe it, and test/support/servers/ names each server's binary to start it; the
 * signs look for their use (a server started, the browser's path) in the modules that import them.
 */
function undeclared(tree: TestTree, files: readonly string[]): string[] {
  const definesProbe = (text: string) => /export\s+(?:async\s+)?(?:function|const)\s+has\w*/.test(text);
  const servers = join(root, 'test/support/servers/');
  return files
    .filter((file) => tree.tierOf(file) === 'unit')
    .flatMap((file) =>
      tree.closure(file).flatMap((module) => {
        const text = tree.text(module) ?? '';
        if (definesProbe(text) || module.startsWith(servers)) return [];
        const via = module === file ? '' : ` (through ${relative(root, module)})`;
        const found = new Set(signs.filter(([pattern]) => pattern.test(text)).map(([, what]) => what));
        return [...found].map((what) => `${relative(root, file)} ${what}${via} without a probe`);
      }),
    );
}

/**
 * The cases of test/fixtures/tiers/ (test modules kept as text, so that neither vitest nor this check
 * takes them for the suite's own), as if they sat in test/tier-cases/.
 */
function tierCases(): { tree: TestTree; files: string[] } {
  const dir = join(root, 'test/fixtures/tiers');
  const texts = new Map(
    readdirSync(dir).map((name) => [
      join(root, 'test/tier-cases', name.replace(/\.txt$/, '')),
      readFileSync(join(dir, name), 'utf8'),
    ]),
  );
  return { tree: new TestTree(root, texts), files: [...texts.keys()].filter(isTestFile).sort() };
}

const allTestFiles = () => testRoots.flatMap((dir) => filesUnder(join(root, dir), isTestFile));

describe('tiers', () => {
  test('no unit-tier file needs a program from outside npm without asking for it', () => {
    expect(undeclared(new TestTree(root), allTestFiles())).toEqual([]);
  });

  test('the check names a server, Python, protoc or a browser used without a probe, through a helper too', () => {
    const { tree, files } = tierCases();
    expect(undeclared(tree, files)).toEqual([
      'test/tier-cases/browser.test.ts drives a browser without a probe',
      'test/tier-cases/protoc.test.ts runs a program from outside npm without a probe',
      'test/tier-cases/python.test.ts runs Python or Chromium without a probe',
      'test/tier-cases/self-describing-python.test.ts runs Python or Chromium (through test/tier-cases/python-helper.ts) without a probe',
      'test/tier-cases/server.test.ts starts a server (through test/tier-cases/redis-helper.ts) without a probe',
    ]);
  });

  test('a probe imported, directly or through a helper, puts the file in the external tier', () => {
    const { tree, files } = tierCases();
    const tiers = Object.fromEntries(files.map((file) => [relative(root, file), tree.tierOf(file)]));
    expect(tiers).toEqual({
      'test/tier-cases/browser.test.ts': 'unit',
      'test/tier-cases/declared.test.ts': 'external',
      'test/tier-cases/node.test.ts': 'unit',
      'test/tier-cases/protoc.test.ts': 'unit',
      'test/tier-cases/python.test.ts': 'unit',
      'test/tier-cases/self-describing-python.test.ts': 'unit',
      'test/tier-cases/server.test.ts': 'unit',
      'test/tier-cases/through-helper.test.ts': 'external',
    });
    expect(tree.externalBecause(join(root, 'test/tier-cases/through-helper.test.ts'))).toEqual([
      'test/tier-cases/kafka-helper.ts imports hasKafka',
      'test/support/kafka.ts imports hasCommand',
    ]);
  });

  test('vitest runs each test file in one tier: unit is every test file but the external ones', () => {
    const projects = (config.test?.projects ?? []) as {
      test: { name: string; include: string[]; exclude: string[] };
    }[];
    const [unit, external] = projects.map((project) => project.test);
    const files = externalTestFiles(root);
    expect([unit?.name, external?.name]).toEqual(['unit', 'external']);
    expect(external?.include).toEqual(files);
    expect(unit?.exclude).toEqual(expect.arrayContaining(files));
    expect(files.length).toBeGreaterThan(0);
    expect(allTestFiles().length).toBeGreaterThan(files.length);
  });
});
