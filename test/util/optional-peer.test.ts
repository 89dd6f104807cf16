import { describe, expect, test } from 'vitest';
import { importPeer } from '../../src/util/optional-peer.js';

describe('importPeer', () => {
  test('resolves the module the import loads', async () => {
    const module = await importPeer(() => import('node:path'), 'a test', 'node:path');
    expect(module.join('a', 'b')).toBe('a/b');
  });

  test('a missing package says who needs it and what to install, with the import error as cause', async () => {
    const missing = 'wirekit-no-such-package';
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
