/**
 * The dashboard page's build: page/ in, dist/ out (served by the demo server at /). Everything the
 * page runs is bundled, uPlot and apache-arrow included: no CDN, so it works offline. Each format's
 * loader is a dynamic import and so a chunk of its own; the Arrow one carries apache-arrow and
 * wirekit's client.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('./page', import.meta.url)),
  base: '/',
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // Readable stack traces from a user's browser console.
    sourcemap: true,
    // apache-arrow alone is past Vite's 500 kB warning; it is loaded only for the Arrow format.
    chunkSizeWarningLimit: 1024,
  },
});
