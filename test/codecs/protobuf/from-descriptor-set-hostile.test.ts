/**
 * schemaFromDescriptorSet on descriptor sets no protoc wrote: bytes that are not one, truncated,
 * with wrong wire types, 10,000 levels deep, a million declarations, names that are not names,
 * numbers and indexes out of range, editions. Each ends in SchemaImportError (WK_SCHEMA_IMPORT),
 * never in another error or a hang; fast-check mutates a real set and makes up bytes to find more.
 * The sets are encoded here by wirekit's own codec from descriptor-schema.ts, or written byte by byte.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { fileDescriptorSet } from '../../../src/codecs/protobuf/descriptor-schema.js';
import { createProtobufCodec, schemaFromDescriptorSet } from '../../../src/codecs/protobuf/index.js';
import { isWirekitError, SchemaImportError } from '../../../src/errors/index.js';

const codec = createProtobufCodec({ schema: fileDescriptorSet });

type Plain = Record<string, unknown>;
const message = (name: string, more: Plain = {}): Plain => ({
  name,
  field: [],
  nestedType: [],
  enumType: [],
  extensionRange: [],
  extension: [],
  oneofDecl: [],
  reservedRange: [],
  reservedName: [],
  ...more,
});
const file = (name: string, more: Plain = {}): Plain => ({
  name,
  syntax: 'proto3',
  dependency: [],
  messageType: [],
  enumType: [],
  service: [],
  extension: [],
  publicDependency: [],
  weakDependency: [],
  ...more,
});
const field = (name: string, number: number, more: Plain = {}): Plain => ({
  name,
  number,
  label: 1,
  type: 5,
  ...more,
});
const setOf = (...files: Plain[]): Uint8Array => codec.encode({ file: files });

/** A set with most of what the import reads: nested types, a map, an enum, a service. */
const realSet = setOf(
  file('shop.proto', {
    package: 'shop',
    messageType: [
      message('Order', {
        field: [
          field('id', 1, { type: 3 }),
          field('lines', 2, { label: 3, type: 11, typeName: '.shop.Order.Line' }),
          field('tags', 3, { label: 3, type: 11, typeName: '.shop.Order.TagsEntry' }),
          field('status', 4, { type: 14, typeName: '.shop.Status' }),
        ],
        nestedType: [
          message('Line', { field: [field('sku', 1, { type: 9 })] }),
          message('TagsEntry', {
            field: [field('key', 1, { type: 9 }), field('value', 2, { type: 7 })],
            options: { mapEntry: true },
          }),
        ],
        reservedRange: [{ start: 9, end: 12 }],
      }),
    ],
    enumType: [
      {
        name: 'Status',
        value: [
          { name: 'UNKNOWN', number: 0 },
          { name: 'OPEN', number: 1 },
        ],
        reservedRange: [],
        reservedName: [],
      },
    ],
    service: [
      {
        name: 'Shop',
        method: [{ name: 'Get', inputType: '.shop.Order', outputType: '.shop.Order' }],
      },
    ],
  }),
);

/** The refusal `run` ends in; anything else (a result, another error) fails the test. */
function refusal(run: () => unknown): SchemaImportError {
  try {
    run();
  } catch (error) {
    if (error instanceof SchemaImportError) return error;
    throw error;
  }
  throw new Error('the set was imported');
}

/** A result or a SchemaImportError, never another error. */
function importsOrRefuses(bytes: Uint8Array): void {
  try {
    schemaFromDescriptorSet(bytes);
  } catch (error) {
    if (!isWirekitError(error, 'WK_SCHEMA_IMPORT')) throw error;
  }
}

/** Protocol Buffers bytes by hand: a tag, a varint, a length-delimited field. */
function varint(value: number): number[] {
  const out: number[] = [];
  let v = value;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}
const tag = (number: number, wire: number) => varint(number * 8 + wire);
const delimited = (number: number, body: readonly number[]) => [
  ...tag(number, 2),
  ...varint(body.length),
  ...body,
];
const text = (number: number, value: string) => delimited(number, [...new TextEncoder().encode(value)]);

describe('a well-formed set', () => {
  test('imports (the hostile cases below are refusals of this one, spoiled)', () => {
    const { types, services } = schemaFromDescriptorSet(realSet);
    expect([...types.keys()].sort()).toEqual(['shop.Order', 'shop.Order.Line', 'shop.Status']);
    expect(services[0]?.methods[0]?.input.schema).toBe(types.get('shop.Order'));
  });
});

