/**
 * Where the registry server's users come from: the users file (a role, then user:password per
 * line) and the environment (one variable per role). Mistakes are refused naming the line or the
 * variable, and never echo a password; the user list itself is checked when a server is made.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { basicAuthenticator } from '../../../../src/boundaries/events/registry/basic-auth.js';
import {
  parseRegistryUsers,
  readRegistryUsers,
  registryUsersFromEnv,
} from '../../../../src/boundaries/events/registry/registry-users.js';
import { isWirekitError } from '../../../../src/errors/index.js';

function refusal(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('it was not refused');
}

describe('the users file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wirekit-users-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('one user per line: role, then user:password (the rest of the line, spaces and colons kept)', async () => {
    const path = join(dir, 'users');
    writeFileSync(
      path,
      '# role user:password\n\nadmin ops:correct horse battery staple\r\n\twrite  orders-service:pä:ss\nread dash:x \n',
    );
    chmodSync(path, 0o600);
    expect(await readRegistryUsers(path)).toEqual([
      { role: 'admin', username: 'ops', password: 'correct horse battery staple' },
      { role: 'write', username: 'orders-service', password: 'pä:ss' },
      { role: 'read', username: 'dash', password: 'x ' },
    ]);
  });

  test.each([
    ['an unknown role', 'owner ops:secret-one'],
    ['no credentials', 'admin'],
    ['no colon', 'admin ops-secret-one'],
    ['an empty user', 'admin :secret-one'],
    ['an empty password', 'admin ops:'],
  ])('%s is refused naming the line, without its text', (_, line) => {
    const error = refusal(() => parseRegistryUsers(`read a:b\n${line}\n`, 'users.txt'));
    expect(isWirekitError(error, 'WK_OPTIONS_INVALID')).toBe(true);
    expect(error.message).toMatch(/users\.txt:2/);
    expect(error.message).not.toMatch(/secret-one|ops/);
  });

  test('a file that cannot be read, or is no regular file, is WK_OPTIONS_INVALID', async () => {
    for (const path of [join(dir, 'missing'), '/dev/zero', dir]) {
      await expect(readRegistryUsers(path)).rejects.toMatchObject({ code: 'WK_OPTIONS_INVALID' });
    }
  });
});

describe('the environment', () => {
  test('one user per role variable; unset or empty ones give none', () => {
    expect(
      registryUsersFromEnv({
        WIREKIT_REGISTRY_ADMIN: 'ops:a:b',
        WIREKIT_REGISTRY_READER: 'dash:r',
        WIREKIT_REGISTRY_WRITER: '',
      }),
    ).toEqual([
      { username: 'ops', password: 'a:b', role: 'admin' },
      { username: 'dash', password: 'r', role: 'read' },
    ]);
    expect(registryUsersFromEnv({})).toEqual([]);
  });

  test('a variable without user:password is refused by name, without its value', () => {
    const error = refusal(() => registryUsersFromEnv({ WIREKIT_REGISTRY_WRITER: 'no-colon-secret' }));
    expect(error.message).toMatch(/WIREKIT_REGISTRY_WRITER/);
    expect(error.message).not.toMatch(/no-colon-secret/);
  });
});

describe('a user list that cannot work is refused', () => {
  test.each([
    ['none', []],
    [
      'a name twice',
      [
        { username: 'a', password: 'x', role: 'read' },
        { username: 'a', password: 'y', role: 'admin' },
      ],
    ],
    ['a colon in a name', [{ username: 'a:b', password: 'x', role: 'read' }]],
    ['an empty password', [{ username: 'a', password: '', role: 'read' }]],
    ['an unknown role', [{ username: 'a', password: 'x', role: 'root' }]],
  ])('%s', (_, users) => {
    const error = refusal(() => basicAuthenticator(users as never));
    expect(isWirekitError(error, 'WK_OPTIONS_INVALID')).toBe(true);
  });
});
