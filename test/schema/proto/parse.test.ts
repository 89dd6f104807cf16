/**
 * wirekit's .proto reader: the AST it gives (plain data, faithful to what was written), where it
 * says a text is wrong, names as data, its node bound, and its cost, linear in the text. What
 * protoc makes of the same files is differential.test.ts's; random and mutated texts fuzz.test.ts's.
 */
import { describe, expect, test } from 'vitest';
import { isWirekitError } from '../../../src/errors/index.js';
import {
  linkProto,
  type ProtoFileAst,
  parseProto,
  wellKnownProtoFiles,
} from '../../../src/schema/proto/index.js';
import { expectLinearCost } from '../../support/linear-cost.js';

/** The AST without positions, for comparing with what a test writes out. */
function withoutPositions(ast: ProtoFileAst): unknown {
  return JSON.parse(JSON.stringify(ast, (key, value) => (key === 'at' ? undefined : value)));
}

function refusal(text: string): { line: number; column: number; message: string } {
  try {
    linkProto(parseProto(text), (path) => {
      const known = wellKnownProtoFiles.get(path);
      return known === undefined ? undefined : parseProto(known);
    });
  } catch (error) {
    if (!isWirekitError(error, 'WK_SCHEMA_INVALID')) throw error;
    expect(error.format).toBe('protobuf');
    const [, line, column] = /^\.proto line (\d+), column (\d+): /.exec(error.message) ?? [];
    const before = text.slice(0, error.offset);
    // The offset and the line and column name the same place.
    expect(Number(line)).toBe(before.split('\n').length);
    expect(Number(column)).toBe(before.length - before.lastIndexOf('\n'));
    return { line: Number(line), column: Number(column), message: error.message };
  }
  throw new Error(`accepted: ${text}`);
}

