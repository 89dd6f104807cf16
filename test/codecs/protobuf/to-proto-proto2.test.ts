/**
 * toProto of a schema imported from a proto2 file that proto3 cannot declare (enums whose first
 * number is not 0, required fields, defaults): it prints proto2, and protoc compiles the printed
 * file to the original's descriptors, labels and defaults included. A schema that needs proto2 but
 * has a field of proto3's implicit presence cannot be either, and is refused by name.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { schemaFromProtoFile } from '../../../src/codecs/protobuf/from-proto-file.js';
import { toProto } from '../../../src/schema/export/index.js';
import { type Schema, t } from '../../../src/schema/index.js';
import { compareDescriptors, compileProto } from '../../support/proto-equivalence.js';
import { has, withTempDir } from '../../support/tools.js';

const include = '/usr/include';
const fixtures = new URL('../../fixtures/proto-import/', import.meta.url).pathname;

function imported(path: string, root: string): Schema {
  const { types } = schemaFromProtoFile(join(fixtures, path), { includePaths: [fixtures, include] });
  return types.get(root) as Schema;
}

describe('toProto prints proto2 where the schema needs it', () => {
  test('required fields, defaults and an enum starting at 2 come out as proto2 declares them', () => {
    const printed = toProto(imported('proto2-export.proto', 'archive.v2.Entry'));
    expect(printed).toMatch(/^syntax = "proto2";$/m);
    expect(printed).toContain('  required uint64 key = 1;');
    expect(printed).toContain('  optional Grade second = 4 [default = GRADE_C];');
    expect(printed).toContain('  optional double missing = 10 [default = nan];');
    expect(printed).toContain('  optional bytes raw = 12 [default = "\\000\\001ab\\377"];');
    // proto2 leaves repeated scalars unpacked unless told; the schema's packed list says so.
    expect(printed).toContain('  repeated int32 packed_ints = 16 [packed = true];');
    expect(printed).toContain('  repeated Grade grades = 15;');
    expect(printed).toContain('enum Grade {\n  GRADE_B = 2;');
    expect(printed).not.toContain('// default:');
  });

  test('a proto3 file stays proto3', () => {
    expect(toProto(imported('modern.proto', 'modern.v1.Event'))).toMatch(/^syntax = "proto3";$/m);
  });

  test('an enum not starting at 0 beside a field of implicit presence is refused, naming both', () => {
    const Grade = t.enum('Grade', ['B', 'A'], { numbers: [2, 1] });
    const Entry = t.object('Entry', { grade: Grade, count: t.int32() });
    expect(() => toProto(Entry)).toThrow(
      /enum Grade: its first value is numbered 2, which proto3 cannot declare .* field grade of Entry has proto3's implicit presence/,
    );
    // With every field optional, the same enum is printed as proto2.
    const Optional = t.object('Entry', { grade: t.optional(Grade), count: t.optional(t.int32()) });
    expect(toProto(Optional)).toMatch(/^syntax = "proto2";$/m);
  });
});

describe.skipIf(!has('protoc') || !has('python:google.protobuf'))(
  'toProto of a proto2 schema: protoc compiles it to the original descriptors',
  () => {
    const cases: readonly (readonly [string, string, string, number])[] = [
      // Entry, its Note, its enum Origin, its map's entry, and the top-level enum Grade.
      [fixtures, 'proto2-export.proto', 'archive.v2.Entry', 5],
      [fixtures, 'legacy.proto', 'legacy.v1.Record', 4],
      [include, 'google/protobuf/descriptor.proto', 'google.protobuf.FileDescriptorSet', 31],
    ];
    for (const [folder, path, root, count] of cases) {
      test(`${path}: ${root}`, () => {
        const { types } = schemaFromProtoFile(join(folder, path), { includePaths: [folder, include] });
        const printed = toProto(types.get(root) as Schema);
        withTempDir((dir) => {
          const original = compileProto(dir, [folder, include], path);
          writeFileSync(join(dir, 'printed.proto'), printed);
          const again = compileProto(dir, [dir, include], 'printed.proto');
          const result = compareDescriptors(original, again, 'printed.proto');
          expect(result.differences).toEqual([]);
          expect(result.compared).toBe(count);
        });
      });
    }
  },
);
