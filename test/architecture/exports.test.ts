/**
 * Every subpath export in package.json resolves to a built module that exports something, the way a
 * user's `import 'wirekit-ts/codecs'` would resolve it (Node's self-reference by package name, after
 * `npm run build`, which `pretest` runs).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { formatNames } from '../../src/codecs/core/codec.js';
import { modulesLoaded, modulesLoadedByImport, packagesOf } from '../support/node-imports.js';

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  name: string;
  exports: Record<string, unknown>;
  sideEffects?: unknown;
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
    // What the scan would catch: postgres.js loads pg on first use, an import the pattern matches.
    expect(readFileSync(join(root, 'dist/boundaries/tables/postgres.js'), 'utf8')).toContain("import('pg')");
  });

  test('wirekit-ts/cache loads neither ioredis nor prom-client until they are used', () => {
    // Static imports only (`from '...'`): redisStore requires ioredis when it is created, and the
    // CLI imports it on first use.
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
    expect(readFileSync(join(root, 'dist/boundaries/cache/redis-connection.js'), 'utf8')).toContain(
      "require('ioredis')",
    );
  });

  test('wirekit-ts/rpc/web reaches no Node module and not connect-node: it bundles for a page', () => {
    // Every module the built entry reaches through relative imports, and what they import by name.
    const packages = new Set<string>();
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const match of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
        const specifier = match[1] as string;
        if (specifier.startsWith('.')) visit(join(dirname(file), specifier));
        else packages.add(specifier);
      }
    };
    visit(join(root, 'dist/boundaries/rpc/client/web.js'));
    expect(seen.size).toBeGreaterThan(10);
    const nodeOnly = [...packages].filter(
      (name) => name.startsWith('node:') || name === '@connectrpc/connect-node',
    );
    expect(nodeOnly).toEqual([]);
    // What the scan would catch: the Node entry imports connect-node (on first use).
    expect(readFileSync(join(root, 'dist/boundaries/rpc/client/node-transports.js'), 'utf8')).toContain(
      "import('@connectrpc/connect-node')",
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

  test('the bench datasets are no public entry point; no module has side effects on import', () => {
    expect(Object.keys(manifest.exports)).not.toContain('./datasets');
    expect(manifest.sideEffects).toBe(false);
  });
});

/** The libraries beneath each format, which another format's entry point must not load. */
const libraryOf: Readonly<Record<string, readonly string[]>> = {
  json: [],
  msgpack: ['msgpackr'],
  cbor: ['cbor-x'],
  protobuf: [],
  avro: [],
  flatbuffers: ['flatbuffers'],
  // apache-arrow reads its messages' metadata with the flatbuffers library, and imports tslib.
  arrow: ['apache-arrow', 'flatbuffers', 'tslib'],
};

describe('per-format entry points', () => {
  test.each(formatNames)('wirekit-ts/%s exports its entry and loads no other format', (format) => {
    const specifier = `${manifest.name}/${format}`;
    const script = `const m = await import(${JSON.stringify(specifier)});
      const entry = Object.values(m).find((v) => v !== null && typeof v === 'object' && v.name === ${JSON.stringify(format)} && typeof v.create === 'function');
      const { t } = await import('wirekit-ts/schema');
      const codec = entry.create({ schema: t.object('Point', { x: t.int32() }) });
      console.log(JSON.stringify({ format: codec.format, mediaType: codec.mediaType }));`;
    const out = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        cwd: root,
        encoding: 'utf8',
      }).replace(/^[^{]*/, ''),
    );
    expect(out.format).toBe(format);
    const loaded = modulesLoadedByImport(specifier, root);
    const packages = packagesOf(loaded);
    expect(packages.sort()).toEqual([...(libraryOf[format] ?? [])].sort());
    // Its own format's folder and the shared floors below it, no other format's.
    const otherFormats = formatNames.filter((name) => name !== format);
    expect(
      loaded.filter((url) => otherFormats.some((name) => url.includes(`/dist/codecs/${name}/`))),
    ).toEqual([]);
  });

  test('wirekit-ts/codecs loads every format (the hook sees what an import loads)', () => {
    const packages = packagesOf(modulesLoadedByImport(`${manifest.name}/codecs`, root));
    for (const name of ['apache-arrow', 'msgpackr', 'cbor-x', 'flatbuffers'])
      expect(packages).toContain(name);
  });

  test('a JSON-only client loads neither apache-arrow nor node:buffer, nor any library', () => {
    const script = `
      import { createClient } from '${manifest.name}/http/client';
      import { jsonFormat } from '${manifest.name}/json';
      const client = createClient({ baseUrl: 'http://127.0.0.1:1', codecs: [jsonFormat] });
      const codec = jsonFormat.create({});
      if (client.format !== 'json' || codec.decode(codec.encode({ a: 1 })).a !== 1) throw new Error('json');`;
    const loaded = modulesLoaded(script, root);
    expect(loaded.length).toBeGreaterThan(10);
    expect(packagesOf(loaded)).toEqual([]);
    expect(loaded.filter((url) => url.startsWith('node:'))).toEqual([]);
    expect(
      loaded.filter((url) => /\/dist\/codecs\/(?!json\/|core\/|formats\.js|load-codec\.js)/.test(url)),
    ).toEqual([]);
  });

  test('a JSON-only socket client loads no library and no Node module: it bundles for a page', () => {
    // A stand-in WebSocket: the test is what the import graph holds, not a connection.
    const script = `
      import { createSocketClient } from '${manifest.name}/ws/client';
      import { jsonFormat } from '${manifest.name}/json';
      import { t } from '${manifest.name}/schema';
      const offered = [];
      class Stub { constructor(url, protocols) { offered.push(...protocols); }
        addEventListener() {} close() {} send() {} }
      const Tick = t.object('Tick', { price: t.float64() });
      createSocketClient({ url: 'ws://127.0.0.1:1/ws', receive: Tick, send: Tick, codecs: [jsonFormat],
        WebSocket: Stub, reconnect: false });
      if (offered.join() !== 'wirekit.json') throw new Error(offered.join());`;
    const loaded = modulesLoaded(script, root);
    expect(loaded.length).toBeGreaterThan(10);
    expect(packagesOf(loaded)).toEqual([]);
    expect(loaded.filter((url) => url.startsWith('node:'))).toEqual([]);
    expect(loaded.filter((url) => /\/dist\/codecs\/(?!json\/|core\/|formats\.js)/.test(url))).toEqual([]);
  });
});
