/**
 * Random and mutated .proto texts: whatever the text, the reader answers with an AST or a
 * WirekitError WK_SCHEMA_INVALID (the registry's parse with WK_REGISTRY_SCHEMA_INVALID), never
 * another error, a stack overflow, a hang or a polluted prototype; and the texts that stress one
 * part of the reader (comments, strings, nesting, aggregates) cost time linear in their length.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, test } from 'vitest';
import { parseRegisteredSchema } from '../../../src/boundaries/events/compatibility/index.js';
import { isWirekitError } from '../../../src/errors/index.js';
import {
  linkProto,
  type ProtoFileAst,
  parseProto,
  wellKnownProtoFiles,
} from '../../../src/schema/proto/index.js';
import { generatedFiles, invalidFiles, validFiles } from '../../fixtures/proto-corpus.js';
import { expectLinearCost } from '../../support/linear-cost.js';

const wellKnown = new Map<string, ProtoFileAst>();
for (const [path, text] of wellKnownProtoFiles) wellKnown.set(path, parseProto(text));

/** Reads `text` as a file and links it; returns what was thrown, if anything. */
function read(text: string): unknown {
  try {
    linkProto(parseProto(text), (path) => wellKnown.get(path));
    return undefined;
  } catch (error) {
    return error;
  }
}

function expectReadOrRefused(text: string): void {
  const error = read(text);
  if (error !== undefined && !isWirekitError(error, 'WK_SCHEMA_INVALID')) {
    throw new Error(`${String(error)}\nfor ${JSON.stringify(text.slice(0, 300))}`);
  }
  if (isWirekitError(error)) expect(error.offset === undefined || error.offset <= text.length).toBe(true);
  let registry: unknown;
  try {
    parseRegisteredSchema({ schemaType: 'PROTOBUF', schema: text });
  } catch (caught) {
    registry = caught;
  }
  if (registry !== undefined && !isWirekitError(registry, 'WK_REGISTRY_SCHEMA_INVALID')) {
    throw new Error(`registry: ${String(registry)}\nfor ${JSON.stringify(text.slice(0, 300))}`);
  }
}

afterEach(() => {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.getPrototypeOf({})).toBe(Object.prototype);
});

const tokens = [
  ...['syntax', 'edition', 'package', 'import', 'public', 'weak', 'option', 'message', 'enum', 'service'],
  ...['rpc', 'returns', 'stream', 'extend', 'extensions', 'reserved', 'oneof', 'map', 'group', 'to', 'max'],
  ...['optional', 'required', 'repeated', 'int32', 'string', 'bytes', 'bool', 'double', '__proto__'],
  ...['constructor', 'A', 'B', 'a.b', '.A', 'A.B', 'google.protobuf.Any', 'inf', 'nan', 'true'],
  ...['=', ';', '{', '}', '[', ']', '(', ')', '<', '>', ',', '.', ':', '-', '/', '/*', '*/', '//\n'],
  ...['0', '1', '-1', '0x1F', '017', '08', '1.5', '1e9', '.5', '19000', '536870911', '536870912'],
  ...['2147483648', '18446744073709551616', '"x"', "'y'", '"proto3"', '"proto2"', '"\\x41"', '"\\q"'],
  ...['"google/protobuf/any.proto"', '"a\nb"', '\u00e9', '\u0000', ' ', '\n', '\t'],
];
const token = fc.constantFrom(...tokens);
const corpus = [...validFiles, ...generatedFiles(60, 5), ...invalidFiles].map((file) => file.text);

