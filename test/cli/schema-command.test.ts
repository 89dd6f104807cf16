import { describe, expect, test } from 'vitest';
import { schemaFromJson, schemaToJson } from '../../src/index.js';
import { EveryKind } from '../fixtures/every-kind.js';
import { cli } from '../support/cli.js';

const users = 'examples/data/users.ndjson';

describe('wirekit schema infer', () => {
  test('prints the JSON form of a schema that every sample satisfies', async () => {
    const { code, text } = await cli(['schema', 'infer', users, '--name', 'User']);
    expect(code).toBe(0);
    const schema = schemaFromJson(JSON.parse(text));
    expect(schema).toMatchObject({ kind: 'object', name: 'User' });
    const fields =
      schema.kind === 'object' ? Object.fromEntries(schema.fields.map((f) => [f.name, f.schema.kind])) : {};
    expect(fields).toMatchObject({
      id: 'int64',
      created: 'timestamp',
      nickname: 'optional',
      manager: 'optional',
    });
  });

  test('reads a JSON array from standard input', async () => {
    const { code, text } = await cli(['schema', 'infer', '-'], '[{"a": 1}, {"a": 300, "b": "x"}]');
    expect(code).toBe(0);
    expect(JSON.parse(text).root.fields.map((f: { schema: { kind: string } }) => f.schema.kind)).toEqual([
      'int32',
      'optional',
    ]);
  });

  test('integers get room to grow by default; --numbers narrowest keeps the smallest kinds', async () => {
    const orders =
      '[{"qty": 2, "customer": {"id": 4711}, "at": 1717000000000}, {"qty": 9, "customer": {"id": 80}, "at": 1717000000001}]';
    const kinds = async (...flags: string[]) => {
      const { code, text, stderr } = await cli(['schema', 'infer', '-', ...flags], orders);
      expect([code, stderr]).toEqual([0, '']);
      const schema = schemaFromJson(JSON.parse(text));
      const fields = schema.kind === 'object' ? schema.fields : [];
      const customer = fields[1]?.schema;
      return {
        qty: fields[0]?.schema.kind,
        'customer.id': customer?.kind === 'object' ? customer.fields[0]?.schema.kind : undefined,
        at: fields[2]?.schema,
      };
    };
    expect(await kinds()).toEqual({
      qty: 'int32',
      'customer.id': 'int32',
      at: expect.objectContaining({ kind: 'int64', as: 'number' }),
    });
    expect(await kinds('--numbers', 'wide')).toEqual(await kinds());
    expect(await kinds('--numbers', 'narrowest')).toMatchObject({ qty: 'uint8', 'customer.id': 'uint16' });
    const bad = await cli(['schema', 'infer', '-', '--numbers', 'tiny'], orders);
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('--numbers is wide or narrowest')]);
  });

  test('reports bad input with its code and exit status 1', async () => {
    const { code, stderr } = await cli(['schema', 'infer', '-'], '{"a": ');
    expect(code).toBe(1);
    expect(stderr).toMatch(/^wirekit: WK_CLI_INPUT: standard input is not valid JSON/);
    expect((await cli(['schema', 'infer', 'no/such/file.json'])).stderr).toContain('WK_CLI_INPUT');
  });
});

describe('wirekit schema export', () => {
  const everyKind = JSON.stringify(schemaToJson(EveryKind));

  test.each([
    ['proto', /^syntax = "proto3";/m],
    ['fbs', /^root_type EveryKind;/m],
    ['avro', /"type": "record"/],
    ['json-schema', /"\$schema": "https:\/\/json-schema\.org\/draft\/2020-12\/schema"/],
  ])('--to %s prints the export', async (format, expected) => {
    const { code, text, stderr } = await cli(['schema', 'export', '--to', format, '-'], everyKind);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(text).toMatch(expected);
  });

  test('--to arrow refuses recursion with WK_EXPORT_UNSUPPORTED, and prints a flat schema', async () => {
    const refused = await cli(['schema', 'export', '--to', 'arrow', '-'], everyKind);
    expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining('WK_EXPORT_UNSUPPORTED')]);
    const inferred = await cli(['schema', 'infer', users]);
    const { code, text } = await cli(['schema', 'export', '--to', 'arrow', '-'], inferred.text);
    expect(code).toBe(0);
    expect(JSON.parse(text).fields.map((f: { name: string }) => f.name)).toContain('created');
  });

  test('usage errors exit 2 and point to --help', async () => {
    for (const args of [
      ['schema', 'export', '--to', 'xml', '-'],
      ['schema', 'nope'],
      ['nope'],
      ['schema', 'infer', '--bogus'],
    ]) {
      const { code, stderr } = await cli(args);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr).toContain('WK_CLI_USAGE');
    }
  });

  test('--help documents both commands and the exit codes', async () => {
    const { code, text } = await cli(['--help']);
    expect(code).toBe(0);
    expect(text).toContain('wirekit schema infer');
    expect(text).toContain('wirekit schema export');
    expect(text).toContain('Exit codes');
  });
});
