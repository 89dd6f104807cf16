/**
 * The FlatBuffers codec against the official tools: flatc reads what wirekit writes (a value, and a
 * frame of a stream as a size-prefixed buffer) and wirekit reads what flatc writes, by decode and by
 * view; the Python classes flatc generates from the exported .fbs read wirekit's bytes and write
 * bytes wirekit reads. The codec's own tests are in codec.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createFlatBuffersCodec } from '../../../src/codecs/flatbuffers/index.js';
import { toFlatBuffers } from '../../../src/schema/export/flatbuffers.js';
import { type Category, EveryKind, everyKindValue } from '../../fixtures/every-kind.js';
import { plainView } from '../../support/flatbuffers-view.js';
import { readAll } from '../../support/streams.js';
import { has, python, withTempDir } from '../../support/tools.js';

// Tests poke into decoded values, so values here are loosely typed.
// biome-ignore lint/suspicious/noExplicitAny: see above
type Any = Record<string, any>;

const codec = createFlatBuffersCodec<Any>({ schema: EveryKind });

/** The fixture in flatc's JSON form; 64-bit integers as "__big:N" until `flatcText` unquotes them. */
function flatcJson(): Any {
  const value = everyKindValue();
  const address = (a: { street: string; zip: string }) => ({ street: a.street, zip: a.zip });
  const shape = (s: Any) =>
    s.kind === 'circle' ? { radius: s.radius } : { width: s.width, height: s.height };
  const type = (s: Any) => (s.kind === 'circle' ? 'Circle' : 'Rect');
  const category = (c: Category): Any => ({ name: c.name, children: c.children.map(category) });
  return {
    flag: value.flag,
    i8: value.i8,
    i16: value.i16,
    i32: value.i32,
    u8: value.u8,
    u16: value.u16,
    u32: value.u32,
    i64: `__big:${value.i64}`,
    u64: `__big:${value.u64}`,
    i64n: value.i64n,
    f32: value.f32,
    f64: value.f64,
    price: value.price,
    name: value.name,
    blob: [...value.blob],
    createdAt: value.createdAt.getTime(),
    updatedAt: value.updatedAt.getTime() * 1000,
    color: value.color,
    home: address(value.home),
    tags: value.tags,
    matrix: value.matrix.map((items) => ({ items })),
    scores: Object.entries(value.scores)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([key, v]) => ({ key, value: v })),
    byId: [...value.byId].sort(([a], [b]) => a - b).map(([key, v]) => ({ key, value: address(v) })),
    shape_type: type(value.shape),
    shape: shape(value.shape),
    shapes: value.shapes.map((s) => ({ value_type: type(s), value: shape(s) })),
    extra: JSON.stringify(value.extra),
    legacy: value.legacy,
    category: category(value.category),
  };
}

const flatcText = (json: Any): string => JSON.stringify(json).replace(/"__big:(-?\d+)"/g, '$1');

/** flatc's JSON output, its 64-bit integers (too long for a double) kept as "__big:N" strings. */
const parseFlatc = (text: string): Any => JSON.parse(text.replace(/(:\s*)(-?\d{17,})/g, '$1"__big:$2"'));

function flatc(dir: string, args: readonly string[]): void {
  const result = spawnSync('flatc', args, { cwd: dir, encoding: 'utf8' });
  expect(result.status, `flatc ${args.join(' ')}: ${result.stderr}`).toBe(0);
}

