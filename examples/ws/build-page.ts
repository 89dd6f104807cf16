/**
 * Builds the example's page (page/) with Vite's JavaScript API into a temporary folder, at every
 * start of the example: the page bundles wirekit's socket client and the five formats from the
 * package's build (dist/), which `npm run example:ws` makes first, so a fresh build is never stale.
 * Vite is a development dependency, as the example is the repository's, not the package's.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json',
};

export interface BuiltPage {
  /** The built file at `path` (`index.html`, `assets/…`) and its content type, or undefined. */
  file(path: string): { readonly type: string; readonly body: Buffer } | undefined;
  remove(): void;
}

export async function buildTickPage(): Promise<BuiltPage> {
  const { build } = await import('vite');
  const outDir = mkdtempSync(join(tmpdir(), 'wirekit-ws-page-'));
  await build({
    configFile: false,
    root: fileURLToPath(new URL('./page', import.meta.url)),
    base: '/',
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, target: 'es2022', sourcemap: true, reportCompressedSize: false },
  });
  return {
    file(path) {
      const relative = normalize(path);
      const type = contentTypes[extname(relative)];
      if (relative.startsWith('..') || type === undefined) return undefined;
      try {
        return { type, body: readFileSync(join(outDir, relative)) };
      } catch {
        return undefined;
      }
    },
    remove: () => rmSync(outDir, { recursive: true, force: true }),
  };
}
