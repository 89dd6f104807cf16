import type { StandardSchemaV1 } from '@standard-schema/spec';
import { describe, expectTypeOf, test } from 'vitest';
import {
  type Infer,
  type InferOptions,
  inferSchema,
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
});

describe('inferSchema', () => {
  test("numbers is 'wide' (the default) or 'narrowest', and the result is a Schema to read before use", () => {
    expectTypeOf<InferOptions['numbers']>().toEqualTypeOf<'wide' | 'narrowest' | undefined>();
    expectTypeOf(inferSchema([{ qty: 1 }], { numbers: 'narrowest' })).toEqualTypeOf<Schema>();
    // @ts-expect-error the narrow choice is spelled 'narrowest'
    inferSchema([1], { numbers: 'narrow' });
  });
});
