/**
 * `wirekit registry serve` over HTTPS: with --tls-cert and --tls-key (certificates openssl makes,
 * test/support/tls.ts) it prints an https:// URL, serves the API to a client that trusts the CA, and
 * stops on SIGTERM with 0. Its other command lines are in registry-serve.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterEach, describe, expect, test } from 'vitest';
import { hasOpenssl, makeCertificates } from '../support/tls.js';
import { serve, stopServers } from './registry-process.js';

afterEach(stopServers);

describe('wirekit registry serve', () => {
  test.skipIf(!hasOpenssl())('--tls-cert and --tls-key serve HTTPS', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wirekit-registry-cli-'));
    try {
      const certs = makeCertificates(dir);
      const server = await serve([
        '--port',
        '0',
        '--tls-cert',
        certs.files.cert,
        '--tls-key',
        certs.files.key,
      ]);
      expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const dispatcher = new Agent({ connect: { ca: certs.ca } });
      const reply = await undiciFetch(`${server.url}/schemas/types`, { dispatcher });
      expect(await reply.json()).toEqual(['AVRO', 'PROTOBUF', 'WIREKIT']);
      server.child.kill('SIGTERM');
      expect((await server.exited).code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
