/**
 * schemaFromDescriptorSet against protoc: a `.proto` file compiled by `protoc --descriptor_set_out
 * --include_imports` imports as its text does, for the .proto reader's whole corpus (every
 * construct of the language, generated files, the well-known types and descriptor.proto).
 *
 * - The AST built from each descriptor, linked, has the shape the text's has (descriptor-shape.ts:
 *   every name, number, label, resolved type, oneof, nested type, range, enum value, service).
 * - schemaFromDescriptorSet gives the same outcome as schemaFromProto: the same schemas (their JSON
 *   form) and services, or the same refusal, which with `--include_source_info` is placed at the
 *   same line and column.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { type FileDescriptor, fileDescriptorSet } from '../../../src/codecs/protobuf/descriptor-schema.js';
import { DescriptorFiles } from '../../../src/codecs/protobuf/descriptor-to-ast.js';
import {
  createProtobufCodec,
  type ImportedProto,
  schemaFromDescriptorSet,
  schemaFromProto,
} from '../../../src/codecs/protobuf/index.js';
import { isWirekitError, SchemaImportError } from '../../../src/errors/index.js';
import { type Schema, schemaToJson } from '../../../src/schema/index.js';
import {
  type LinkedProto,
  linkProto,
  type ProtoFileAst,
  parseProto,
} from '../../../src/schema/proto/index.js';
import { type CorpusFile, generatedFiles, validFiles } from '../../fixtures/proto-corpus.js';
import { descriptorShape } from '../../schema/proto/descriptor-shape.js';
import { protocDescriptorSet, protocIncludeDir, wellKnownProtoPaths } from '../../support/protoc.js';
import { has, withTempDir } from '../../support/tools.js';

/** Files the import covers today, and the rest of its mapping: each construct once. */
const importable: CorpusFile[] = [
  {
    name: 'order.proto',
    text: `syntax = "proto3";
package shop.v1;
import "google/protobuf/timestamp.proto";
import "google/protobuf/empty.proto";

enum Status { STATUS_UNKNOWN = 0; STATUS_OPEN = 1; STATUS_CLOSED = 2; }

message Order {
  message Line {
    string sku = 1;
    uint32 quantity = 2;
    sfixed64 price_micros = 3;
  }
  reserved 4, 9 to 11;
  reserved "old";
  int64 id = 1;
  string customer = 2 [json_name = "client"];
  repeated Line lines = 3;
  Status status = 5;
  optional sint32 discount = 6;
  map<string, fixed32> tags = 7;
  repeated int32 codes = 8 [packed = false];
  repeated double weights = 12;
  google.protobuf.Timestamp placed_at = 13;
  Order parent = 14;
  bytes note = 15 [deprecated = true];
  map<sfixed32, Line> by_slot = 21;
  repeated Status history = 22;
  map<int64, Status> states = 23;
}

service Orders {
  rpc Get (Order) returns (Order) { option idempotency_level = NO_SIDE_EFFECTS; }
  rpc Watch (google.protobuf.Empty) returns (stream Order);
  rpc Upload (stream Order.Line) returns (google.protobuf.Empty) { option deprecated = true; }
  rpc Chat (stream Order) returns (stream Order) { option idempotency_level = IDEMPOTENT; }
}
`,
  },
  {
    name: 'legacy.proto',
    text: `syntax = "proto2";
package legacy;
message Legacy {
  repeated int32 plain = 1;
  repeated int32 packed = 2 [packed = true];
  optional sint64 total = 3;
  optional string label = 4;
  repeated Legacy children = 5;
}
`,
  },
  {
    name: 'no package, no syntax',
    text: 'message A { optional int32 x = 1; }\nenum E { E_A = 0; E_B = 1; }\n',
  },
];

const available = has('protoc');

/** Each file compiled by protoc to a descriptor set with its imports, by its index. */
function compile(files: readonly CorpusFile[], sourceInfo = false): Uint8Array[] {
  return withTempDir((dir) =>
    files.map((file, i) => {
      const set = protocDescriptorSet(dir, `c${i}.proto`, file.text, { includeImports: true, sourceInfo });
      return new Uint8Array(readFileSync(set));
    }),
  );
}

const included = new Map<string, ProtoFileAst>();
function includedFile(path: string): ProtoFileAst | undefined {
  let file = included.get(path);
  if (file === undefined && wellKnownProtoPaths.includes(path)) {
    file = parseProto(readFileSync(join(protocIncludeDir, path), 'utf8'));
    included.set(path, file);
  }
  return file;
}

