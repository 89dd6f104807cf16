/**
 * The built `wirekit` as a shell runs it (dist/, built by `pretest`): `decode` reads exactly one
 * value unless --sequence says the bytes are several (bytes after the value are refused with
 * WK_DECODE_TRAILING at their offset, and the error says what they read as), while `inspect` may
 * guess and says so on standard error; `decode --format avro` of a container file reads it by the
 * writer schema it carries, or resolves it into --schema (decode-avro-container.test.ts);
 * `schema infer` refuses a key its schema could not carry, with the key's path, instead of
 * dropping it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { schemaToJson, t } from '../../src/index.js';
import { runBuilt as wirekit } from '../support/cli.js';
import { withTempDir } from '../support/tools.js';

describe('decode reads exactly one value', () => {
  // One MessagePack value, [1, 2, 3], followed by two bytes that happen to be values themselves.
  const oneAndMore = Uint8Array.of(0x93, 1, 2, 3, 1, 2);

  test('bytes after the value are refused at their offset, with the reading --sequence gives', () => {
    for (const format of ['msgpack', 'cbor'] as const) {
      const bytes = format === 'msgpack' ? oneAndMore : Uint8Array.of(0x83, 1, 2, 3, 1, 2);
      const { code, stdout, stderr } = wirekit(['decode', '--format', format], bytes);
      expect(code, format).toBe(1);
      expect(stdout, format).toBe('');
      expect(stderr, format).toMatch(
        /^wirekit: WK_DECODE_TRAILING: 2 bytes follow the value that ends at byte 4;/,
      );
      expect(stderr, format).toContain('the bytes read as 3 items');
      expect(stderr, format).toContain('pass --sequence to read them so');
    }
  });

  test('--sequence reads them as the items they are', () => {
    const { code, stdout, stderr } = wirekit(
      ['decode', '--format', 'msgpack', '--sequence', '--ndjson'],
      oneAndMore,
    );
    expect([code, stderr]).toEqual([0, '']);
    expect(stdout).toBe('[1,2,3]\n1\n2\n');
  });

  test('bytes after the value that are no value: the trailing error alone', () => {
    const { code, stderr } = wirekit(['decode', '--format', 'msgpack'], Uint8Array.of(0x93, 1, 2, 3, 0xc1));
    expect(code).toBe(1);
    expect(stderr).toBe('wirekit: WK_DECODE_TRAILING: 1 bytes follow the value that ends at byte 4.\n');
  });

  test('JSON with a schema of one item: a JSON array is not one item, and --sequence reads it', () => {
    withTempDir((dir) => {
      const schema = join(dir, 'point.schema.json');
      writeFileSync(schema, JSON.stringify(schemaToJson(t.object('Point', { x: t.int32() }))));
      const array = '[{"x": 1}, {"x": 2}]';
      const one = wirekit(['decode', '--format', 'json', '--schema', schema], array);
      expect(one.code).toBe(1);
      expect(one.stderr).toMatch(/^wirekit: WK_DECODE_SCHEMA_MISMATCH: /);
      expect(one.stderr).toContain('the bytes read as 2 items, a JSON array of values: pass --sequence');
      const items = wirekit(
        ['decode', '--format', 'json', '--schema', schema, '--sequence', '--ndjson'],
        array,
      );
      expect([items.code, items.stderr, items.stdout]).toEqual([0, '', '{"x":1}\n{"x":2}\n']);
      const lines = wirekit(
        ['decode', '--format', 'json', '--schema', schema, '--sequence', '--ndjson'],
        '{"x":1}\n{"x":2}\n',
      );
      expect([lines.code, lines.stdout]).toEqual([0, '{"x":1}\n{"x":2}\n']);
    });
  });

  test('inspect still guesses, and says so on standard error', () => {
    const { code, stdout, stderr } = wirekit(['inspect', '-', '--format', 'msgpack', '--json'], oneAndMore);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({
      sequence: { detected: 'sniff', items: 3 },
      value: [[1, 2, 3], 1, 2],
    });
    expect(stderr).toBe(
      'wirekit: guessed: read 3 items, MessagePack values back to back (sniffed: the bytes are not one value); --sequence says so.\n',
    );
  });
});

describe('schema infer refuses a key its schema could not carry', () => {
  test.each([
    ['{"id": 1, "__proto__": {"admin": true}}', '[0].__proto__'],
    ['[{"id": 1}, {"id": 2, "tags": {"__proto__": 1}}]', '[1].tags.__proto__'],
    ['{"id": 1, "meta": {"": 1}}', '[0].meta[""]'],
    ['[{"m": 1}, {"m": {"constructor": {"x": 1}}}]', '[1].m.constructor'],
  ])('%s', (input, path) => {
    const { code, stdout, stderr } = wirekit(['schema', 'infer', '-'], input);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^wirekit: WK_SCHEMA_INVALID: inferSchema: /);
    expect(stderr).toContain(`${path}:`);
  });

  test('fields named constructor or prototype are fields like any other', () => {
    const { code, stdout } = wirekit(['schema', 'infer', '-'], '{"constructor": 1, "prototype": "x"}');
    expect(code).toBe(0);
    expect(JSON.parse(stdout).root.fields.map((field: { name: string }) => field.name)).toEqual([
      'constructor',
      'prototype',
    ]);
  });
});