describe('bytes that are not a descriptor set', () => {
  test.each([
    ['empty input', new Uint8Array(0), /holds no file/],
    ['text', new TextEncoder().encode('syntax = "proto3";'), /not a readable FileDescriptorSet/],
    ['a length past the end', Uint8Array.from([...tag(1, 2), ...varint(2 ** 31)]), /WK_DECODE_TRUNCATED/],
    ['an end-group tag', Uint8Array.from(tag(1, 4)), /not a readable FileDescriptorSet/],
  ])('%s', (_name, bytes, message) => {
    expect(refusal(() => schemaFromDescriptorSet(bytes)).message).toMatch(message);
  });

  test('every truncation of a real set imports or is refused', () => {
    for (let end = 0; end < realSet.length; end++) importsOrRefuses(realSet.subarray(0, end));
  });

  test('wrong wire types: a file as a varint, a name as a fixed32, a number as bytes', () => {
    const cases = [
      [...tag(1, 0), 5],
      delimited(1, [...tag(1, 5), 1, 2, 3, 4]),
      delimited(1, [
        ...text(1, 'a.proto'),
        ...delimited(4, [...text(1, 'M'), ...delimited(2, [...text(1, 'f'), ...text(3, 'x')])]),
      ]),
    ];
    for (const bytes of cases) {
      expect(refusal(() => schemaFromDescriptorSet(Uint8Array.from(bytes))).code).toBe('WK_SCHEMA_IMPORT');
    }
  });
});

describe('sizes past the limits', () => {
  test('messages nested 10,000 deep are refused at the decode depth, whatever maxDepth says', () => {
    // Each level is `name: "M", nested_type: <the next level>`; lengths are counted from the inside out.
    const name = text(1, 'M');
    const lengths = [name.length];
    for (let depth = 1; depth <= 10_000; depth++) {
      const inner = lengths[depth - 1] as number;
      lengths.push(name.length + tag(3, 2).length + varint(inner).length + inner);
    }
    const body: number[] = [];
    for (let depth = 10_000; depth >= 1; depth--)
      body.push(...name, ...tag(3, 2), ...varint(lengths[depth - 1] as number));
    body.push(...name);
    const bytes = Uint8Array.from(delimited(1, [...text(1, 'deep.proto'), ...delimited(4, body)]));
    expect(refusal(() => schemaFromDescriptorSet(bytes)).message).toMatch(/WK_LIMIT_DEPTH/);
    const deeper = refusal(() => schemaFromDescriptorSet(bytes, { limits: { maxDepth: 100_000 } }));
    expect(deeper.message).toMatch(/WK_LIMIT_DEPTH/);
  });

  test('declarations past maxNodes are refused before any is built', () => {
    const fields = Array.from({ length: 2_000 }, (_, i) => field(`f${i}`, i + 1));
    const bytes = setOf(file('wide.proto', { messageType: [message('Wide', { field: fields })] }));
    expect(schemaFromDescriptorSet(bytes).types.get('Wide')).toBeDefined();
    expect(refusal(() => schemaFromDescriptorSet(bytes, { maxNodes: 1_000 })).message).toMatch(
      /declares 2002 messages, fields, values and ranges; maxNodes is 1000/,
    );
  });

  test('a million empty nested messages are refused by the decode budget, not built', () => {
    // Two bytes each on the wire, some 400 bytes each as decoded objects.
    const count = 1_000_000;
    const head = [...text(1, 'M')];
    const body = new Uint8Array(head.length + 2 * count);
    body.set(head);
    for (let i = 0; i < count; i++) body.set(delimited(3, []), head.length + 2 * i);
    const bytes = Uint8Array.from(delimited(1, [...text(1, 'many.proto'), ...delimited(4, [...body])]));
    expect(refusal(() => schemaFromDescriptorSet(bytes)).message).toMatch(/WK_LIMIT_/);
  });
});

