/**
 * Two browser pages that use the fetch client, built with Vite as an application would build them:
 * one that speaks only JSON (`get` and `stream`), one that reads Arrow (`batches` and `stream`).
 * The bundle benchmark measures what each loads; the tests check that nothing Node-only is in them,
 * that the JSON page loads no other format's code, and run the Arrow page in a real browser.
 *
 * Each page puts its calls on `window.wirekitPage`, for a test to call with a path of its server:
 * every call resolves to a plain summary of what arrived, or to the error it met (name, code,
 * message), so that nothing but JSON crosses from the page to the test.
 *
 * Vite is a development dependency: it is imported here only when a build is asked for.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as Vite from 'vite';

export const pageNames = ['json', 'arrow'] as const;
export type PageName = (typeof pageNames)[number];

/** The rows the pages read: what a server for them must send, by the schema `pageRowSource` defines. */
export interface PageRow {
  readonly id: number;
  readonly label: string;
  readonly value: number;
}

/** The pages' row schema, as the pages' source writes it (`t` is the schema builders). */
const pageRowSource = `t.object('Row', { id: t.int32(), label: t.string(), value: t.float64() })`;

/** What every call on a page resolves to. */
export type PageOutcome =
  | { readonly ok: true; readonly [key: string]: unknown }
  | {
      readonly ok: false;
      readonly name: string;
      readonly code: string | undefined;
      readonly message: string;
      /** What the call had counted before it failed: `rows`, or the `batches`' sizes. */
      readonly progress: { readonly rows?: number; readonly batches?: readonly number[] };
    };

export interface BuiltChunk {
  readonly fileName: string;
  readonly code: string;
  readonly isEntry: boolean;
  /** The module that the chunk stands for (a page, or a format's codec), when there is one. */
  readonly facadeModuleId: string | null;
  readonly moduleIds: readonly string[];
  /** Chunks it imports statically (loaded with it) and dynamically (loaded when first used). */
  readonly imports: readonly string[];
  readonly dynamicImports: readonly string[];
}

export interface BuiltPages {
  readonly outDir: string;
  readonly chunks: readonly BuiltChunk[];
  /** Everything Vite warned about while building: a Node module externalized, say. */
  readonly warnings: readonly string[];
}

export interface PageModules {
  /** The client (`wirekit-ts/http/client`): dist's JavaScript, or src's TypeScript. */
  readonly client: string;
  /** The schema builders (`wirekit-ts/schema`). */
  readonly schema: string;
}

/** Summaries of rows and errors, the same on both pages. */
const summaries = `
const summary = (rows) => ({
  ok: true,
  rows: rows.length,
  idSum: rows.reduce((sum, row) => sum + row.id, 0),
  valueSum: rows.reduce((sum, row) => sum + row.value, 0),
  first: rows[0] ?? null,
  last: rows.at(-1) ?? null,
});
// A failed call says how far it got first: progress is what the call had counted by then.
const outcome = async (run) => {
  const progress = {};
  try {
    return await run(progress);
  } catch (error) {
    return { ok: false, name: error?.name ?? typeof error, code: error?.code, message: String(error?.message ?? error), progress };
  }
};
const readRows = async (rows, progress) => {
  const out = [];
  progress.rows = 0;
  for await (const row of rows) progress.rows = out.push(row);
  return summary(out);
};
`;

function pageSource(name: PageName, modules: PageModules): string {
  const head = `import { createClient, lazyFormat } from ${JSON.stringify(modules.client)};
import { t } from ${JSON.stringify(modules.schema)};
const Row = ${pageRowSource};
${summaries}`;
  if (name === 'json') {
    return `${head}
const client = createClient({ baseUrl: location.origin, codecs: [lazyFormat('json')] });
window.wirekitPage = {
  get: (path) => outcome(async () => summary(await client.get(path, { reply: t.array(Row) }))),
  stream: (path) => outcome((progress) => readRows(client.stream(path, { row: Row }), progress)),
};
`;
  }
  return `${head}
// Arrow's errors travel as JSON: the page has both, each loaded when a call first needs it.
const client = createClient({ baseUrl: location.origin, format: 'arrow', codecs: [lazyFormat('arrow'), lazyFormat('json')] });
window.wirekitPage = {
  batches: (path) => outcome(async (progress) => {
    const sizes = [];
    let idSum = 0;
    let valueSum = 0;
    let lastLabel = null;
    progress.batches = sizes;
    for await (const batch of client.batches(path, { row: Row })) {
      sizes.push(batch.numRows);
      for (const id of batch.getChild('id').toArray()) idSum += id;
      for (const value of batch.getChild('value').toArray()) valueSum += value;
      lastLabel = batch.getChild('label').get(batch.numRows - 1);
    }
    return { ok: true, batches: sizes, rows: sizes.reduce((a, b) => a + b, 0), idSum, valueSum, lastLabel };
  }),
  stream: (path) => outcome((progress) => readRows(client.stream(path, { row: Row }), progress)),
};
`;
}

