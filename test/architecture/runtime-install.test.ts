/**
 * The tarball with its runtime dependencies and nothing else: `npm pack`, installed into an empty
 * project with `--omit=peer --omit=dev`, so no optional peer (fastify, ioredis, kafkajs, pg, DuckDB,
 * prom-client...) and no devDependency is there. Every entry point in `exports`, and every module of
 * dist/ an entry point or the CLI can reach (static and dynamic imports followed through the built
 * JavaScript), is then imported in plain node: a module that needs a package the library does not
 * declare, or an optional peer at load time, fails here by name. package.test.ts covers the install
 * with the peers.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isolatedTempDir, plainNodeEnv } from '../support/packed-package.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string;
  bin: Record<string, string>;
  exports: Record<string, string | { default: string }>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};

/** The built file each entry point in `exports` loads (package.json itself left out). */
const entryFiles = Object.entries(manifest.exports).flatMap(([subpath, target]) =>
  typeof target === 'string'
    ? []
    : [{ specifier: `${manifest.name}${subpath.slice(1)}`, file: target.default }],
);

/** dist/ modules reachable from `starts` through relative static and dynamic imports of the built code. */
function reachableModules(packageDir: string, starts: readonly string[]): string[] {
  const seen = new Set<string>();
  const queue = starts.map((file) => normalize(file));
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(join(packageDir, file), 'utf8');
    for (const match of text.matchAll(
      /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g,
    )) {
      queue.push(normalize(join(dirname(file), match[1] as string)));
    }
  }
  return [...seen].sort();
}

/** The package names a built module imports by a bare specifier, statically (import and export ... from). */
function staticPackageImports(text: string): string[] {
  return ts
    .preProcessFile(text, true, false)
    .importedFiles.map((file) => file.fileName)
    .filter((name) => !name.startsWith('.'))
    .map((name) =>
      name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : (name.split('/')[0] as string),
    );
}

/** dist/ modules reachable from `starts` through relative static imports only. */
function staticallyReachable(packageDir: string, starts: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const queue = starts.map((file) => normalize(file));
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(join(packageDir, file), 'utf8');
    for (const match of text.matchAll(/(?:\bfrom\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g)) {
      queue.push(normalize(join(dirname(file), match[1] as string)));
    }
  }
  return seen;
}

/**
 * The modules that only a dynamic import reaches and that need an optional peer at load time: the
 * code behind a peer, which a boundary loads on first use through importPeer (the RPC client's
 * transports on Connect-ES, for instance). Importing one without its peer fails by design, so the
 * check below leaves them out; everything an entry point loads statically must still load.
 */
function peerBoundModules(
  packageDir: string,
  starts: readonly string[],
  modules: readonly string[],
): Set<string> {
  const loadedByEntries = staticallyReachable(packageDir, starts);
  const peers = new Set(Object.keys(manifest.peerDependencies));
  const bound = new Set<string>();
  for (const file of modules) {
    if (loadedByEntries.has(file)) continue;
    const needsPeer = [...staticallyReachable(packageDir, [file])].some((reached) =>
      staticPackageImports(readFileSync(join(packageDir, reached), 'utf8')).some((name) => peers.has(name)),
    );
    if (needsPeer) bound.add(file);
  }
  return bound;
}

