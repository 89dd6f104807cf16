/**
 * The table benchmarks: a table read from a database and served by wirekit's Fastify plugin, to
 * the place it is used. Each part takes its own flags (`--help` after its name):
 *
 * - `browser` (the default): the dashboard page in headless Chromium, per range and format.
 * - `concurrency`: concurrent 1-year requests against a server with a capped heap, per case.
 * - `sources`: rows per second of the table sources themselves (DuckDB, PostgreSQL).
 * - `draw`: the dashboard chart's draw time, every point (before) against M4 per pixel column.
 *
 *   npm run bench:tables                   # the browser part, 1 to 12 months
 *   npm run bench:tables -- browser --large --runs 5 --markdown tables.md
 *   npm run bench:tables -- concurrency --requests 8 --max-old-space 512
 *   npm run bench:tables -- draw --runs 5 --months 1,12,24
 *   node build/benchmarks/tables/main.js sources --postgres postgres://postgres@127.0.0.1:5432/postgres
 */
const parts: Record<string, () => Promise<(args: readonly string[]) => Promise<void>>> = {
  browser: async () => (await import('./browser.js')).browserMain,
  concurrency: async () => (await import('./concurrency.js')).concurrencyMain,
  sources: async () => (await import('./sources.js')).sourcesMain,
  draw: async () => (await import('./draw.js')).drawMain,
};

const [first, ...rest] = process.argv.slice(2);
const named = first !== undefined && !first.startsWith('-');
const name = named ? first : 'browser';
const part = parts[name];
if (part === undefined) {
  process.stderr.write(`Unknown part ${name}; the parts are: ${Object.keys(parts).join(', ')}.\n`);
  process.exit(2);
}
await (await part())(named ? rest : process.argv.slice(2));
