/**
 * `wirekit decode --format arrow` and `wirekit inspect` on an Arrow stream another implementation
 * (flechette) wrote, without --schema: the rows come out as JSON, read by the stream's own schema.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import {
  dictionary,
  int64,
  list,
  TimeUnit,
  tableFromArrays,
  tableToIPC,
  timestamp,
  utf8,
} from '@uwdata/flechette';
import { describe, expect, test } from 'vitest';
import { cli } from '../support/cli.js';

const peerStream = () =>
  tableToIPC(
    tableFromArrays(
      {
        id: [1n, 2n ** 60n],
        name: ['a', null],
        color: ['red', 'red'],
        at: [new Date('2024-02-29T12:34:56.789Z'), new Date(0)],
        tags: [['x'], []],
      },
      {
        types: {
          id: int64(),
          name: utf8(),
          color: dictionary(utf8()),
          at: timestamp(TimeUnit.MICROSECOND),
          tags: list(utf8()),
        },
      },
    ),
    { format: 'stream' },
  ) as Uint8Array;

const rowsAsJson = [
  { id: 1, name: 'a', color: 'red', at: '2024-02-29T12:34:56.789Z', tags: ['x'] },
  // A bigint (beyond 2^53) prints as its digits.
  { id: String(2n ** 60n), name: null, color: 'red', at: '1970-01-01T00:00:00.000Z', tags: [] },
];

describe('the CLI on a peer’s Arrow stream, without --schema', () => {
  test('decode --format arrow prints the rows as JSON', async () => {
    const dir = await mkdtemp(`${tmpdir()}/wirekit-cli-`);
    try {
      await writeFile(`${dir}/peer.arrows`, peerStream());
      const { code, text, stderr } = await cli(['decode', '--format', 'arrow', '--in', `${dir}/peer.arrows`]);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(JSON.parse(text)).toEqual(rowsAsJson);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('inspect shows the declared schema and the rows', async () => {
    const dir = await mkdtemp(`${tmpdir()}/wirekit-cli-`);
    try {
      await writeFile(`${dir}/peer.arrows`, peerStream());
      const { code, text } = await cli(['inspect', `${dir}/peer.arrows`, '--json']);
      expect(code).toBe(0);
      const report = JSON.parse(text);
      expect(report).toMatchObject({ format: 'arrow', decoded: true, value: rowsAsJson });
      expect(report.arrow.schema.fields.map((field: { name: string }) => field.name)).toEqual([
        'id',
        'name',
        'color',
        'at',
        'tags',
      ]);
      const plain = await cli(['inspect', `${dir}/peer.arrows`]);
      expect(plain.text).toMatch(/^arrow schema:/m);
      expect(plain.text).toMatch(/^value:/m);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('encode --format arrow without --schema is refused with WK_SCHEMA_REQUIRED', async () => {
    const dir = await mkdtemp(`${tmpdir()}/wirekit-cli-`);
    try {
      await writeFile(`${dir}/rows.json`, '[{"id": 1}]');
      const { code, stderr } = await cli(['encode', '--format', 'arrow', '--in', `${dir}/rows.json`]);
      expect(code).not.toBe(0);
      expect(stderr).toContain('WK_SCHEMA_REQUIRED');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
