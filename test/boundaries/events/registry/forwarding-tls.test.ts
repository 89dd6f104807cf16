/**
 * A follower forwarding a write to a leader that serves HTTPS with a certificate of the cluster's
 * own CA (made for the test with openssl): with `leaderCa` the write lands on the leader, without
 * it the handshake fails and the write is refused with 50003, since Node does not trust that CA.
 * The follower's store is a memory store that says another registry leads, so no broker is needed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { clusterRefusals } from '../../../../src/boundaries/events/registry/cluster-errors.js';
import { memoryStore } from '../../../../src/boundaries/events/registry/memory-store.js';
import {
  type RegistryServer,
  startRegistryServer,
} from '../../../../src/boundaries/events/registry/server.js';
import type { RegistryStore } from '../../../../src/boundaries/events/registry/store.js';
import { hasOpenssl, makeCertificates, type TestCertificates } from '../../../support/tls.js';
import { call, subjectPath, userSchema } from './http.js';

/** A store whose cluster is led by the registry at `leaderUrl`. */
function followerOf(leaderUrl: string): RegistryStore {
  return {
    ...memoryStore(),
    shared: {
      clusterId: 'tls-cluster',
      follow() {},
      async join() {},
      leader: () => ({ url: leaderUrl, self: false }),
      async caughtUp() {},
      async leading() {
        throw clusterRefusals.unknownLeader(`${leaderUrl} leads`);
      },
    },
  };
}

describe.runIf(hasOpenssl() || process.env.CI === 'true')('forwarding to an https:// leader', () => {
  let dir: string;
  let certs: TestCertificates;
  let leader: RegistryServer;
  const servers: RegistryServer[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wirekit-leader-tls-'));
    certs = makeCertificates(dir);
    leader = await startRegistryServer({ tls: { key: certs.key, cert: certs.cert } });
  });
  afterAll(async () => {
    await Promise.all([leader, ...servers].map((server) => server?.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  test('with leaderCa, a write sent to the follower lands on the leader', async () => {
    const follower = await startRegistryServer({ store: followerOf(leader.url), leaderCa: certs.ca });
    servers.push(follower);
    const reply = await call(follower.url, 'POST', subjectPath('tls-forward', '/versions'), {
      schema: userSchema(),
    });
    expect(reply.body).toEqual({ id: 1 });
    expect(leader.registry.version('tls-forward', 1)).toMatchObject({ id: 1 });
  });

  test('without it, the leader is not trusted: 50003, and nothing is written', async () => {
    const follower = await startRegistryServer({ store: followerOf(leader.url), forwardTimeoutMs: 1_000 });
    servers.push(follower);
    const reply = await call(follower.url, 'POST', subjectPath('untrusted', '/versions'), {
      schema: userSchema(),
    });
    expect(reply.status).toBe(500);
    expect(reply.body).toMatchObject({ error_code: 50003 });
    expect((reply.body as { message: string }).message).toMatch(/certificate/);
    expect(leader.registry.subjects()).not.toContain('untrusted');
  });
});
