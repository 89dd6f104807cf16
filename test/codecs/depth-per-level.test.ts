/**
 * maxDepth counts levels of the value, the same in every format, compiled and interpreted, on encode
 * and on decode: every object, array and map is one level (a union with its variant one, as the
 * value is one object), while optional, nullable, timestamps and scalars are none. How a format
 * lays a level out does not count: Protocol Buffers' generated wrapper messages (the root's
 * `{ value = 1 }`, `_Item`, `_List`, `_Map`), its map entries and union messages, FlatBuffers'
 * wrapper tables stand for the value they hold, and a repeated field is the array's level even
 * though the wire writes no message for it. Arrow has no recursion and a table for a root, so it is
 * not among the formats compared here.
 */
import { describe, expect, test } from 'vitest';
import { type FormatName, formatNames } from '../../src/codecs/core/codec.js';
import { createCodec } from '../../src/codecs/registry.js';
import { type Schema, t } from '../../src/index.js';
import { codeOf } from '../support/code-of.js';

const formats = formatNames.filter((format): format is Exclude<FormatName, 'arrow'> => format !== 'arrow');

const Point = t.object('Point', { x: t.int32() });
const Circle = t.object('Circle', { kind: t.literal('circle'), at: Point });
const Dot = t.object('Dot', { kind: t.literal('dot') });
const Shape = t.union('Shape', 'kind', [Circle, Dot]);
const at = new Date(Date.UTC(2024, 0, 1));

/** [label, schema, value, its levels]: the levels counted by hand, by the rule above. */
const shapes: [string, Schema, unknown, number][] = [
  ['a root scalar', t.int32(), 1, 0],
  ['a root timestamp', t.timestamp(), at, 0],
  ['a root array of scalars', t.array(t.int32()), [1], 1],
  ['a root array of arrays', t.array(t.array(t.int32())), [[1]], 2],
  ['a root map', t.map(t.string(), t.int32()), { k: 1 }, 1],
  ['a root union', Shape, { kind: 'circle', at: { x: 1 } }, 2],
  ['an object of scalars', t.object('A', { a: t.int32(), at: t.timestamp() }), { a: 1, at }, 1],
  ['an object, an array of scalars', t.object('A', { a: t.array(t.int32()) }), { a: [1] }, 2],
  ['an object, an empty array', t.object('A', { a: t.array(t.int32()) }), { a: [] }, 2],
  ['an object, an array of objects', t.object('A', { a: t.array(Point) }), { a: [{ x: 1 }] }, 3],
  ['an object, an array of arrays', t.object('A', { a: t.array(t.array(t.int32())) }), { a: [[1]] }, 3],
  ['an object, an array of optionals', t.object('A', { a: t.array(t.optional(t.int32())) }), { a: [1] }, 2],
  [
    'an object, an array of nullables',
    t.object('A', { a: t.array(t.nullable(t.int32())) }),
    { a: [null] },
    2,
  ],
  ['an object, an optional array', t.object('A', { a: t.optional(t.array(t.int32())) }), { a: [1] }, 2],
  ['an object, a nullable object', t.object('A', { a: t.nullable(Point) }), { a: { x: 1 } }, 2],
  ['an object, an array of timestamps', t.object('A', { a: t.array(t.timestamp()) }), { a: [at] }, 2],
  ['an object, a map of scalars', t.object('A', { a: t.map(t.string(), t.int32()) }), { a: { k: 1 } }, 2],
  ['an object, an empty map', t.object('A', { a: t.map(t.string(), t.int32()) }), { a: {} }, 2],
  [
    'an object, an optional map',
    t.object('A', { a: t.optional(t.map(t.string(), t.int32())) }),
    { a: { k: 1 } },
    2,
  ],
  [
    'an object, a map of maps',
    t.object('A', { a: t.map(t.string(), t.map(t.string(), t.int32())) }),
    { a: { k: { j: 1 } } },
    3,
  ],
  [
    'an object, a map of arrays',
    t.object('A', { a: t.map(t.string(), t.array(t.int32())) }),
    { a: { k: [1] } },
    3,
  ],
  [
    'an object, an int-keyed map of objects',
    t.object('A', { a: t.map(t.int32(), Point) }),
    { a: new Map([[1, { x: 1 }]]) },
    3,
  ],
  ['an object, a union', t.object('A', { a: Shape }), { a: { kind: 'circle', at: { x: 1 } } }, 3],
  ['an object, an array of unions', t.object('A', { a: t.array(Shape) }), { a: [{ kind: 'dot' }] }, 3],
];

