/**
 * `toTypeScript`: the module it writes for each built-in dataset's schema and for hand-written
 * schemas of every kind (recursion, mutual recursion with defaults, pinned field numbers, docs,
 * namespaces, names that clash) compiles under the project's strict options, imports as a schema
 * whose JSON form equals the original's, is what Biome would format it to, and is the same bytes
 * when generated twice.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, test } from 'vitest';
import { schemaFromAvro } from '../../../src/codecs/avro/schema-from-avro.js';
import { schemaFromProto } from '../../../src/codecs/protobuf/index.js';
import { datasets } from '../../../src/lab/datasets/index.js';
import { toTypeScript } from '../../../src/schema/export/index.js';
import { type ObjectSchema, type Schema, schemaToJson, t } from '../../../src/schema/index.js';
import { EveryKind } from '../../fixtures/every-kind.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
// .scratch/ is git-ignored; the modules import the builders from src/ by a relative path, so that
// the test needs no build and the compiler checks them against the same code the test runs.
const dir = `${root}.scratch/typescript-codegen-${process.pid}/`;
const importFrom = '../../src/index.js';
afterAll(() => {
  if (process.env.KEEP_CODEGEN === undefined) rmSync(dir, { recursive: true, force: true });
});

interface MutualA {
  b?: MutualB;
  n: number;
}
interface MutualB {
  a: MutualA[];
  label: string;
}
interface MutualAInput {
  b?: MutualBInput;
  n: number;
}
interface MutualBInput {
  a: MutualAInput[];
  label?: string;
}
const MutualA: ObjectSchema<MutualA, MutualAInput> = t.object('MutualA', {
  b: t.optional(t.lazy(() => MutualB)),
  n: t.int32(),
});
const MutualB: ObjectSchema<MutualB, MutualBInput> = t.object('MutualB', {
  a: t.array(t.lazy(() => MutualA)),
  label: t.field(t.string(), { default: 'none' }),
});

const Status = t.enum('Status', ['on', 'off'], { namespace: 'a.b', aliases: ['State'] });
const ItemA = t.object('Item', { x: t.int32() }, { namespace: 'one' });
const ItemB = t.object('Item', { y: t.string() }, { namespace: 'two' });
const Clashing = t.object('Date', { map: t.object('Map', { when: t.timestamp({ precision: 'ns' }) }) });

const Defaults = t.object(
  'Defaults',
  {
    big: t.field(t.int64(), { default: -9_007_199_254_740_993n }),
    small: t.field(t.int64({ as: 'number' }), { default: 7 }),
    when: t.field(t.timestamp(), { default: new Date('2024-02-29T12:34:56.789Z') }),
    blob: t.field(t.bytes({ maxLength: 8 }), { default: new Uint8Array([0, 255]) }),
    byId: t.field(t.map(t.uint32(), t.string()), { default: new Map([[1, 'one']]) }),
    byName: t.field(t.map(t.string(), t.bool()), { default: { 'a-b': false, ok: true } }),
    nested: t.field(ItemA, { default: { x: 3 } }),
    status: t.field(Status, { default: 'off' }),
    maybe: t.field(t.nullable(t.float64()), { default: null }),
    list: t.field(t.array(t.decimal({ precision: 5, scale: 1 })), { default: ['1.5'] }),
    any: t.field(t.json(), { default: { k: [1, 'two', null] } }),
    nan: t.field(t.float64(), { default: Number.NaN }),
    quoted: t.field(t.string({ pattern: "^it's\\d+$", minLength: 1 }), {
      default: "it's 1",
      doc: 'A doc with */ and "quotes" and a\nsecond line',
    }),
    'first-name': t.field(t.string(), { id: 40, aliases: ['given'], deprecated: true }),
    other: ItemB,
    clash: Clashing,
    mutual: MutualA,
  },
  { doc: 'Defaults of every kind,\nand more.', reserved: [2, 3] },
);

// t.either: its builder call lists the branches, its type is their union, a recursive one included.
const EitherTree: Schema = t.object('EitherTree', {
  v: t.either([t.string(), t.array(t.lazy(() => EitherTree)), ItemA]),
  w: t.optional(t.array(t.either([t.int64(), t.bool()]))),
});

