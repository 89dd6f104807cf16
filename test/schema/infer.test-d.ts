import type { StandardSchemaV1 } from '@standard-schema/spec';
import { describe, expectTypeOf, test } from 'vitest';
import {
  type Infer,
  type InferInput,
  type InferOptions,
  type InferOutput,
  inferSchema,
  type Named,
  type ObjectSchema,
  type Schema,
  standardSchema,
  t,
} from '../../src/index.js';

describe('Infer', () => {
  test('scalars', () => {
    expectTypeOf<Infer<ReturnType<typeof t.bool>>>().toEqualTypeOf<boolean>();
    expectTypeOf<Infer<ReturnType<typeof t.uint16>>>().toEqualTypeOf<number>();
    const i64 = t.int64();
    expectTypeOf<Infer<typeof i64>>().toEqualTypeOf<bigint>();
    const i64n = t.int64({ as: 'number' });
    expectTypeOf<Infer<typeof i64n>>().toEqualTypeOf<number>();
    const u64 = t.uint64({ as: 'bigint' });
    expectTypeOf<Infer<typeof u64>>().toEqualTypeOf<bigint>();
    expectTypeOf<Infer<ReturnType<typeof t.decimal>>>().toEqualTypeOf<string>();
    expectTypeOf<Infer<ReturnType<typeof t.bytes>>>().toEqualTypeOf<Uint8Array>();
    expectTypeOf<Infer<ReturnType<typeof t.timestamp>>>().toEqualTypeOf<Date>();
    const color = t.enum('Color', ['red', 'green']);
    expectTypeOf<Infer<typeof color>>().toEqualTypeOf<'red' | 'green'>();
    const lit = t.literal('v1');
    expectTypeOf<Infer<typeof lit>>().toEqualTypeOf<'v1'>();
  });

  test('objects, optional and nullable fields', () => {
    const User = t.object('User', {
      id: t.int64(),
      name: t.field(t.string(), { doc: 'display name', default: '' }),
      nick: t.optional(t.string()),
      manager: t.nullable(t.int32()),
      tags: t.array(t.string()),
    });
    expectTypeOf<Infer<typeof User>>().toEqualTypeOf<{
      id: bigint;
      name: string;
      manager: number | null;
      tags: string[];
      nick?: string;
    }>();
  });

  test('maps: string keys give records, integer keys give Maps', () => {
    const byName = t.map(t.string(), t.float64());
    expectTypeOf<Infer<typeof byName>>().toEqualTypeOf<Record<string, number>>();
    const byId = t.map(t.int64(), t.bool());
    expectTypeOf<Infer<typeof byId>>().toEqualTypeOf<Map<bigint, boolean>>();
  });

  test('tagged unions', () => {
    const Circle = t.object('Circle', { type: t.literal('circle'), r: t.float64() });
    const Square = t.object('Square', { type: t.literal('square'), side: t.float64() });
    const Shape = t.union('Shape', 'type', [Circle, Square]);
    expectTypeOf<Infer<typeof Shape>>().toEqualTypeOf<
      { type: 'circle'; r: number } | { type: 'square'; side: number }
    >();
  });

  test('recursive types through t.lazy', () => {
    interface Tree {
      label: string;
      children: Tree[];
    }
    const Tree: ObjectSchema<Tree> = t.object('Tree', {
      label: t.string(),
      children: t.array(t.lazy(() => Tree)),
    });
    expectTypeOf<Infer<typeof Tree>>().toEqualTypeOf<Tree>();
  });

  test('json', () => {
    expectTypeOf<Infer<ReturnType<typeof t.json>>>().toExtend<unknown>();
    // @ts-expect-error a function is not JSON
    const notJson: Infer<ReturnType<typeof t.json>> = () => 1;
    void notJson;
  });
});