/** The set's file `name` as an AST, linked against the set's other files. */
function linkedFromSet(bytes: Uint8Array, name: string): LinkedProto {
  const codec = createProtobufCodec<{ file: FileDescriptor[] }>({ schema: fileDescriptorSet });
  const descriptors = codec.decode(bytes).file;
  const files = new DescriptorFiles();
  const asts = new Map<string, ProtoFileAst>();
  const astOf = (path: string): ProtoFileAst | undefined => {
    const descriptor = descriptors.find((d) => d.name === path);
    if (descriptor === undefined) return undefined;
    let ast = asts.get(path);
    if (ast === undefined) {
      ast = files.file(descriptor);
      asts.set(path, ast);
    }
    return ast;
  };
  return linkProto(astOf(name) as ProtoFileAst, astOf);
}

/** Synthetic oneofs marked alike on both sides, as test/schema/proto/differential.test.ts does. */
function normalized(shape: unknown): unknown {
  return JSON.parse(JSON.stringify(shape), (key, value) => {
    if (key === 'fields' && Array.isArray(value)) {
      return value.map((field: { proto3_optional?: boolean; oneof_index?: unknown }) =>
        field.proto3_optional === true ? { ...field, oneof_index: 'synthetic' } : field,
      );
    }
    return value;
  });
}

type Outcome =
  | { readonly types: Record<string, unknown>; readonly services: unknown }
  | { readonly refused: string; readonly line?: number | undefined };

/** What an import gives, as plain data: the schemas' JSON and the services, or the refusal's reason and place. */
function outcomeOf(run: () => ImportedProto): Outcome {
  try {
    const imported = run();
    return {
      types: Object.fromEntries([...imported.types].map(([name, schema]) => [name, schemaToJson(schema)])),
      services: imported.services.map((service) => ({
        ...service,
        methods: service.methods.map((method) => ({
          ...method,
          input: { name: method.input.name, schema: schemaToJson(method.input.schema) },
          output: { name: method.output.name, schema: schemaToJson(method.output.schema) },
        })),
      })),
    };
  } catch (error) {
    // Lines only: protoc's span of a oneof starts at `oneof`, the reader's position at its name.
    if (error instanceof SchemaImportError) return { refused: error.reason, line: error.line };
    if (!isWirekitError(error, 'WK_SCHEMA_INVALID')) throw error;
    // The .proto reader's own refusal, "line L, column C: reason." (until the import wraps it).
    const match = /^\.proto (?:line (\d+), column \d+: )?(.*)$/s.exec(error.message);
    const line = match?.[1];
    return { refused: match?.[2] ?? error.message, line: line === undefined ? undefined : Number(line) };
  }
}