describe.skipIf(!has('flatc'))('flatbuffers: interop with flatc', () => {
  const fbs = toFlatBuffers(EveryKind);

  test('flatc reads what wirekit writes', () => {
    const json = withTempDir((dir) => {
      writeFileSync(join(dir, 'schema.fbs'), fbs);
      writeFileSync(join(dir, 'value.bin'), codec.encode(everyKindValue()));
      flatc(dir, [
        '--json',
        '--strict-json',
        '--defaults-json',
        '--raw-binary',
        '-o',
        'out',
        'schema.fbs',
        '--',
        'value.bin',
      ]);
      return readFileSync(join(dir, 'out', 'value.json'), 'utf8');
    });
    expect(parseFlatc(json)).toEqual(flatcJson());
  });

  test('flatc reads a frame of a wirekit stream as a size-prefixed buffer', async () => {
    const frame = await readAll(codec.encodeStream([everyKindValue()]));
    const json = withTempDir((dir) => {
      writeFileSync(join(dir, 'schema.fbs'), fbs);
      writeFileSync(join(dir, 'frame.bin'), frame);
      flatc(dir, [
        ...['--json', '--strict-json', '--defaults-json', '--raw-binary', '--size-prefixed'],
        ...['-o', 'out', 'schema.fbs', '--', 'frame.bin'],
      ]);
      return readFileSync(join(dir, 'out', 'frame.json'), 'utf8');
    });
    expect(parseFlatc(json)).toEqual(flatcJson());
  });

  test('wirekit reads what flatc writes, by decode and by view', () => {
    const bytes = withTempDir((dir) => {
      writeFileSync(join(dir, 'schema.fbs'), fbs);
      writeFileSync(join(dir, 'value.json'), flatcText(flatcJson()));
      flatc(dir, ['--binary', '-o', 'bin', 'schema.fbs', 'value.json']);
      return new Uint8Array(readFileSync(join(dir, 'bin', 'value.bin')));
    });
    expect(codec.decode(bytes)).toEqual(everyKindValue());
    expect(plainView(EveryKind, codec.view(bytes))).toEqual(everyKindValue());
  });
});

const pythonReader = `
import json, sys
sys.path.insert(0, sys.argv[1])
from EveryKind import EveryKind
from Circle import Circle
from Rect import Rect

r = EveryKind.GetRootAs(bytearray(open(sys.argv[2], 'rb').read()), 0)
def text(b): return None if b is None else b.decode('utf-8')
def shape(kind, table):
    s = (Circle if kind == 1 else Rect)()
    s.Init(table.Bytes, table.Pos)
    return {'radius': s.Radius()} if kind == 1 else {'width': s.Width(), 'height': s.Height()}
def category(c):
    return {'name': text(c.Name()), 'children': [category(c.Children(i)) for i in range(c.ChildrenLength())]}
print(json.dumps({
    'flag': r.Flag(), 'i8': r.I8(), 'u32': r.U32(), 'i64': str(r.I64()), 'u64': str(r.U64()), 'i64n': r.I64n(),
    'f64': r.F64(), 'price': text(r.Price()), 'name': text(r.Name()),
    'blob': [r.Blob(i) for i in range(r.BlobLength())], 'createdAt': r.CreatedAt(), 'updatedAt': r.UpdatedAt(),
    'color': r.Color(), 'home': text(r.Home().Street()), 'work': r.Work() is None,
    'tags': [text(r.Tags(i)) for i in range(r.TagsLength())],
    'matrix': [[r.Matrix(i).Items(j) for j in range(r.Matrix(i).ItemsLength())] for i in range(r.MatrixLength())],
    'scores': [[text(r.Scores(i).Key()), r.Scores(i).Value()] for i in range(r.ScoresLength())],
    'byId': [[r.ById(i).Key(), text(r.ById(i).Value().Street())] for i in range(r.ByIdLength())],
    'nickname': r.Nickname(), 'manager': r.Manager(),
    'shape': [r.ShapeType(), shape(r.ShapeType(), r.Shape())],
    'shapes': [[r.Shapes(i).ValueType(), shape(r.Shapes(i).ValueType(), r.Shapes(i).Value())] for i in range(r.ShapesLength())],
    'extra': json.loads(text(r.Extra())), 'category': category(r.Category()),
}))
`;

