/**
 * `wirekit schema import`: the language is told from the extension or the content (or --from), an
 * .avsc comes out as wirekit's schema JSON or as a TypeScript module, and what cannot be imported
 * ends in WK_SCHEMA_IMPORT naming the file, the place and the way out, never in the answers a JSON
 * reader gives a .proto file.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { schemaFromAvro, schemaFromAvroContainer, writeContainer } from '../../src/codecs/avro/index.js';
import { fileDescriptorSet } from '../../src/codecs/protobuf/descriptor-schema.js';
import { createProtobufCodec, schemaFromProto } from '../../src/codecs/protobuf/index.js';
import { toTypeScript } from '../../src/schema/export/index.js';
import { schemaFromJsonSchema } from '../../src/schema/import/index.js';
import { type Schema, schemaToJson } from '../../src/schema/index.js';
import { cli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'wirekit-schema-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  mkdirSync(dirname(path), { recursive: true });
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
const orderProto = `syntax = "proto3";
package order.v1;
import "common/money.proto";
message Order {
  message Item { string sku = 1; common.Money price = 2; }
  enum Status { STATUS_UNSPECIFIED = 0; STATUS_OPEN = 1; }
  repeated Item items = 1;
  Status status = 2;
}
`;

function binary(name: string, bytes: Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

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

  test('a .proto comes out as its one top message, its imports read along -I and its own folder', async () => {
    file(
      'protos/common/money.proto',
      'syntax = "proto3";\npackage common;\nmessage Money { sint64 units = 1; }\n',
    );
    const order = file('protos/order.proto', orderProto);
    const imports = (path: string) =>
      path === 'common/money.proto' ? readFileSync(join(dir, 'protos', path), 'utf8') : undefined;
    const { types } = schemaFromProto(orderProto, { imports });
    const expected = schemaToJson(types.get('order.v1.Order') as Schema);
    for (const args of [
      [order, '-I', join(dir, 'protos')],
      ['-', '--from', 'proto', '-I', join(dir, 'protos')],
    ]) {
      const { code, text, stderr } = await cli(['schema', 'import', ...args], orderProto);
      expect([code, stderr]).toEqual([0, '']);
      expect(JSON.parse(text)).toEqual(expected);
    }
    // Without -I, the file's own folder is where its imports are looked for.
    const own = await cli(['schema', 'import', order]);
    expect([own.code, JSON.parse(own.text)]).toEqual([0, expected]);
  });

  test('--to ts declares every message and enum of a .proto, imported ones included', async () => {
    const order = file('protos/order.proto', orderProto);
    const { code, text } = await cli(['schema', 'import', order, '--to', 'ts']);
    expect(code).toBe(0);
    const declared = [...text.matchAll(/^export const (\w+)/gm)].map((m) => m[1]);
    expect(declared).toEqual(['Money', 'Item', 'Status', 'Order']);
    expect(text).toContain("units: t.int64({ proto: 'sint64' }),");
  });

  test('a .proto of several top messages asks for --type, which takes a full or a short name', async () => {
    const two = file(
      'two.proto',
      'syntax = "proto3";\npackage svc;\nmessage Request { int32 a = 1; }\nmessage Response { string b = 1; }\n',
    );
    const asked = await cli(['schema', 'import', two]);
    expect(asked.code).toBe(1);
    expect(asked.stderr).toContain(
      'two.proto: declares 2 messages no other uses (svc.Request, svc.Response): pass --type NAME',
    );
    for (const name of ['Response', 'svc.Response']) {
      const picked = await cli(['schema', 'import', two, '--type', name]);
      expect([picked.code, JSON.parse(picked.text).root.name]).toEqual([0, 'Response']);
    }
    const unknown = await cli(['schema', 'import', two, '--type', 'Reply']);
    expect(unknown.stderr).toMatch(
      /WK_SCHEMA_IMPORT: .*two\.proto: declares no type Reply; it declares svc\.Request, svc\.Response/,
    );
    // --type of a file that is not a .proto is a usage error, not silently ignored.
    expect((await cli(['schema', 'import', file('u2.avsc', userAvro), '--type', 'User'])).code).toBe(2);
  });

  test('a fault in an imported .proto is placed in that file, at its line and column', async () => {
    file('faulty/broken.proto', 'syntax = "proto3";\npackage b;\nmessage B { string s = 1 }\n');
    const main = file(
      'faulty/main.proto',
      'syntax = "proto3";\nimport "broken.proto";\nmessage M { b.B b = 1; }\n',
    );
    const broken = await cli(['schema', 'import', main]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/^wirekit: WK_SCHEMA_IMPORT: .*faulty\/broken\.proto:3:26: /);
    const ownFault = await cli([
      'schema',
      'import',
      file('own.proto', 'syntax = "proto3";\nmessage M {\n  int32 = 1;\n}\n'),
    ]);
    expect(ownFault.stderr).toMatch(/^wirekit: WK_SCHEMA_IMPORT: .*own\.proto:3:\d+: /);
    const missing = await cli([
      'schema',
      'import',
      file('lonely.proto', 'syntax = "proto3";\nimport "nowhere/x.proto";\nmessage M {}\n'),
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/WK_SCHEMA_IMPORT: .*lonely\.proto.*nowhere\/x\.proto/);
    const above = await cli([
      'schema',
      'import',
      file('above.proto', 'syntax = "proto3";\nimport "../etc/x.proto";\nmessage M {}\n'),
    ]);
    expect(above.stderr).toMatch(
      /WK_SCHEMA_IMPORT: .*above\.proto:2:1: import "\.\.\/etc\/x\.proto" must be a path below an include folder/,
    );
  });

  test('an imported .proto larger than --max-input-bytes is refused, naming that file', async () => {
    file(
      'sized/big.proto',
      `syntax = "proto3";\npackage big;\nmessage Big {}\n${'// padding\n'.repeat(200)}`,
    );
    const main = file(
      'sized/main.proto',
      'syntax = "proto3";\nimport "big.proto";\nmessage M { big.Big b = 1; }\n',
    );
    const refused = await cli(['schema', 'import', main, '--max-input-bytes', '1K']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /WK_SCHEMA_IMPORT: .*sized\/big\.proto: is larger than the limit of 1024 bytes/,
    );
    expect((await cli(['schema', 'import', main, '--max-input-bytes', '4K'])).code).toBe(0);
  });

  test('a refusal of the mapping in an imported file is placed in that file, at its line', async () => {
    file(
      'alias/enum.proto',
      'syntax = "proto3";\npackage e;\n\nenum Aliased {\n  option allow_alias = true;\n  A = 0;\n  B = 0;\n}\n',
    );
    const main = file(
      'alias/main.proto',
      'syntax = "proto3";\nimport "enum.proto";\nmessage M { e.Aliased s = 1; }\n',
    );
    const { code, stderr } = await cli(['schema', 'import', main]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/WK_SCHEMA_IMPORT: .*enum\.proto:\d+:\d+: .*Aliased/);
    expect(stderr).not.toMatch(/main\.proto:\d/);
  });

  test('JSON Schema is imported, and --at reads one schema of an OpenAPI document', async () => {
    const schema =
      '{"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Point", "type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"], "additionalProperties": false}';
    const { code, text } = await cli(['schema', 'import', file('point.json', schema)]);
    expect(code).toBe(0);
    expect(JSON.parse(text)).toEqual(schemaToJson(schemaFromJsonSchema(schema)));
    const openapi = JSON.stringify({
      openapi: '3.1.0',
      info: { title: 'shop', version: '1' },
      paths: {},
      components: { schemas: { Order: JSON.parse(schema) } },
    });
    const at = await cli([
      'schema',
      'import',
      file('api.json', openapi),
      '--from',
      'jsonschema',
      '--at',
      '#/components/schemas/Order',
    ]);
    expect([at.code, at.stderr]).toEqual([0, '']);
    expect(JSON.parse(at.text)).toEqual(
      schemaToJson(schemaFromJsonSchema(openapi, { at: '#/components/schemas/Order' })),
    );
  });

  test('a .json file is told JSON Schema or Avro by the words only one uses ({"type":"array"} is not Avro)', async () => {
    const cases: [string, string][] = [
      ['{"type": "array"}', 'json'],
      [
        '{"type": "array", "items": {"type": "integer", "minimum": -2147483648, "maximum": 2147483647}}',
        'int32',
      ],
      ['{"type": "array", "items": "long"}', 'int64'],
      ['{"type": "array", "items": {"type": "map", "values": "int"}}', 'map'],
    ];
    for (const [json, items] of cases) {
      const { code, text, stderr } = await cli(['schema', 'import', file('list.json', json)]);
      expect([code, stderr]).toEqual([0, '']);
      expect(JSON.parse(text).root.items.kind).toBe(items);
    }
  });

  test('an Avro container file is read by the schema its header holds, told by its extension or its first bytes', async () => {
    const schema = schemaFromAvro(userAvro);
    const container = await writeContainer([{ id: 1n, email: 'a@b', next: null }], { schema });
    for (const name of ['users.avro', 'users.bin']) {
      const { code, text } = await cli(['schema', 'import', binary(name, container)]);
      expect([code, JSON.parse(text)]).toEqual([0, schemaToJson(schemaFromAvroContainer(container))]);
    }
  });

  test('YAML is refused by name, with the way on', async () => {
    const yaml = await cli(['schema', 'import', file('api.yaml', 'openapi: 3.1.0\n')]);
    expect(yaml.code).toBe(1);
    expect(yaml.stderr).toMatch(
      /WK_SCHEMA_IMPORT: .*api\.yaml: is YAML, which wirekit does not read .*convert the document to JSON/,
    );
  });

  test('a binary descriptor set imports as the .proto it was compiled from, by name or by its bytes', async () => {
    // What protoc --descriptor_set_out writes for `package shop; message Order { int64 id = 1; }`.
    const set = createProtobufCodec({ schema: fileDescriptorSet }).encode({
      file: [
        {
          name: 'shop.proto',
          package: 'shop',
          syntax: 'proto3',
          dependency: [],
          publicDependency: [],
          weakDependency: [],
          enumType: [],
          service: [],
          extension: [],
          messageType: [
            {
              name: 'Order',
              field: [{ name: 'id', number: 1, label: 1, type: 3 }],
              nestedType: [],
              enumType: [],
              extensionRange: [],
              extension: [],
              oneofDecl: [],
              reservedRange: [],
              reservedName: [],
            },
          ],
        },
      ],
    } as never);
    const expected = schemaToJson(
      schemaFromProto('syntax = "proto3"; package shop; message Order { int64 id = 1; }').types.get(
        'shop.Order',
      ) as Schema,
    );
    for (const name of ['order.pb', 'order.data']) {
      const { code, text } = await cli(['schema', 'import', binary(name, set)]);
      expect([code, JSON.parse(text)]).toEqual([0, expected]);
    }
    const broken = await cli(['schema', 'import', binary('broken.pb', set.subarray(0, set.length - 3))]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/WK_SCHEMA_IMPORT: .*broken\.pb: /);
  });

  test('a file in no language wirekit reads says which are read and names --from', async () => {
    const { code, stderr } = await cli(['schema', 'import', file('notes.txt', 'hello there')]);
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /WK_SCHEMA_IMPORT: .*notes\.txt: cannot tell which schema language this is; wirekit reads/,
    );
    expect(stderr).toContain('pass --from wirekit|avro|proto|jsonschema|descriptor-set');
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

  test('a .proto of 10,000 chained messages or 100,000 fields is written as TypeScript; too deep for JSON, refused by name', async () => {
    const chain = ['syntax = "proto3";', 'package big;', 'message M0 { int32 a = 1; }'];
    for (let i = 1; i < 10_000; i++) chain.push(`message M${i} { M${i - 1} prev = 1; }`);
    const chained = file('chain.proto', chain.join('\n'));
    const ts = await cli(['schema', 'import', chained, '--to', 'ts']);
    expect([ts.code, ts.stderr]).toEqual([0, '']);
    expect(ts.text.match(/^export const /gm)).toHaveLength(10_000);
    const json = await cli(['schema', 'import', chained]);
    expect(json.code).toBe(1);
    expect(json.stderr).toMatch(
      /^wirekit: WK_SCHEMA_IMPORT: .*chain\.proto: its types nest deeper than wirekit's schema JSON holds \(256 nodes\): write it with --to ts/,
    );
    const fields = Array.from(
      { length: 100_000 },
      (_, i) => `  string f${i + 1} = ${i < 18_999 ? i + 1 : i + 1001};`,
    );
    const wide = file('wide.proto', ['syntax = "proto3";', 'message W {', ...fields, '}'].join('\n'));
    const written = await cli(['schema', 'import', wide, '--to', 'ts']);
    expect([written.code, written.stderr]).toEqual([0, '']);
    expect(written.text).toContain('f100000: t.string(),');
  }, 120_000);

  test('a wrong --from or --to is a usage error', async () => {
    expect((await cli(['schema', 'import', '-', '--from', 'xml'], userAvro)).code).toBe(2);
    expect((await cli(['schema', 'import', '-', '--to', 'rust'], userAvro)).code).toBe(2);
    expect((await cli(['schema', 'import'])).code).toBe(2);
  });
});

describe('wirekit schema export --to json-schema --annotations', () => {
  test('the annotated document imports back into the same schema; without the flag it does not', async () => {
    const schema = schemaFromProto(
      'syntax = "proto3"; package shop; message Line { sfixed64 id = 3; repeated int32 qty = 5 [packed = false]; }',
    ).types.get('shop.Line') as Schema;
    const source = file('line.schema.json', JSON.stringify(schemaToJson(schema)));
    const annotated = await cli(['schema', 'export', '--to', 'json-schema', '--annotations', source]);
    expect(annotated.code).toBe(0);
    const back = await cli(['schema', 'import', file('line.json', annotated.text), '--from', 'jsonschema']);
    expect([back.code, JSON.parse(back.text)]).toEqual([0, schemaToJson(schema)]);
    const plain = await cli(['schema', 'export', '--to', 'json-schema', source]);
    expect(plain.text).not.toContain('x-wirekit-');
    expect((await cli(['schema', 'export', '--to', 'proto', '--annotations', source])).code).toBe(2);
  });
});
