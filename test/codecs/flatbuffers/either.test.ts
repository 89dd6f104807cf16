/**
 * t.either (the untagged union) in FlatBuffers: a union generated for each field that holds one,
 * `<Owner>_<Field>_Either`, whose member i + 1 is branch i's table (an object's own, or a wrapper
 * `<Owner>_<Field>_<Kind>` whose one field `value` holds the branch), with flatc's `_type` field
 * before it. A vector of eithers holds a wrapper table per element, as a vector of tagged unions
 * does. flatc compiles the exported .fbs, reads wirekit's bytes and builds bytes wirekit reads.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createFlatBuffersCodec } from '../../../src/codecs/flatbuffers/index.js';
import { t } from '../../../src/index.js';
import { toFlatBuffers } from '../../../src/schema/export/flatbuffers.js';
import { columnRowFields, columnRows, Id, Wide, wideRows } from '../../fixtures/either-rows.js';
import { thrownError } from '../../support/code-of.js';
import { plainView } from '../../support/flatbuffers-view.js';
import { has, withTempDir } from '../../support/tools.js';

const Row = t.object('Row', {
  ...columnRowFields,
  more: t.optional(t.either([t.enum('Color', ['red', 'green']), t.array(t.int32()), t.float64()])),
});
const more: readonly unknown[] = ['green', [1, -2], 0.5, undefined];
const rows = columnRows.map((row, i) => (more[i] === undefined ? row : { ...row, more: more[i] }));

describe('the .fbs of an either', () => {
  const fbs = toFlatBuffers(Row);

  test('a union per field, a wrapper table per branch that is not an object', () => {
    expect(fbs).toContain('union Row_Id_Either { Row_Id_String, Row_Id_Uint16, Row_Id_Bool }');
    expect(fbs).toContain('union Row_Place_Either { Spot, Named }');
    expect(fbs).toContain(
      'union Row_Ids_Item_Either { Row_Ids_Item_String, Row_Ids_Item_Uint16, Row_Ids_Item_Bool }',
    );
    expect(fbs).toContain('union Row_More_Either { Row_More_Color, Row_More_Array, Row_More_Float64 }');
    expect(fbs).toContain('table Row_Id_String {\n  value: string;\n}');
    expect(fbs).toContain('table Row_More_Array {\n  value: [int];\n}');
    expect(fbs).toMatch(
      /table Row \{\n {2}id: Row_Id_Either;\n {2}place: Row_Place_Either;\n {2}later: Row_Later_Either;\n {2}ids: \[Row_Ids_Item\];/,
    );
    expect(fbs).toContain('table Row_Ids_Item {\n  value: Row_Ids_Item_Either;\n}');
  });

  test('names stay unique when a generated name is taken', () => {
    const Taken = t.object('Row', { id: Id, other: t.object('Row_Id_String', { a: t.int32() }) });
    const text = toFlatBuffers(Taken);
    const union = /union Row_Id_Either \{ (\w+), Row_Id_Uint16, Row_Id_Bool \}/.exec(text);
    expect(union?.[1]).not.toBe('Row_Id_String');
    expect(text).toContain(`table ${union?.[1]} {\n  value: string;\n}`);
  });

  test('an either of more branches than a union type byte counts is refused', () => {
    const branches = Array.from({ length: 256 }, (_, i) => t.object(`B${i}`, { [`k${i}`]: t.int32() }));
    const Many = t.object('Many', { v: t.either(branches) });
    expect(thrownError(() => toFlatBuffers(Many)).code).toBe('WK_EXPORT_UNSUPPORTED');
    expect(thrownError(() => createFlatBuffersCodec({ schema: Many })).code).toBe('WK_EXPORT_UNSUPPORTED');
    expect(toFlatBuffers(t.object('Many', { v: t.either(branches.slice(0, 255)) }))).toContain('B254 }');
  });

  test('an either at the root is the field of the root wrapper', () => {
    expect(toFlatBuffers(Id)).toContain(
      'union Root_Value_Either { Root_Value_String, Root_Value_Uint16, Root_Value_Bool }',
    );
  });
});

describe.each([true, false])('either fields round trip (compile: %s)', (compile) => {
  const codec = createFlatBuffersCodec({ schema: Row, compile });

  test('decode and view give the value back', () => {
    for (const row of rows) {
      const bytes = codec.encode(row as never);
      expect(codec.decode(bytes)).toStrictEqual(row);
      expect(plainView(Row, codec.view(bytes))).toStrictEqual(row);
    }
  });

  test('branches of every class', () => {
    const wide = createFlatBuffersCodec({ schema: Wide, compile });
    for (const row of wideRows) {
      expect(wide.decode(wide.encode(row as never))).toStrictEqual(row);
      expect(plainView(Wide, wide.view(wide.encode(row as never)))).toStrictEqual(row);
    }
  });

  test('an either at the root', () => {
    const root = createFlatBuffersCodec({ schema: Id, compile });
    for (const value of ['ab', 7, false]) expect(root.decode(root.encode(value as never))).toBe(value);
  });

  test('a value no branch takes is refused at its path', () => {
    expect(thrownError(() => codec.encode({ ...rows[1], ids: [1, 2n] } as never))).toMatchObject({
      code: 'WK_VALIDATION_FAILED',
      path: ['ids', 1],
    });
    expect(thrownError(() => codec.encode({ ...rows[0], place: { lat: 1 } } as never))).toMatchObject({
      code: 'WK_VALIDATION_FAILED',
      path: ['place'],
    });
    expect(thrownError(() => codec.encode({ ...rows[0], id: 'abcde' } as never))).toMatchObject({
      code: 'WK_VALIDATION_FAILED',
      path: ['id'],
    });
  });

  test('an unknown union member is refused when read', () => {
    const bytes = codec.encode(rows[0] as never);
    // Row's first field is `id`: slot 0 is its type byte, 1 for Row_Id_String; make it 9.
    const patched = bytes.slice();
    const root = new DataView(patched.buffer).getUint32(0, true);
    const vtable = root - new DataView(patched.buffer).getInt32(root, true);
    const typeAt = root + new DataView(patched.buffer).getUint16(vtable + 4, true);
    expect(patched[typeAt]).toBe(1);
    patched[typeAt] = 9;
    expect(thrownError(() => codec.decode(patched)).code).toBe('WK_DECODE_SCHEMA_MISMATCH');
  });
});

function flatc(dir: string, args: readonly string[]): void {
  const result = spawnSync('flatc', args, { cwd: dir, encoding: 'utf8' });
  expect(result.status, `flatc ${args.join(' ')}: ${result.stderr}`).toBe(0);
}

/** rows[0] as flatc's JSON writes it: each union's `_type` (member name) before its table. */
const flatcRow = {
  id_type: 'Row_Id_String',
  id: { value: 'ab' },
  place_type: 'Named',
  place: { name: 'x' },
  later_type: 'Row_Later_Uint16',
  later: { value: 3 },
  ids: [
    { value_type: 'Row_Ids_Item_Bool', value: { value: true } },
    { value_type: 'Row_Ids_Item_String', value: { value: 'q' } },
  ],
  more_type: 'Row_More_Color',
  more: { value: 'green' },
};

