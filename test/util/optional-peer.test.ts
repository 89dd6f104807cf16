import { createRequire } from 'node:module';
import { describe, expect, test } from 'vitest';
import { importPeer, requirePeer } from '../../src/util/optional-peer.js';

const require = createRequire(import.meta.url);
const missing = 'wirekit-no-such-package';

describe('importPeer', () => {
  test('resolves the module the import loads', async () => {
    const module = await importPeer(() => import('node:path'), 'a test', 'node:path');
    expect(module.join('a', 'b')).toBe('a/b');
  });

  test('a missing package says who needs it and what to install, with the import error as cause', async () => {
    const error = await importPeer(() => import(missing), 'the test binding', missing).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(
      `the test binding needs the ${missing} package (npm install ${missing})`,
    );
    expect((error as Error).cause).toBeInstanceOf(Error);
  });
});

describe('requirePeer', () => {
  test('returns the module the require loads', () => {
    const module = requirePeer(
      () => require('node:path') as typeof import('node:path'),
      'a test',
      'node:path',
    );
    expect(module.join('a', 'b')).toBe('a/b');
  });

  test('a missing package throws the same message, with the require error as cause', () => {
    const load = () => requirePeer(() => require(missing), 'theTestFunction', missing);
    expect(load).toThrow(`theTestFunction needs the ${missing} package (npm install ${missing})`);
    expect(() => load()).toThrow(
      expect.objectContaining({ cause: expect.objectContaining({ code: 'MODULE_NOT_FOUND' }) }),
    );
  });
});
