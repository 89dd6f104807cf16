/**
 * Sized bytes (an Avro fixed) under schemaType WIREKIT: a value of one size is no value of another,
 * so changing a size, adding one to unsized bytes or reading a size into a smaller bound breaks
 * (wirekit's BYTES_NARROWED), and the Avro rules on the exports see a fixed's size change as Avro
 * does. A bound that holds every value of the size, or a size dropped for unsized bytes, does not
 * break wirekit's value rule.
 */
import { expect, test } from 'vitest';
import { type Schema, schemaToJson, t } from '../../../../src/schema/index.js';
import { verdict } from './support.js';

const text = (schema: Schema): string => JSON.stringify(schemaToJson(schema));
const holder = (b: Schema) => t.object('Holder', { b });
const md5 = (size: number) => t.bytes({ size, avro: { name: 'Md5' } });

test.each([
  ['a fixed size grows', md5(16), md5(17), ['avro:FIXED_SIZE_MISMATCH', 'wirekit:BYTES_NARROWED']],
  ['the same size', md5(16), md5(16), []],
  ['unsized bytes gain a size', t.bytes(), md5(16), ['avro:TYPE_MISMATCH', 'wirekit:BYTES_NARROWED']],
  ['a size read into a bound that holds it', md5(16), t.bytes({ maxLength: 16 }), ['avro:TYPE_MISMATCH']],
  [
    'a size read into a smaller bound',
    md5(16),
    t.bytes({ maxLength: 15 }),
    ['avro:TYPE_MISMATCH', 'wirekit:BYTES_NARROWED'],
  ],
  [
    'a decimal moves from bytes to a fixed',
    t.decimal({ precision: 6, scale: 2 }),
    t.decimal({ precision: 6, scale: 2, avro: { name: 'Money', size: 3 } }),
    ['avro:TYPE_MISMATCH'],
  ],
] as const)('%s', (_name, writer, reader, broken) => {
  const result = verdict('WIREKIT', text(holder(writer)), text(holder(reader)));
  const found = [...new Set(result.issues.map((issue) => `${issue.rules}:${issue.errorType}`))].sort();
  expect(found, JSON.stringify(result.issues, null, 1)).toEqual([...broken].sort());
});
