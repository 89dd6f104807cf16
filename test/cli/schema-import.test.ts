/**
 * `wirekit schema import`: the language is told from the extension or the content (or --from), an
 * .avsc comes out as wirekit's schema JSON or as a TypeScript module, and what cannot be imported
 * ends in WK_SCHEMA_IMPORT naming the file, the place and the way out, never in the answers a JSON
 * reader gives a .proto file.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { schemaFromAvro } from '../../src/codecs/avro/index.js';
import { toTypeScript } from '../../src/schema/export/index.js';
import { schemaToJson } from '../../src/schema/index.js';
import { cli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'wirekit-schema-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const userAvro = JSON.stringify({
  type: 'record',
  name: 'User',
  namespace: 'shop',
  fields: [
    { name: 'id', type: 'long' },
    { name: 'email', type: 'string', default: '' },
    { name: 'next', type: ['null', 'User'], default: null },
  ],
});
const proto = 'syntax = "proto3";\npackage shop;\nmessage Order { int32 id = 1; }\n';

describe('wirekit schema import', () => {
  test('an .avsc comes out as the JSON form of the schema schemaFromAvro reads', async () => {
    const { code, text, stderr } = await cli(['schema', 'import', file('user.avsc', userAvro)]);
    expect([code, stderr]).toEqual([0, '']);
    expect(JSON.parse(text)).toEqual(schemaToJson(schemaFromAvro(userAvro)));
  });

  test('the language is told from the content when the extension does not say', async () => {
    const { code, text } = await cli(['schema', 'import', '-'], userAvro);
    expect(code).toBe(0);
    expect(JSON.parse(text).root.name).toBe('User');
    const wirekit = await cli(['schema', 'import', '-'], text);
    expect([wirekit.code, JSON.parse(wirekit.text)]).toEqual([0, JSON.parse(text)]);
  });

  test('--to ts writes the TypeScript module, to --out when given', async () => {
    const out = join(dir, 'user.ts');
    const { code, text } = await cli([
      'schema',
      'import',
      file('u.avsc', userAvro),
      '--to',
      'ts',
      '--out',
      out,
    ]);
    expect([code, text]).toEqual([0, '']);
    expect(readFileSync(out, 'utf8')).toBe(toTypeScript(schemaFromAvro(userAvro)));
    expect(readFileSync(out, 'utf8')).toContain(
      'export const User: ObjectSchema<User, UserInput> = t.object(',
    );
  });

  test('a .proto is refused as not imported yet, naming the flag and what is read, never as bad JSON', async () => {
    for (const args of [[file('order.proto', proto)], ['-', '--from', 'proto'], ['-', '-I', dir]]) {
      const { code, stderr } = await cli(['schema', 'import', ...args], proto);
      expect(code).toBe(1);
      expect(stderr).toMatch(
        /^wirekit: WK_SCHEMA_IMPORT: .*Protocol Buffers \(\.proto\) is not imported yet \(--from proto\)/,
      );
      expect(stderr).toContain('Avro (.avsc) (--from avro)');
      expect(stderr).not.toMatch(/not valid JSON|must be "wirekit-schema"/);
    }
  });

  test('JSON Schema is refused as not imported yet', async () => {
    const schema = '{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}';
    const { code, stderr } = await cli(['schema', 'import', '-'], schema);
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /WK_SCHEMA_IMPORT: standard input: JSON Schema is not imported yet \(--from jsonschema\)/,
    );
  });

  test('a file in no language wirekit reads says which are read and names --from', async () => {
    const { code, stderr } = await cli(['schema', 'import', file('notes.txt', 'hello there')]);
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /WK_SCHEMA_IMPORT: .*notes\.txt: cannot tell which schema language this is; wirekit reads/,
    );
    expect(stderr).toContain('pass --from wirekit|avro|proto|jsonschema');
  });

  test('an .avsc that is not JSON is refused with its line and column', async () => {
    const { code, stderr } = await cli([
      'schema',
      'import',
      file('bad.avsc', '{\n  "type": "record",\n  "name" "User"\n}'),
    ]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/WK_SCHEMA_IMPORT: .*bad\.avsc:3:10: is not JSON: expected ':'/);
  });

  test('an .avsc that is JSON but no Avro wirekit reads is WK_SCHEMA_IMPORT with the importer’s reason', async () => {
    const { code, stderr } = await cli([
      'schema',
      'import',
      file('enum.avsc', '{"type": "enum", "name": "E", "symbols": []}'),
    ]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^wirekit: WK_SCHEMA_IMPORT: .*enum\.avsc: .*enum E: needs at least one member/);
  });

  test('a wrong --from or --to is a usage error', async () => {
    expect((await cli(['schema', 'import', '-', '--from', 'xml'], userAvro)).code).toBe(2);
    expect((await cli(['schema', 'import', '-', '--to', 'rust'], userAvro)).code).toBe(2);
    expect((await cli(['schema', 'import'])).code).toBe(2);
  });
});