describe.skipIf(!available)('a descriptor set reads as the text it was compiled from', () => {
  const corpus: CorpusFile[] = [...importable, ...validFiles, ...generatedFiles(120, 43)];

  test('the AST of every descriptor has the shape of the text', { timeout: 120_000 }, () => {
    const sets = compile(corpus);
    const disagreements = corpus.flatMap((file, i) => {
      const ours = normalized(descriptorShape(linkProto(parseProto(file.text), includedFile)));
      const fromSet = normalized(descriptorShape(linkedFromSet(sets[i] as Uint8Array, `c${i}.proto`)));
      return JSON.stringify(ours) === JSON.stringify(fromSet) ? [] : [{ file: file.name, ours, fromSet }];
    });
    expect(disagreements.slice(0, 1)).toEqual([]);
  });

  test("protoc's well-known types and descriptor.proto, from one set", () => {
    const set = withTempDir((dir) => {
      const out = join(dir, 'set.pb');
      execFileSync(
        'protoc',
        [
          `-I${protocIncludeDir}`,
          '--include_source_info',
          `--descriptor_set_out=${out}`,
          ...wellKnownProtoPaths,
        ],
        { stdio: 'pipe' },
      );
      return new Uint8Array(readFileSync(out));
    });
    for (const path of wellKnownProtoPaths) {
      const text = normalized(descriptorShape(linkProto(includedFile(path) as ProtoFileAst, includedFile)));
      expect(normalized(descriptorShape(linkedFromSet(set, path))), path).toEqual(text);
      expect(
        outcomeOf(() => schemaFromDescriptorSet(set, { file: path })),
        path,
      ).toEqual(
        outcomeOf(() =>
          schemaFromProto(readFileSync(join(protocIncludeDir, path), 'utf8'), {
            imports: (p) =>
              wellKnownProtoPaths.includes(p) ? readFileSync(join(protocIncludeDir, p), 'utf8') : undefined,
          }),
        ),
      );
    }
  });

  test('schemaFromDescriptorSet gives what schemaFromProto gives, refusals placed alike', {
    timeout: 120_000,
  }, () => {
    const sets = compile(corpus, true);
    const imports = (path: string) =>
      wellKnownProtoPaths.includes(path) ? readFileSync(join(protocIncludeDir, path), 'utf8') : undefined;
    let imported = 0;
    const disagreements = corpus.flatMap((file, i) => {
      const text = outcomeOf(() => schemaFromProto(file.text, { imports }));
      const set = outcomeOf(() => schemaFromDescriptorSet(sets[i] as Uint8Array));
      if (!('refused' in text)) imported++;
      return JSON.stringify(text) === JSON.stringify(set) ? [] : [{ file: file.name, text, set }];
    });
    expect(disagreements.slice(0, 2)).toEqual([]);
    // The comparison is not only between two refusals: the hand-written files import.
    expect(imported).toBeGreaterThanOrEqual(importable.length);
  });

  test('the services: each rpc with its messages, streaming and idempotency', () => {
    const [set] = compile(importable.slice(0, 1));
    const { types, services } = schemaFromDescriptorSet(set as Uint8Array);
    expect(services.map((s) => s.name)).toEqual(['shop.v1.Orders']);
    const methods = services[0]?.methods ?? [];
    expect(
      methods.map((m) => [
        m.name,
        m.input.name,
        m.output.name,
        m.clientStreaming,
        m.serverStreaming,
        m.idempotencyLevel,
        m.deprecated,
      ]),
    ).toEqual([
      ['Get', 'shop.v1.Order', 'shop.v1.Order', false, false, 'NO_SIDE_EFFECTS', false],
      ['Watch', 'google.protobuf.Empty', 'shop.v1.Order', false, true, 'IDEMPOTENCY_UNKNOWN', false],
      ['Upload', 'shop.v1.Order.Line', 'google.protobuf.Empty', true, false, 'IDEMPOTENCY_UNKNOWN', true],
      ['Chat', 'shop.v1.Order', 'shop.v1.Order', true, true, 'IDEMPOTENT', false],
    ]);
    // The file's own messages are the schemas `types` holds; an imported one is mapped as a message.
    expect(methods[0]?.input.schema).toBe(types.get('shop.v1.Order'));
    expect(methods[2]?.input.schema).toBe(types.get('shop.v1.Order.Line'));
    expect(schemaToJson(methods[1]?.input.schema as Schema).root).toMatchObject({
      kind: 'object',
      name: 'Empty',
      fields: [],
    });
  });

  test('the file option picks a file of the set; one it does not hold is refused by name', () => {
    const [set] = compile(importable.slice(0, 1));
    const timestamp = schemaFromDescriptorSet(set as Uint8Array, { file: 'google/protobuf/timestamp.proto' });
    expect([...timestamp.types.keys()]).toEqual(['google.protobuf.Timestamp']);
    expect(() => schemaFromDescriptorSet(set as Uint8Array, { file: 'order.proto' })).toThrow(
      /no file named "order\.proto" \(it has "google\/protobuf\/timestamp\.proto", "google\/protobuf\/empty\.proto", "c0\.proto"\)/,
    );
  });

  test('a set compiled without --include_imports: the well-known types are built in, other imports are asked for', () => {
    const sets = withTempDir((dir) => {
      writeFileSync(join(dir, 'dep.proto'), 'syntax = "proto3"; package dep; message D { int32 x = 1; }');
      writeFileSync(
        join(dir, 'main.proto'),
        'syntax = "proto3"; import "dep.proto"; import "google/protobuf/timestamp.proto";\n' +
          'message M { dep.D d = 1; google.protobuf.Timestamp at = 2; }',
      );
      writeFileSync(
        join(dir, 'wkt.proto'),
        'syntax = "proto3"; import "google/protobuf/timestamp.proto"; message W { google.protobuf.Timestamp at = 1; }',
      );
      return ['main', 'wkt'].map((name) => {
        const out = join(dir, `${name}.pb`);
        execFileSync('protoc', [
          `-I${dir}`,
          `-I${protocIncludeDir}`,
          `--descriptor_set_out=${out}`,
          `${name}.proto`,
        ]);
        return new Uint8Array(readFileSync(out));
      });
    });
    expect(() => schemaFromDescriptorSet(sets[0] as Uint8Array)).toThrow(
      expect.objectContaining({
        code: 'WK_SCHEMA_IMPORT',
        file: 'main.proto',
        message: expect.stringContaining(
          'imports "dep.proto", which the set does not hold: compile it with protoc --include_imports',
        ),
      }),
    );
    const { types } = schemaFromDescriptorSet(sets[1] as Uint8Array);
    expect(schemaToJson(types.get('W') as Schema).root).toMatchObject({
      fields: [{ name: 'at', schema: { inner: { kind: 'timestamp' } } }],
    });
  });
});