describe('the tarball installed with its runtime dependencies only', () => {
  let project = '';
  let packageDir = '';

  beforeAll(() => {
    // Node looks for a package in every folder above the project too: one there would hide a
    // missing dependency, so the project goes where none is.
    project = isolatedTempDir('wirekit-runtime-only-');
    const tarball = execFileSync(
      'npm',
      ['pack', '--silent', '--ignore-scripts', '--pack-destination', project],
      {
        cwd: root,
        encoding: 'utf8',
      },
    ).trim();
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'runtime-only', version: '1.0.0', private: true, type: 'module' }),
    );
    execFileSync(
      'npm',
      [
        'install',
        '--omit=peer',
        '--omit=dev',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        '--loglevel=error',
        `./${tarball}`,
      ],
      { cwd: project, stdio: 'pipe', env: { ...process.env, npm_config_nodedir: '/usr' } },
    );
    packageDir = join(project, 'node_modules', manifest.name);
  }, 300_000);

  afterAll(() => {
    if (project !== '') rmSync(project, { recursive: true, force: true });
  }, 120_000);

  test('holds no optional peer and no devDependency the runtime dependencies do not need', () => {
    const installed = (name: string) => existsSync(join(project, 'node_modules', name, 'package.json'));
    const lock = JSON.parse(readFileSync(join(project, 'node_modules', '.package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean; peer?: boolean }>;
    };
    expect(Object.keys(manifest.peerDependencies).filter(installed)).toEqual([]);
    // A devDependency may be installed only as some runtime dependency's own dependency.
    const devOnly = Object.keys(manifest.devDependencies).filter(
      (name) => !(name in manifest.dependencies) && installed(name),
    );
    for (const name of devOnly) expect(lock.packages[`node_modules/${name}`], name).toBeDefined();
    for (const name of Object.keys(manifest.dependencies)) expect(installed(name), name).toBe(true);
  });

  test('every entry point and every dist module they or the CLI reach loads in plain node', () => {
    const cli = Object.values(manifest.bin);
    const starts = [...entryFiles.map((entry) => entry.file), ...cli];
    const modules = reachableModules(packageDir, starts);
    const peerBound = peerBoundModules(packageDir, starts, modules);
    // The CLI's main module runs the CLI when imported: it is run below instead.
    const importable = modules.filter(
      (file) => !cli.includes(`./${file}`) && !cli.includes(file) && !peerBound.has(file),
    );
    expect(importable.length).toBeGreaterThan(300);
    expect(importable.every((file) => file.startsWith('dist/'))).toBe(true);

    const script = `
      const specifiers = ${JSON.stringify([
        ...entryFiles.map((entry) => entry.specifier),
        ...importable.map((file) => `${manifest.name}/__file__/${file}`),
      ])};
      const failures = [];
      for (const specifier of specifiers) {
        const target = specifier.includes('/__file__/')
          ? new URL(specifier.split('/__file__/')[1], ${JSON.stringify(`file://${packageDir}/`)}).href
          : specifier;
        try {
          await import(target);
        } catch (error) {
          failures.push(specifier.replace(${JSON.stringify(`${manifest.name}/__file__/`)}, '') + ': ' + String(error?.message ?? error).split('\\n')[0]);
        }
      }
      console.log(JSON.stringify({ loaded: specifiers.length - failures.length, failures }));`;
    const result = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        cwd: project,
        encoding: 'utf8',
        env: plainNodeEnv(),
      }),
    ) as { loaded: number; failures: string[] };
    expect(result.failures).toEqual([]);
    expect(result.loaded).toBe(entryFiles.length + importable.length);
  }, 120_000);

  test('its runtime dependencies are what the built library imports, and it imports nothing undeclared', () => {
    const cli = Object.values(manifest.bin);
    const modules = reachableModules(packageDir, [...entryFiles.map((entry) => entry.file), ...cli]);
    const imported = new Set<string>();
    for (const file of modules) {
      const text = readFileSync(join(packageDir, file), 'utf8');
      // TypeScript's own scan of a file's imports, exports, dynamic imports and require() calls:
      // strings inside messages and generated code are not mistaken for imports.
      for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
        if (fileName.startsWith('.')) continue;
        imported.add(
          fileName.startsWith('@')
            ? fileName.split('/').slice(0, 2).join('/')
            : (fileName.split('/')[0] as string),
        );
      }
      // The lab's HTML report reads uPlot's files by path (require.resolve(`uplot/dist/...`)).
      if (text.includes('require.resolve(`uplot/')) imported.add('uplot');
    }
    const packages = [...imported].filter(
      (name) => !name.startsWith('node:') && !builtinModules.includes(name),
    );
    // tsx loads the registry's schema worker from its TypeScript source, which only the repo's own
    // tests run (the published module takes the compiled worker).
    const undeclared = packages.filter(
      (name) => !(name in manifest.dependencies) && !(name in manifest.peerDependencies) && name !== 'tsx',
    );
    expect(undeclared).toEqual([]);
    expect(Object.keys(manifest.dependencies).filter((name) => !imported.has(name))).toEqual([]);
  });

  test('the CLI answers --help and inspects a payload', () => {
    const bin = join(project, 'node_modules', '.bin', 'wirekit');
    expect(execFileSync(bin, ['--help'], { encoding: 'utf8', env: plainNodeEnv() })).toContain('wirekit');
    const packed = execFileSync(bin, ['encode', '--format', 'cbor'], {
      input: '{"id":7,"name":"Ada"}',
      env: plainNodeEnv(),
    });
    const seen = execFileSync(bin, ['inspect', '-', '--format', 'cbor'], {
      input: packed,
      encoding: 'utf8',
      env: plainNodeEnv(),
    });
    expect(seen).toContain('Ada');
  });

  test('ships no benchmark, test server or test', () => {
    const files = execFileSync('find', ['.', '-type', 'f'], { cwd: packageDir, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map((file) => relative('.', file));
    const misplaced = files.filter(
      (file) =>
        /(^|\/)(benchmarks|bench|build)\//.test(file) ||
        /(redis|kafka|nats)-server|kafka-jars|server-process|free-port|chromium/.test(file) ||
        /\.test(-d)?\.(ts|js)$/.test(file),
    );
    expect(misplaced).toEqual([]);
  });
});
