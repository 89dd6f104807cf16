/**
 * An either is no level of the value (docs/values.md, maxDepth): the objects and arrays of its
 * branches are. Every format that carries it counts the same levels, so a value nested just within
 * maxDepth is written and read by all of them, and one level more by none, whether the format
 * writes the value as itself (JSON, MessagePack, CBOR) or inside a generated oneof message (Protocol
 * Buffers), generated and interpreted codecs alike.
 */
import { expect, test } from 'vitest';
import type { FormatName } from '../../src/codecs/core/codec.js';
import { createCodec } from '../../src/codecs/registry.js';
import { type Schema, t } from '../../src/schema/index.js';

const Tree: Schema = t.object('Tree', {
  kids: t.array(t.either([t.lazy(() => Tree), t.string()])),
  one: t.optional(
    t.either([t.lazy(() => Tree), t.bool(), t.array(t.either([t.string(), t.lazy(() => Tree)]))]),
  ),
});

/** A chain of n trees, each nested in the last as a list item, an either field, or a list inside one. */
function chain(n: number, through: 'kids' | 'one' | 'list'): unknown {
  let value: unknown = { kids: ['leaf'] };
  for (let i = 0; i < n; i++) {
    value = through === 'kids' ? { kids: [value] } : { kids: [], one: through === 'one' ? value : [value] };
  }
  return value;
}

const formats: readonly FormatName[] = ['json', 'msgpack', 'cbor', 'protobuf'];

test.each(['kids', 'one', 'list'] as const)(
  'nested through %s: every format stops at the same depth',
  (through) => {
    const deepest = (format: FormatName, compile: boolean, side: 'encode' | 'decode') => {
      const codec = createCodec(format, { schema: Tree, compile, limits: { maxDepth: 20 } });
      const writer = createCodec(format, { schema: Tree, compile, limits: { maxDepth: 200 } });
      for (let n = 0; ; n++) {
        try {
          codec.decode(
            side === 'encode' ? codec.encode(chain(n, through)) : writer.encode(chain(n, through)),
          );
        } catch (error) {
          expect((error as { code?: string }).code).toBe('WK_LIMIT_DEPTH');
          return n - 1;
        }
      }
    };
    const found = formats.flatMap((format) =>
      [true, false].flatMap((compile) => [
        deepest(format, compile, 'encode'),
        deepest(format, compile, 'decode'),
      ]),
    );
    expect(new Set(found).size).toBe(1);
    expect(found[0]).toBe(through === 'one' ? 18 : 9);
  },
);
