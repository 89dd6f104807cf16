/**
 * schemaFromProto's files and refusals: every refusal, the reader's syntax errors included, is a
 * SchemaImportError (WK_SCHEMA_IMPORT) with the file, line and column; unknown imports, import
 * cycles, deep nesting, long import chains, 100,000 fields and huge enums end in it or import
 * (maxNodes bounds what one file may declare); schemaFromProtoFile finds imports in include paths as protoc's -I.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { schemaFromProtoFile } from '../../../src/codecs/protobuf/from-proto-file.js';
import { schemaFromProto } from '../../../src/codecs/protobuf/index.js';
import { isWirekitError, SchemaImportError } from '../../../src/errors/index.js';
import type { EnumSchema, ObjectSchema } from '../../../src/schema/types.js';
import { withTempDir } from '../../support/tools.js';

/** What `read` throws, which must be a SchemaImportError. */
function refusalOf(read: () => unknown): SchemaImportError {
  try {
    read();
  } catch (error) {
    if (error instanceof SchemaImportError) return error;
    throw error;
  }
  throw new Error('imported');
}

const files = (entries: Record<string, string>) => (path: string) => entries[path];

describe('schemaFromProto: refusals are SchemaImportErrors with file, line and column', () => {
  test("the reader's syntax error, with the reader's own error as its cause", () => {
    const error = refusalOf(() => schemaFromProto('syntax = "proto3";\nmessage M {\n  int32 = 1;\n}'));
    expect(error).toMatchObject({ code: 'WK_SCHEMA_IMPORT', format: 'protobuf', line: 3, column: 9 });
    expect(error.file).toBeUndefined();
    expect(error.message).toMatch(/^\(text\):3:9: /);
    expect(isWirekitError(error.cause, 'WK_SCHEMA_INVALID')).toBe(true);
    expect(error.inFile('order.proto').message).toMatch(/^order\.proto:3:9: /);
  });

  test('an error in an imported file names that file, as the import names it', () => {
    const error = refusalOf(() =>
      schemaFromProto('syntax = "proto3"; import "dep/a.proto";', {
        imports: files({ 'dep/a.proto': 'syntax = "proto3";\n\nmessage A { strin x = 1; }' }),
      }),
    );
    expect(error).toMatchObject({ file: 'dep/a.proto', line: 3, code: 'WK_SCHEMA_IMPORT' });
    // inFile keeps the imported file's name: the place is in that file.
    expect(error.inFile('root.proto').file).toBe('dep/a.proto');
  });

  test('an unknown import, at its import statement', () => {
    const error = refusalOf(() =>
      schemaFromProto('syntax = "proto3";\nimport "missing.proto";', { searched: '-I proto' }),
    );
    expect(error).toMatchObject({ line: 2, column: 1 });
    expect(error.reason).toBe('import "missing.proto" is not found (looked in -I proto).');
  });

  test('an import cycle is refused where it closes, naming it', () => {
    const error = refusalOf(() =>
      schemaFromProto('syntax = "proto3"; import "a.proto";', {
        imports: files({
          'a.proto': 'syntax = "proto3"; import "b.proto";',
          'b.proto': 'syntax = "proto3";\nimport "a.proto";',
        }),
      }),
    );
    expect(error).toMatchObject({ file: 'b.proto', line: 2 });
    expect(error.reason).toMatch(/import cycle \(a\.proto → b\.proto → a\.proto\)/);
  });

  test('a file importing itself is a cycle too', () => {
    const error = refusalOf(() =>
      schemaFromProto('syntax = "proto3"; import "self.proto";', {
        imports: files({ 'self.proto': 'syntax = "proto3"; import "self.proto";' }),
      }),
    );
    expect(error.reason).toMatch(/self\.proto → self\.proto/);
  });

  test('10,000 messages nested in each other: refused at the reader’s depth, with its place', () => {
    const text = `syntax = "proto3";\n${'message M { '.repeat(10_000)}${'}'.repeat(10_000)}`;
    const error = refusalOf(() => schemaFromProto(text));
    expect(error.reason).toMatch(/nest deeper than 31 levels/);
    expect(error).toMatchObject({ line: 2, column: 12 * 31 + 9 });
  });

  test('an import chain longer than maxFiles is refused; a shorter one reads', () => {
    const chain = (length: number) => (path: string) => {
      const n = Number(/^f(\d+)\.proto$/.exec(path)?.[1]);
      return n < length ? `syntax = "proto3"; import "f${n + 1}.proto";` : 'syntax = "proto3";';
    };
    const root = 'syntax = "proto3"; import "f0.proto";';
    expect(() => schemaFromProto(root, { imports: chain(50), maxFiles: 60 })).not.toThrow();
    const error = refusalOf(() => schemaFromProto(root, { imports: chain(5_000) }));
    expect(error.reason).toMatch(/past the limit of 1000 files \(maxFiles\)/);
  });

  const manyFields = (n: number) =>
    `syntax = "proto3";\nmessage Wide {\n${Array.from({ length: n }, (_, i) => `  int32 f${i} = ${i < 18_999 ? i + 1 : i + 1001};`).join('\n')}\n}`;
  const hugeEnum = (n: number) =>
    `syntax = "proto3";\nenum Huge {\n${Array.from({ length: n }, (_, i) => `  H${i} = ${i};`).join('\n')}\n}`;

  test('100,000 fields and a 100,000-value enum import; past maxNodes they are refused', () => {
    const wide = schemaFromProto(manyFields(100_000)).types.get('Wide') as ObjectSchema;
    expect(wide.fields).toHaveLength(100_000);
    expect((schemaFromProto(hugeEnum(100_000)).types.get('Huge') as EnumSchema).members).toHaveLength(
      100_000,
    );
    const error = refusalOf(() => schemaFromProto(manyFields(100_000), { maxNodes: 50_000 }));
    expect(error.reason).toMatch(/more than 50000 nodes/);
    expect(error.line).toBe(50_002);
    expect(refusalOf(() => schemaFromProto(hugeEnum(100_000), { maxNodes: 1000 })).line).toBe(1002);
  });
});

