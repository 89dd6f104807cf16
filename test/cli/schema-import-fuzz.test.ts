/**
 * Bad input through `wirekit schema import`: random bytes, and the fixtures of each language
 * mutated (bytes dropped, repeated, inserted, flipped), given with each `--from` and with none.
 * Whatever comes in, the command either imports it (and then writes both JSON and TypeScript) or
 * ends with exit 1 or 2 and one `wirekit: WK_…` line: never an internal error, never a stack trace.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { cli } from '../support/cli.js';

const fixture = (name: string) =>
  new Uint8Array(readFileSync(new URL(`../fixtures/schema-import/${name}`, import.meta.url)));

const wirekitJson = new TextEncoder().encode(
  JSON.stringify({
    format: 'wirekit-schema',
    version: 1,
    root: { kind: 'object', name: 'P', fields: [{ name: 'x', id: 1, schema: { kind: 'int32' } }] },
  }),
);
/** A FileDescriptorSet's first bytes, so that the sniffer's binary path is fuzzed too. */
const descriptorSet = new Uint8Array([0x0a, 0x09, 0x0a, 0x07, ...new TextEncoder().encode('a.proto')]);

const seeds = [
  fixture('order.proto'),
  fixture('names.proto'),
  fixture('user.avsc'),
  fixture('point.json'),
  wirekitJson,
  descriptorSet,
];

/** One edit of a seed: drop a range, repeat one, insert bytes, or set a byte. */
const mutation = fc.oneof(
  fc.record({ kind: fc.constant('drop' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('repeat' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    bytes: fc.oneof(
      fc.uint8Array({ maxLength: 8 }),
      fc.constantFrom(
        ...['{', '}', '[', ']', '"', ';', '=', '<', '>', '.', '0', '-1', ' repeated ', ' map<'].map((text) =>
          new TextEncoder().encode(text),
        ),
      ),
    ),
  }),
  fc.record({ kind: fc.constant('set' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
);

type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

function mutate(seed: Uint8Array, edits: readonly Mutation[]): Uint8Array {
  let bytes = seed;
  for (const edit of edits) {
    const at = bytes.length === 0 ? 0 : edit.at % bytes.length;
    if (edit.kind === 'drop')
      bytes = new Uint8Array([...bytes.subarray(0, at), ...bytes.subarray(at + edit.length)]);
    else if (edit.kind === 'repeat')
      bytes = new Uint8Array([...bytes.subarray(0, at + edit.length), ...bytes.subarray(at)]);
    else if (edit.kind === 'insert')
      bytes = new Uint8Array([...bytes.subarray(0, at), ...edit.bytes, ...bytes.subarray(at)]);
    else {
      bytes = bytes.slice();
      if (bytes.length > 0) bytes[at] = edit.byte;
    }
  }
  return bytes;
}

const input = fc.oneof(
  fc.uint8Array({ maxLength: 200 }),
  fc
    .tuple(fc.constantFrom(...seeds), fc.array(mutation, { minLength: 1, maxLength: 4 }))
    .map(([seed, edits]) => mutate(seed, edits)),
);

const languages = [undefined, 'wirekit', 'avro', 'proto', 'jsonschema', 'descriptor-set'] as const;

/** The outcome is an import, or a refusal a user can act on. */
async function expectHandled(bytes: Uint8Array, from: string | undefined): Promise<void> {
  const args = ['schema', 'import', '-', ...(from === undefined ? [] : ['--from', from])];
  for (const to of ['json', 'ts']) {
    const { code, stderr } = await cli([...args, '--to', to], bytes);
    if (code === 0) {
      expect(stderr).toBe('');
      continue;
    }
    expect([1, 2]).toContain(code);
    expect(stderr).toMatch(/^wirekit: WK_[A-Z_]+: /);
    expect(stderr).not.toContain('internal error');
    expect(stderr).not.toMatch(/\n\s+at /);
  }
}

describe('wirekit schema import on bad input', () => {
  test.each(languages.map((from) => [from ?? '(sniffed)', from] as const))(
    '--from %s: random and mutated files are imported or refused with a WK_ code, never a crash',
    async (_label, from) => {
      await fc.assert(
        fc.asyncProperty(input, (bytes) => expectHandled(bytes, from)),
        { numRuns: 300 },
      );
    },
    120_000,
  );

  test('every seed itself imports (the mutations start from files that work)', async () => {
    for (const seed of seeds.slice(0, 5)) {
      const { code, stderr } = await cli(['schema', 'import', '-', '--to', 'ts'], seed);
      expect([code, stderr]).toEqual([0, '']);
    }
  });
});