describe('descriptors protoc would not write', () => {
  const refused = (files: Plain[], message: RegExp) =>
    expect(refusal(() => schemaFromDescriptorSet(setOf(...files))).message).toMatch(message);

  test.each([
    ['a dotted message name', [file('a.proto', { messageType: [message('a.b')] })], /"a\.b" is not a name/],
    [
      'an empty field name',
      [file('a.proto', { messageType: [message('M', { field: [field('', 1)] })] })],
      /"" is not a name/,
    ],
    [
      'a type name without its leading dot',
      [
        file('a.proto', {
          messageType: [message('M', { field: [field('m', 1, { type: 11, typeName: 'M' })] })],
        }),
      ],
      /type name "M" is not a full name/,
    ],
    [
      'a field named __proto__',
      [file('a.proto', { messageType: [message('M', { field: [field('__proto__', 1)] })] })],
      /__proto__/,
    ],
    [
      'two fields of one number',
      [file('a.proto', { messageType: [message('M', { field: [field('a', 1), field('b', 1)] })] })],
      /number 1/,
    ],
    [
      'field number 0',
      [file('a.proto', { messageType: [message('M', { field: [field('a', 0)] })] })],
      /field numbers go from 1/,
    ],
    [
      'an unknown type',
      [file('a.proto', { messageType: [message('M', { field: [field('a', 1, { type: 99 })] })] })],
      /type 99 is not a field type/,
    ],
    [
      'an unknown label',
      [file('a.proto', { messageType: [message('M', { field: [field('a', 1, { label: 9 })] })] })],
      /label 9 is not a label/,
    ],
    [
      'a oneof index past the oneofs',
      [file('a.proto', { messageType: [message('M', { field: [field('a', 1, { oneofIndex: 3 })] })] })],
      /oneof_index 3 is not a oneof/,
    ],
    [
      'a public dependency past the dependencies',
      [file('a.proto', { publicDependency: [4] })],
      /dependency index 4 is out of range/,
    ],
    [
      'an empty reserved range',
      [file('a.proto', { messageType: [message('M', { reservedRange: [{ start: 5, end: 5 }] })] })],
      /range 5 to 4 is empty/,
    ],
    [
      'an editions file',
      [file('a.proto', { syntax: 'editions', edition: 1000 })],
      /editions are not imported/,
    ],
    ['an unknown syntax', [file('a.proto', { syntax: 'proto4' })], /syntax "proto4" is not proto2 or proto3/],
    ['two files of one name', [file('a.proto'), file('a.proto')], /two files named "a\.proto"/],
    [
      'a type no file declares',
      [
        file('a.proto', {
          messageType: [message('M', { field: [field('m', 1, { type: 11, typeName: '.N' })] })],
        }),
      ],
      /"\.N" is not defined/,
    ],
    [
      'an import the set lacks',
      [file('a.proto', { dependency: ['b.proto'] })],
      /imports "b\.proto", which the set does not hold/,
    ],
    [
      'an unknown idempotency level',
      [
        file('a.proto', {
          messageType: [message('M')],
          service: [
            {
              name: 'S',
              method: [{ name: 'Get', inputType: '.M', outputType: '.M', options: { idempotencyLevel: 7 } }],
            },
          ],
        }),
      ],
      /idempotency_level 7 is not a level/,
    ],
  ])('%s', (_name, files, message) => refused(files as Plain[], message));

  test('files that import each other are refused, as protoc and the .proto import refuse them', () => {
    const a = file('a.proto', {
      dependency: ['b.proto'],
      publicDependency: [0],
      messageType: [message('A')],
    });
    const b = file('b.proto', {
      dependency: ['a.proto'],
      publicDependency: [0],
      messageType: [message('B')],
    });
    const error = refusal(() => schemaFromDescriptorSet(setOf(b, a)));
    expect([error.code, error.message]).toEqual([
      'WK_SCHEMA_IMPORT',
      'b.proto: import "a.proto" closes an import cycle (a.proto → b.proto → a.proto).',
    ]);
  });

  test('a refusal names the descriptor file it is in', () => {
    const error = refusal(() =>
      schemaFromDescriptorSet(
        setOf(file('shop/v1/bad.proto', { messageType: [message('M', { field: [field('a', 0)] })] })),
      ),
    );
    expect(error.file).toBe('shop/v1/bad.proto');
    expect(error.format).toBe('protobuf');
  });
});

describe('fuzzed', () => {
  test('a real set with bytes changed, cut or spliced imports or is refused', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(realSet.length - 1), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }),
        fc.nat(realSet.length),
        fc.uint8Array({ maxLength: 16 }),
        (changes, cut, inserted) => {
          const bytes = Uint8Array.from(realSet);
          for (const [at, value] of changes) bytes[at] = value;
          importsOrRefuses(Uint8Array.from([...bytes.subarray(0, cut), ...inserted, ...bytes.subarray(cut)]));
        },
      ),
      { numRuns: 2_000, seed: 32 },
    );
  });

  test('random bytes are refused', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => importsOrRefuses(bytes)),
      { numRuns: 2_000, seed: 33 },
    );
  });
});