const pythonWriter = `
import sys
sys.path.insert(0, sys.argv[1])
import flatbuffers
import EveryKind as E, Address as A, Circle as C, Category as K, EveryKind_Scores_Entry as S

b = flatbuffers.Builder(256)
price, name, street, extra = [b.CreateString(s) for s in ('12.50', 'Zoë 🚀', 'Elm', '{"from":"python"}')]
keys = [b.CreateString(k) for k in ('a', 'b')]
entries = []
for key, value in zip(keys, (1.5, -2.0)):
    S.Start(b); S.AddKey(b, key); S.AddValue(b, value); entries.append(S.End(b))
E.StartScoresVector(b, 2)
for entry in reversed(entries): b.PrependUOffsetTRelative(entry)
scores = b.EndVector()
A.Start(b); A.AddStreet(b, street); home = A.End(b)
C.Start(b); C.AddRadius(b, 0.25); circle = C.End(b)
top = b.CreateString('top')
K.Start(b); K.AddName(b, top); category = K.End(b)
E.Start(b)
E.AddI64(b, -(2 ** 63)); E.AddU64(b, 2 ** 64 - 1); E.AddPrice(b, price); E.AddName(b, name)
E.AddColor(b, 2); E.AddHome(b, home); E.AddScores(b, scores); E.AddShapeType(b, 1); E.AddShape(b, circle)
E.AddExtra(b, extra); E.AddCreatedAt(b, 1709210096789); E.AddCategory(b, category)
b.Finish(E.End(b))
open(sys.argv[2], 'wb').write(b.Output())
`;

describe.skipIf(!has('flatc') || !has('python:flatbuffers'))(
  'flatbuffers: interop with Python flatbuffers',
  () => {
    const generated = (dir: string): void => {
      writeFileSync(join(dir, 'schema.fbs'), toFlatBuffers(EveryKind));
      flatc(dir, ['--python', '-o', 'py', 'schema.fbs']);
    };
    const run = (dir: string, script: string, ...args: string[]): string => {
      writeFileSync(join(dir, 'script.py'), script);
      const result = spawnSync(python, [join(dir, 'script.py'), join(dir, 'py'), ...args], {
        encoding: 'utf8',
      });
      expect(result.status, result.stderr).toBe(0);
      return result.stdout;
    };

    test("generated Python accessors read wirekit's buffer", () => {
      const out = withTempDir((dir) => {
        generated(dir);
        writeFileSync(join(dir, 'value.bin'), codec.encode(everyKindValue()));
        return JSON.parse(run(dir, pythonReader, join(dir, 'value.bin')));
      });
      const value = everyKindValue();
      expect(out).toEqual({
        flag: true,
        i8: -128,
        u32: 4_294_967_295,
        i64: String(value.i64),
        u64: String(value.u64),
        i64n: value.i64n,
        f64: -0.1,
        price: value.price,
        name: value.name,
        blob: [...value.blob],
        createdAt: value.createdAt.getTime(),
        updatedAt: -1000,
        color: 1,
        home: '1 Main St',
        work: true,
        tags: value.tags,
        matrix: value.matrix,
        scores: [
          ['art', -1],
          ['math', 9.5],
        ],
        byId: [
          [-1, ''],
          [7, 'Elm'],
        ],
        nickname: null,
        manager: null,
        shape: [1, { radius: 2 }],
        shapes: [
          [2, { width: 1, height: 2.5 }],
          [1, { radius: 0 }],
        ],
        extra: value.extra,
        category: value.category,
      });
    });

    test('wirekit reads a buffer built by Python flatbuffers', () => {
      const bytes = withTempDir((dir) => {
        generated(dir);
        run(dir, pythonWriter, join(dir, 'out.bin'));
        return new Uint8Array(readFileSync(join(dir, 'out.bin')));
      });
      const decoded = codec.decode(bytes);
      expect(decoded).toMatchObject({
        i64: -(2n ** 63n),
        u64: 2n ** 64n - 1n,
        price: '12.50',
        name: 'Zoë 🚀',
        color: 'blue',
        home: { street: 'Elm', zip: '' },
        scores: { a: 1.5, b: -2 },
        shape: { kind: 'circle', radius: 0.25 },
        extra: { from: 'python' },
        createdAt: new Date(1709210096789),
        category: { name: 'top', children: [] },
        tags: [],
        byId: new Map(),
        version: 'v1',
        manager: null,
      });
      expect(Object.hasOwn(decoded, 'work')).toBe(false);
      expect(plainView(EveryKind, codec.view(bytes))).toEqual(decoded);
    });
  },
);
