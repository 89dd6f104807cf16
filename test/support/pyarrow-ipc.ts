/**
 * pyarrow (the venv's, test/support/tools.ts) as the independent producer and judge of Arrow IPC
 * variants: the streams and files test/support/peers/pyarrow_variants.py writes, and pyarrow's own
 * reading of any input, written back plainly (pyarrow_rewrite.py) or as JSON (pyarrow_read.py).
 * Callers check `has('venv:pyarrow')` first, which under CI fails rather than skips.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { t } from '../../src/schema/index.js';
import { venvPython, withTempDir } from './tools.js';

const peers = new URL('./peers/', import.meta.url).pathname;

function runPyarrow(script: string, args: readonly string[]): string {
  const result = spawnSync(venvPython, [join(peers, script), ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`${script} failed:\n${result.stderr}`);
  return result.stdout;
}

/** One file pyarrow_variants.py wrote, by name (`kinds.lz4.arrows`, `orders.legacy.arrow`, ...). */
export type PyarrowVariant = (name: string) => Uint8Array;

/** Runs pyarrow_variants.py once; the variant it did not write throws, naming it. */
export function pyarrowVariants(): PyarrowVariant {
  const files = withTempDir((dir) => {
    runPyarrow('pyarrow_variants.py', [dir]);
    return new Map(readdirSync(dir).map((name) => [name, new Uint8Array(readFileSync(join(dir, name)))]));
  });
  return (name) => {
    const bytes = files.get(name);
    if (bytes === undefined) throw new Error(`pyarrow wrote no ${name}`);
    return bytes;
  };
}

/** Before pyarrowVariants has run (a test file's beforeAll), or where pyarrow is missing. */
export const noPyarrowVariants: PyarrowVariant = (name) => {
  throw new Error(`pyarrow wrote no ${name}: pyarrow_variants.py has not run`);
};

/** The wirekit schema of pyarrow_variants.py's `orders` table, field by field. */
export const VariantOrders = t.object('Orders', {
  id: t.int64(),
  name: t.string(),
  color: t.enum('Color', ['red', 'green', 'blue']),
  price: t.decimal({ precision: 12, scale: 2 }),
  at: t.timestamp({ precision: 'ms' }),
  tags: t.array(t.string()),
});

/** pyarrow's reading of `bytes` (fully validated), written back as a plain little-endian stream. */
export function pyarrowRewrite(bytes: Uint8Array): Uint8Array {
  return withTempDir((dir) => {
    writeFileSync(join(dir, 'in'), bytes);
    runPyarrow('pyarrow_rewrite.py', [join(dir, 'in'), join(dir, 'out')]);
    return new Uint8Array(readFileSync(join(dir, 'out')));
  });
}

/** What pyarrow_read.py prints: the format, the schema's types by field, batch sizes and rows. */
export interface PyarrowView {
  readonly format: 'stream' | 'file';
  readonly schema: Record<string, string>;
  readonly metadata: Record<string, string>;
  readonly batches: number[];
  readonly rows: unknown[];
}

export function pyarrowRead(bytes: Uint8Array): PyarrowView {
  return withTempDir((dir) => {
    writeFileSync(join(dir, 'in'), bytes);
    return JSON.parse(runPyarrow('pyarrow_read.py', [join(dir, 'in')])) as PyarrowView;
  });
}
