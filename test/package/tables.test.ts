/**
 * The packed package with the table engines' drivers (@duckdb/node-api and pg, both CommonJS), as
 * a user's Node runs it (test/support/packed-package.ts): DuckDB in process, PostgreSQL on a
 * cluster of its own.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { installPacked, type PackedProject } from '../support/packed-package.js';
import { hasPostgres, type PostgresServer, startPostgres } from '../support/postgres.js';

describe.skipIf(!hasPostgres())('the packed package with DuckDB and pg, in plain Node', () => {
  let server: PostgresServer;
  let project: PackedProject;

  beforeAll(async () => {
    project = installPacked();
    server = await startPostgres();
  }, 120_000);

  afterAll(() => {
    server?.stop();
    project?.remove();
  });

  test('duckdbSource and postgresSource stream a query as Arrow batches', async () => {
    const result = await project.runScript('tables.mjs', { connectionString: server.connectionString });
    const rows = (label: string) => ['1.5', '3', '4.5'].map((half, i) => ({ n: String(i + 1), half, label }));
    expect(result).toEqual({ duckdb: rows('d'), postgres: rows('p') });
  }, 60_000);
});
