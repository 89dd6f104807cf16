/**
 * `wirekit schema import FILE --to ts` of the files a team starts from: an order.proto using the
 * well-known Struct, Value, ListValue, Timestamp, Duration and wrappers, and an .avsc using every
 * Avro logical type. The module the CLI writes compiles under the project's strict options and
 * builds the very schema the importer gives (its JSON form equal).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, test } from 'vitest';
import { schemaFromAvro } from '../../src/codecs/avro/schema-from-avro.js';
import { schemaFromProtoText } from '../../src/codecs/protobuf/from-proto-file.js';
import { type Schema, schemaToJson } from '../../src/schema/index.js';
import { cli } from '../support/cli.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
// .scratch/ is git-ignored; the modules are pointed at src/ so that no build is needed.
const dir = `${root}.scratch/schema-import-ts-${process.pid}/`;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const orderProto = `syntax = "proto3";
package shop.v1;
import "google/protobuf/struct.proto";
import "google/protobuf/timestamp.proto";
import "google/protobuf/duration.proto";
import "google/protobuf/wrappers.proto";

message Order {
  string id = 1;
  google.protobuf.Timestamp placed_at = 2;
  google.protobuf.Duration hold_for = 3;
  google.protobuf.Struct attributes = 4;
  google.protobuf.Value extra = 5;
  google.protobuf.ListValue tags = 6;
  google.protobuf.Int64Value points = 7;
  google.protobuf.StringValue note = 8;
  repeated Line lines = 9;
}

message Line {
  string sku = 1;
  sint32 quantity = 2;
  google.protobuf.Timestamp shipped_at = 3;
}
`;

const everyLogicalType = {
  type: 'record',
  name: 'Reading',
  namespace: 'lab.v1',
  fields: [
    { name: 'day', type: { type: 'int', logicalType: 'date' } },
    { name: 'timeMillis', type: { type: 'int', logicalType: 'time-millis' } },
    { name: 'timeMicros', type: { type: 'long', logicalType: 'time-micros' } },
    { name: 'atMillis', type: { type: 'long', logicalType: 'timestamp-millis' } },
    { name: 'atMicros', type: { type: 'long', logicalType: 'timestamp-micros' } },
    { name: 'atNanos', type: { type: 'long', logicalType: 'timestamp-nanos' } },
    { name: 'localMillis', type: { type: 'long', logicalType: 'local-timestamp-millis' } },
    { name: 'localMicros', type: { type: 'long', logicalType: 'local-timestamp-micros' } },
    { name: 'localNanos', type: { type: 'long', logicalType: 'local-timestamp-nanos' } },
    { name: 'id', type: { type: 'string', logicalType: 'uuid' } },
    { name: 'rawId', type: { type: 'fixed', name: 'Guid', size: 16, logicalType: 'uuid' } },
    { name: 'amount', type: { type: 'bytes', logicalType: 'decimal', precision: 12, scale: 2 } },
    {
      name: 'fixedAmount',
      type: {
        type: 'fixed',
        name: 'Money',
        namespace: 'lab.money',
        size: 8,
        logicalType: 'decimal',
        precision: 18,
        scale: 4,
      },
    },
    { name: 'span', type: { type: 'fixed', name: 'Span', size: 12, logicalType: 'duration' } },
    { name: 'maybeDay', type: ['null', { type: 'int', logicalType: 'date' }], default: null },
  ],
};

const cases = [
  {
    file: 'order.proto',
    text: orderProto,
    args: ['-I', '/usr/include'],
    imported: () =>
      schemaFromProtoText(orderProto, { includePaths: ['/usr/include'] }).types.get('shop.v1.Order'),
    name: 'Order',
  },
  {
    file: 'reading.avsc',
    text: JSON.stringify(everyLogicalType),
    args: [],
    imported: () => schemaFromAvro(JSON.stringify(everyLogicalType)),
    name: 'Reading',
  },
] as const;

describe('schema import --to ts of well-known types and Avro logical types', () => {
  mkdirSync(dir, { recursive: true });

  const modules: string[] = [];
  for (const entry of cases) {
    test(`${entry.file}: the module builds the imported schema`, async () => {
      const input = `${dir}${entry.file}`;
      writeFileSync(input, entry.text);
      const out = `${dir}${entry.file.replace('.', '-')}.ts`;
      const { code, stderr } = await cli([
        'schema',
        'import',
        input,
        ...entry.args,
        '--to',
        'ts',
        '--out',
        out,
      ]);
      expect([code, stderr]).toEqual([0, '']);
      // The module imports the published package; here it is pointed at the sources.
      const text = readFileSync(out, 'utf8').replace(
        /from 'wirekit-ts(\/[a-z-]+)?'/g,
        "from '../../src/index.js'",
      );
      writeFileSync(out, text);
      modules.push(out);
      const built = (await import(out)) as Record<string, Schema>;
      expect(schemaToJson(built[entry.name] as Schema)).toEqual(schemaToJson(entry.imported() as Schema));
    });
  }

  test('both modules compile under the project’s strict options', () => {
    expect(modules).toHaveLength(cases.length);
    const config = ts.getParsedCommandLineOfConfigFile(
      `${root}tsconfig.json`,
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: () => {
          throw new Error('tsconfig.json could not be read');
        },
      },
    );
    if (config === undefined) throw new Error('tsconfig.json could not be read');
    const program = ts.createProgram({ rootNames: modules, options: { ...config.options, noEmit: true } });
    const errors = modules.flatMap((file) =>
      ts
        .getPreEmitDiagnostics(program, program.getSourceFile(file))
        .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`),
    );
    expect(errors).toEqual([]);
  }, 120_000);
});
