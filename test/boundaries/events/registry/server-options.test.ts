/**
 * The server's rule for where it may listen: loopback always; any other address only with users
 * (auth) or when `allowAnonymousRemote` says an open registry is meant. Refused before the store
 * is touched or a port is bound. Also the options that cannot work.
 */
import { networkInterfaces } from 'node:os';
import { describe, expect, test } from 'vitest';
import { memoryStore } from '../../../../src/boundaries/events/registry/memory-store.js';
import { startRegistryServer } from '../../../../src/boundaries/events/registry/server.js';
import type { RegistryStore } from '../../../../src/boundaries/events/registry/store.js';
import { isLoopback } from '../../../../src/util/loopback.js';
import { call } from './http.js';

const users = [{ username: 'ops', password: 'pw', role: 'admin' as const }];

/** A store that records whether the server touched it. */
function watchedStore(): RegistryStore & { loaded: boolean } {
  const inner = memoryStore();
  const store = {
    loaded: false,
    load: () => {
      store.loaded = true;
      return inner.load();
    },
    append: inner.append,
    close: inner.close,
  };
  return store;
}

describe('listening beyond loopback', () => {
  test.each(['0.0.0.0', '::', '192.0.2.10', 'registry.example'])(
    '%s without auth is refused with WK_OPTIONS_INVALID, before the store is loaded',
    async (host) => {
      const store = watchedStore();
      await expect(startRegistryServer({ host, store })).rejects.toMatchObject({
        code: 'WK_OPTIONS_INVALID',
        message: expect.stringMatching(/not loopback, without authentication/),
      });
      expect(store.loaded).toBe(false);
    },
  );

  test('0.0.0.0 is served with auth, or with allowAnonymousRemote, and answers on loopback', async () => {
    for (const options of [{ auth: { users } }, { allowAnonymousRemote: true }]) {
      const server = await startRegistryServer({ host: '0.0.0.0', ...options });
      try {
        const url = server.url.replace('0.0.0.0', '127.0.0.1');
        const headers = { authorization: `Basic ${Buffer.from('ops:pw').toString('base64')}` };
        expect((await call(url, 'GET', '/subjects', undefined, headers)).status).toBe(200);
      } finally {
        await server.close();
      }
    }
  });

  test('an address of this machine that is not loopback is refused too', async () => {
    const external = Object.values(networkInterfaces())
      .flat()
      .find((address) => address !== undefined && !address.internal && address.family === 'IPv4');
    if (external === undefined) return; // A machine with loopback alone has none to try.
    await expect(startRegistryServer({ host: external.address })).rejects.toMatchObject({
      code: 'WK_OPTIONS_INVALID',
    });
  });

  test('which hosts are loopback', () => {
    for (const host of [
      '127.0.0.1',
      '127.1.2.3',
      '::1',
      '[::1]',
      '0:0:0:0:0:0:0:1',
      'localhost',
      '::ffff:127.0.0.1',
    ])
      expect(isLoopback(host), host).toBe(true);
    for (const host of [
      '0.0.0.0',
      '::',
      '10.0.0.1',
      '128.0.0.1',
      '::2',
      '1::1',
      'example.com',
      '::ffff:10.0.0.1',
    ])
      expect(isLoopback(host), host).toBe(false);
  });
});

describe('options that cannot work', () => {
  test.each([
    ['idleTimeoutMs', { idleTimeoutMs: 0 }],
    ['maxConnections', { maxConnections: 1.5 }],
    ['maxConnectionsPerAddress', { maxConnectionsPerAddress: -1 }],
    ['reservedConnections past maxConnections', { maxConnections: 10, reservedConnections: 10 }],
    ['maxBodyBytes', { maxBodyBytes: Number.NaN }],
  ])('%s', async (_, options) => {
    await expect(startRegistryServer(options)).rejects.toMatchObject({ code: 'WK_OPTIONS_INVALID' });
  });
});
