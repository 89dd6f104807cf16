import { describe, expectTypeOf, test } from 'vitest';
import type { SqlParam } from '../../../src/boundaries/tables/source.js';

describe('SqlParam', () => {
  test('takes what every table source binds: values, null, and arrays of them, nested', () => {
    expectTypeOf<[string, number, bigint, boolean, Date, null]>().toExtend<SqlParam[]>();
    expectTypeOf<[[1, 'a', null], [true, Date], readonly bigint[]]>().toExtend<SqlParam[]>();
    expectTypeOf<[number[][], (string | null)[][][]]>().toExtend<SqlParam[]>();
  });

  test('refuses what no source binds', () => {
    expectTypeOf<undefined>().not.toExtend<SqlParam>();
    expectTypeOf<{ plan: string }>().not.toExtend<SqlParam>();
    expectTypeOf<Uint8Array>().not.toExtend<SqlParam>();
    expectTypeOf<(number | undefined)[]>().not.toExtend<SqlParam>();
  });
});
