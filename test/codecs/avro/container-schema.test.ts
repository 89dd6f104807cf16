/**
 * schemaFromAvroContainer: the schema an Avro container file embeds, imported. fastavro writes the
 * files (test/support/peers/fastavro_container.py); wirekit imports their schema and reads their
 * values, logical types included, and writes them back for fastavro to read by the original schema.
 * A damaged header ends in typed errors.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readContainer, schemaFromAvroContainer, writeContainer } from '../../../src/codecs/avro/index.js';
import { isWirekitError } from '../../../src/errors/index.js';
import { t } from '../../../src/schema/index.js';
import { has, venvPython, withTempDir } from '../../support/tools.js';

const peer = new URL('../../support/peers/fastavro_container.py', import.meta.url).pathname;

/** Runs the peer in `mode` on a file in a fresh directory; `bytes`, when given, are written there first. */
function fastavro(mode: string, bytes?: Uint8Array): { file: Uint8Array; stdout: string } {
  return withTempDir((dir) => {
    const path = join(dir, 'readings.avro');
    if (bytes !== undefined) writeFileSync(path, bytes);
    const run = spawnSync(venvPython, [peer, mode, path], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(run.stderr);
    return { file: readFileSync(path), stdout: run.stdout.trim() };
  });
}

const wireFirst = {
  id: '12345678-1234-5678-1234-567812345678',
  price: '-1234.56',
  day: 19782,
  at: new Date('2024-02-29T12:00:00.123Z'),
  // Wall-clock values stay the integers Avro stores: local time, no instant.
  wall: 1709208000654321n,
  wallMillis: -1n,
  clock: 86_399_999,
  clockMicros: 1n,
  kind: 'B',
  note: 'h\u00e9llo',
  tags: { a: [1n, -2n, 2n ** 40n] },
};

describe.skipIf(!has('venv:fastavro'))(
  "fastavro's containers: the embedded schema imports, values cross both ways",
  () => {
    test('fastavro writes, wirekit imports the schema and reads every field as the mapping says', async () => {
      const bytes = fastavro('write-full').file;
      const schema = schemaFromAvroContainer(bytes);
      const { values } = await readContainer(bytes, { schema });
      const first = { ...wireFirst, hash: Uint8Array.of(0, 1, 0xfe, 0xff), prev: null };
      const second = { ...first, note: null, tags: {}, prev: new TextEncoder().encode('abcd') };
      expect(values).toEqual([first, second]);
    });

    test('wirekit writes the values by the imported schema, fastavro reads them back by the original', async () => {
      const bytes = fastavro('write-portable').file;
      const schema = schemaFromAvroContainer(bytes);
      const { values } = await readContainer(bytes, { schema });
      expect(values).toEqual([wireFirst, { ...wireFirst, note: null, tags: {} }]);
      expect(fastavro('check-portable', await writeContainer(values, { schema })).stdout).toBe('same');
    });

    test.todo(
      'timestamp-micros keeps its microseconds (a Date holds milliseconds: docs/survival.md; the value model needs a finer form)',
    );
    test.todo(
      'fixed round-trips to a reader of the original schema (wirekit has no fixed size: bytes do not resolve to fixed)',
    );
  },
);

describe('a container header that is damaged or hostile ends in typed errors', () => {
  const schema = t.object('R', { a: t.int32() });

  test('a file of wirekit imports back to the schema it was written with', async () => {
    const bytes = await writeContainer([{ a: 1 }], { schema });
    const imported = schemaFromAvroContainer(bytes);
    expect((await readContainer(bytes, { schema: imported })).values).toEqual([{ a: 1 }]);
  });

  test.each([
    ['not a container', () => new TextEncoder().encode('{"type": "int"}'), 'WK_DECODE_MALFORMED'],
    [
      'a header cut short',
      async () => (await writeContainer([], { schema })).subarray(0, 20),
      'WK_DECODE_TRUNCATED',
    ],
  ])('%s', async (_name, make, code) => {
    let error: unknown;
    try {
      schemaFromAvroContainer(await make());
    } catch (caught) {
      error = caught;
    }
    expect(isWirekitError(error) && error.code, String(error)).toBe(code);
  });

  test('a schema text beyond maxStringBytes is refused before it is parsed', async () => {
    const bytes = await writeContainer([], { schema });
    let error: unknown;
    try {
      schemaFromAvroContainer(bytes, { limits: { maxStringBytes: 8 } });
    } catch (caught) {
      error = caught;
    }
    expect(isWirekitError(error) && error.code).toBe('WK_LIMIT_LENGTH');
  });
});
