/**
 * The folder tree is the architecture: a folder may import from its own folder and from the layers
 * below it, never from a layer above. This test reads every import in src/ and fails on one that
 * points upward, so the rule cannot erode one convenient import at a time. At the edge of the
 * library, the tools on top of it and test support enter a format or a boundary only by its
 * entries, and examples and benchmarks use the package as users do (entry-rules.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { entryViolations, packageAt, publicEntryViolations, sourceFilesUnder } from './entry-rules.js';

/** Lowest first. Folders on one line are peers and must not import each other. */
const layers: readonly (readonly string[])[] = [
  ['errors'],
  ['util'],
  ['schema'],
  ['compression', 'codecs'],
  ['envelope', 'negotiate'],
  ['boundaries'],
  ['lab'],
  ['cli'],
];

/**
 * Floors inside a layer, lowest first, named by subfolder ('' for the files directly in it). Inside
 * codecs/: the core every format shares, then the interpreter MessagePack and CBOR share, then the
 * seven formats (peers: a format never imports another), then the registry that knows them all.
 */
const floors: Readonly<Record<string, readonly (readonly string[])[]>> = {
  codecs: [
    ['core'],
    ['keyed'],
    ['json', 'msgpack', 'cbor', 'protobuf', 'avro', 'flatbuffers', 'arrow'],
    [''],
  ],
};

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function layerOf(file: string): number | undefined {
  const top = relative(src, file).split('/')[0] ?? '';
  const index = layers.findIndex((peers) => peers.includes(top));
  return index === -1 ? undefined : index;
}

function folderOf(file: string): string {
  return relative(src, file).split('/')[0] ?? '';
}

/** The subfolder of `file` inside its layer's folder ('' directly in it), where that layer has floors. */
function subfolderOf(file: string): string {
  const parts = relative(src, file).split('/');
  return parts.length > 2 ? (parts[1] as string) : '';
}

function floorOf(file: string): number | undefined {
  const plan = floors[folderOf(file)];
  if (plan === undefined) return undefined;
  const index = plan.findIndex((peers) => peers.includes(subfolderOf(file)));
  return index === -1 ? undefined : index;
}

/** Within one layer that has floors: an import that points to a higher floor or to a peer. */
function floorViolation(path: string, target: string): string | undefined {
  if (floors[folderOf(path)] === undefined) return undefined;
  const from = floorOf(path);
  const to = floorOf(target);
  const where = (file: string) => `${folderOf(file)}/${subfolderOf(file) || '.'}`;
  if (from === undefined) return `${relative(src, path)} is in ${where(path)}, which is on no floor`;
  if (to === undefined)
    return `${relative(src, path)} imports ${relative(src, target)}, which is on no floor`;
  if (to > from || (to === from && subfolderOf(target) !== subfolderOf(path)))
    return `${relative(src, path)} (${where(path)}) imports ${relative(src, target)} (${where(target)})`;
  return undefined;
}

/**
 * Inside codecs/, decoding and encoding are told apart by the tree: a format's (and keyed/'s)
 * decoder lives under decode/, its encoder under encode/, and neither imports the other. What
 * both follow (the plan, options, value conversions, compiled units) sits at the format's top.
 */
function directionOf(file: string): 'decode' | 'encode' | undefined {
  const parts = relative(src, file).split('/');
  if (parts[0] !== 'codecs') return undefined;
  return parts.includes('decode') ? 'decode' : parts.includes('encode') ? 'encode' : undefined;
}

/** An import from a decode/ folder into an encode/ one, or the other way. */
function directionViolation(path: string, target: string): string | undefined {
  const from = directionOf(path);
  const to = directionOf(target);
  if (from === undefined || to === undefined || from === to) return undefined;
  return `${relative(src, path)} (${from}) imports ${relative(src, target)} (${to})`;
}

