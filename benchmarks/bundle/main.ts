/**
 * The bundle benchmark: what the fetch client costs a browser page, built minified by Vite from the
 * built package (dist). Two pages (pages.ts): one that speaks only JSON, one that reads Arrow. For
 * each, the JavaScript it loads with the page, and what its first call adds (the format's codec,
 * loaded by a dynamic import), in bytes minified and minified then gzipped (level 9); then what
 * each format's codec would add to a page. Then the same question for a Node service: the modules
 * each entry point loads and its cold import time (node-imports.ts), the everything-registry
 * (`wirekit-ts/codecs`) beside each format's own entry point and the client.
 *
 *   npm run build && npm run bench:bundle
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { formatNames } from 'wirekit-ts/codecs';
import {
  type BuiltChunk,
  type BuiltPages,
  buildPages,
  codecChunk,
  loadedWith,
  pageChunk,
} from '../../test/support/browser-pages.js';
import { coldImportMs, modulesLoadedByImport, packagesOf } from '../../test/support/node-imports.js';
import { benchArgs } from '../args.js';
import { repoRoot } from '../repo-root.js';

const usage = `Usage: node build/benchmarks/bundle/main.js
The fetch client in two browser pages built by Vite (minified): bytes each loads, and what each
format's codec adds when it is first used.`;

benchArgs(usage, { options: {} });

interface Size {
  readonly files: number;
  readonly min: number;
  readonly gzip: number;
}

function sizeOf(chunks: readonly BuiltChunk[]): Size {
  return {
    files: chunks.length,
    min: chunks.reduce((sum, chunk) => sum + Buffer.byteLength(chunk.code), 0),
    gzip: chunks.reduce((sum, chunk) => sum + gzipSync(chunk.code, { level: 9 }).length, 0),
  };
}

/** The chunks `more` loads that `loaded` has not. */
function beyond(loaded: readonly BuiltChunk[], more: readonly BuiltChunk[]): BuiltChunk[] {
  const names = new Set(loaded.map((chunk) => chunk.fileName));
  return more.filter((chunk) => !names.has(chunk.fileName));
}

const bytes = (n: number) => n.toLocaleString('en-US');
const row = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;

function report(pages: BuiltPages): string {
  const lines = [
    row(['page', 'what it loads', 'files', 'min bytes', 'min+gzip bytes']),
    '|---|---|---:|---:|---:|',
  ];
  for (const [name, format] of [
    ['JSON', 'json'],
    ['Arrow', 'arrow'],
  ] as const) {
    const atLoad = loadedWith(pages, pageChunk(pages, format));
    const codec = beyond(atLoad, loadedWith(pages, codecChunk(pages, format)));
    const first = sizeOf(atLoad);
    const all = sizeOf([...atLoad, ...codec]);
    lines.push(
      row([
        name,
        'with the page (client, schema builders)',
        String(first.files),
        bytes(first.min),
        bytes(first.gzip),
      ]),
    );
    lines.push(
      row([
        name,
        `after its first call (+ the ${format} codec)`,
        String(all.files),
        bytes(all.min),
        bytes(all.gzip),
      ]),
    );
  }
  lines.push(
    '',
    row(['format', "what its codec adds to a page's first call", 'files', 'min bytes', 'min+gzip bytes']),
  );
  lines.push('|---|---|---:|---:|---:|');
  const atLoad = loadedWith(pages, pageChunk(pages, 'json'));
  for (const format of formatNames) {
    const added = sizeOf(beyond(atLoad, loadedWith(pages, codecChunk(pages, format))));
    lines.push(
      row([
        format,
        'the codec and any library beneath it',
        String(added.files),
        bytes(added.min),
        bytes(added.gzip),
      ]),
    );
  }
  return lines.join('\n');
}

/** Each entry point in a Node process: what it loads, and how long a cold import takes. */
function nodeReport(): string {
  const root = repoRoot;
  const entries = ['codecs', ...formatNames, 'http/client'].map((path) => `wirekit-ts/${path}`);
  const lines = [
    row(['entry point', 'modules loaded', 'libraries', 'cold import ms (median of 5)', 'range']),
    '|---|---:|---|---:|---|',
  ];
  for (const entry of entries) {
    const loaded = modulesLoadedByImport(entry, root);
    const time = coldImportMs(entry, root);
    lines.push(
      row([
        `\`${entry}\``,
        String(loaded.length),
        packagesOf(loaded).join(', ') || '—',
        time.median.toFixed(0),
        `${time.min.toFixed(0)}-${time.max.toFixed(0)}`,
      ]),
    );
  }
  return lines.join('\n');
}

process.stdout.write(
  `### Entry points in a Node process\n\nNode ${process.version}; modules counted by a loader hook, each import timed in fresh processes.\n\n${nodeReport()}\n\n`,
);

const dir = mkdtempSync(join(tmpdir(), 'wirekit-bundle-bench-'));
try {
  const modules = {
    client: fileURLToPath(import.meta.resolve('wirekit-ts/http/client')),
    schema: fileURLToPath(import.meta.resolve('wirekit-ts/schema')),
  };
  const pages = await buildPages(dir, modules, true);
  for (const warning of pages.warnings) process.stderr.write(`vite: ${warning}\n`);
  const { version } = (await import('vite')) as { version: string };
  process.stdout.write(
    `### The fetch client in a browser page\n\nVite ${version}, minified; JavaScript only; gzip level 9.\n\n${report(pages)}\n`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
