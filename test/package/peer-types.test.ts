/**
 * The package's declarations as a strict project type-checks them (`strict`, `moduleResolution:
 * nodenext`, `skipLibCheck: false`), from the packed tarball (test/support/packed-package.ts): a
 * project with none of the optional peers imports every entry point, and one project per optional
 * peer (from package.json's peerDependenciesMeta, so a new peer is covered by itself) has that
 * peer alone (and its @types package, for a peer without types of its own: pg). An entry whose declarations import a peer's types fails the first project with
 * TS2307 (`Cannot find module 'ioredis'`), which is how `wirekit-ts/cache` and `wirekit-ts/events`
 * failed before their types were declared by shape.
 *
 * A few entries exist for one peer, and whoever imports them has it: they are checked in that
 * peer's project only. Projects with a client peer also use it the way the docs show (a client of
 * one's own passed in), so the shapes wirekit declares must fit the real client's types.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  entryPoints,
  installTarball,
  optionalPeers,
  type PackedProject,
  type PackedTarball,
  packBuilt,
  runtimeDependencies,
} from '../support/packed-package.js';

const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));

/** Entries that exist for one optional peer: their users have it, so their types may name it. */
const entryForPeer: Readonly<Record<string, string>> = {
  './http': 'fastify',
  './ws': 'fastify',
  './tables/duckdb': '@duckdb/node-api',
  './tables/postgres': 'pg',
  './cache/prometheus': 'prom-client',
  './rpc/server': '@connectrpc/connect',
  './rpc/gateway': 'fastify',
};

/**
 * What a user of a peer installs beside it: a peer that ships no types, its @types package; the RPC
 * server's peer, the rest of Connect-ES it is served with (its Node and Fastify adapters, protobuf-es
 * for the descriptors, Fastify for `rpcPlugin`, whose declarations the server entry re-exports).
 */
const typesOfPeer: Readonly<Record<string, readonly string[]>> = {
  pg: ['@types/pg'],
  '@connectrpc/connect': [
    '@bufbuild/protobuf',
    '@connectrpc/connect-node',
    '@connectrpc/connect-fastify',
    'fastify',
  ],
};

/** How a user with the peer passes its client in, as the docs show. */
const usage: Readonly<Record<string, string>> = {
  ioredis: `
    import { Redis } from 'ioredis';
    import { redisStore, tieredStore, memoryStore } from 'wirekit-ts/cache';
    const client = new Redis({ lazyConnect: true });
    const store = redisStore({ client, redisOptions: { connectTimeout: 1_000 } });
    tieredStore({ near: memoryStore(), far: store, invalidation: { client } });
  `,
  kafkajs: `
    import { Kafka, logLevel } from 'kafkajs';
    import { kafkaProducer, type KafkaConnectionOptions } from 'wirekit-ts/events';
    const options: KafkaConnectionOptions = { kafka: new Kafka({ brokers: ['127.0.0.1:9092'] }), logLevel: logLevel.WARN };
    export const make = kafkaProducer;
    export { options };
  `,
  '@confluentinc/kafka-javascript': `
    import { KafkaJS } from '@confluentinc/kafka-javascript';
    import { kafkaConsumer, type KafkaConnectionOptions } from 'wirekit-ts/events';
    const options: KafkaConnectionOptions = {
      client: 'confluent',
      kafka: new KafkaJS.Kafka({ kafkaJS: { brokers: ['127.0.0.1:9092'] } }),
    };
    export const make = kafkaConsumer;
    export { options };
  `,
  '@nats-io/transport-node': `
    import { connect } from '@nats-io/transport-node';
    import type { NatsConnectionSource } from 'wirekit-ts/events';
    export async function source(): Promise<NatsConnectionSource> {
      return { connection: await connect({ servers: 'nats://127.0.0.1:4222' }) };
    }
  `,
};

const compilerOptions = {
  target: 'ES2022',
  module: 'nodenext',
  moduleResolution: 'nodenext',
  strict: true,
  skipLibCheck: false,
  noEmit: true,
  types: ['node'],
};

/** The check file: every entry in `entries`, imported whole, so all their declarations are checked. */
function importsOf(entries: readonly string[]): string {
  const lines = entries.map((entry, i) => `import * as entry${i} from 'wirekit-ts${entry.slice(1)}';`);
  return `${lines.join('\n')}\nexport const entries = [${entries.map((_, i) => `entry${i}`).join(', ')}];\n`;
}

interface Checked {
  readonly code: number | null;
  readonly output: string;
}

/** A project with the tarball, the runtime dependencies, @types/node and `peers`; tsc's verdict on it. */
async function typecheck(
  tarball: string,
  peers: readonly string[],
  files: Record<string, string>,
): Promise<Checked> {
  const project: PackedProject = installTarball(tarball, [...runtimeDependencies(), '@types/node', ...peers]);
  try {
    writeFileSync(
      join(project.dir, 'package.json'),
      JSON.stringify({ name: 'strict-user', private: true, type: 'module' }),
    );
    writeFileSync(
      join(project.dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions, files: Object.keys(files) }),
    );
    for (const [name, text] of Object.entries(files)) writeFileSync(join(project.dir, name), text);
    return await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [tsc, '-p', project.dir], { stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, output: output.trim() }));
    });
  } finally {
    project.remove();
  }
}

/** The entries a project with no optional peer may import. */
function entriesForNoPeer(): string[] {
  return entryPoints().filter((entry) => entryForPeer[entry] === undefined);
}

describe('the declarations type-check in a strict project, skipLibCheck off', () => {
  let packed: PackedTarball;

  beforeAll(() => {
    packed = packBuilt();
  }, 120_000);

  afterAll(() => packed?.remove());

  test('the entries that exist for a peer are real entries, and their peers are optional peers', () => {
    expect(entryPoints()).toEqual(expect.arrayContaining(Object.keys(entryForPeer)));
    expect(optionalPeers()).toEqual(expect.arrayContaining([...new Set(Object.values(entryForPeer))]));
    expect(optionalPeers()).toEqual(
      expect.arrayContaining(['ioredis', 'kafkajs', '@nats-io/transport-node']),
    );
  });

  test('with none of the optional peers, every entry point but those for a peer', async () => {
    const entries = entriesForNoPeer();
    expect(entries).toEqual(expect.arrayContaining(['.', './cache', './events', './tables', './lab']));
    expect(await typecheck(packed.tarball, [], { 'check.ts': importsOf(entries) })).toEqual({
      code: 0,
      output: '',
    });
  }, 120_000);

  // Each peer's project checks what the peer changes: the entries that exist for it and its client
  // passed in (the entries for no peer were checked above, and do not change with a peer beside
  // them); a peer with neither checks the root entry, so that its project still compiles the package.
  test.each(optionalPeers())(
    'with %s alone, the entries for it, and its client passed in',
    async (peer) => {
      const own = entryPoints().filter((entry) => entryForPeer[entry] === peer);
      const use = usage[peer];
      const files: Record<string, string> = {
        'check.ts': importsOf(own.length === 0 && use === undefined ? ['.'] : own),
      };
      if (use !== undefined) files['use.ts'] = use;
      const peers = [peer, ...(typesOfPeer[peer] ?? [])];
      expect(await typecheck(packed.tarball, peers, files)).toEqual({ code: 0, output: '' });
    },
    120_000,
  );
});
