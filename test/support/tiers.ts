/**
 * The suite's two tiers, read from what each test file uses rather than from a list kept by hand.
 *
 * Every test that needs a program from outside npm (a server: Redis, Kafka, NATS, PostgreSQL; a
 * browser; Python; protoc, flatc, openssl or another command) asks for it through a probe first,
 * so that it skips loudly on a machine without it and fails under CI (tools.ts). A probe is a
 * function of test/support whose name starts with `has` (`has('protoc')`, `hasRedis()`, ...). A
 * test file that imports a probe, itself or through a test module it imports, is in the external
 * tier; every other test file is in the unit tier, which needs `npm ci` and nothing else.
 * Type tests (`*.test-d.ts`) need only tsc: they are unit tests.
 *
 * test/architecture/tiers.test.ts checks the other side: no unit-tier file runs such a program or
 * starts such a server without asking first.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export type Tier = 'unit' | 'external';

/** Folders of test files, relative to the repository's root (vitest's `include` names the same). */
export const testRoots = ['test', 'src', 'benchmarks'] as const;

const skipped = new Set(['node_modules', 'dist', '.git']);

/** Every file under `dir` whose name passes `keep`, as absolute paths. */
export function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    if (skipped.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path, keep);
    return keep(entry.name) ? [path] : [];
  });
}

export const isTestFile = (name: string) => name.endsWith('.test.ts');

/** The relative module specifiers a file imports (static, dynamic and re-exports). */
function importsOf(text: string): string[] {
  return [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1] as string);
}

/** The names a file imports from one specifier: `import { a, type B, c as d } from 'x'` gives a, B, c. */
function importedNames(text: string, specifier: string): string[] {
  const quoted = specifier.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`import\\s+(?:type\\s+)?\\{([^}]*)\\}\\s*from\\s*['"]${quoted}['"]`, 'g');
  return [...text.matchAll(pattern)].flatMap((match) =>
    (match[1] as string)
      .split(',')
      .map(
        (part) =>
          part
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0] as string,
      )
      .filter((name) => name !== ''),
  );
}

/** A `.js` specifier names its `.ts` source. */
function sourceOf(from: string, specifier: string): string {
  return resolve(dirname(from), specifier).replace(/\.js$/, '.ts');
}

/**
 * What the tiers are decided from: the text of each module (by absolute path), and the probes, the
 * `has*` functions test/support exports.
 */
export class TestTree {
  readonly root: string;
  readonly support: string;
  readonly probes: ReadonlySet<string>;
  private readonly texts = new Map<string, string | undefined>();

  constructor(root: string, texts?: ReadonlyMap<string, string>) {
    this.root = root;
    this.support = join(root, 'test', 'support');
    if (texts !== undefined) for (const [path, text] of texts) this.texts.set(path, text);
    const probes = new Set<string>();
    for (const file of this.supportModules()) {
      const text = this.text(file) ?? '';
      for (const m of text.matchAll(/export\s+(?:async\s+)?(?:function\s+|const\s+)(has\w*)/g))
        probes.add(m[1] as string);
    }
    this.probes = probes;
  }

  /** The module's text, or undefined where there is no such file. */
  text(path: string): string | undefined {
    if (!this.texts.has(path)) {
      try {
        this.texts.set(path, readFileSync(path, 'utf8'));
      } catch {
        this.texts.set(path, undefined);
      }
    }
    return this.texts.get(path);
  }

  private supportModules(): string[] {
    const known = [...this.texts.keys()].filter((path) => path.startsWith(`${this.support}/`));
    const onDisk = filesUnder(this.support, (name) => name.endsWith('.ts'));
    return [...new Set([...known, ...onDisk])];
  }

  /**
   * The modules of test/ and benchmarks/ that `file` reaches through relative imports, itself
   * first. The library (src/) is not followed: it asks for no program.
   */
  closure(file: string): string[] {
    const harness = ['test', 'benchmarks'].map((dir) => `${join(this.root, dir)}/`);
    const seen = new Set<string>([file]);
    const queue = [file];
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      for (const specifier of importsOf(this.text(next) ?? '')) {
        const target = sourceOf(next, specifier);
        if (!harness.some((dir) => target.startsWith(dir))) continue;
        if (seen.has(target) || this.text(target) === undefined) continue;
        seen.add(target);
        queue.push(target);
      }
    }
    return [...seen];
  }

  /** The probes `file` imports from test/support, by name. */
  probesImportedBy(file: string): string[] {
    const text = this.text(file) ?? '';
    return [...new Set(importsOf(text))]
      .filter((specifier) => sourceOf(file, specifier).startsWith(`${this.support}/`))
      .flatMap((specifier) => importedNames(text, specifier))
      .filter((name) => this.probes.has(name));
  }

  /** Why `file` is in the external tier (the modules that import a probe, and which), or [] for the unit tier. */
  externalBecause(file: string): string[] {
    return this.closure(file).flatMap((module) => {
      const probes = this.probesImportedBy(module);
      return probes.length === 0 ? [] : [`${relative(this.root, module)} imports ${probes.join(', ')}`];
    });
  }

  tierOf(file: string): Tier {
    return this.externalBecause(file).length > 0 ? 'external' : 'unit';
  }
}

/** The test files of the external tier, relative to `root`, sorted: vitest's include of that tier. */
export function externalTestFiles(root: string): string[] {
  const tree = new TestTree(root);
  return testRoots
    .flatMap((dir) => filesUnder(join(root, dir), isTestFile))
    .filter((file) => tree.tierOf(file) === 'external')
    .map((file) => relative(root, file))
    .sort();
}
