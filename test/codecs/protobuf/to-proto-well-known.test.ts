/**
 * toProto of a schema imported from a file that uses protobuf's well-known types (Duration, Any,
 * Empty, FieldMask, Type...): it imports their files and names them by their full name rather than
 * declaring them again in the file's own package, and protoc compiles it to the original's
 * descriptors. A type that has a well-known name but not its shape is refused by name, and so are
 * types of two other packages.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { schemaFromProtoFile } from '../../../src/codecs/protobuf/from-proto-file.js';
import { createProtobufCodec } from '../../../src/codecs/protobuf/index.js';
import { toProto } from '../../../src/schema/export/index.js';
import { t } from '../../../src/schema/index.js';
import type { Schema } from '../../../src/schema/types.js';
import { compareDescriptors, compileProto } from '../../support/proto-equivalence.js';
import { has, withTempDir } from '../../support/tools.js';

const include = '/usr/include';
const fixtures = new URL('../../fixtures/proto-import/', import.meta.url).pathname;

function importJob(): Schema {
  const { types } = schemaFromProtoFile(join(fixtures, 'well-known-uses.proto'), {
    includePaths: [fixtures, include],
  });
  return types.get('jobs.v1.Job') as Schema;
}

describe('toProto names the well-known types it imports', () => {
  test('each used file is imported once, each type named by its full name, none declared', () => {
    const printed = toProto(importJob());
    for (const file of ['any', 'duration', 'empty', 'field_mask', 'timestamp', 'type', 'wrappers']) {
      expect(printed).toContain(`import "google/protobuf/${file}.proto";`);
    }
    // Type names SourceContext, but this file does not: protoc would warn of an unused import.
    expect(printed).not.toContain('source_context.proto');
    expect(printed).toContain('optional google.protobuf.Duration timeout = 2;');
    expect(printed).toContain('map<string, google.protobuf.Duration> spans = 9;');
    expect(printed).toContain('google.protobuf.Syntax syntax = 12;');
    expect(printed).not.toMatch(/^(message|enum) (Duration|Any|Empty|FieldMask|Type|Field|Syntax)\b/m);
    expect(printed).toMatch(/^package jobs\.v1;$/m);
  });

  test('a well-known name without the well-known shape is refused, naming the difference', () => {
    // t.int64() is written as sint64 unless declared: other bytes than duration.proto's int64.
    const Duration = t.object(
      'Duration',
      { seconds: t.field(t.int64(), { id: 1 }), nanos: t.field(t.int32({ proto: 'int32' }), { id: 2 }) },
      { namespace: 'google.protobuf' },
    );
    const Job = t.object('Job', { timeout: t.field(Duration, { id: 1 }) }, { namespace: 'jobs.v1' });
    expect(() => toProto(Job)).toThrow(
      /google\.protobuf\.Duration has the name of a well-known type \(google\/protobuf\/duration\.proto\) but not its shape: field seconds is implicit sint64, where the well-known type has implicit int64/,
    );
    const Empty = t.object('Empty', { note: t.string() }, { namespace: 'google.protobuf' });
    expect(() => toProto(t.object('Job', { e: Empty }, { namespace: 'jobs.v1' }))).toThrow(
      /its fields are note = 1, not none/,
    );
  });

  test('types of two other packages are refused by name, with the way out', () => {
    const Money = t.object('Money', { units: t.int64() }, { namespace: 'common.v1' });
    const Order = t.object('Order', { total: Money }, { namespace: 'shop.v1' });
    expect(() => toProto(Order)).toThrow(
      /the types use shop\.v1 \(shop\.v1\.Order\) and common\.v1 \(common\.v1\.Money\).*give the types one namespace/,
    );
  });
});

describe.skipIf(!has('protoc') || !has('python:google.protobuf'))(
  'toProto of a schema using well-known types: protoc compiles it to the original descriptors',
  () => {
    test('well-known-uses.proto: jobs.v1.Job', () => {
      const schema = importJob();
      withTempDir((dir) => {
        const original = compileProto(dir, [fixtures, include], 'well-known-uses.proto');
        writeFileSync(join(dir, 'printed.proto'), toProto(schema));
        const again = compileProto(dir, [dir, include], 'printed.proto');
        const result = compareDescriptors(original, again, 'printed.proto');
        expect(result.differences).toEqual([]);
        expect(result.compared).toBe(2); // Job and its map's SpansEntry
        // The codec writes the well-known messages as their files declare them: protoc reads
        // wirekit's bytes through the printed file with no field left unknown.
        const codec = createProtobufCodec({ schema });
        const bytes = codec.encode({
          id: 'j1',
          timeout: { seconds: 90n, nanos: 5 },
          details: [{ type_url: 'type.googleapis.com/x.Y', value: Uint8Array.of(8, 1) }],
          nothing: {},
          mask: { paths: ['a.b', 'c'] },
          type: { name: 'T', fields: [], oneofs: ['k'], options: [], syntax: 'SYNTAX_PROTO3' },
          at: new Date('2024-05-06T07:08:09.123Z'),
          maybe: 0,
          spans: { x: { seconds: -1n, nanos: -2 } },
          after: { seconds: 3n, nanos: 0 },
          syntax: 'SYNTAX_PROTO2',
        });
        const decoded = spawnSync(
          'protoc',
          [`-I${dir}`, `-I${include}`, '--decode=jobs.v1.Job', 'printed.proto'],
          { input: bytes, encoding: 'utf8' },
        );
        expect(decoded.stderr).toBe('');
        expect(decoded.stdout).not.toMatch(/^\s*\d+:/m);
        expect(decoded.stdout).toMatch(/seconds: 90/);
        expect(decoded.stdout).toMatch(/paths: "a\.b"/);
      });
    });
  },
);

describe('toProto scopes a nested enum’s values to its message', () => {
  test('two messages may each hold an enum with a value BOOL (google/api label.proto and metric.proto)', () => {
    const labelType = t.enum('ValueType', ['STRING', 'BOOL'], { namespace: 'api.v1.Label', numbers: [0, 1] });
    const metricType = t.enum('ValueType', ['UNSPECIFIED', 'BOOL'], {
      namespace: 'api.v1.Metric',
      numbers: [0, 1],
    });
    const Label = t.object('Label', { type: labelType }, { namespace: 'api.v1' });
    const Metric = t.object('Metric', { type: metricType, labels: t.array(Label) }, { namespace: 'api.v1' });
    const printed = toProto(Metric);
    expect(printed).toContain('message Metric {\n  enum ValueType {\n    UNSPECIFIED = 0;\n    BOOL = 1;');
    expect(printed).toContain('message Label {\n  enum ValueType {\n    STRING = 0;\n    BOOL = 1;');
    // Top-level enums share the package's scope: there the same value is still a clash.
    const A = t.enum('A', ['BOOL', 'X'], { namespace: 'api.v1', numbers: [0, 1] });
    const B = t.enum('B', ['BOOL', 'Y'], { namespace: 'api.v1', numbers: [0, 1] });
    expect(() => toProto(t.object('M', { a: A, b: B }, { namespace: 'api.v1' }))).toThrow(
      /enum B: value BOOL clashes with another type or enum value/,
    );
  });
});
