/**
 * The Protobuf rules, one table per rule family (each row: a writer .proto, a reader .proto,
 * whether the reader reads the writer's messages, and the error types found), Confluent's message
 * indexes, and what the registry refuses to parse. protoc confirms that every .proto text of the
 * tables is a valid file, and that the files the registry refuses as malformed protoc refuses too.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  checkCompatibility,
  messageIndexesOf,
  parseRegisteredSchema,
  protobufMessageAt,
} from '../../../../src/boundaries/events/compatibility/index.js';
import { isWirekitError } from '../../../../src/errors/index.js';
import { has, withTempDir } from '../../../support/tools.js';
import { verdict } from './support.js';

/** A proto3 file of package shop (or other syntax and package) around `body`. */
const proto = (body: string, { syntax = 'proto3', pkg = 'shop' } = {}): string =>
  `syntax = "${syntax}";\n${pkg === '' ? '' : `package ${pkg};\n`}${body}\n`;
const proto2 = (body: string) => proto(body, { syntax: 'proto2' });

interface Row {
  readonly name: string;
  readonly writer: string;
  readonly reader: string;
  readonly compatible: boolean;
  readonly errors?: readonly string[];
  readonly path?: string;
}

/** Every .proto text the tables use, for protoc to confirm. */
const texts = new Set<string>();

function table(rows: readonly Row[]): void {
  for (const row of rows) texts.add(row.writer).add(row.reader);
  test.each(rows)('$name', ({ writer, reader, compatible, errors = [], path }) => {
    const result = verdict('PROTOBUF', writer, reader);
    expect(result.compatible, JSON.stringify(result.issues, null, 1)).toBe(compatible);
    expect(result.errorTypes).toEqual([...errors].sort());
    if (path !== undefined) expect(result.issues.map((issue) => issue.path)).toContain(path);
  });
}

const order = (fields: string) => proto(`message Order {\n${fields}\n}`);

describe('fields by number', () => {
  table([
    { name: 'identical', writer: order('int64 id = 1;'), reader: order('int64 id = 1;'), compatible: true },
    {
      name: 'a field renamed (numbers identify fields)',
      writer: order('int64 id = 1;'),
      reader: order('int64 order_id = 1;'),
      compatible: true,
    },
    {
      name: 'a field added',
      writer: order('int64 id = 1;'),
      reader: order('int64 id = 1;\nstring note = 2;'),
      compatible: true,
    },
    {
      name: 'a field removed',
      writer: order('int64 id = 1;\nstring note = 2;'),
      reader: order('int64 id = 1;'),
      compatible: true,
    },
    {
      name: 'a field renumbered (removed and added)',
      writer: order('int64 id = 1;'),
      reader: order('int64 id = 2;'),
      compatible: true,
    },
    {
      name: 'a number reused with a string for an int',
      writer: order('int64 id = 1;'),
      reader: order('string id = 1;'),
      compatible: false,
      errors: ['FIELD_SCALAR_KIND_CHANGED'],
      path: '#/Order/1',
    },
  ]);
});

describe('scalar encoding groups', () => {
  const same: [string, string][] = [
    ['int32', 'int64'],
    ['int64', 'int32'],
    ['uint32', 'uint64'],
    ['int32', 'uint32'],
    ['bool', 'int32'],
    ['sint32', 'sint64'],
    ['fixed32', 'sfixed32'],
    ['fixed64', 'sfixed64'],
    ['string', 'bytes'],
    ['bytes', 'string'],
  ];
  const across: [string, string][] = [
    ['int32', 'sint32'],
    ['sint64', 'int64'],
    ['fixed32', 'float'],
    ['fixed64', 'double'],
    ['float', 'double'],
    ['int32', 'fixed32'],
    ['int64', 'string'],
    ['fixed32', 'fixed64'],
  ];
  table([
    ...same.map(([w, r]) => ({
      name: `${w} read as ${r}`,
      writer: order(`${w} v = 1;`),
      reader: order(`${r} v = 1;`),
      compatible: true,
    })),
    ...across.map(([w, r]) => ({
      name: `${w} not read as ${r}`,
      writer: order(`${w} v = 1;`),
      reader: order(`${r} v = 1;`),
      compatible: false,
      errors: ['FIELD_SCALAR_KIND_CHANGED'],
    })),
    {
      name: 'an enum read as an int32 (both varints)',
      writer: proto('enum Kind { KIND_A = 0; }\nmessage Order { Kind v = 1; }'),
      reader: order('int32 v = 1;'),
      compatible: true,
    },
    {
      name: 'an enum read as a sint32',
      writer: proto('enum Kind { KIND_A = 0; }\nmessage Order { Kind v = 1; }'),
      reader: order('sint32 v = 1;'),
      compatible: false,
      errors: ['FIELD_SCALAR_KIND_CHANGED'],
    },
  ]);
});

