import { describe, expectTypeOf, test } from 'vitest';
import { type Infer, type InferInput, t } from '../../src/schema/index.js';

describe('t.either types', () => {
  test('the value type is the union of the branch types', () => {
    const Id = t.either([t.string(), t.float64()]);
    expectTypeOf<Infer<typeof Id>>().toEqualTypeOf<string | number>();
    const Mixed = t.either([t.int64(), t.bool(), t.array(t.string())]);
    expectTypeOf<Infer<typeof Mixed>>().toEqualTypeOf<bigint | boolean | string[]>();
  });

  test('object branches keep their input types (defaults may be left out)', () => {
    const A = t.object('A', { a: t.field(t.string(), { default: 'x' }), n: t.float64() });
    const B = t.object('B', { b: t.bool() });
    const AB = t.either([A, B]);
    expectTypeOf<Infer<typeof AB>>().toEqualTypeOf<{ a: string; n: number } | { b: boolean }>();
    expectTypeOf<InferInput<typeof AB>>().toEqualTypeOf<{ n: number; a?: string } | { b: boolean }>();
  });
});
