/**
 * t.either (the untagged union) in Arrow: a dense union with one child per branch, type id = branch
 * position, in the compiled and interpreted codecs, IPC stream and file, streams of batches and
 * record batches; a null is a null entry of branch 0. pyarrow reads wirekit's columns (values and
 * types equal) and wirekit reads pyarrow's, dense or sparse, whatever its type codes.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DenseUnion, type Field, Type } from 'apache-arrow';
import { describe, expect, test } from 'vitest';
import { createArrowCodec } from '../../../src/codecs/arrow/index.js';
import { t } from '../../../src/index.js';
import { toArrowSchema } from '../../../src/schema/export/arrow.js';
import { columnRowFields, columnRows, Id, Place, Wide, wideRows } from '../../fixtures/either-rows.js';
import { thrownError } from '../../support/code-of.js';
import { readAll } from '../../support/streams.js';
import { has, venvPython, withTempDir } from '../../support/tools.js';

const Row = t.object('Row', columnRowFields);
const rows = columnRows;

describe('the Arrow type of an either', () => {
  test('a dense union: type ids 0..n-1 in branch order, a child per branch named by its kind or type', () => {
    const field = toArrowSchema(Row).fields[0] as Field;
    expect(field.type).toBeInstanceOf(DenseUnion);
    expect(field.type.typeId).toBe(Type.Union);
    expect([...(field.type as DenseUnion).typeIds]).toEqual([0, 1, 2]);
    expect(
      field.type.children.map((child: Field) => [child.name, String(child.type), child.nullable]),
    ).toEqual([
      ['string', 'Utf8', false],
      ['uint16', 'Uint16', false],
      ['bool', 'Bool', false],
    ]);
    expect(field.metadata.get('wirekit.kind')).toBe('either');
  });

  test('a nullable either makes its children nullable (a null is a null entry of branch 0)', () => {
    const place = toArrowSchema(Row).fields[1] as Field;
    expect(place.nullable).toBe(true);
    expect(place.type.children.map((child: Field) => [child.name, child.nullable])).toEqual([
      ['Spot', true],
      ['Named', true],
    ]);
  });
});

test('an either of more branches than Arrow type ids is refused when the codec is made', () => {
  const branches = Array.from({ length: 129 }, (_, i) => t.object(`B${i}`, { [`k${i}`]: t.int32() }));
  const Many = t.object('Many', { v: t.either(branches) });
  expect(thrownError(() => createArrowCodec({ schema: Many })).code).toBe('WK_EXPORT_UNSUPPORTED');
  const fits = t.object('Fits', { v: t.either(branches.slice(0, 128)) });
  const codec = createArrowCodec({ schema: fits });
  expect(codec.decode(codec.encode([{ v: { k127: 1 } }, { v: { k0: 2 } }] as never))).toStrictEqual([
    { v: { k127: 1 } },
    { v: { k0: 2 } },
  ]);
});

describe.each([true, false])('either columns round trip (compile: %s)', (compile) => {
  for (const ipcFormat of ['stream', 'file'] as const) {
    test(`${ipcFormat} format, one batch and a batch per row`, () => {
      for (const batchSize of [1024, 1]) {
        const codec = createArrowCodec({ schema: Row, compile, ipcFormat, batchSize });
        expect(codec.decode(codec.encode(rows as never))).toStrictEqual(rows);
      }
    });
  }

  test('streams of rows and of record batches', async () => {
    const codec = createArrowCodec({ schema: Row, compile, batchSize: 2 });
    const bytes = await readAll(codec.encodeStream(rows as never));
    expect(codec.decode(bytes)).toStrictEqual(rows);
    const batches = [];
    for await (const batch of codec.decodeBatches(new Blob([bytes]).stream())) batches.push(batch);
    expect(batches.map((batch) => batch.numRows)).toEqual([2, 2]);
    const again = await readAll(
      codec.encodeBatches(
        (async function* () {
          yield* batches;
        })(),
      ),
    );
    expect(codec.decode(again)).toStrictEqual(rows);
  });

  test('branches of every class', () => {
    const codec = createArrowCodec({ schema: Wide, compile });
    expect(codec.decode(codec.encode(wideRows as never))).toStrictEqual(wideRows);
  });

  test('under a null struct, an either holds a placeholder that is no value of the row', () => {
    const Wrapped = t.object('Wrapped', { w: t.nullable(t.object('Wrap', { id: Id, place: Place })) });
    const codec = createArrowCodec({ schema: Wrapped, compile });
    const values = [{ w: null }, { w: { id: 5, place: { name: 'n' } } }, { w: null }];
    expect(codec.decode(codec.encode(values as never))).toStrictEqual(values);
  });

  test('a value no branch takes is refused at its path', () => {
    const codec = createArrowCodec({ schema: Row, compile });
    const bad = [rows[0], { ...rows[1], ids: [1, 2n] }];
    const error = thrownError(() => codec.encode(bad as never));
    expect(error).toMatchObject({ code: 'WK_VALIDATION_FAILED', path: [1, 'ids', 1] });
    expect(thrownError(() => codec.encode([{ ...rows[0], id: null }] as never))).toMatchObject({
      code: 'WK_VALIDATION_FAILED',
      path: [0, 'id'],
    });
    expect(thrownError(() => codec.encode([{ ...rows[0], place: { lat: 1 } }] as never))).toMatchObject({
      code: 'WK_VALIDATION_FAILED',
      path: [0, 'place'],
    });
  });

  test("a branch's own constraints hold", () => {
    const codec = createArrowCodec({ schema: Row, compile });
    expect(thrownError(() => codec.encode([{ ...rows[0], id: 'abcde' }] as never))).toMatchObject({
      code: 'WK_VALIDATION_FAILED',
      path: [0, 'id'],
    });
  });
});

test("a newer writer's extra field in an object branch: left out, or refused under unknownKeys: 'reject'", () => {
  const Newer = t.object('Row', {
    place: t.either([
      t.object('Spot', { lat: t.float64(), lon: t.float64(), alt: t.float64() }),
      t.object('Named', { name: t.string(), near: t.optional(t.string()) }),
    ]),
  });
  const Older = t.object('Row', { place: Place });
  const bytes = createArrowCodec({ schema: Newer }).encode([
    { place: { lat: 1, lon: 2, alt: 3 } },
    { place: { name: 'n' } },
  ] as never);
  expect(
    thrownError(() => createArrowCodec({ schema: Older, unknownKeys: 'reject' }).decode(bytes)).code,
  ).toBe('WK_DECODE_SCHEMA_MISMATCH');
  for (const compile of [true, false]) {
    expect(createArrowCodec({ schema: Older, compile, unknownKeys: 'ignore' }).decode(bytes)).toStrictEqual([
      { place: { lat: 1, lon: 2 } },
      { place: { name: 'n' } },
    ]);
  }
});

test('read without a schema, an either column gives the branch values', () => {
  const bytes = createArrowCodec({ schema: Row }).encode(rows as never);
  const back = createArrowCodec().decode(bytes) as Record<string, unknown>[];
  expect(back.map((row) => row.id)).toEqual(['ab', 7, true, 'xyz']);
  expect(back.map((row) => row.place)).toEqual([
    { name: 'x', near: null },
    null,
    { lat: 1.5, lon: -2 },
    { name: 'y', near: 'z' },
  ]);
});

const peers = new URL('../../support/peers/', import.meta.url).pathname;
const usable = has('venv:pyarrow');

function runPython(args: string[]): string {
  const result = spawnSync(venvPython, args, { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`pyarrow failed:\n${result.stderr}`);
  return result.stdout;
}

describe.skipIf(!usable)('pyarrow and wirekit read each other’s either columns', () => {
  for (const ipcFormat of ['stream', 'file'] as const) {
    test(`pyarrow reads wirekit's dense unions (${ipcFormat})`, () => {
      const bytes = createArrowCodec({ schema: Row, ipcFormat, batchSize: 3 }).encode(rows as never);
      const seen = withTempDir((dir) => {
        const path = join(dir, 'either.arrow');
        writeFileSync(path, bytes);
        return JSON.parse(runPython([join(peers, 'pyarrow_read.py'), path]));
      });
      expect(seen.format).toBe(ipcFormat);
      expect(seen.schema.id).toBe(
        'dense_union<string: string not null=0, uint16: uint16 not null=1, bool: bool not null=2>',
      );
      expect(seen.schema.place).toBe(
        'dense_union<Spot: struct<lat: double not null, lon: double not null>=0, ' +
          'Named: struct<name: string not null, near: string>=1>',
      );
      expect(seen.rows).toEqual([
        { id: 'ab', place: { name: 'x', near: null }, later: 3, ids: [true, 'q'] },
        { id: 7, place: null, later: null, ids: [] },
        { id: true, place: { lat: 1.5, lon: -2 }, later: 'q', ids: [65535] },
        { id: 'xyz', place: { name: 'y', near: 'z' }, later: false, ids: ['', 0, false] },
      ]);
    });
  }

  test("wirekit reads pyarrow's unions: dense, its own type codes and child types, sparse, nulls in any child", () => {
    const bytes = withTempDir((dir) => {
      const path = join(dir, 'either.arrows');
      runPython([join(peers, 'pyarrow_either.py'), path]);
      return new Uint8Array(readFileSync(path));
    });
    const Peer = t.object('Peer', { dense: Id, coded: Id, sparse: Id, maybe: t.nullable(Id) });
    for (const compile of [true, false]) {
      expect(createArrowCodec({ schema: Peer, compile }).decode(bytes)).toStrictEqual([
        { dense: 'ab', coded: 'ab', sparse: 'ab', maybe: null },
        { dense: 7, coded: 7, sparse: 7, maybe: 'ab' },
        { dense: false, coded: false, sparse: false, maybe: 9 },
        { dense: 'xyz', coded: 'xyz', sparse: 'xyz', maybe: false },
      ]);
    }
    // A null in a column whose either is not nullable is refused, whichever child holds it.
    const Strict = t.object('Peer', { dense: Id, coded: Id, sparse: Id, maybe: Id });
    expect(thrownError(() => createArrowCodec({ schema: Strict }).decode(bytes))).toMatchObject({
      code: 'WK_DECODE_SCHEMA_MISMATCH',
      path: [0, 'maybe'],
    });
  });
});