describe('field kinds and message types', () => {
  const withLine = (field: string, line = 'message Line { int32 qty = 1; }') =>
    proto(`${line}\nmessage Order { ${field} }`);
  table([
    {
      name: 'a string read as a message',
      writer: order('string v = 1;'),
      reader: withLine('Line v = 1;'),
      compatible: false,
      errors: ['FIELD_KIND_CHANGED'],
    },
    {
      name: 'a message read as bytes',
      writer: withLine('Line v = 1;'),
      reader: order('bytes v = 1;'),
      compatible: false,
      errors: ['FIELD_KIND_CHANGED', 'MESSAGE_REMOVED'],
    },
    {
      name: 'a message type renamed',
      writer: withLine('Line v = 1;'),
      reader: withLine('Item v = 1;', 'message Item { int32 qty = 1; }'),
      compatible: false,
      errors: ['FIELD_NAMED_TYPE_CHANGED', 'MESSAGE_REMOVED'],
    },
    {
      name: 'a message type spelled qualified',
      writer: withLine('Line v = 1;'),
      reader: withLine('.shop.Line v = 1;'),
      compatible: true,
    },
    {
      name: 'a change inside the message type is found at its own path',
      writer: withLine('Line v = 1;'),
      reader: withLine('Line v = 1;', 'message Line { string qty = 1; }'),
      compatible: false,
      errors: ['FIELD_SCALAR_KIND_CHANGED'],
      path: '#/Line/1',
    },
    {
      name: 'a map read as a map with another value type',
      writer: order('map<string, int32> counts = 1;'),
      reader: order('map<string, string> counts = 1;'),
      compatible: false,
      errors: ['FIELD_SCALAR_KIND_CHANGED'],
    },
    {
      name: 'a map whose value widens in its group',
      writer: order('map<string, int32> counts = 1;'),
      reader: order('map<string, int64> counts = 1;'),
      compatible: true,
    },
    {
      name: 'a map read as a scalar',
      writer: order('map<string, int32> counts = 1;'),
      reader: order('int32 counts = 1;'),
      compatible: false,
      errors: ['FIELD_KIND_CHANGED'],
    },
    {
      name: 'a well-known type read as a message of the same name that differs',
      writer: proto(
        'import "google/protobuf/timestamp.proto";\nmessage Order { google.protobuf.Timestamp at = 1; }',
      ),
      reader: proto('message Timestamp { string seconds = 1; }\nmessage Order { Timestamp at = 1; }'),
      compatible: false,
      errors: ['FIELD_NAMED_TYPE_CHANGED', 'FIELD_SCALAR_KIND_CHANGED'],
    },
    {
      name: 'a well-known type read as a message of the same name and shape',
      writer: proto(
        'import "google/protobuf/timestamp.proto";\nmessage Order { google.protobuf.Timestamp at = 1; }',
      ),
      reader: proto(
        'message Timestamp { int64 seconds = 1; int32 nanos = 2; }\nmessage Order { Timestamp at = 1; }',
      ),
      compatible: true,
    },
    {
      name: 'a group read as a group with another field type',
      writer: proto2('message Order { optional group Item = 1 { optional int32 qty = 2; } }'),
      reader: proto2('message Order { optional group Item = 1 { optional string qty = 2; } }'),
      compatible: false,
      errors: ['FIELD_SCALAR_KIND_CHANGED'],
    },
    {
      name: 'a group read as a message',
      writer: proto2('message Order { optional group Item = 1 { optional int32 qty = 2; } }'),
      reader: proto2('message Item { optional int32 qty = 2; }\nmessage Order { optional Item item = 1; }'),
      compatible: false,
      errors: ['FIELD_KIND_CHANGED'],
    },
  ]);
});

describe('labels', () => {
  table([
    {
      name: 'a numeric field made repeated',
      writer: order('int32 v = 1;'),
      reader: order('repeated int32 v = 1;'),
      compatible: false,
      errors: ['FIELD_NUMERIC_LABEL_CHANGED'],
    },
    {
      name: 'a repeated numeric field made singular',
      writer: order('repeated int32 v = 1;'),
      reader: order('int32 v = 1;'),
      compatible: false,
      errors: ['FIELD_NUMERIC_LABEL_CHANGED'],
    },
    {
      name: 'a string made repeated',
      writer: order('string v = 1;'),
      reader: order('repeated string v = 1;'),
      compatible: true,
    },
    {
      name: 'a message made repeated',
      writer: proto('message Line {}\nmessage Order { Line v = 1; }'),
      reader: proto('message Line {}\nmessage Order { repeated Line v = 1; }'),
      compatible: true,
    },
    {
      name: 'proto3 optional added (presence, same wire)',
      writer: order('int32 v = 1;'),
      reader: order('optional int32 v = 1;'),
      compatible: true,
    },
  ]);
});

