/** Apache Fury as a benchmark peer: the schema mapping round-trips the datasets it can express. */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { Record8, records } from '../../../src/lab/datasets/records.js';
import { User, users } from '../../../src/lab/datasets/users.js';
import { furyFor } from '../../../src/lab/peers/fury.js';
import { optionalPeers } from '../../../src/lab/peers/optional.js';
import { createSubject } from '../../../src/lab/subjects.js';
import { t } from '../../../src/schema/index.js';

describe('the Fury peer', () => {
  test.each([
    ['records', Record8, records(100, 2)],
    ['users', User, users(100, 2)],
  ] as const)('%s round-trips unchanged (uint32 ids past 2^31 included)', (_, schema, rows) => {
    const subject = createSubject('fury', schema, true);
    expect(subject.implementation).toBe('@furyjs/fury');
    expect(subject.decode(subject.encode(rows))).toEqual(rows);
  });

  test('a kind Fury cannot hold as wirekit does is refused, not approximated', () => {
    const Shape = t.union('Shape', 'kind', [t.object('Dot', { kind: t.literal('dot') })]);
    expect(() => furyFor(t.object('Canvas', { shape: Shape }))).toThrow(
      /no faithful mapping for the union kind/,
    );
  });

  test('the version the lab tells users to install is the one these tests run', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    for (const peer of Object.values(optionalPeers)) {
      expect(manifest.devDependencies[peer.package]).toBe(peer.version);
      // Optional: an installed wirekit-ts does not bring it.
      expect(manifest.dependencies[peer.package]).toBeUndefined();
    }
  });
});
