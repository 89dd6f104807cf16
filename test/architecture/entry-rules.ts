/**
 * Who may import which modules of the library from outside it (issue 30 §2), as functions of a
 * set of files, so that layers.test.ts runs them on the tree and on made-up files that break them.
 *
 * Declared entries: outside codecs/ and boundaries/, a format or a boundary (a folder directly
 * under either, present or future) is reached only through its index.ts, its inspect.ts (what
 * inspection needs that the public entry does not export) or a module package.json exports. The
 * codec layer's shared floor (core/, keyed/, registry.ts, formats.ts, load-codec.ts) has no entry
 * of its own: it is reached through codecs/index.ts, the layer's entry, which exports what a
 * tool needs of it (Codec, FormatName, DecodeLimits, createCodec, factsOf...).
 *
 * Public entry points: examples and benchmarks use the library as its users do, by the package's
 * name (`wirekit-ts`, `wirekit-ts/...` as package.json exports lists them), never by a path into
 * src/ or dist/.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

export interface SourceFile {
  readonly path: string;
  readonly text: string;
}

export interface Package {
  /** The repository's root: src/ and dist/ are folders of it. */
  readonly root: string;
  /** The package's name, as users import it. */
  readonly name: string;
  /** package.json `exports`: subpath ('.', './schema') to target ('./dist/schema/index.js', or conditions). */
  readonly exports: Readonly<Record<string, unknown>>;
}

/** The layers whose folders are units with entries of their own: formats and boundaries. */
const layersOfUnits = ['codecs', 'boundaries'];
/** Folders of codecs/ that are not formats but the floor every format shares. */
const sharedFloors = ['codecs/core', 'codecs/keyed'];
/** The files by which a unit is entered. */
const entryFiles = ['index', 'inspect'];
const sourceExtensions = /\.(?:ts|mts|cts|tsx|js|mjs|cjs)$/;

/** Every module a file names: static and dynamic imports, side-effect imports and re-exports. */
function specifiersOf(text: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\bfrom\s*(['"])([^'"]+)\1/g,
    /^\s*import\s*(['"])([^'"]+)\1/gm,
    /\bimport\s*\(\s*(['"])([^'"]+)\1\s*\)/g,
  ];
  for (const pattern of patterns) for (const match of text.matchAll(pattern)) found.push(match[2] as string);
  return found;
}

/** Each import from outside codecs/ and boundaries/ into them that passes by their entries. */
export function entryViolations(files: readonly SourceFile[], pkg: Package): string[] {
  const src = join(pkg.root, 'src');
  const exported = exportedModules(pkg);
  const found: string[] = [];
  for (const { path, text } of files) {
    for (const specifier of specifiersOf(text)) {
      if (!specifier.startsWith('.')) continue;
      const target = withoutExtension(
        relative(src, resolve(dirname(path), specifier))
          .split(sep)
          .join('/'),
      );
      const problem = entryProblem(target, exported);
      if (problem !== undefined) found.push(`${relative(pkg.root, path)} imports ${specifier}: ${problem}`);
    }
  }
  return found;
}

/** Why `target` (a module under src/, without extension) may not be imported from outside its layer. */
function entryProblem(target: string, exported: ReadonlySet<string>): string | undefined {
  const parts = target.split('/');
  if (!layersOfUnits.includes(parts[0] as string) || exported.has(target)) return undefined;
  if (target === 'codecs/index') return undefined;
  const onFloor = sharedFloors.some((folder) => target.startsWith(`${folder}/`));
  if (onFloor || (parts[0] === 'codecs' && parts.length === 2))
    return `${target}.ts is the codec layer's shared floor; import codecs/index.ts`;
  if (parts.length === 2) return `${target}.ts is in no boundary; import a boundary's index.ts or inspect.ts`;
  const unit = `${parts[0]}/${parts[1]}`;
  if (parts.length === 3 && entryFiles.includes(parts[2] as string)) return undefined;
  return `${target}.ts is inside ${unit}/; import ${unit}/index.ts, ${unit}/inspect.ts or a module package.json exports`;
}

/** Each import of the library from examples or benchmarks that is not by a public entry point. */
export function publicEntryViolations(files: readonly SourceFile[], pkg: Package): string[] {
  const entryPoints = new Set(
    Object.keys(pkg.exports).map((subpath) =>
      subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`,
    ),
  );
  const found: string[] = [];
  for (const { path, text } of files) {
    for (const specifier of specifiersOf(text)) {
      if (specifier.startsWith('.')) {
        const top = relative(pkg.root, resolve(dirname(path), specifier)).split(sep)[0];
        if (top === 'src' || top === 'dist')
          found.push(
            `${relative(pkg.root, path)} imports ${specifier}, a path into ${top}/: import the library as ${pkg.name}/...`,
          );
      } else if (
        (specifier === pkg.name || specifier.startsWith(`${pkg.name}/`)) &&
        !entryPoints.has(specifier)
      ) {
        found.push(
          `${relative(pkg.root, path)} imports ${specifier}, which package.json exports does not list`,
        );
      }
    }
  }
  return found;
}

/** The modules under src/ (without extension) that package.json exports, from their dist/ targets. */
function exportedModules(pkg: Package): Set<string> {
  const modules = new Set<string>();
  const visit = (target: unknown): void => {
    if (typeof target === 'string') {
      const match = /^\.\/dist\/(.+)\.(?:d\.ts|js)$/.exec(target);
      if (match !== null) modules.add(match[1] as string);
    } else if (typeof target === 'object' && target !== null) {
      for (const value of Object.values(target)) visit(value);
    }
  };
  visit(pkg.exports);
  return modules;
}

function withoutExtension(path: string): string {
  return path.replace(/\.(?:d\.ts|ts|js)$/, '');
}

/** The source files under `folder` of the repository (none when it does not exist), built output left out. */
export function sourceFilesUnder(root: string, folder: string): SourceFile[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory())
        return entry.name === 'node_modules' || entry.name === 'dist' ? [] : walk(path);
      return sourceExtensions.test(entry.name) ? [path] : [];
    });
  const start = join(root, folder);
  return existsSync(start) ? walk(start).map((path) => ({ path, text: readFileSync(path, 'utf8') })) : [];
}

/** The package as its package.json describes it. */
export function packageAt(root: string): Package {
  const json = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, unknown>;
  };
  return { root, name: json.name, exports: json.exports };
}