describe('proto2 required fields', () => {
  table([
    {
      name: 'a required field added',
      writer: proto2('message Order { optional int32 a = 1; }'),
      reader: proto2('message Order { optional int32 a = 1; required int32 b = 2; }'),
      compatible: false,
      errors: ['REQUIRED_FIELD_ADDED'],
      path: '#/Order/2',
    },
    {
      name: 'a required field removed',
      writer: proto2('message Order { optional int32 a = 1; required int32 b = 2; }'),
      reader: proto2('message Order { optional int32 a = 1; }'),
      compatible: false,
      errors: ['REQUIRED_FIELD_REMOVED'],
    },
    {
      name: 'an optional field made required',
      writer: proto2('message Order { optional string a = 1; }'),
      reader: proto2('message Order { required string a = 1; }'),
      compatible: false,
      errors: ['REQUIRED_FIELD_ADDED'],
    },
    {
      name: 'a required field made optional',
      writer: proto2('message Order { required string a = 1; }'),
      reader: proto2('message Order { optional string a = 1; }'),
      compatible: true,
    },
  ]);
});

describe('oneofs', () => {
  table([
    {
      name: 'a field moved into a new oneof',
      writer: order('string a = 1;\nstring b = 2;'),
      reader: order('string a = 1;\noneof choice { string b = 2; int32 c = 3; }'),
      compatible: true,
    },
    {
      name: 'two fields moved into one oneof',
      writer: order('string a = 1;\nstring b = 2;'),
      reader: order('oneof choice { string a = 1; string b = 2; }'),
      compatible: false,
      errors: ['MULTIPLE_FIELDS_MOVED_TO_ONEOF'],
      path: '#/Order/choice',
    },
    {
      name: 'a field moved into an existing oneof',
      writer: order('string a = 1;\noneof choice { string b = 2; }'),
      reader: order('oneof choice { string a = 1; string b = 2; }'),
      compatible: false,
      errors: ['FIELD_MOVED_TO_EXISTING_ONEOF'],
    },
    {
      name: 'a member added to a oneof',
      writer: order('oneof choice { string a = 1; }'),
      reader: order('oneof choice { string a = 1; int32 b = 2; }'),
      compatible: true,
    },
    {
      name: 'a member removed from a oneof',
      writer: order('oneof choice { string a = 1; int32 b = 2; }'),
      reader: order('oneof choice { string a = 1; }'),
      compatible: false,
      errors: ['ONEOF_FIELD_REMOVED'],
      path: '#/Order/choice/2',
    },
    {
      name: 'a field moved out of a oneof',
      writer: order('oneof choice { string a = 1; int32 b = 2; }'),
      reader: order('oneof choice { string a = 1; }\nint32 b = 2;'),
      compatible: true,
    },
    {
      name: 'a member of a oneof whose type changes',
      writer: order('oneof choice { string a = 1; }'),
      reader: order('oneof choice { int32 a = 1; }'),
      compatible: false,
      errors: ['FIELD_SCALAR_KIND_CHANGED'],
    },
  ]);
});

describe('messages and package', () => {
  table([
    {
      name: 'a message added',
      writer: order('int32 a = 1;'),
      reader: proto('message Order { int32 a = 1; }\nmessage Refund {}'),
      compatible: true,
    },
    {
      name: 'a message removed',
      writer: proto('message Order { int32 a = 1; }\nmessage Refund {}'),
      reader: order('int32 a = 1;'),
      compatible: false,
      errors: ['MESSAGE_REMOVED'],
      path: '#/Refund',
    },
    {
      name: 'a nested message removed',
      writer: proto('message Order { message Line {} }'),
      reader: proto('message Order {}'),
      compatible: false,
      errors: ['MESSAGE_REMOVED'],
      path: '#/Order/Line',
    },
    {
      name: 'messages reordered (indexes are per schema id)',
      writer: proto('message A {}\nmessage B {}'),
      reader: proto('message B {}\nmessage A {}'),
      compatible: true,
    },
    {
      name: 'the package changed',
      writer: order('int32 a = 1;'),
      reader: proto('message Order { int32 a = 1; }', { pkg: 'store' }),
      compatible: false,
      errors: ['PACKAGE_CHANGED'],
    },
    {
      name: 'an enum value removed (enums are open)',
      writer: proto('enum Kind { KIND_A = 0; KIND_B = 1; }\nmessage Order { Kind k = 1; }'),
      reader: proto('enum Kind { KIND_A = 0; }\nmessage Order { Kind k = 1; }'),
      compatible: true,
    },
  ]);
});