/** Each import that points to a higher layer, to a peer, or outside the layers. */
function violations(files: readonly { path: string; text: string }[]): string[] {
  const found: string[] = [];
  for (const { path, text } of files) {
    const from = layerOf(path);
    if (from === undefined) continue; // src/index.ts re-exports everything
    for (const match of text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) {
      const target = resolve(dirname(path), match[1] as string);
      const to = layerOf(target);
      if (to === undefined) found.push(`${relative(src, path)} imports ${match[1]}, outside any layer`);
      else if (to > from || (to === from && folderOf(target) !== folderOf(path))) {
        found.push(`${relative(src, path)} (${folderOf(path)}) imports ${match[1]} (${folderOf(target)})`);
      } else if (folderOf(target) === folderOf(path)) {
        const problem = floorViolation(path, target) ?? directionViolation(path, target);
        if (problem !== undefined) found.push(problem);
      }
    }
  }
  return found;
}

describe('architecture', () => {
  const files = sourceFiles(src);

  test('every folder under src/ is a known layer', () => {
    const folders = new Set(files.filter((f) => relative(src, f).includes('/')).map(folderOf));
    for (const folder of folders)
      expect(layers.flat(), `src/${folder} is not in the layer list`).toContain(folder);
  });

  test('no module imports from a layer above its own, or from a peer', () => {
    expect(violations(files.map((path) => ({ path, text: readFileSync(path, 'utf8') })))).toEqual([]);
  });

  test('the check catches upward and peer imports', () => {
    const upward = { path: join(src, 'schema/x.ts'), text: "import { run } from '../cli/main.js';" };
    const peer = { path: join(src, 'codecs/x.ts'), text: "import { gzip } from '../compression/gzip.js';" };
    const downward = { path: join(src, 'cli/x.ts'), text: "import { t } from '../schema/index.js';" };
    expect(violations([upward, peer, downward])).toHaveLength(2);
  });

  test('the check catches floors crossed inside codecs/', () => {
    const formatToFormat = {
      path: join(src, 'codecs/cbor/x.ts'),
      text: "import { y } from '../msgpack/y.js';",
    };
    const coreToFormat = { path: join(src, 'codecs/core/x.ts'), text: "import { y } from '../avro/y.js';" };
    const keyedToRegistry = {
      path: join(src, 'codecs/keyed/x.ts'),
      text: "import { y } from '../registry.js';",
    };
    const formatToKeyed = {
      path: join(src, 'codecs/cbor/x.ts'),
      text: "import { y } from '../keyed/plan.js';",
    };
    const registryToFormat = {
      path: join(src, 'codecs/registry.ts'),
      text: "import { y } from './avro/index.js';",
    };
    const withinFormat = { path: join(src, 'codecs/avro/x.ts'), text: "import { y } from './reader.js';" };
    expect(
      violations([
        formatToFormat,
        coreToFormat,
        keyedToRegistry,
        formatToKeyed,
        registryToFormat,
        withinFormat,
      ]),
    ).toHaveLength(3);
  });

  test('each format folder keeps its decoder in decode/ and its encoder in encode/', () => {
    const formatFolders = [...(floors.codecs?.[1] ?? []), ...(floors.codecs?.[2] ?? [])];
    for (const format of formatFolders) {
      const subfolders = readdirSync(join(src, 'codecs', format), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        // A transcoder (this format's bytes read, another format's written, as protobuf's to
        // ProtoJSON) is neither: it sits beside them and may import both, as the format's top does.
        .filter((name) => name !== 'transcode')
        .sort();
      expect(subfolders, `src/codecs/${format}`).toEqual(['decode', 'encode']);
    }
  });

  test('the check catches decode/ and encode/ importing each other', () => {
    const decodeToEncode = {
      path: join(src, 'codecs/avro/decode/x.ts'),
      text: "import { y } from '../encode/writer.js';",
    };
    const encodeToKeyedDecode = {
      path: join(src, 'codecs/cbor/encode/x.ts'),
      text: "import { y } from '../../keyed/decode/source.js';",
    };
    const topToBoth = {
      path: join(src, 'codecs/avro/compiled.ts'),
      text: "import { a } from './decode/datum.js';\nimport { b } from './encode/datum.js';",
    };
    const withinDirection = {
      path: join(src, 'codecs/cbor/decode/x.ts'),
      text: "import { y } from '../../keyed/decode/source.js';",
    };
    const found = violations([decodeToEncode, encodeToKeyedDecode, topToBoth, withinDirection]);
    expect(found).toEqual([
      'codecs/avro/decode/x.ts (decode) imports codecs/avro/encode/writer.js (encode)',
      'codecs/cbor/encode/x.ts (encode) imports codecs/keyed/decode/source.js (decode)',
    ]);
  });
});

describe('entries', () => {
  const root = resolve(src, '..');
  const pkg = packageAt(root);
  /** The layers above the boundaries: the tools built on the library (the lab, the CLI). */
  const tools = layers.slice(layers.findIndex((peers) => peers.includes('boundaries')) + 1).flat();
  // test/support is shared by many tests: were it to reach into a format's files, reorganising the
  // format would break tests that never test it. It may use any other module of src/ (the CLI's
  // run, the errors); a test file itself may import whatever it tests.
  const entered = [...tools.map((folder) => `src/${folder}`), 'test/support'].flatMap((folder) =>
    sourceFilesUnder(root, folder),
  );
  const users = ['examples', 'benchmarks'].flatMap((folder) => sourceFilesUnder(root, folder));
  test('the lab, the CLI and test support enter a format or a boundary only by its entries', () => {
    expect(entryViolations(entered, pkg)).toEqual([]);
  });

  test('examples and benchmarks import the library only by its public entry points', () => {
    expect(publicEntryViolations(users, pkg)).toEqual([]);
  });

  const at = (path: string, text: string) => ({ path: join(root, path), text });

  test('the entry check names each file and import that passes by an entry', () => {
    const files = [
      at('src/cli/x.ts', "import { parseFooter } from '../codecs/arrow/messages.js';"),
      at('src/cli/y.ts', "import type { FormatName } from '../codecs/core/codec.js';"),
      at('src/lab/z.ts', "const { legacyReaders } = await import('../boundaries/cache/legacy.js');"),
      // A format that does not exist yet is held to the same rule.
      at('test/support/w.ts', "export { plan } from '../../src/codecs/thrift/plan.js';"),
      at(
        'src/cli/fine.ts',
        [
          "import { createCodec } from '../codecs/index.js';",
          "import { describeArrow } from '../codecs/arrow/inspect.js';",
          "import type { CacheStore } from '../boundaries/cache/index.js';",
          "import { duckdbSource } from '../boundaries/tables/duckdb.js';",
          "import { t } from '../schema/index.js';",
          "import { usage } from './usage.js';",
        ].join('\n'),
      ),
    ];
    expect(entryViolations(files, pkg)).toEqual([
      'src/cli/x.ts imports ../codecs/arrow/messages.js: codecs/arrow/messages.ts is inside codecs/arrow/; import codecs/arrow/index.ts, codecs/arrow/inspect.ts or a module package.json exports',
      "src/cli/y.ts imports ../codecs/core/codec.js: codecs/core/codec.ts is the codec layer's shared floor; import codecs/index.ts",
      'src/lab/z.ts imports ../boundaries/cache/legacy.js: boundaries/cache/legacy.ts is inside boundaries/cache/; import boundaries/cache/index.ts, boundaries/cache/inspect.ts or a module package.json exports',
      'test/support/w.ts imports ../../src/codecs/thrift/plan.js: codecs/thrift/plan.ts is inside codecs/thrift/; import codecs/thrift/index.ts, codecs/thrift/inspect.ts or a module package.json exports',
    ]);
  });

  test('the public entry check names each file and import that is not by the package name', () => {
    const files = [
      at('examples/ws/main.ts', "import { Tick } from '../../dist/bench/ws/tick.js';"),
      at('benchmarks/http/main.ts', "import { createCodec } from '../../src/codecs/index.js';"),
      at('benchmarks/cache/main.ts', "import { redisStore } from 'wirekit-ts/cache/redis-store';"),
      at(
        'examples/fine.ts',
        [
          "import { t } from 'wirekit-ts';",
          "import { wirekit } from 'wirekit-ts/http';",
          "import { startRedis } from '../test/support/servers/redis.js';",
          "import Fastify from 'fastify';",
        ].join('\n'),
      ),
    ];
    expect(publicEntryViolations(files, pkg)).toEqual([
      'examples/ws/main.ts imports ../../dist/bench/ws/tick.js, a path into dist/: import the library as wirekit-ts/...',
      'benchmarks/http/main.ts imports ../../src/codecs/index.js, a path into src/: import the library as wirekit-ts/...',
      'benchmarks/cache/main.ts imports wirekit-ts/cache/redis-store, which package.json exports does not list',
    ]);
  });
});