describe('InferInput and InferOutput', () => {
  const Prefs = t.object('Prefs', { theme: t.field(t.string(), { default: 'light' }) });
  const Item = t.object('Item', { kind: t.literal('item'), qty: t.field(t.int32(), { default: 1 }) });
  const Note = t.object('Note', { kind: t.literal('note'), text: t.string() });
  const User = t.object('User', {
    id: t.int64(),
    role: t.field(t.string(), { default: 'member', doc: 'filled in when left out' }),
    nick: t.optional(t.string()),
    bio: t.field(t.string(), { doc: 'no default: required' }),
    prefs: t.nullable(Prefs),
    history: t.array(Prefs),
    byName: t.map(t.string(), Prefs),
    byId: t.map(t.int32(), Prefs),
    last: t.union('Entry', 'kind', [Item, Note]),
  });

  test('a field with a default is optional in the input type only', () => {
    type Theme = { theme: string };
    type ThemeIn = { theme?: string };
    expectTypeOf<InferOutput<typeof User>>().toEqualTypeOf<Infer<typeof User>>();
    expectTypeOf<Infer<typeof User>>().toEqualTypeOf<{
      id: bigint;
      role: string;
      bio: string;
      prefs: Theme | null;
      history: Theme[];
      byName: Record<string, Theme>;
      byId: Map<number, Theme>;
      last: { kind: 'item'; qty: number } | { kind: 'note'; text: string };
      nick?: string;
    }>();
    expectTypeOf<InferInput<typeof User>>().toEqualTypeOf<{
      id: bigint;
      bio: string;
      prefs: ThemeIn | null;
      history: ThemeIn[];
      byName: Record<string, ThemeIn>;
      byId: Map<number, ThemeIn>;
      last: { kind: 'item'; qty?: number } | { kind: 'note'; text: string };
      role?: string;
      nick?: string;
    }>();
  });

  test('scalars and schemas without defaults have the same input and output', () => {
    const Plain = t.object('Plain', { id: t.int32(), tags: t.array(t.string()) });
    expectTypeOf<InferInput<typeof Plain>>().toEqualTypeOf<Infer<typeof Plain>>();
    expectTypeOf<InferInput<ReturnType<typeof t.timestamp>>>().toEqualTypeOf<Date>();
  });

  test('a default must be a value of the field', () => {
    // @ts-expect-error a string field's default is a string
    t.field(t.string(), { default: 1 });
  });
});

describe('Named', () => {
  test('an interface declared from the schema becomes its value type; the input type stays', () => {
    const UserSchema = t.object('User', { id: t.int64(), role: t.field(t.string(), { default: 'x' }) });
    interface User extends Infer<typeof UserSchema> {}
    const User: Named<User, typeof UserSchema> = UserSchema;
    expectTypeOf<Infer<typeof User>>().toEqualTypeOf<User>();
    expectTypeOf<InferInput<typeof User>>().toEqualTypeOf<{ id: bigint; role?: string }>();
    expectTypeOf<Infer<ReturnType<typeof t.array<typeof User>>>>().toEqualTypeOf<User[]>();
  });

  test('unions too, and an interface that does not describe the schema is refused', () => {
    const A = t.object('A', { kind: t.literal('a') });
    const B = t.object('B', { kind: t.literal('b'), n: t.int32() });
    const EntrySchema = t.union('Entry', 'kind', [A, B]);
    type Entry = Infer<typeof EntrySchema>;
    const Entry: Named<Entry, typeof EntrySchema> = EntrySchema;
    expectTypeOf<Infer<typeof Entry>>().toEqualTypeOf<Entry>();
    interface Wrong {
      id: string;
    }
    // @ts-expect-error the schema's values have no string id
    const wrong: Named<Wrong, typeof A> = A;
    void wrong;
  });
});

describe('recursive schemas', () => {
  test('with defaults inside the recursion, the annotation names the input type too', () => {
    interface Tree {
      label: string;
      children: Tree[];
    }
    interface TreeInput {
      label: string;
      children?: TreeInput[];
    }
    const Tree: ObjectSchema<Tree, TreeInput> = t.object('Tree', {
      label: t.string(),
      children: t.field(t.array(t.lazy(() => Tree)), { default: [] }),
    });
    expectTypeOf<InferInput<typeof Tree>>().toEqualTypeOf<TreeInput>();
    // @ts-expect-error without the input type, children would be required where the schema has a default
    const strict: ObjectSchema<Tree> = t.object('Tree', {
      label: t.string(),
      children: t.field(t.array(t.lazy(() => strict)), { default: [] }),
    });
    void strict;
  });
});

describe('standardSchema', () => {
  test('is a Standard Schema v1 as the spec package declares it, with the inferred output type', () => {
    const User = t.object('User', { id: t.int64(), name: t.string() });
    const standard = standardSchema(User);
    expectTypeOf(standard).toExtend<StandardSchemaV1<{ id: bigint; name: string }>>();
    expectTypeOf<StandardSchemaV1.InferOutput<typeof standard>>().toEqualTypeOf<{
      id: bigint;
      name: string;
    }>();
  });

  test('a field with a default is optional in its input type', () => {
    const standard = standardSchema(t.object('P', { x: t.field(t.int32(), { default: 0 }) }));
    expectTypeOf<StandardSchemaV1.InferInput<typeof standard>>().toEqualTypeOf<{ x?: number }>();
    expectTypeOf<StandardSchemaV1.InferOutput<typeof standard>>().toEqualTypeOf<{ x: number }>();
  });
});

describe('inferSchema', () => {
  test("numbers is 'wide' (the default) or 'narrowest', and the result is a Schema to read before use", () => {
    expectTypeOf<InferOptions['numbers']>().toEqualTypeOf<'wide' | 'narrowest' | undefined>();
    expectTypeOf(inferSchema([{ qty: 1 }], { numbers: 'narrowest' })).toEqualTypeOf<Schema>();
    // @ts-expect-error the narrow choice is spelled 'narrowest'
    inferSchema([1], { numbers: 'narrow' });
  });
});
