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
import { dependencyOrder } from '../../../src/schema/export/typescript-order.js';
import { type ObjectSchema, type Schema, schemaToJson, t } from '../../../src/schema/index.js';
import { EveryKind } from '../../fixtures/every-kind.js';
import { expectLinearCost } from '../../support/linear-cost.js';

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

// Names an imported .proto or .avsc gives: nested types that share a name, a type whose name is
// another's nested name spelled with underscores, a recursive type beside a type named like its
// input interface, a word of the language; and what only Protocol Buffers reads (declared wire
// types, unpacked lists) or only an untagged union holds.
interface Person {
  next?: Person;
  input: { name: string };
}
const PersonInputType = t.object('PersonInput', { name: t.string() });
const Person: ObjectSchema<Person> = t.object('Person', {
  next: t.optional(t.lazy(() => Person)),
  input: PersonInputType,
});
const Imported = t.object('Imported', {
  nested: t.object('Item', { n: t.int32({ proto: 'sfixed32' }) }, { namespace: 'order.v1.Order' }),
  flat: t.object('order_v1_Order_Item', { s: t.string() }),
  other: t.object('Item', { q: t.uint64({ proto: 'fixed64' }) }, { namespace: 'order.v1.Cart' }),
  person: Person,
  keyword: t.object('default', { on: t.bool() }),
  ids: t.array(t.int64({ as: 'number', proto: 'sint64' }), { packed: false }),
  small: t.uint32({ proto: 'fixed32' }),
  pick: t.either([t.string(), t.float64(), t.array(t.lazy(() => Person))]),
});

const handWritten: Record<string, Schema> = {
  eithers: EitherTree,
  everyKind: EveryKind,
  defaults: Defaults,
  imported: Imported,
  unnamedRoot: t.array(t.optional(t.map(t.int64(), t.array(t.nullable(Status))))),
  literalRoot: t.literal(42),
  avroForms: t.object('AvroForms', {
    day: t.int32({ avro: 'date' }),
    micros: t.int64({ as: 'number', avro: 'time-micros' }),
    local: t.int64({ avro: 'local-timestamp-nanos' }),
    id: t.string({ avro: 'uuid' }),
    md5: t.bytes({ size: 16 }),
    span: t.bytes({
      size: 12,
      avro: { name: 'Span', namespace: 'time', aliases: ['Dur'], logicalType: 'duration' },
    }),
    money: t.decimal({ precision: 9, scale: 2, avro: { name: 'Money', size: 4 } }),
  }),
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
      // A name that would shadow a global the module uses (Record, Date) is declared under another
      // identifier (typescript-names.ts), so an object is found by its schema name.
      const imported = (
        schema.kind === 'object'
          ? Object.values(module).find(
              (value) =>
                (value as Schema | undefined)?.kind === 'object' &&
                (value as ObjectSchema).name === schema.name &&
                (value as ObjectSchema).namespace === schema.namespace,
            )
          : module.Root
      ) as Schema;
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

  test('imported names: nested types that share a name take their scope, and no two declarations clash', () => {
    const text = generated(Imported);
    const declared = [...text.matchAll(/^export (?:const|interface|type) (\w+)/gm)].map((m) => m[1]);
    expect(new Set(declared)).toEqual(
      new Set([
        'Cart_Item',
        'default_',
        'Order_Item',
        'order_v1_Order_Item',
        'PersonInput',
        'Person_',
        'Person_Input',
        'Imported',
      ]),
    );
    expect(text).toContain('nested: Order_Item,');
    expect(text).toContain('flat: order_v1_Order_Item,');
    expect(text).toContain("n: t.int32({ proto: 'sfixed32' }),");
    expect(text).toContain("ids: t.array(t.int64({ as: 'number', proto: 'sint64' }), { packed: false }),");
    expect(text).toContain('pick: t.either([t.string(), t.float64(), t.array(Person_)]),');
  });

  test('a list of named types is declared whole, each once, with no root', () => {
    const Item = t.object('Item', { n: t.int32() }, { namespace: 'shop.Order' });
    const Order = t.object('Order', { items: t.array(Item) }, { namespace: 'shop' });
    const Status = t.enum('Status', ['OPEN'], { namespace: 'shop' });
    const text = toTypeScript([Order, Item, Status], { importFrom });
    const declared = [...text.matchAll(/^export const (\w+)/gm)].map((m) => m[1]);
    expect(declared).toEqual(['Item', 'Order', 'Status']);
    expect(() => toTypeScript([Order, t.int32()])).toThrow(/named types/);
  });

  test('declaration order costs time linear in the number of types (10,000 independent types)', () => {
    const typesOf = (n: number) =>
      new Map(
        Array.from({ length: n }, (_, i) => {
          const type = t.object(`T${String(i).padStart(6, '0')}`, { a: t.int32() });
          return [type.name, type] as const;
        }),
      );
    expectLinearCost((types) => dependencyOrder(types), typesOf, 1250);
  });

  test('a chain of 10,000 types and an object of 100,000 fields are written, without overflowing the stack', () => {
    let chain: ObjectSchema = t.object('C0', { a: t.int32() });
    for (let i = 1; i < 10_000; i++) chain = t.object(`C${i}`, { next: chain });
    expect(toTypeScript(chain).match(/^export const /gm)).toHaveLength(10_000);
    const fields: Record<string, Schema> = {};
    for (let i = 0; i < 100_000; i++) fields[`f${i}`] = t.string();
    const wide = toTypeScript(t.object('Wide', fields));
    expect(wide.split('\n').length).toBeGreaterThan(100_000);
  }, 120_000);
});