describe.skipIf(!has('flatc'))('flatc and wirekit read each other’s eithers', () => {
  const codec = createFlatBuffersCodec({ schema: Row });
  const fbs = toFlatBuffers(Row);

  test('flatc compiles the .fbs and reads what wirekit writes', () => {
    const json = withTempDir((dir) => {
      writeFileSync(join(dir, 'schema.fbs'), fbs);
      writeFileSync(join(dir, 'value.bin'), codec.encode(rows[0] as never));
      flatc(dir, ['--ts', '-o', 'ts', 'schema.fbs']);
      flatc(dir, ['--json', '--strict-json', '--raw-binary', '-o', 'out', 'schema.fbs', '--', 'value.bin']);
      return readFileSync(join(dir, 'out', 'value.json'), 'utf8');
    });
    expect(JSON.parse(json)).toEqual(flatcRow);
  });

  test('wirekit reads what flatc builds from JSON, by decode and by view', () => {
    const bytes = withTempDir((dir) => {
      writeFileSync(join(dir, 'schema.fbs'), fbs);
      writeFileSync(join(dir, 'value.json'), JSON.stringify(flatcRow));
      flatc(dir, ['--binary', '-o', 'bin', 'schema.fbs', 'value.json']);
      return new Uint8Array(readFileSync(join(dir, 'bin', 'value.bin')));
    });
    expect(codec.decode(bytes)).toStrictEqual(rows[0]);
    expect(plainView(Row, codec.view(bytes))).toStrictEqual(rows[0]);
  });
});