describe('whatever the text, an AST or WK_SCHEMA_INVALID', () => {
  test('token soup', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(fc.array(token, { maxLength: 80 }), fc.constantFrom(' ', ''), (words, glue) =>
        expectReadOrRefused(words.join(glue)),
      ),
      { numRuns: 2_000 },
    );
  });

  test('token soup after a syntax statement', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(fc.constantFrom('proto2', 'proto3'), fc.array(token, { maxLength: 80 }), (syntax, words) =>
        expectReadOrRefused(`syntax = "${syntax}";\n${words.join(' ')}`),
      ),
      { numRuns: 2_000 },
    );
  });

  test('any string', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' })),
        (text) => expectReadOrRefused(text),
      ),
      { numRuns: 1_000 },
    );
  });

  const mutation = fc.oneof(
    fc.record({
      kind: fc.constant('delete' as const),
      at: fc.nat(),
      length: fc.integer({ min: 1, max: 12 }),
    }),
    fc.record({
      kind: fc.constant('repeat' as const),
      at: fc.nat(),
      length: fc.integer({ min: 1, max: 40 }),
    }),
    fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), token }),
    fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), token }),
  );

  test('valid and invalid files, mutated', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...corpus),
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        (text, edits) => {
          let mutated = text;
          for (const edit of edits) {
            const at = mutated.length === 0 ? 0 : edit.at % mutated.length;
            if (edit.kind === 'delete') mutated = mutated.slice(0, at) + mutated.slice(at + edit.length);
            else if (edit.kind === 'repeat') mutated = mutated.slice(0, at + edit.length) + mutated.slice(at);
            else if (edit.kind === 'insert')
              mutated = `${mutated.slice(0, at)} ${edit.token} ${mutated.slice(at)}`;
            else {
              // The word at `at` replaced.
              const start = mutated.lastIndexOf(' ', at) + 1;
              const end = mutated.indexOf(' ', at);
              mutated = `${mutated.slice(0, start)}${edit.token}${end === -1 ? '' : mutated.slice(end)}`;
            }
          }
          expectReadOrRefused(mutated);
        },
      ),
      { numRuns: 3_000 },
    );
  });
});

describe('texts that stress one part of the reader cost time linear in their length', () => {
  test.each([
    ['a long line comment', (n: number) => `syntax = "proto3"; //${'x'.repeat(n * 20)}\nmessage A {}`],
    [
      'many block comments across lines',
      (n: number) => `syntax = "proto3"; ${'/* a\n b */ '.repeat(n)}message A {}`,
    ],
    ['an unterminated block comment', (n: number) => `syntax = "proto3"; /*${' \n'.repeat(n * 5)}`],
    ['one string of escapes', (n: number) => `syntax = "proto3"; option x = "${'\\x41\\101\\n'.repeat(n)}";`],
    ['many adjacent strings', (n: number) => `syntax = "proto3"; option x = ${'"ab" '.repeat(n)};`],
    [
      'a wide aggregate option',
      // A fifth as many fields as the others' units: each field builds six objects that live until
      // the parse ends, and at 40,000 fields they outgrow V8's young generation, so the large run
      // pays for copying and promoting them (GC, 2-7× on top) where the small one does not. At
      // 8,000 both sides stay young, and work in the square of the size still shows as 64×.
      (n: number) => {
        const fields = Math.max(1, Math.floor(n / 5));
        return `syntax = "proto3"; option (x) = { ${Array.from({ length: fields }, (_, i) => `f${i}: [${i}, "s"]`).join(' ')} };`;
      },
    ],
    ['a long dotted type name', (n: number) => `syntax = "proto3"; message A { ${'a.'.repeat(n)}B b = 1; }`],
    [
      'many reserved names',
      (n: number) =>
        `syntax = "proto3"; message A { reserved ${Array.from({ length: n }, (_, i) => `"r${i}"`).join(', ')}; }`,
    ],
    [
      'many imports of one file, refused',
      (n: number) => `syntax = "proto3"; ${'import "google/protobuf/any.proto"; '.repeat(n)}`,
    ],
    ['many unbalanced braces', (n: number) => `syntax = "proto3"; message A ${'{ '.repeat(n)}`],
  ])('%s', (_name, make) => {
    expectLinearCost(read, make, 5_000);
  });
});