const handWritten: Record<string, Schema> = {
  eithers: EitherTree,
  everyKind: EveryKind,
  defaults: Defaults,
  unnamedRoot: t.array(t.optional(t.map(t.int64(), t.array(t.nullable(Status))))),
  literalRoot: t.literal(42),
  // Schemas imported from .proto files keep declared types, packing, enum numbers and presence.
  ...Object.fromEntries(
    [
      ['protoNested', 'nested.proto', 'nested.v1.Order'],
      ['protoLegacy', 'legacy.proto', 'legacy.v1.Record'],
      ['protoWrapped', 'wrapped.proto', 'wrapped.v1.Reading'],
    ].map(([name, file, type]) => {
      const text = readFileSync(new URL(`../../fixtures/proto-import/${file}`, import.meta.url), 'utf8');
      return [name, schemaFromProto(text).types.get(type as string) as Schema];
    }),
  ),
  either: t.object('Reading', {
    v: t.field(t.either([t.int16(), t.float64(), t.string()]), { default: 2.5 }),
    w: t.array(t.either([t.bool(), t.bytes()])),
  }),
  // An untagged union inside a recursive type, as the Avro import writes Avro's own "Lisp" schema.
  eitherRecursive: schemaFromAvro({
    type: 'record',
    name: 'Lisp',
    fields: [
      {
        name: 'value',
        type: [
          'null',
          'string',
          'long',
          {
            type: 'record',
            name: 'Cons',
            fields: [
              { name: 'car', type: 'Lisp' },
              { name: 'cdr', type: 'Lisp' },
            ],
          },
        ],
      },
    ],
  }),
};

const cases = [
  ...Object.entries(datasets).map(([name, dataset]) => [`dataset ${name}`, dataset.schema] as const),
  ...Object.entries(handWritten).map(([name, schema]) => [name, schema] as const),
];

function generated(schema: Schema): string {
  return toTypeScript(schema, { importFrom });
}

function fileOf(name: string): string {
  return `${dir}${name.replace(/\W+/g, '-')}.ts`;
}

describe('toTypeScript', () => {
  mkdirSync(dir, { recursive: true });
  for (const [name, schema] of cases) writeFileSync(fileOf(name), generated(schema));

  test('every module compiles under the project’s strict options', () => {
    const config = ts.getParsedCommandLineOfConfigFile(
      `${root}tsconfig.json`,
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: () => {
          throw new Error('tsconfig.json could not be read');
        },
      },
    );
    if (config === undefined) throw new Error('tsconfig.json could not be read');
    const files = cases.map(([name]) => fileOf(name));
    const program = ts.createProgram({ rootNames: files, options: { ...config.options, noEmit: true } });
    const errors = files.flatMap((file) =>
      ts
        .getPreEmitDiagnostics(program, program.getSourceFile(file))
        .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`),
    );
    expect(errors).toEqual([]);
  }, 60_000);

  test.each(cases)(
    '%s: importing the module gives a schema with the same JSON form',
    async (name, schema) => {
      const module = (await import(fileOf(name))) as Record<string, Schema>;
      // A name that would shadow a global the module uses (Record, Date) is declared with a `_`.
      const rootName = schema.kind === 'object' ? schema.name : 'Root';
      const imported = (module[rootName] ?? module[`${rootName}_`]) as Schema;
      expect(schemaToJson(imported)).toEqual(schemaToJson(schema));
    },
  );

  test.each(cases)('%s: the module is stable and formatted as Biome formats it', (_name, schema) => {
    const text = generated(schema);
    expect(generated(schema)).toBe(text);
    const biome = spawnSync(`${root}node_modules/.bin/biome`, ['format', '--stdin-file-path=generated.ts'], {
      input: text,
      encoding: 'utf8',
    });
    expect(biome.status, biome.stderr).toBe(0);
    expect(biome.stdout).toBe(text);
  });

  test('types come after the types they use, then by name; cycles use t.lazy under interfaces', () => {
    const text = generated(Defaults);
    const declared = [...text.matchAll(/^export const (\w+)/gm)].map((m) => m[1]);
    expect(declared).toEqual([
      'Map_',
      'Date_',
      'MutualA',
      'MutualB',
      'Status',
      'one_Item',
      'two_Item',
      'Defaults',
    ]);
    expect(text).toContain('export interface MutualBInput {');
    expect(text).toContain('export const MutualA: ObjectSchema<MutualA, MutualAInput> = t.object(');
    expect(text).toContain('b: t.optional(t.lazy(() => MutualB)),');
    expect(text).toContain(
      "'first-name': t.field(t.string(), { id: 40, deprecated: true, aliases: ['given'] }),",
    );
    // A doc is a JSDoc comment too, so that it shows in hovers; '*/' inside cannot end it.
    expect(text).toContain('/**\n * Defaults of every kind,\n * and more.\n */\nexport const Defaults');
  });
});
