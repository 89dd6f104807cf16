/**
 * flatc as the judge of toFlatBuffers' exports: it generates code for every enum, union and table,
 * puts each field in the slot the mapping names, carries an EveryKind value from JSON to binary and
 * back, and reads the wrapper tables, nested vectors, maps and placeholders as wirekit means them.
 * The text and the refusals are in flatbuffers.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { type Schema, t } from '../../../src/index.js';
import { toFlatBuffers } from '../../../src/schema/export/flatbuffers.js';
import { Color, EveryKind, Shape } from '../../fixtures/every-kind.js';
import { has, withTempDir } from '../../support/tools.js';

function flatc(dir: string, args: readonly string[]): void {
  const result = spawnSync('flatc', args, { cwd: dir, encoding: 'utf8' });
  // flatc warns about camelCase field names on stderr; only the exit status says it refused.
  expect(result.status, `flatc ${args.join(' ')}: ${result.stderr}`).toBe(0);
}

/** The TypeScript flatc generates for `fbs` (which it must accept), one string per file. */
function generatedTs(fbs: string): string[] {
  return withTempDir((dir) => {
    writeFileSync(join(dir, 'schema.fbs'), fbs);
    flatc(dir, ['--ts', '-o', 'ts', 'schema.fbs']);
    const files = readdirSync(join(dir, 'ts'), { recursive: true, encoding: 'utf8' }).filter((file) =>
      file.endsWith('.ts'),
    );
    return files.map((file) => readFileSync(join(dir, 'ts', file), 'utf8'));
  });
}

/** A JSON value (or its text) through flatc: to a binary buffer, then back to (strict) JSON text. */
function roundTrip(fbs: string, json: unknown): string {
  return withTempDir((dir) => {
    writeFileSync(join(dir, 'schema.fbs'), fbs);
    writeFileSync(join(dir, 'value.json'), typeof json === 'string' ? json : JSON.stringify(json));
    flatc(dir, ['--binary', '-o', 'bin', 'schema.fbs', 'value.json']);
    flatc(dir, [
      '--json',
      '--strict-json',
      '--raw-binary',
      '-o',
      'out',
      'schema.fbs',
      '--',
      join('bin', 'value.bin'),
    ]);
    return readFileSync(join(dir, 'out', 'value.json'), 'utf8');
  });
}

/** The generated TypeScript of table `name`. */
function classOf(files: readonly string[], name: string): string {
  return files.find((file) => file.includes(`export class ${name} {`)) ?? '';
}

/** The vtable offset the generated TypeScript of a table reads `accessor` at: 4 + 2 × its slot. */
function offsetOf(ts: string, accessor: string): number | undefined {
  const pattern = new RegExp(
    `^${accessor}(?:<[^>]*>)?\\([^)]*\\)[^{]*\\{\\n  const offset = this\\.bb!\\.__offset\\(this\\.bb_pos, (\\d+)\\)`,
    'm',
  );
  const found = ts.match(pattern)?.[1];
  return found === undefined ? undefined : Number(found);
}

const isUnion = (schema: Schema): boolean => schema.kind === 'union';