describe('the AST', () => {
  test('a proto2 file, as written, in plain data', () => {
    const ast = parseProto(`syntax = "proto2";
package shop;
import public "a.proto";
option (my.opt).part = { list: [1, -2] nested < name: "x\\x41" > [ext.name]: inf };
message Order {
  required uint64 id = 0x1 [default = 18446744073709551615];
  optional group Line = 2 { repeated string sku = 1; }
  oneof pay { string card = 3; int32 cash = 4; }
  map<string, Order> children = 5;
  extensions 100 to max;
  reserved 10, 20 to 30;
  reserved "old";
  enum Status { option allow_alias = true; NEW = 0; FRESH = 0; VOID = -1; reserved 5; }
}
extend Order { optional int32 level = 100; }
service Orders { rpc Get (stream Order) returns (.shop.Order) { option deprecated = true; } }
`);
    const options = (value: unknown) => [{ name: [{ name: 'default', extension: false }], value }];
    expect(withoutPositions(ast)).toEqual({
      syntax: 'proto2',
      syntaxDeclared: true,
      package: 'shop',
      imports: [{ path: 'a.proto', modifier: 'public' }],
      options: [
        {
          name: [
            { name: 'my.opt', extension: true },
            { name: 'part', extension: false },
          ],
          value: {
            kind: 'aggregate',
            fields: [
              {
                name: 'list',
                extension: false,
                value: {
                  kind: 'list',
                  items: [
                    { kind: 'integer', value: '1' },
                    { kind: 'integer', value: '-2' },
                  ],
                },
              },
              {
                name: 'nested',
                extension: false,
                value: {
                  kind: 'aggregate',
                  fields: [{ name: 'name', extension: false, value: { kind: 'string', value: 'xA' } }],
                },
              },
              {
                name: 'ext.name',
                extension: true,
                value: { kind: 'identifier', value: 'inf', negative: false },
              },
            ],
          },
        },
      ],
      messages: [
        {
          name: 'Order',
          fields: [
            {
              name: 'id',
              number: 1,
              label: 'required',
              type: { kind: 'scalar', scalar: 'uint64' },
              options: options({ kind: 'integer', value: '18446744073709551615' }),
            },
            {
              name: 'line',
              number: 2,
              label: 'optional',
              type: {
                kind: 'group',
                message: {
                  name: 'Line',
                  fields: [
                    {
                      name: 'sku',
                      number: 1,
                      label: 'repeated',
                      type: { kind: 'scalar', scalar: 'string' },
                      options: [],
                    },
                  ],
                  oneofs: [],
                  messages: [],
                  enums: [],
                  extends: [],
                  extensionRanges: [],
                  reserved: { ranges: [], names: [] },
                  options: [],
                },
              },
              options: [],
            },
            { name: 'card', number: 3, type: { kind: 'scalar', scalar: 'string' }, oneof: 0, options: [] },
            { name: 'cash', number: 4, type: { kind: 'scalar', scalar: 'int32' }, oneof: 0, options: [] },
            {
              name: 'children',
              number: 5,
              type: { kind: 'map', key: 'string', value: { kind: 'named', name: 'Order' } },
              options: [],
            },
          ],
          oneofs: [{ name: 'pay', options: [] }],
          messages: [],
          enums: [
            {
              name: 'Status',
              values: [
                { name: 'NEW', number: 0, options: [] },
                { name: 'FRESH', number: 0, options: [] },
                { name: 'VOID', number: -1, options: [] },
              ],
              reserved: { ranges: [{ start: 5, end: 5, toMax: false }], names: [] },
              options: [
                {
                  name: [{ name: 'allow_alias', extension: false }],
                  value: { kind: 'identifier', value: 'true', negative: false },
                },
              ],
            },
          ],
          extends: [],
          extensionRanges: [{ start: 100, end: 536870911, toMax: true, options: [] }],
          reserved: {
            ranges: [
              { start: 10, end: 10, toMax: false },
              { start: 20, end: 30, toMax: false },
            ],
            names: [{ name: 'old' }],
          },
          options: [],
        },
      ],
      enums: [],
      extends: [
        {
          extendee: 'Order',
          fields: [
            {
              name: 'level',
              number: 100,
              label: 'optional',
              type: { kind: 'scalar', scalar: 'int32' },
              options: [],
            },
          ],
        },
      ],
      services: [
        {
          name: 'Orders',
          methods: [
            {
              name: 'Get',
              input: 'Order',
              inputStream: true,
              output: '.shop.Order',
              outputStream: false,
              options: [
                {
                  name: [{ name: 'deprecated', extension: false }],
                  value: { kind: 'identifier', value: 'true', negative: false },
                },
              ],
            },
          ],
          options: [],
        },
      ],
    });
  });

  test('a file without a syntax statement is proto2; positions are where declarations are named', () => {
    const ast = parseProto('// header\nmessage A {\n  optional int32 a = 1;\n}\n');
    expect(ast.syntax).toBe('proto2');
    expect(ast.syntaxDeclared).toBe(false);
    expect(ast.messages[0]?.at).toEqual({ offset: 18, line: 2, column: 9 });
    expect(ast.messages[0]?.fields[0]?.at).toEqual({ offset: 39, line: 3, column: 18 });
  });

  test('strings: escapes decoded, adjacent strings joined', () => {
    const ast = parseProto(
      `syntax = "proto3"; option java_package = "a\\tb" 'c\\'d' "\\101\\x42\\u00e9\\U0001F600";`,
    );
    expect(ast.options[0]?.value).toEqual({ kind: 'string', value: "a\tbc'dABé😀" });
  });
});

describe('where a text is wrong', () => {
  test.each([
    ['a missing semicolon', 'syntax = "proto3";\nmessage A {\n  int32 a = 1\n}', 4, 1],
    ['a bad number', 'syntax = "proto3";\nmessage A { int32 a = 08; }', 2, 24],
    ['a string across lines', 'syntax = "proto3";\noption x = "a\nb";', 2, 14],
    ['an unterminated comment', 'syntax = "proto3";\n\n  /* never closed', 3, 3],
    ['a field number reused', 'syntax = "proto3";\nmessage A {\n int32 a = 1;\n int32 b = 1;\n}', 4, 8],
    ['an undefined type', 'syntax = "proto3";\nmessage A { B b = 1; }', 2, 15],
    ['a name defined twice', 'syntax = "proto3";\nmessage A {}\nenum A { X = 0; }', 3, 6],
  ])('%s', (_name, text, line, column) => {
    expect(refusal(text)).toMatchObject({ line, column });
  });
});