describe('reserved numbers and names (BACKWARD: the reader is newer)', () => {
  table([
    {
      name: 'a field removed and its number reserved',
      writer: order('int32 a = 1;\nstring b = 2;'),
      reader: order('int32 a = 1;\nreserved 2;\nreserved "b";'),
      compatible: true,
    },
    {
      name: 'a reserved number reused',
      writer: order('int32 a = 1;\nreserved 2 to 4;'),
      reader: order('int32 a = 1;\nint64 c = 3;'),
      compatible: false,
      errors: ['RESERVED_NUMBER_REUSED'],
      path: '#/Order/3',
    },
    {
      name: 'a reserved name reused',
      writer: order('int32 a = 1;\nreserved "b";'),
      reader: order('int32 a = 1;\nstring b = 5;'),
      compatible: false,
      errors: ['RESERVED_NAME_REUSED'],
    },
    {
      name: 'a reserved enum number reused',
      writer: proto('enum Kind { KIND_A = 0; reserved 1; }\nmessage Order { Kind k = 1; }'),
      reader: proto('enum Kind { KIND_A = 0; KIND_B = 1; }\nmessage Order { Kind k = 1; }'),
      compatible: false,
      errors: ['RESERVED_NUMBER_REUSED'],
    },
  ]);

  test('FORWARD: removing a field and reserving it passes; the old schema reserving what the new one uses fails', () => {
    const parse = (schema: string) => parseRegisteredSchema({ schemaType: 'PROTOBUF', schema });
    const before = parse(order('int32 a = 1;\nstring b = 2;'));
    const removed = parse(order('int32 a = 1;\nreserved 2;'));
    expect(checkCompatibility(removed, [before], 'FORWARD').compatible).toBe(true);
    const reused = parse(order('int32 a = 1;\nint64 b = 2;'));
    const result = checkCompatibility(reused, [removed], 'FORWARD');
    expect(result.compatible).toBe(false);
    expect(result.messages[0]).toContain('RESERVED_NUMBER_REUSED');
  });
});

describe('message indexes (Confluent framing)', () => {
  const file = proto(`
message A { message A1 {} message A2 { message A2x {} } }
enum E { E_X = 0; }
message B { map<string, int32> m = 1; message B1 {} }
`);
  texts.add(file);

  test.each([
    [[0], 'shop.A'],
    [[], 'shop.A'],
    [[0, 1], 'shop.A.A2'],
    [[0, 1, 0], 'shop.A.A2.A2x'],
    [[1], 'shop.B'],
    [[1, 0], 'shop.B.B1'],
  ] as [number[], string][])('%j is %s, and back', (indexes, name) => {
    expect(protobufMessageAt(file, indexes)).toBe(name);
    expect(messageIndexesOf(file, name)).toEqual(indexes.length === 0 ? [0] : indexes);
  });

  test('names without the package or with a leading dot', () => {
    expect(messageIndexesOf(file, 'A.A2')).toEqual([0, 1]);
    expect(messageIndexesOf(file, '.shop.B.B1')).toEqual([1, 0]);
  });

  test('indexes that point at no message are a frame error; unknown names a schema error', () => {
    for (const indexes of [[2], [0, 5], [-1], [0.5], [1, 0, 0]]) {
      expect(() => protobufMessageAt(file, indexes)).toThrow(
        expect.objectContaining({ code: 'WK_EVENT_FRAME_INVALID' }),
      );
    }
    expect(() => messageIndexesOf(file, 'shop.C')).toThrow(
      expect.objectContaining({ code: 'WK_REGISTRY_SCHEMA_INVALID' }),
    );
    expect(() => messageIndexesOf(file, 'E')).toThrow(
      expect.objectContaining({ code: 'WK_REGISTRY_SCHEMA_INVALID' }),
    );
  });

  test('groups take no index, as in Confluent’s serializer', () => {
    const groups = proto2('message A { optional group G = 1 { optional int32 x = 2; } message N {} }');
    texts.add(groups);
    expect(protobufMessageAt(groups, [0, 0])).toBe('shop.A.N');
  });
});