describe.skipIf(!has('flatc'))('toFlatBuffers: flatc accepts it', () => {
  const fbs = toFlatBuffers(EveryKind, { namespace: 'wirekit.test' });

  test('EveryKind: code for every enum, union and table', () => {
    const ts = generatedTs(fbs).join('\n');
    for (const [, kind, name] of fbs.matchAll(/^(enum|union|table) (\w+)/gm)) {
      expect(ts, `${kind} ${name}`).toContain(
        kind === 'table' ? `export class ${name} {` : `export enum ${name} {`,
      );
    }
  });

  test('every field sits in slot number − 1 + (union fields numbered below it), a union taking two', () => {
    const ts = classOf(generatedTs(fbs), 'EveryKind');
    const unions = EveryKind.fields.filter((field) => isUnion(field.schema));
    const checked = EveryKind.fields.filter((field) => field.schema.kind !== 'literal' && !field.deprecated);
    expect(checked.length).toBeGreaterThan(25);
    for (const field of checked) {
      const slot = field.id - 1 + unions.filter((union) => union.id < field.id).length;
      if (isUnion(field.schema)) {
        expect(offsetOf(ts, `${field.name}Type`), field.name).toBe(4 + 2 * slot);
        expect(offsetOf(ts, field.name), field.name).toBe(4 + 2 * (slot + 1));
      } else {
        expect(offsetOf(ts, field.name), field.name).toBe(4 + 2 * slot);
      }
    }
  });

  test('an EveryKind value survives flatc: JSON to binary and back', () => {
    const value = {
      flag: true,
      i8: -128,
      i32: -2147483648,
      u32: 4294967295,
      u64: 18446744073709551615n,
      f64: -0.1,
      price: '-1234567890.12',
      name: 'Zoë',
      blob: [0, 1, 254],
      createdAt: 1709210096789,
      color: 'green',
      home: { street: '1 Main St', zip: '12345' },
      tags: ['a', '', 'b'],
      matrix: [{ items: [1, 2] }, { items: [] }, { items: [3] }],
      scores: [
        { key: 'art', value: -1 },
        { key: 'math', value: 9.5 },
      ],
      byId: [
        { key: -1, value: { street: '', zip: '' } },
        { key: 7, value: { street: 'Elm', zip: '9' } },
      ],
      shape_type: 'Circle',
      shape: { radius: 2 },
      shapes: [
        { value_type: 'Rect', value: { width: 1, height: 2.5 } },
        { value_type: 'Circle', value: { radius: 0.5 } },
      ],
      extra: '{"any":[1]}',
      category: { name: 'root', children: [{ name: 'leaf', children: [] }] },
    };
    // JSON.stringify cannot write a bigint; flatc reads the digits as they are.
    const text = JSON.stringify(value, (_key, item: unknown) =>
      typeof item === 'bigint' ? `#${item}#` : item,
    );
    const back = roundTrip(fbs, text.replace(/"#(\d+)#"/g, '$1'));
    expect(back).toContain('"u64": 18446744073709551615');
    expect(JSON.parse(back)).toEqual({ ...value, u64: Number(value.u64) });
  });

  test('a non-object root is wrapped in a table; the union root too', () => {
    const union = toFlatBuffers(Shape);
    expect(union).toContain('table Root {\n  value: Shape;\n}');
    expect(union.endsWith('root_type Root;\n')).toBe(true);
    expect(offsetOf(classOf(generatedTs(union), 'Root'), 'value')).toBe(4 + 2 * 1);
    const grid = toFlatBuffers(t.array(t.array(t.int32())), { rootName: 'Grid' });
    expect(grid).toContain('table Grid {\n  value: [Grid_Value_Item];\n}');
    expect(grid).toContain('table Grid_Value_Item {\n  items: [int];\n}');
    expect(roundTrip(grid, { value: [{ items: [1] }, { items: [] }] }).replace(/\s/g, '')).toBe(
      '{"value":[{"items":[1]},{"items":[]}]}',
    );
    expect(toFlatBuffers(Color)).toContain('table Root {\n  value: Color;\n}');
  });

  test('nested vectors, bytes, maps and absent elements get tables; absent scalars are = null', () => {
    const Nest = t.object('Nest', {
      cube: t.array(t.array(t.array(t.int8()))),
      holes: t.array(t.nullable(t.int32())),
      blobs: t.array(t.bytes()),
      maps: t.array(t.map(t.string(), t.int16())),
      maybe: t.optional(t.int16()),
      color: t.optional(Color),
      flagged: t.nullable(t.bool()),
      when: t.optional(t.timestamp({ precision: 's' })),
      groups: t.map(t.uint64(), t.array(t.string())),
    });
    const fbs = toFlatBuffers(Nest);
    for (const part of [
      '  cube: [Nest_Cube_Item];',
      'table Nest_Cube_Item {\n  items: [Nest_Cube_Item_Item];\n}',
      'table Nest_Cube_Item_Item {\n  items: [byte];\n}',
      'table Nest_Holes_Item {\n  value: int = null;\n}',
      'table Nest_Blobs_Item {\n  value: [ubyte];\n}',
      'table Nest_Maps_Item {\n  entries: [Nest_Maps_Item_Entry];\n}',
      'table Nest_Maps_Item_Entry {\n  key: string (key);\n  value: short;\n}',
      '  maybe: short = null;',
      '  color: Color = null;',
      '  flagged: bool = null;',
      '  when: long = null; // seconds since the Unix epoch',
      'table Nest_Groups_Entry {\n  key: ulong (key);\n  value: [string];\n}',
    ]) {
      expect(fbs).toContain(part);
    }
    expect(classOf(generatedTs(fbs), 'Nest_Groups_Entry')).toContain('static getRootAsNest_Groups_Entry');
    // A present zero survives, and an absent element stays absent: optional scalars keep presence.
    const back = JSON.parse(roundTrip(fbs, { maybe: 0, holes: [{ value: 0 }, {}], color: 'red' }));
    expect(back).toEqual({ maybe: 0, holes: [{ value: 0 }, {}], color: 'red' });
  });

  test('unused numbers become placeholders; reserved ones too', () => {
    const Slim = t.object('Slim', { a: t.string(), b: t.int32() }, { reserved: [2, 3] });
    const fbs = toFlatBuffers(Slim);
    expect(fbs).toContain(
      '  a: string;\n  _reserved_2: ubyte (deprecated);\n  _reserved_3: ubyte (deprecated);\n  b: int;',
    );
    expect(offsetOf(classOf(generatedTs(fbs), 'Slim'), 'b')).toBe(4 + 2 * 3);
  });
});
