/**
 * `wirekit encode --format json` writes nothing that `wirekit decode` would refuse: a `__proto__`,
 * `constructor` or `prototype` key in the input is refused with its typed error and exit 1, with a
 * schema (inside a json value, in a map) and without one.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { schemaToJson, t } from '../../src/index.js';
import { cli } from '../support/cli.js';

let dir: string;
let doc: string;
let map: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wirekit-unsafe-keys-'));
  doc = join(dir, 'doc.json');
  map = join(dir, 'map.json');
  await writeFile(doc, JSON.stringify(schemaToJson(t.object('Doc', { data: t.json() }))));
  await writeFile(map, JSON.stringify(schemaToJson(t.map(t.string(), t.int32()))));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('encode --format json refuses the keys every decoder refuses', () => {
  test.each(['__proto__', 'constructor', 'prototype'])(
    '%s without a schema: exit 1, the typed error',
    async (key) => {
      const result = await cli(['encode', '--format', 'json'], `{"data":{"${key}":{"polluted":1}}}`);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^wirekit: WK_ENCODE_UNSUPPORTED: /);
      expect(result.stdout.length).toBe(0);
    },
  );

  test('inside a json value of a schema', async () => {
    const result = await cli(
      ['encode', '--format', 'json', '--schema', doc],
      '{"data":{"a":{"__proto__":1}}}',
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^wirekit: WK_DECODE_UNSAFE_KEY: /);
  });

  test('in a map of a schema', async () => {
    const result = await cli(['encode', '--format', 'json', '--schema', map], '{"constructor":1}');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^wirekit: WK_DECODE_UNSAFE_KEY: /);
  });

  test('harmless keys are written', async () => {
    const result = await cli(['encode', '--format', 'json'], '{"data":{"proto":1}}');
    expect(result.code).toBe(0);
    expect(result.text).toBe('{"data":{"proto":1}}');
  });
});