/** The smallest maxDepth at which `run` succeeds (searched up to 8), or -1. */
function smallestDepth(run: (maxDepth: number) => unknown): number {
  for (let maxDepth = 0; maxDepth <= 8; maxDepth++) {
    if (codeOf(() => run(maxDepth)) === 'no error') return maxDepth;
  }
  return -1;
}

/**
 * Per format and path: the smallest maxDepth at which `value` encodes, and at which it decodes;
 * one less must be refused with WK_LIMIT_DEPTH (-2 where it is refused with another code).
 */
function depthsFound(
  among: readonly FormatName[],
  schema: Schema,
  value: unknown,
): Record<string, [number, number]> {
  const found: Record<string, [number, number]> = {};
  for (const format of among) {
    for (const compile of [true, false]) {
      const bytes = createCodec(format, { schema, compile }).encode(value as never);
      const codec = (maxDepth: number) => createCodec(format, { schema, compile, limits: { maxDepth } });
      const limit = (run: (maxDepth: number) => unknown) => {
        const smallest = smallestDepth(run);
        return smallest <= 0 || codeOf(() => run(smallest - 1)) === 'WK_LIMIT_DEPTH' ? smallest : -2;
      };
      found[`${format}${compile ? '' : ' (interpreter)'}`] = [
        limit((maxDepth) => codec(maxDepth).encode(value as never)),
        limit((maxDepth) => codec(maxDepth).decode(bytes)),
      ];
    }
  }
  return found;
}

/** `levels` both ways for every path of `found`. */
function everywhere(found: Record<string, unknown>, levels: number): Record<string, [number, number]> {
  return Object.fromEntries(Object.keys(found).map((name) => [name, [levels, levels]]));
}

describe('one level per object, array and map, in every format', () => {
  test.each(shapes)('%s: %#', (_, schema, value, levels) => {
    const found = depthsFound(formats, schema, value);
    expect(found).toEqual(everywhere(found, levels));
  });
});

/** json values nest from where they sit: each of their arrays and objects is one level more. */
const jsonShapes: [string, Schema, unknown, number][] = [
  ['a root json', t.json(), [[1], {}], 2],
  ['an object, json', t.object('A', { a: t.json() }), { a: { k: [1] } }, 3],
  ['an object, an array of json', t.object('A', { a: t.array(t.json()) }), { a: [[1]] }, 3],
  ['an object, a map of json', t.object('A', { a: t.map(t.string(), t.json()) }), { a: { k: { j: 1 } } }, 3],
  [
    'an object, an array of optional json',
    t.object('A', { a: t.array(t.optional(t.json())) }),
    { a: [[]] },
    3,
  ],
];

describe('json values count their own levels from where they sit', () => {
  test.each(jsonShapes)('%s: %#', (_, schema, value, levels) => {
    const found = depthsFound(formats, schema, value);
    expect(found).toEqual(everywhere(found, levels));
  });
});

interface Tree {
  n: number;
  kids: Tree[];
}
const Tree: Schema = t.object('Tree', { n: t.int32(), kids: t.array(t.lazy(() => Tree)) });
interface Link {
  n: number;
  next?: Link;
}
const Link: Schema = t.object('Link', { n: t.int32(), next: t.optional(t.lazy(() => Link)) });

function tree(nodes: number): Tree {
  let node: Tree = { n: nodes, kids: [] };
  for (let n = nodes - 1; n >= 1; n--) node = { n, kids: [node] };
  return node;
}

function chain(nodes: number): Link {
  let node: Link = { n: nodes };
  for (let n = nodes - 1; n >= 1; n--) node = { n, next: node };
  return node;
}

describe('a recursive chain stops at the same depth in every format (default maxDepth 100)', () => {
  // A tree node is two levels (the object and its kids array); the last node's empty array counts too.
  test.each([
    ['a tree node per two levels', Tree, tree, 50],
    ['a linked node per level', Link, chain, 100],
  ] as const)('%s: the deepest chain passes, one node more is WK_LIMIT_DEPTH', (_, schema, make, nodes) => {
    for (const format of formats) {
      for (const compile of [true, false]) {
        const label = `${format}${compile ? '' : ' (interpreter)'}`;
        const codec = createCodec(format, { schema, compile });
        const deeper = createCodec(format, { schema, compile, limits: { maxDepth: 1000 } });
        const fits = make(nodes);
        expect(codec.decode(codec.encode(fits as never)), label).toEqual(fits);
        const tooDeep = make(nodes + 1);
        expect(
          codeOf(() => codec.encode(tooDeep as never)),
          label,
        ).toBe('WK_LIMIT_DEPTH');
        const written = deeper.encode(tooDeep as never);
        expect(
          codeOf(() => codec.decode(written)),
          label,
        ).toBe('WK_LIMIT_DEPTH');
      }
    }
  });
});