describe('schemaFromProtoFile: include paths', () => {
  test('imports are looked up in the include paths in order; refusals name the file', () => {
    withTempDir((dir) => {
      for (const folder of ['proto', 'vendor/acme', 'first/acme'])
        mkdirSync(join(dir, folder), { recursive: true });
      writeFileSync(
        join(dir, 'proto/order.proto'),
        'syntax = "proto3";\npackage shop;\nimport "acme/money.proto";\nmessage Order { acme.Money total = 1; }\n',
      );
      writeFileSync(
        join(dir, 'vendor/acme/money.proto'),
        'syntax = "proto3"; package acme; message Money { sint64 micros = 1; }',
      );
      const includePaths = [join(dir, 'first'), join(dir, 'vendor')];
      const { types } = schemaFromProtoFile(join(dir, 'proto/order.proto'), { includePaths });
      expect(types.get('shop.Order')?.kind).toBe('object');
      // Not found: the place is the root file's import line, and the include paths are listed.
      const missing = refusalOf(() =>
        schemaFromProtoFile(join(dir, 'proto/order.proto'), { includePaths: [join(dir, 'first')] }),
      );
      expect(missing).toMatchObject({ file: join(dir, 'proto/order.proto'), line: 3, column: 1 });
      expect(missing.reason).toBe(
        `import "acme/money.proto" is not found (looked in -I ${join(dir, 'first')}).`,
      );
      // The first include path that holds the file wins, as with protoc.
      writeFileSync(join(dir, 'first/acme/money.proto'), 'syntax = "proto3"; package acme; message Money {');
      const broken = refusalOf(() => schemaFromProtoFile(join(dir, 'proto/order.proto'), { includePaths }));
      // A fault inside an imported file names it by its path on disk, which the reader knows.
      expect(broken.file).toBe(join(dir, 'first/acme/money.proto'));
      // A file that does not exist.
      expect(refusalOf(() => schemaFromProtoFile(join(dir, 'none.proto'))).message).toMatch(
        /none\.proto: cannot read the file/,
      );
    });
  });

  test('an import path that leaves the include paths is refused at its import, looked up nowhere', () => {
    withTempDir((dir) => {
      mkdirSync(join(dir, 'inner'));
      writeFileSync(join(dir, 'secret.proto'), 'syntax = "proto3"; message Secret {}');
      writeFileSync(join(dir, 'inner/a.proto'), 'syntax = "proto3";\nimport "../secret.proto";');
      const refused = refusalOf(() => schemaFromProtoFile(join(dir, 'inner/a.proto')));
      expect(refused).toMatchObject({ file: join(dir, 'inner/a.proto'), line: 2, column: 1 });
      expect(refused.reason).toMatch(/import "\.\.\/secret\.proto" must be a path below an include folder/);
    });
  });

  test('each file, the one asked for and each import, is read up to maxFileBytes', () => {
    withTempDir((dir) => {
      const padding = '// padding\n'.repeat(100);
      writeFileSync(join(dir, 'dep.proto'), `syntax = "proto3"; package dep; message D {}\n${padding}`);
      writeFileSync(
        join(dir, 'main.proto'),
        'syntax = "proto3";\nimport "dep.proto";\nmessage M { dep.D d = 1; }',
      );
      const main = join(dir, 'main.proto');
      const imported = refusalOf(() => schemaFromProtoFile(main, { maxFileBytes: 1000 }));
      expect(imported.file).toBe(join(dir, 'dep.proto'));
      expect(imported.reason).toBe('is larger than the limit of 1000 bytes a file may have (maxFileBytes).');
      expect(refusalOf(() => schemaFromProtoFile(main, { maxFileBytes: 50 })).file).toBe(main);
      expect(schemaFromProtoFile(main, { maxFileBytes: 2000 }).types.has('M')).toBe(true);
      // A device that never ends costs the limit, not all memory.
      expect(refusalOf(() => schemaFromProtoFile('/dev/zero', { maxFileBytes: 1 << 20 })).reason).toMatch(
        /larger than the limit of 1048576 bytes/,
      );
    });
  });

  test("Debian's libprotobuf-dev include folder: descriptor.proto and the well-known types read", () => {
    const { types } = schemaFromProtoFile('/usr/include/google/protobuf/descriptor.proto');
    expect(types.get('google.protobuf.FileDescriptorSet')?.kind).toBe('object');
    const kind = types.get('google.protobuf.FieldDescriptorProto.Type') as EnumSchema;
    expect(kind.members[0]).toBe('TYPE_DOUBLE');
    expect(kind.numbers?.[0]).toBe(1);
  });
});
