/**
 * The package as a consumer installs it: `npm pack` of the built tree, installed into a fresh project
 * from the tarball (its dependencies from the registry, the way `npm install wirekit-ts` would fetch
 * them), then used from there. The self-reference checks in exports.test.ts cannot see what the tarball
 * leaves out, nor what a consumer's install resolves differently from this repo's lockfile.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string;
  exports: Record<string, unknown>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};

interface PackedFile {
  readonly path: string;
}

/** What `npm pack` would put in the tarball, without writing it. */
function packedFiles(): Set<string> {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [pack] = JSON.parse(out) as [{ files: PackedFile[] }];
  return new Set(pack.files.map((file) => file.path));
}

describe('the packed tarball', () => {
  const files = packedFiles();

  test('every source map points at sources the package ships', () => {
    const maps = [...files].filter((path) => path.endsWith('.map'));
    expect(maps.length).toBeGreaterThan(100);
    const missing: string[] = [];
    for (const map of maps) {
      const { sources } = JSON.parse(readFileSync(join(root, map), 'utf8')) as { sources: string[] };
      for (const source of sources) {
        const shipped = normalize(join(dirname(map), source));
        if (!files.has(shipped)) missing.push(`${map} → ${shipped}`);
      }
    }
    expect(missing).toEqual([]);
  });

  test('ships the built entry points, the CLI and the docs, and no tests', () => {
    for (const entry of [
      'dist/index.js',
      'dist/index.d.ts',
      'dist/cli/main.js',
      'README.md',
      'docs/errors.md',
    ])
      expect(files.has(entry), entry).toBe(true);
    expect([...files].filter((path) => path.startsWith('test/') || path.includes('.test.'))).toEqual([]);
  });
});

describe('installed into a fresh project', () => {
  let project = '';

  beforeAll(() => {
    project = mkdtempSync(join(tmpdir(), 'wirekit-consumer-'));
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
      JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }),
    );
    // The table engines' drivers, ioredis, prom-client and @fastify/websocket are optional peers: a consumer installs
    // the one it uses. Here all of them, at the versions this repo tests, so that every subpath
    // export imports.
    const peers = manifest.peerDependencies ?? {};
    const engines = [
      'pg',
      '@duckdb/node-api',
      '@duckdb/node-bindings',
      'ioredis',
      'prom-client',
      '@fastify/websocket',
    ].map((name) => `${name}@${manifest.devDependencies?.[name] ?? peers[name]}`);
    execFileSync(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        '--loglevel=error',
        `./${tarball}`,
        ...engines,
      ],
      { cwd: project, stdio: 'pipe' },
    );
  }, 300_000);

  // The project holds a full install: removing it took over vitest's 10 s default on a loaded machine.
  afterAll(() => {
    if (project !== '') rmSync(project, { recursive: true, force: true });
  }, 120_000);

  test('every subpath export imports by the package name', () => {
    const specifiers = Object.keys(manifest.exports)
      .filter((subpath) => subpath !== './package.json')
      .map((subpath) => `${manifest.name}${subpath.slice(1)}`);
    const script = `for (const s of ${JSON.stringify(specifiers)}) { const m = await import(s); if (Object.keys(m).length === 0) throw new Error(s); } console.log('ok');`;
    expect(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        cwd: project,
        encoding: 'utf8',
      }),
    ).toBe('ok\n');
  });

  test('the CLI runs as `wirekit` and round-trips a value', () => {
    const bin = join(project, 'node_modules', '.bin', 'wirekit');
    expect(execFileSync(bin, ['--help'], { encoding: 'utf8' })).toContain('wirekit');
    const packed = execFileSync(bin, ['encode', '--format', 'msgpack'], { input: '{"id":7,"name":"Ada"}' });
    const back = execFileSync(bin, ['decode', '--format', 'msgpack'], { input: packed, encoding: 'utf8' });
    expect(JSON.parse(back)).toEqual({ id: 7, name: 'Ada' });
  });

  test('its types compile in a strict NodeNext project, and refuse a misspelt format', () => {
    const program = `
      import { t, type Infer } from 'wirekit-ts';
      import { createCodec } from 'wirekit-ts/codecs';
      const User = t.object('User', { id: t.int64(), name: t.string() });
      const codec = createCodec('msgpack', { schema: User });
      const user: Infer<typeof User> = codec.decode(codec.encode({ id: 1n, name: 'Ada' }));
      export const id: bigint = user.id;
      // @ts-expect-error: not a format
      createCodec('msgpak');
      // @ts-expect-error: Protocol Buffers carries no field names, so it needs a schema
      createCodec('protobuf');
    `;
    writeFileSync(join(project, 'main.ts'), program);
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          noEmit: true,
        },
        files: ['main.ts'],
      }),
    );
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = (() => {
      try {
        return execFileSync(process.execPath, [tsc, '-p', project], { cwd: project, encoding: 'utf8' });
      } catch (error) {
        return String((error as { stdout?: string }).stdout ?? error);
      }
    })();
    expect(result).toBe('');
    // A whole tsc run on a 2-core machine shared with other tests: seconds alone, more under load.
  }, 120_000);

  test('schemaless CBOR and MessagePack work whether or not their native accelerators installed', () => {
    const script = `
      import { createCodec } from 'wirekit-ts/codecs';
      for (const f of ['cbor', 'msgpack']) {
        const c = createCodec(f);
        const v = { s: 'héllo'.repeat(20), n: [1, 2.5, -3] };
        if (JSON.stringify(c.decode(c.encode(v))) !== JSON.stringify(v)) throw new Error(f);
      }
      console.log('ok');`;
    expect(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        cwd: project,
        encoding: 'utf8',
      }),
    ).toBe('ok\n');
  });
});
