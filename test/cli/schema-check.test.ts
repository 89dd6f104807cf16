/**
 * `wirekit schema check`: exit codes (0 compatible, 1 not, 2 bad input), the readable list and
 * --json, the levels with --history, a .proto pair by the registry's Protobuf rules, and files in
 * two languages checked as wirekit schemas. The rule tables themselves run through the command in
 * schema-check-tables.test.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { writeContainer } from '../../src/codecs/avro/index.js';
import { toAvro } from '../../src/schema/export/index.js';
import { type Schema, schemaToJson, t } from '../../src/schema/index.js';
import { cli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'wirekit-schema-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
}

const record = (fields: unknown[]) => JSON.stringify({ type: 'record', name: 'User', fields });
const id = { name: 'id', type: 'long' };
const v1 = file('v1.avsc', record([id]));
const withEmail = file('v2.avsc', record([id, { name: 'email', type: 'string', default: '' }]));
const emailRequired = file('v3.avsc', record([id, { name: 'email', type: 'string' }]));
const withoutId = file('v4.avsc', record([{ name: 'email', type: 'string', default: '' }]));

describe('wirekit schema check', () => {
  test('exit 0 and one line when NEW may follow OLD', async () => {
    const { code, text, stderr } = await cli(['schema', 'check', v1, withEmail]);
    expect([code, stderr]).toEqual([0, '']);
    expect(text).toBe(`${withEmail} is BACKWARD compatible with ${v1} (AVRO rules).\n`);
  });

  test('exit 1 with the path, the rule and what changed when it may not', async () => {
    const { code, text } = await cli(['schema', 'check', v1, emailRequired]);
    expect(code).toBe(1);
    expect(text.split('\n').slice(0, 3)).toEqual([
      `${emailRequired} is not BACKWARD compatible (AVRO rules):`,
      `  /fields/1  READER_FIELD_MISSING_DEFAULT_VALUE (avro rules, BACKWARD against ${v1})`,
      "      The field 'email' at path '/fields/1' in the new schema has no default value and is missing in the old schema",
    ]);
  });

  test('--json answers the verdict, level, rules and issues', async () => {
    const { code, text } = await cli(['schema', 'check', v1, emailRequired, '--json']);
    expect(code).toBe(1);
    expect(JSON.parse(text)).toMatchObject({
      compatible: false,
      level: 'BACKWARD',
      rules: 'AVRO',
      issues: [
        {
          against: v1,
          direction: 'BACKWARD',
          rules: 'avro',
          errorType: 'READER_FIELD_MISSING_DEFAULT_VALUE',
          path: '/fields/1',
        },
      ],
    });
  });

  test('the level decides: FORWARD and FULL check the other direction', async () => {
    // email without a default reads data that has it (FORWARD holds), old data lacks it (BACKWARD not).
    expect((await cli(['schema', 'check', v1, emailRequired, '--level', 'FORWARD'])).code).toBe(0);
    expect((await cli(['schema', 'check', v1, emailRequired, '--level', 'full'])).code).toBe(1);
  });

  test('--history: the transitive levels check the older versions too', async () => {
    const history = join(dir, 'history');
    file('history/v10.avsc', record([id]));
    // Dropping id: the new schema reads the old data, but the old one (which needs id) cannot read the new.
    expect((await cli(['schema', 'check', withEmail, withoutId, '--level', 'FORWARD'])).code).toBe(1);
    expect((await cli(['schema', 'check', withEmail, withoutId, '--level', 'BACKWARD'])).code).toBe(0);
    // email without a default reads v2's data, not the history's v10 (which has no email).
    const transitive = await cli([
      'schema',
      'check',
      withEmail,
      emailRequired,
      '--history',
      history,
      '--level',
      'BACKWARD_TRANSITIVE',
      '--json',
    ]);
    expect(transitive.code).toBe(1);
    const against = JSON.parse(transitive.text).issues.map((issue: { against: string }) => issue.against);
    expect(against).toEqual([join(history, 'v10.avsc')]);
    // The same pair without the history, or at a level that looks at the newest only, passes.
    expect((await cli(['schema', 'check', withEmail, emailRequired])).code).toBe(0);
    expect((await cli(['schema', 'check', withEmail, emailRequired, '--history', history])).code).toBe(0);
  });

  test('two .proto files are checked by the registry’s Protobuf rules', async () => {
    const old = file('old.proto', 'syntax = "proto3";\nmessage Order { int32 id = 1; string note = 2; }\n');
    const same = file('same.proto', 'syntax = "proto3";\nmessage Order { int32 id = 1; string memo = 2; }\n');
    const changed = file(
      'changed.proto',
      'syntax = "proto3";\nmessage Order { int32 id = 1; int64 note = 2; }\n',
    );
    expect((await cli(['schema', 'check', old, same])).code).toBe(0);
    const { code, text } = await cli(['schema', 'check', old, changed, '--json']);
    expect(code).toBe(1);
    expect(JSON.parse(text)).toMatchObject({ rules: 'PROTOBUF', issues: [{ rules: 'protobuf' }] });
  });

  test('a .proto and an .avsc are compared as wirekit schemas, the .proto as the message --type names', async () => {
    const avsc = file(
      'order.avsc',
      JSON.stringify({
        type: 'record',
        name: 'Order',
        namespace: 'shop',
        fields: [
          { name: 'id', type: 'long' },
          { name: 'note', type: 'string' },
        ],
      }),
    );
    const header = 'syntax = "proto3";\npackage shop;\n';
    const two = file(
      'two.proto',
      `${header}message Order { int64 id = 1; string note = 2; }\nmessage Other { bool b = 1; }\n`,
    );
    const asked = await cli(['schema', 'check', avsc, two]);
    expect(asked.code).toBe(2);
    expect(asked.stderr).toContain(
      'two.proto: declares 2 messages no other uses (shop.Order, shop.Other): pass --type NAME',
    );
    // The .avsc's long is written as wirekit's sint64; the .proto declares int64: other bytes.
    const varint = await cli(['schema', 'check', avsc, two, '--type', 'Order', '--json']);
    expect(varint.code).toBe(1);
    expect(JSON.parse(varint.text)).toMatchObject({
      rules: 'WIREKIT',
      issues: [{ path: '#/Order/1', errorType: 'FIELD_SCALAR_KIND_CHANGED' }],
    });
    const zigzag = file('zigzag.proto', `${header}message Order { sint64 id = 1; string note = 2; }\n`);
    const ok = await cli(['schema', 'check', avsc, zigzag]);
    expect([ok.code, ok.text]).toEqual([
      0,
      `${zigzag} is BACKWARD compatible with ${avsc} (WIREKIT rules).\n`,
    ]);
  });

  test('two JSON Schemas are compared as wirekit schemas; two Avro containers by the Avro rules', async () => {
    const point = (required: string[]) =>
      JSON.stringify({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        title: 'Point',
        type: 'object',
        properties: { x: { type: 'string' }, y: { type: 'string' } },
        required,
        additionalProperties: false,
      });
    const loose = file('loose.json', point(['x']));
    const strict = file('strict.json', point(['x', 'y']));
    expect((await cli(['schema', 'check', strict, loose])).code).toBe(0);
    const broken = await cli(['schema', 'check', loose, strict]);
    expect(broken.code).toBe(1);
    expect(broken.text).toContain('is not BACKWARD compatible (WIREKIT rules)');
    const container = async (name: string, schema: Schema) => {
      const path = join(dir, name);
      writeFileSync(path, await writeContainer([], { schema }));
      return path;
    };
    const v1Container = await container('v1.avro', t.object('User', { id: t.int64() }));
    const v2Container = await container('v2.avro', t.object('User', { id: t.int64(), email: t.string() }));
    const avro = await cli(['schema', 'check', v1Container, v2Container, '--json']);
    expect(avro.code).toBe(1);
    expect(JSON.parse(avro.text)).toMatchObject({
      rules: 'AVRO',
      issues: [{ errorType: 'READER_FIELD_MISSING_DEFAULT_VALUE' }],
    });
  });

  test('a --from that contradicts the file says what the file looks like', async () => {
    const proto = file('looks.proto', 'syntax = "proto3";\nmessage A { int32 a = 1; }\n');
    const { code, stderr } = await cli(['schema', 'check', v1, proto, '--from', 'avro']);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /looks\.proto: .*It looks like Protocol Buffers \(\.proto\): pass --from proto, or no --from\./,
    );
  });

  test('an .avsc and a wirekit schema are compared as wirekit schemas', async () => {
    const User = t.object('User', { id: t.int64(), email: t.string() });
    const avsc = file('user.avsc', JSON.stringify(toAvro(User)));
    const same = file('user.schema.json', JSON.stringify(schemaToJson(User)));
    const narrower = file(
      'narrower.schema.json',
      JSON.stringify(schemaToJson(t.object('User', { id: t.int32(), email: t.string() }))),
    );
    const ok = await cli(['schema', 'check', avsc, same]);
    expect([ok.code, ok.text]).toEqual([0, `${same} is BACKWARD compatible with ${avsc} (WIREKIT rules).\n`]);
    const broken = await cli(['schema', 'check', avsc, narrower, '--json']);
    expect(broken.code).toBe(1);
    expect(JSON.parse(broken.text).rules).toBe('WIREKIT');
  });

  test('bad input exits 2: a file that does not parse, a missing file, a file in no language', async () => {
    const broken = await cli(['schema', 'check', v1, file('broken.avsc', '{"type": "record"')]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/^wirekit: WK_SCHEMA_IMPORT: .*broken\.avsc: /);
    const proto = await cli([
      'schema',
      'check',
      file('a.proto', 'syntax = "proto3";\nmessage A {\n  int32 = 1;\n}\n'),
      v1,
    ]);
    expect(proto.code).toBe(2);
    expect(proto.stderr).toMatch(/^wirekit: WK_SCHEMA_IMPORT: .*a\.proto:3:\d+: /);
    const missing = await cli(['schema', 'check', v1, join(dir, 'missing.avsc')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^wirekit: WK_CLI_INPUT: cannot read .*missing\.avsc: ENOENT/);
    const unknown = await cli(['schema', 'check', v1, file('notes.txt', 'v2 adds an email')]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/notes\.txt: cannot tell which schema language this is/);
  });

  test('a wrong command line exits 2 too', async () => {
    expect((await cli(['schema', 'check', v1])).code).toBe(2);
    expect((await cli(['schema', 'check', v1, v1, '--level', 'SIDEWAYS'])).code).toBe(2);
  });
});
