/**
 * The registry's cache of parsed schemas is bounded in entries and in the text they stand for,
 * drops the least recently used first, and never keeps a schema larger than all of it.
 */
import { describe, expect, test } from 'vitest';
import {
  type ParsedSchema,
  parseRegisteredSchema,
} from '../../../../src/boundaries/events/compatibility/index.js';
import { ParsedCache } from '../../../../src/boundaries/events/registry/parsed-cache.js';
import { avroIntRecord } from '../../../fixtures/avro-texts.js';

const schema = (name: string, fields: number): ParsedSchema =>
  parseRegisteredSchema({
    schema: avroIntRecord(name, fields),
  });

describe('ParsedCache', () => {
  test('keeps at most maxSchemas, dropping the least recently used', () => {
    const cache = new ParsedCache({ maxSchemas: 2 });
    const [a, b, c] = [schema('A', 1), schema('B', 1), schema('C', 1)];
    cache.set('a', a);
    cache.set('b', b);
    expect(cache.get('a')).toBe(a);
    cache.set('c', c);
    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(a);
    expect(cache.get('c')).toBe(c);
  });

  test('keeps at most maxTextLength of text, and no schema longer than that', () => {
    const [small, large, huge] = [schema('S', 10), schema('L', 100), schema('H', 1_000)];
    const cache = new ParsedCache({ maxTextLength: large.text.length + small.text.length });
    cache.set('s', small);
    cache.set('l', large);
    expect(cache.size).toBe(2);
    cache.set('s2', schema('T', 10));
    expect(cache.get('s')).toBeUndefined();
    cache.set('h', huge);
    expect(cache.get('h')).toBeUndefined();
    expect(cache.get('l')).toBe(large);
  });

  test('setting an identity again replaces it, counted once', () => {
    const cache = new ParsedCache({ maxSchemas: 1 });
    const first = schema('A', 1);
    cache.set('a', first);
    cache.set('a', schema('A', 1));
    expect(cache.size).toBe(1);
    expect(cache.get('a')).not.toBe(first);
  });
});
