/**
 * The entries whose work needs an optional peer (DuckDB, pg, prom-client, @fastify/websocket,
 * ioredis) load in a project that installed none of them, as a user's Node runs them
 * (test/support/packed-package.ts); the first call that needs a peer fails with WK_PEER_MISSING naming
 * what to install, the import's own error as the cause; a Redis store fails when it is created.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { installBuiltWithoutPeers, type PackedProject } from '../support/packed-package.js';

let project: PackedProject;

beforeAll(() => {
  project = installBuiltWithoutPeers();
}, 60_000);

afterAll(() => project?.remove());

const needs = (user: string, pkg: string) => ({
  loaded: true,
  code: 'WK_PEER_MISSING',
  error: `${user} needs the ${pkg} package (npm install ${pkg})`,
  cause: expect.stringMatching(/MODULE_NOT_FOUND$/),
});

test('each entry loads without its peer, and the first call that needs it names the package', async () => {
  expect(await project.runScript('without-peers.mjs', null)).toEqual({
    duckdbSource: needs('duckdbSource', '@duckdb/node-api'),
    duckdbParams: needs('duckdbParams', '@duckdb/node-api'),
    postgresSource: needs('postgresSource', 'pg'),
    prometheusCacheEvents: needs('prometheusCacheEvents', 'prom-client'),
    redisStore: needs('redisStore', 'ioredis'),
    tieredStore: needs('tieredStore', 'ioredis'),
    wirekitSockets: needs('wirekitSockets', '@fastify/websocket'),
  });
}, 60_000);