describe('what the registry refuses', () => {
  const malformed: [string, string][] = [
    ['not a .proto file', 'this is not protobuf'],
    ['an unclosed message', proto('message A { int32 a = 1;')],
    ['two fields with one number', order('int32 a = 1;\nint32 b = 1;')],
    ['field number 0', order('int32 a = 0;')],
    ['a field number past the maximum', order('int32 a = 536870912;')],
    ['a field number Protobuf keeps for itself', order('int32 a = 19500;')],
    ['an undefined type', order('Missing a = 1;')],
    ['a type defined twice', proto('message A {}\nmessage A {}')],
    ['required in proto3', order('required int32 a = 1;')],
    ['an unknown syntax', proto('message A {}', { syntax: 'proto4' })],
    ['messages nested 40 deep', proto(`${'message M { '.repeat(40)}${'}'.repeat(40)}`)],
  ];
  const unsupported: [string, string][] = [
    ['an import of another file (a schema reference)', proto('import "other.proto";\nmessage A {}')],
    ['editions', 'edition = "2023";\nmessage A { int32 a = 1; }'],
  ];
  for (const [, text] of malformed) texts.add(text);

  test.each([...malformed, ...unsupported])('%s', (_name, schema) => {
    let error: unknown;
    try {
      parseRegisteredSchema({ schemaType: 'PROTOBUF', schema });
    } catch (caught) {
      error = caught;
    }
    expect(isWirekitError(error, 'WK_REGISTRY_SCHEMA_INVALID'), String(error)).toBe(true);
  });

  test('schema references are refused, well-known imports and descriptor.proto accepted', () => {
    const references = [{ name: 'other.proto', subject: 'other', version: 1 }];
    expect(() =>
      parseRegisteredSchema({ schemaType: 'PROTOBUF', schema: proto('message A {}'), references }),
    ).toThrow(expect.objectContaining({ code: 'WK_REGISTRY_SCHEMA_INVALID' }));
    const wellKnown = proto(
      [
        ...['any', 'duration', 'empty', 'field_mask', 'struct', 'timestamp', 'wrappers'].map(
          (name) => `import "google/protobuf/${name}.proto";`,
        ),
        'import "google/protobuf/descriptor.proto";',
        'extend google.protobuf.FieldOptions { string label = 50000; }',
        'message A {',
        '  google.protobuf.Any a = 1; google.protobuf.Duration b = 2; google.protobuf.Empty c = 3;',
        '  google.protobuf.FieldMask d = 4; google.protobuf.Struct e = 5; google.protobuf.Timestamp f = 6;',
        '  google.protobuf.Int64Value g = 7 [(label) = "x"];',
        '}',
      ].join('\n'),
    );
    texts.add(wellKnown);
    expect(parseRegisteredSchema({ schemaType: 'PROTOBUF', schema: wellKnown }).schemaType).toBe('PROTOBUF');
  });

  test('canonical form ignores comments and formatting, keeps declaration order', () => {
    const canonical = (schema: string) => parseRegisteredSchema({ schemaType: 'PROTOBUF', schema }).canonical;
    const tidy = proto('message A { int32 a = 1; }\nmessage B {}');
    const messy = `// The orders.\nsyntax   =   "proto3";\npackage shop;\n/* a */ message A {\n  int32 a = 1; // the a\n}\n\nmessage B { }\n`;
    expect(canonical(messy)).toBe(canonical(tidy));
    expect(canonical(proto('message B {}\nmessage A { int32 a = 1; }'))).not.toBe(canonical(tidy));
  });
});

describe.skipIf(!has('protoc'))('protoc agrees on the test files', () => {
  test('every .proto text the tables use compiles, and every malformed one does not', () => {
    const malformed = new Set(
      [...texts].filter((text) => {
        try {
          parseRegisteredSchema({ schemaType: 'PROTOBUF', schema: text });
          return false;
        } catch {
          return true;
        }
      }),
    );
    const verdicts = withTempDir((dir) =>
      [...texts].map((text, i) => {
        const file = `t${i}.proto`;
        writeFileSync(join(dir, file), text);
        try {
          execFileSync('protoc', [`--proto_path=${dir}`, '--descriptor_set_out=/dev/null', file], {
            stdio: 'pipe',
          });
          return { text, compiles: true };
        } catch {
          return { text, compiles: false };
        }
      }),
    );
    const disagreements = verdicts.filter(({ text, compiles }) => compiles === malformed.has(text));
    expect(disagreements).toEqual([]);
    expect(malformed.size).toBeGreaterThan(5);
  });
});