describe('names are data', () => {
  test('a message, field, enum value or package named like a property of Object.prototype is one', () => {
    const text = `syntax = "proto3";
package constructor;
message __proto__ { int32 __proto__ = 1; __proto__ hasOwnProperty = 2; map<string, __proto__> toString = 3; }
enum valueOf { __proto__x = 0; isPrototypeOf = 1; }`;
    const linked = linkProto(parseProto(text), () => undefined);
    const [message] = linked.file.messages;
    expect(message?.name).toBe('__proto__');
    expect(message?.fields.map((field) => field.name)).toEqual(['__proto__', 'hasOwnProperty', 'toString']);
    expect(linked.fieldTypes.get(message?.fields[1] as never)?.fullName).toBe('constructor.__proto__');
    expect(linked.symbols.get('constructor.__proto__.__proto__')?.kind).toBe('field');
    expect(({} as Record<string, unknown>).__proto__x).toBeUndefined();
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });
});

describe('the node bound', () => {
  const file = 'syntax = "proto3"; message A { int32 a = 1; option deprecated = true; } enum E { E0 = 0; }';

  test('counts declarations and option values, and stops at the first past it', () => {
    // message, field, option, enum, enum value: 5 nodes.
    expect(parseProto(file, { maxNodes: 5 }).messages).toHaveLength(1);
    expect(() => parseProto(file, { maxNodes: 4 })).toThrow(
      expect.objectContaining({
        code: 'WK_SCHEMA_INVALID',
        message: expect.stringMatching(/more than 4 nodes/),
      }),
    );
    const aggregate = 'syntax = "proto3"; option (x) = { a: 1 b: [1, 2, 3] c { d: 4 } };';
    // The option, then a, b, its three items, c and d.
    expect(() => parseProto(aggregate, { maxNodes: 7 })).toThrow(
      expect.objectContaining({ code: 'WK_SCHEMA_INVALID' }),
    );
    expect(parseProto(aggregate, { maxNodes: 8 }).options).toHaveLength(1);
  });

  test('a hostile text is refused after as many nodes as the bound, however long it is', () => {
    const fields = Array.from({ length: 200_000 }, (_, i) => `int32 f${i} = ${i + 1};`).join(' ');
    const started = performance.now();
    expect(() => parseProto(`syntax = "proto3"; message A { ${fields} }`, { maxNodes: 1000 })).toThrow(
      expect.objectContaining({ code: 'WK_SCHEMA_INVALID' }),
    );
    // Stopping at the bound, not at the end of 5 MB: far below the parse of the whole.
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('cost', () => {
  const numbered = (n: number) => Array.from({ length: n }, (_, i) => (i < 18_000 ? i + 1 : i + 2_001));

  test.each([
    [
      'fields in a oneof',
      (n: number) =>
        `syntax = "proto3"; message M { oneof o { ${numbered(n)
          .map((number, i) => `int32 f${i} = ${number};`)
          .join(' ')} } }`,
    ],
    [
      'fields in a message',
      (n: number) =>
        `syntax = "proto3"; message M { ${numbered(n)
          .map((number, i) => `int32 f${i} = ${number};`)
          .join(' ')} }`,
    ],
    [
      'messages referring to each other',
      (n: number) =>
        `syntax = "proto3"; ${Array.from({ length: n }, (_, i) => `message M${i} { M${(i + 1) % n} next = 1; }`).join(' ')}`,
    ],
    [
      'enum values and reserved ranges',
      (n: number) =>
        `syntax = "proto3"; enum E { ${Array.from({ length: n }, (_, i) => `V${i} = ${i * 2};`).join(' ')} reserved ${Array.from({ length: n }, (_, i) => i * 2 + 1).join(', ')}; }`,
    ],
  ])('%s: eight times the size costs about eight times the time, not sixty-four', (_name, make) => {
    expectLinearCost((text: string) => linkProto(parseProto(text), () => undefined), make, 5_000);
  });
});
