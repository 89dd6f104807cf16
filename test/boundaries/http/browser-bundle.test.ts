/**
 * The fetch client in a browser bundle, built by Vite as an application would build it: a page that
 * speaks only JSON and a page that reads Arrow batches. Nothing Node-only may reach either: Vite
 * must warn of nothing, and no Node module may be stubbed "for browser compatibility" (Vite 8's
 * build puts the stub in the output, a module that throws when used, rather than warning) or named
 * at all in the output. And the JSON page must load no other format's code until a call needs it:
 * apache-arrow, msgpackr, cbor-x and flatbuffers sit in chunks that only a dynamic import loads.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type BuiltChunk,
  type BuiltPages,
  buildPages,
  codecChunk,
  loadedWith,
  pageChunk,
} from '../../support/browser-pages.js';

const src = (path: string) => fileURLToPath(new URL(`../../../src/${path}`, import.meta.url));
/** A string literal of apache-arrow's own writer, which wirekit's Arrow codec runs. */
const arrowMarker = 'RecordBatchWriter is closed';
const libraries = ['apache-arrow', 'msgpackr', 'cbor-x', 'flatbuffers', 'snappy', '@toondepauw'];

let dir: string;
let pages: BuiltPages;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wirekit-bundle-'));
  pages = await buildPages(
    dir,
    { client: src('boundaries/http/client-entry.ts'), schema: src('schema/index.ts') },
    false,
  );
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const librariesIn = (chunks: readonly BuiltChunk[]) =>
  libraries.filter((name) =>
    chunks.some((c) => c.moduleIds.some((id) => id.includes(`node_modules/${name}/`))),
  );

describe('the client bundled by Vite', () => {
  test('without a warning', () => {
    expect(pages.warnings).toEqual([]);
  });

  test('no Node module externalized for the browser, nor named anywhere in the output', () => {
    for (const chunk of pages.chunks) {
      expect(chunk.code, chunk.fileName).not.toContain('externalized for browser compatibility');
      expect(chunk.code, chunk.fileName).not.toContain('__vite-browser-external');
      expect(chunk.code, chunk.fileName).not.toMatch(/["'`]node:[a-z_/]+["'`]/);
    }
  });

  test("the JSON page loads no other format's code or library until a call needs it", () => {
    const atLoad = loadedWith(pages, pageChunk(pages, 'json'));
    expect(librariesIn(atLoad)).toEqual([]);
    for (const chunk of atLoad) expect(chunk.code, chunk.fileName).not.toContain(arrowMarker);
    const modules = atLoad.flatMap((chunk) => chunk.moduleIds);
    for (const format of ['arrow', 'msgpack', 'cbor', 'protobuf', 'avro', 'flatbuffers', 'json']) {
      expect(
        modules.some((id) => id.includes(`/codecs/${format}/`)),
        format,
      ).toBe(false);
    }
    // Its first call loads the JSON codec, which needs no library either.
    expect(librariesIn(loadedWith(pages, codecChunk(pages, 'json')))).toEqual([]);
  });

  test('the Arrow page loads apache-arrow only with the Arrow codec, and that codec has it', () => {
    const atLoad = loadedWith(pages, pageChunk(pages, 'arrow'));
    expect(librariesIn(atLoad)).toEqual([]);
    const arrow = loadedWith(pages, codecChunk(pages, 'arrow'));
    // apache-arrow reads its messages' metadata with the flatbuffers library.
    expect(librariesIn(arrow)).toEqual(['apache-arrow', 'flatbuffers']);
    expect(arrow.some((chunk) => chunk.code.includes(arrowMarker))).toBe(true);
    // Every format's codec is one dynamic import away from the client.
    const dynamic = new Set(pages.chunks.flatMap((chunk) => chunk.dynamicImports));
    for (const format of ['json', 'msgpack', 'cbor', 'protobuf', 'avro', 'flatbuffers', 'arrow']) {
      expect(dynamic.has(codecChunk(pages, format).fileName), format).toBe(true);
    }
  });
});
