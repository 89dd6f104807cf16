/**
 * Services through the CLI, judged by protoc: a `.proto` file with services goes through `schema
 * import --to ts` to a module of `t.service` calls that rebuilds the very services the importer
 * reads, and through `schema export --to proto` of that module back to a `.proto` whose descriptors
 * protoc compiles to the original's services (names, request and reply types, streaming,
 * idempotency, deprecation). The built bin reads a JavaScript module as Node runs it, and refuses a
 * TypeScript one it cannot import with the way out.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { schemaFromProtoText } from '../../src/codecs/protobuf/from-proto-file.js';
import { isService, type ServiceSchema, schemaToJson } from '../../src/schema/index.js';
import { cli, runBuilt } from '../support/cli.js';
import { describeProtoFile, protocDescriptorSet, protocIncludeDir } from '../support/protoc.js';
import { has, withTempDir } from '../support/tools.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
// .scratch/ is git-ignored; the modules are pointed at src/ (in-process) or dist/ (the built bin).
const dir = `${root}.scratch/schema-services-${process.pid}/`;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const shopProto = `syntax = "proto3";
package shop.v1;
import "google/protobuf/empty.proto";

message Order {
  int64 id = 1;
  message Line { string sku = 1; int32 quantity = 2; }
  repeated Line lines = 2;
}
message Orders { repeated Order orders = 1; }
message Ping { string text = 1; }

// protoc looks Ping up from the service's scope, where the method Ping would hide the message:
// the rpc names it from the root.
service OrderService {
  option deprecated = true;
  rpc List (google.protobuf.Empty) returns (Orders) { option idempotency_level = NO_SIDE_EFFECTS; }
  rpc Put (Order) returns (Order) { option idempotency_level = IDEMPOTENT; option deprecated = true; }
  rpc Watch (Order) returns (stream Order);
  rpc Upload (stream Order.Line) returns (Order);
  rpc Ping (stream .shop.v1.Ping) returns (stream .shop.v1.Ping);
}
service Sketch {}
`;

/** protoc's services and messages of a `.proto` text (which it must compile). */
function protocView(text: string) {
  return withTempDir((temp) => {
    const file = describeProtoFile(
      protocDescriptorSet(temp, 'shop.proto', text, { includeImports: true }),
      'shop.proto',
    );
    return { ...file, messages: [...file.messages].sort() };
  });
}

describe.skipIf(!has('protoc') || !has('python:google.protobuf'))('services: .proto → ts → .proto', () => {
  mkdirSync(dir, { recursive: true });
  const input = `${dir}shop.proto`;
  const module = `${dir}shop.ts`;

  test('schema import --to ts writes t.service calls that rebuild the imported services', async () => {
    writeFileSync(input, shopProto);
    const { code, stderr } = await cli([
      'schema',
      'import',
      input,
      '-I',
      protocIncludeDir,
      '--to',
      'ts',
      '--out',
      module,
    ]);
    expect([code, stderr]).toEqual([0, '']);
    const text = readFileSync(module, 'utf8');
    expect(text).toMatch(/^export const OrderService = t\.service\(\n {2}'shop\.v1\.OrderService',$/m);
    expect(text).toMatch(/^ {4}List: t\.unary\(Empty, Orders, \{ idempotency: 'NO_SIDE_EFFECTS' \}\),$/m);
    expect(text).toMatch(/^ {4}Upload: t\.clientStream\(Line, Order\),$/m);
    expect(text).toMatch(/^export const Sketch = t\.service\('shop\.v1\.Sketch', \{\}\);$/m);
    // The module imports the published package; here it is pointed at the sources.
    writeFileSync(module, text.replace(/from 'wirekit-ts'/g, "from '../../src/index.js'"));
    const built = Object.values((await import(module)) as Record<string, unknown>).filter(isService);
    const imported = schemaFromProtoText(shopProto, { includePaths: [protocIncludeDir] }).services;
    // Messages compared by their JSON form, which follows the importer's references (t.lazy).
    const byName = (services: readonly ServiceSchema[]) =>
      Object.fromEntries(
        services.map((service) => [
          service.name,
          {
            ...service,
            methods: Object.entries(service.methods).map(([name, method]) => ({
              ...method,
              name,
              input: schemaToJson(method.input),
              output: schemaToJson(method.output),
            })),
          },
        ]),
      );
    expect(built).toHaveLength(2);
    expect(byName(built)).toEqual(byName(imported.map((service) => service.schema)));
  });

  test('schema export --to proto of the module compiles to the original services', async () => {
    const { code, stderr, text } = await cli(['schema', 'export', '--to', 'proto', module]);
    expect([code, stderr]).toEqual([0, '']);
    const original = protocView(shopProto);
    const exported = protocView(text);
    expect(exported.services).toEqual(original.services);
    expect(exported.messages).toEqual(original.messages);
    expect(exported.dependencies).toEqual(['google/protobuf/empty.proto']);
    // The test's own reading of the original, so that an empty comparison cannot pass.
    expect(original.services).toHaveLength(2);
    expect(original.services[0]).toMatchObject({ name: 'OrderService', options: { deprecated: true } });
  });
});

describe('schema export of a module, as the built bin runs it', () => {
  mkdirSync(dir, { recursive: true });
  const dist = pathToFileURL(`${root}dist/index.js`).href;

  test('a JavaScript module: its services and named types, one .proto', () => {
    const file = `${dir}echo.mjs`;
    writeFileSync(
      file,
      [
        `import { t } from '${dist}';`,
        "const ns = { namespace: 'echo.v1' };",
        "export const Say = t.object('Say', { text: t.string() }, ns);",
        "export const Mood = t.enum('Mood', ['calm', 'loud'], ns);",
        "export const Echo = t.service('echo.v1.Echo', { Say: t.bidiStream(Say, Say, { idempotency: 'IDEMPOTENT' }) });",
        '',
      ].join('\n'),
    );
    const { code, stdout, stderr } = runBuilt(['schema', 'export', '--to', 'proto', file]);
    expect([code, stderr]).toEqual([0, '']);
    expect(stdout).toMatch(/^package echo\.v1;$/m);
    expect(stdout).toMatch(/^enum Mood \{$/m);
    expect(stdout).toContain(
      'service Echo {\n  rpc Say(stream .echo.v1.Say) returns (stream .echo.v1.Say) {\n    option idempotency_level = IDEMPOTENT;\n  }\n}\n',
    );
  });

  test('refusals: a TypeScript module Node cannot import, a module of no schema, another --to', () => {
    const ts = `${dir}plain.ts`;
    writeFileSync(ts, 'export const x: number = 1;\n');
    const typescript = runBuilt(['schema', 'export', '--to', 'proto', ts]);
    expect(typescript.code).toBe(1);
    expect(typescript.stderr).toMatch(/WK_SCHEMA_IMPORT/);
    expect(typescript.stderr).toMatch(/compile it to JavaScript, or run wirekit under a TypeScript loader/);
    const empty = `${dir}empty.mjs`;
    writeFileSync(empty, 'export const x = 1;\n');
    const none = runBuilt(['schema', 'export', '--to', 'proto', empty]);
    expect([none.code, none.stderr]).toEqual([
      1,
      expect.stringMatching(/exports no service \(t\.service\) and no named type/),
    ]);
    const avro = runBuilt(['schema', 'export', '--to', 'avro', empty]);
    expect([avro.code, avro.stderr]).toEqual([2, expect.stringMatching(/a module is read by --to proto/)]);
  });
});
