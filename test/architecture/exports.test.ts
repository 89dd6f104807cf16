/**
 * Every subpath export in package.json resolves to a built module that exports something, the way a
 * user's `import 'wirekit-ts/codecs'` would resolve it (Node's self-reference by package name, after
 * `npm run build`, which `pretest` runs).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  name: string;
  exports: Record<string, unknown>;
};
const root = new URL('../..', import.meta.url).pathname;

describe('package exports', () => {
  const subpaths = Object.keys(manifest.exports).filter((subpath) => subpath !== './package.json');

  test.each(subpaths)('%s resolves and exports names', (subpath) => {
    const specifier = `${manifest.name}${subpath.slice(1)}`;
    const script = `const m = await import(${JSON.stringify(specifier)}); console.log(JSON.stringify(Object.keys(m)));`;
    const names = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' }),
    );
    expect(names.length).toBeGreaterThan(0);
  });

  test('wirekit-ts/tables loads no table engine: each is an optional peer its own subpath needs', () => {
    // The modules the built entry reaches through relative imports, and the packages they import.
    const packages = new Set<string>();
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
        const specifier = match[1] as string;
        if (specifier.startsWith('.')) visit(join(dirname(file), specifier));
        else packages.add(specifier);
      }
    };
    visit(join(root, 'dist/boundaries/tables/index.js'));
    expect(seen.size).toBeGreaterThan(3);
    expect([...packages].filter((name) => name === 'pg' || name.startsWith('@duckdb/'))).toEqual([]);
    expect(readFileSync(join(root, 'dist/boundaries/tables/postgres.js'), 'utf8')).toContain("from 'pg'");
  });

  test('wirekit-ts/cache loads neither ioredis nor prom-client until they are used', () => {
    // Static imports only (`from '...'`): redisStore and the CLI import ioredis on first use.
    const packages = new Set<string>();
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const match of readFileSync(file, 'utf8').matchAll(/\bfrom\s*'([^']+)'/g)) {
        const specifier = match[1] as string;
        if (specifier.startsWith('.')) visit(join(dirname(file), specifier));
        else packages.add(specifier);
      }
    };
    visit(join(root, 'dist/boundaries/cache/index.js'));
    expect(seen.size).toBeGreaterThan(5);
    expect([...packages].filter((name) => name === 'ioredis' || name === 'prom-client')).toEqual([]);
    expect(readFileSync(join(root, 'dist/boundaries/cache/redis-store.js'), 'utf8')).toContain(
      "import('ioredis')",
    );
  });

  test('the README tour imports what the subpaths export', () => {
    const script = `
      const codecs = await import('wirekit-ts/codecs');
      const envelope = await import('wirekit-ts/envelope');
      const exporters = await import('wirekit-ts/schema/export');
      const main = await import('wirekit-ts');
      console.log(JSON.stringify([typeof codecs.createCodec, typeof envelope.decodeAny, typeof envelope.encodeEnveloped,
        typeof exporters.toProto, typeof main.t.object, typeof main.inferSchema, typeof main.schemaToJson]));`;
    const types = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' }),
    );
    expect(types).toEqual(Array(7).fill('function'));
  });
});