function htmlOf(name: PageName): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>wirekit ${name} page</title></head>
<body><script type="module" src="./${name}-page.js"></script></body></html>
`;
}

/**
 * Writes both pages' sources into `dir` and builds them with Vite into `dir/dist` (`json.html`,
 * `arrow.html` and their chunks under `assets/`), minified or not.
 */
export async function buildPages(dir: string, modules: PageModules, minify: boolean): Promise<BuiltPages> {
  const vite: typeof Vite = await import('vite');
  mkdirSync(dir, { recursive: true });
  const input: Record<string, string> = {};
  for (const name of pageNames) {
    writeFileSync(join(dir, `${name}-page.js`), pageSource(name, modules));
    writeFileSync(join(dir, `${name}.html`), htmlOf(name));
    input[name] = join(dir, `${name}.html`);
  }
  const warnings: string[] = [];
  const logger = vite.createLogger('warn', { allowClearScreen: false });
  const warn = (message: string) => warnings.push(message);
  logger.warn = warn;
  logger.warnOnce = warn;
  const outDir = join(dir, 'dist');
  const result = await vite.build({
    configFile: false,
    root: dir,
    logLevel: 'warn',
    customLogger: logger,
    build: {
      outDir,
      emptyOutDir: true,
      minify,
      reportCompressedSize: false,
      rollupOptions: {
        input,
        onwarn: (warning) => warn(`${warning.code ?? 'warning'}: ${warning.message}`),
      },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Vite.Rollup.RollupOutput[];
  const chunks: BuiltChunk[] = outputs.flatMap((output) =>
    output.output.flatMap((item) =>
      item.type === 'chunk'
        ? [
            {
              fileName: item.fileName,
              code: item.code,
              isEntry: item.isEntry,
              facadeModuleId: item.facadeModuleId,
              moduleIds: item.moduleIds,
              imports: item.imports,
              dynamicImports: item.dynamicImports,
            },
          ]
        : [],
    ),
  );
  return { outDir, chunks, warnings };
}

/** The chunk a page's HTML loads, the one its script became. */
export function pageChunk(pages: BuiltPages, name: PageName): BuiltChunk {
  const chunk = pages.chunks.find((c) => c.isEntry && c.facadeModuleId?.endsWith(`${name}.html`));
  if (chunk === undefined) throw new Error(`no chunk for the ${name} page`);
  return chunk;
}

/** The chunk of a format's codec module, which the client imports dynamically on first use. */
export function codecChunk(pages: BuiltPages, format: string): BuiltChunk {
  const chunk = pages.chunks.find(
    (c) => /codecs[/\\]([a-z]+)[/\\]index\.[jt]s$/.exec(c.facadeModuleId ?? '')?.[1] === format,
  );
  if (chunk === undefined) throw new Error(`no chunk for the ${format} codec`);
  return chunk;
}

/** `chunk` and every chunk it imports statically, transitively: what loads with it. */
export function loadedWith(pages: BuiltPages, chunk: BuiltChunk): BuiltChunk[] {
  const byName = new Map(pages.chunks.map((c) => [c.fileName, c]));
  const seen = new Map<string, BuiltChunk>();
  const visit = (current: BuiltChunk) => {
    if (seen.has(current.fileName)) return;
    seen.set(current.fileName, current);
    for (const name of current.imports) {
      const next = byName.get(name);
      if (next !== undefined) visit(next);
    }
  };
  visit(chunk);
  return [...seen.values()];
}
