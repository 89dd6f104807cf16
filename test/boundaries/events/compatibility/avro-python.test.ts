/**
 * Differential test of the Avro rules against an independent implementation: Debian's python3-avro
 * (Apache Avro 1.11, `avro.compatibility.ReaderWriterCompatibilityChecker`). Each pair of schemas
 * (hand-written ones, and a few hundred made by fast-check from a random writer and random edits to
 * it) gets a verdict from both, which must agree; every pair is checked in both directions.
 *
 * The differences that are meant are listed below and asserted as differences, each with its
 * reason, so that they stay known: Python compares record names as written (`a.B` is not `B` in
 * namespace `a`) and reader aliases unqualified, where the Avro spec and Avro Java compare
 * unqualified names and qualified aliases; Python ignores logical types, where wirekit follows
 * the spec on decimals; Python does not check defaults when it parses, wirekit refuses a default
 * that is not a value of its field's type.
 */
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseRegisteredSchema } from '../../../../src/boundaries/events/compatibility/index.js';
import { has, python } from '../../../support/tools.js';
import { avro, record, verdict } from './support.js';

interface PythonVerdict {
  readonly parsed: boolean;
  readonly compatible?: boolean;
  readonly types?: readonly string[];
  readonly error?: string;
}

const checker = `
import json, sys
import avro.schema
from avro.compatibility import ReaderWriterCompatibilityChecker, SchemaCompatibilityType
out = []
for line in sys.stdin:
    pair = json.loads(line)
    try:
        writer = avro.schema.parse(pair["writer"])
        reader = avro.schema.parse(pair["reader"])
    except Exception as e:
        out.append({"parsed": False, "error": type(e).__name__ + ": " + str(e)})
        continue
    result = ReaderWriterCompatibilityChecker().get_compatibility(reader, writer)
    out.append({
        "parsed": True,
        "compatible": result.compatibility is SchemaCompatibilityType.compatible,
        "types": sorted(set(t.name.upper() for t in result.incompatibilities)),
    })
print(json.dumps(out))
`;

function pythonVerdicts(pairs: readonly { writer: string; reader: string }[]): PythonVerdict[] {
  const input = pairs.map((pair) => JSON.stringify(pair)).join('\n');
  const result = spawnSync(python, ['-c', checker], { input, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`python failed:\n${result.stderr}`);
  return JSON.parse(result.stdout) as PythonVerdict[];
}

interface OurVerdict {
  readonly parsed: boolean;
  readonly compatible?: boolean;
  readonly types?: readonly string[];
}

function ourVerdict(writer: string, reader: string): OurVerdict {
  try {
    parseRegisteredSchema({ schema: writer });
    parseRegisteredSchema({ schema: reader });
  } catch {
    return { parsed: false };
  }
  const result = verdict('AVRO', writer, reader);
  return { parsed: true, compatible: result.compatible, types: result.errorTypes };
}

const color = (symbols: string[], extra: Record<string, unknown> = {}) => ({
  type: 'enum',
  name: 'Color',
  symbols,
  ...extra,
});

/** Pairs both implementations should judge alike: [name, writer, reader]. */
const handWritten: [string, unknown, unknown][] = [
  ['identical', record('A', [{ name: 'x', type: 'int' }]), record('A', [{ name: 'x', type: 'int' }])],
  ['field added with default', record('A', []), record('A', [{ name: 'x', type: 'int', default: 1 }])],
  ['field added without default', record('A', []), record('A', [{ name: 'x', type: 'int' }])],
  [
    'field renamed through an alias',
    record('A', [{ name: 'a', type: 'int' }]),
    record('A', [{ name: 'b', type: 'int', aliases: ['a'] }]),
  ],
  ['record renamed through an alias', record('A', []), record('B', [], { aliases: ['A'] })],
  ['record renamed', record('A', []), record('B', [])],
  ['int to long', 'int', 'long'],
  ['long to int', 'long', 'int'],
  ['float to double', 'float', 'double'],
  ['string to bytes', 'string', 'bytes'],
  ['enum symbol added', color(['A']), color(['A', 'B'])],
  ['enum symbol removed', color(['A', 'B']), color(['A'])],
  ['enum symbol removed with a reader default', color(['A', 'B']), color(['A', 'Z'], { default: 'Z' })],
  ['fixed resized', { type: 'fixed', name: 'F', size: 4 }, { type: 'fixed', name: 'F', size: 8 }],
  ['array items promoted', { type: 'array', items: 'int' }, { type: 'array', items: 'double' }],
  ['map values narrowed', { type: 'map', values: 'double' }, { type: 'map', values: 'int' }],
  ['union branch removed', ['null', 'int', 'string'], ['null', 'int']],
  ['union branch added', ['null', 'int'], ['null', 'int', 'string']],
  ['plain into union', 'int', ['null', 'long']],
  ['union into plain', ['int', 'long'], 'long'],
  ['nullable into plain', ['null', 'string'], 'string'],
  [
    'recursive list',
    record('Node', [{ name: 'next', type: ['null', 'Node'], default: null }]),
    record('Node', [
      { name: 'next', type: ['null', 'Node'], default: null },
      { name: 'v', type: 'int', default: 0 },
    ]),
  ],
  [
    'recursive list, field without default',
    record('Node', [{ name: 'next', type: ['null', 'Node'], default: null }]),
    record('Node', [
      { name: 'next', type: ['null', 'Node'], default: null },
      { name: 'v', type: 'int' },
    ]),
  ],
  [
    'records, same unqualified name, same namespace',
    record('A', [], { namespace: 'n' }),
    record('A', [], { namespace: 'n' }),
  ],
];

/** Pairs on which the two differ on purpose: [name, writer, reader, python's verdict, ours, why]. */
const meantDifferences: [string, unknown, unknown, string, string, string][] = [
  [
    'a qualified name against the same name in a namespace',
    record('n.A', []),
    record('A', [], { namespace: 'n' }),
    'incompatible',
    'compatible',
    'the spec and Avro Java compare unqualified names; Python compares names as written',
  ],
  [
    'the same record in another namespace',
    record('A', [], { namespace: 'old' }),
    record('A', [], { namespace: 'new' }),
    'compatible',
    'compatible',
    'agreeing, listed beside the case above: Python compares `name` as written, which has no namespace here',
  ],
  [
    'a renamed record whose alias the namespace qualifies',
    record('A', [], { namespace: 'n' }),
    record('B', [], { namespace: 'n', aliases: ['A'] }),
    'incompatible',
    'compatible',
    'aliases take the namespace of their type (spec, Avro Java); Python compares them unqualified',
  ],
  [
    'a decimal whose scale changes',
    { type: 'bytes', logicalType: 'decimal', precision: 10, scale: 2 },
    { type: 'bytes', logicalType: 'decimal', precision: 10, scale: 3 },
    'compatible',
    'incompatible',
    'the spec asks decimals to agree on scale: reading with another rescales every value',
  ],
  [
    'a default of the wrong type',
    record('A', []),
    record('A', [{ name: 'x', type: 'int', default: 'one' }]),
    'compatible',
    'unparsed',
    'the spec asks a default to be a value of its field; Python does not check, wirekit refuses the schema',
  ],
];

const available = has('python:avro.compatibility');

describe.skipIf(!available)('Avro rules against python3-avro', () => {
  test('hand-written pairs, both directions, agree', () => {
    const pairs = handWritten.flatMap(([, writer, reader]) => [
      { writer: avro(writer), reader: avro(reader) },
      { writer: avro(reader), reader: avro(writer) },
    ]);
    const theirs = pythonVerdicts(pairs);
    const disagreements = pairs.flatMap((pair, i) => {
      const ours = ourVerdict(pair.writer, pair.reader);
      const their = theirs[i] as PythonVerdict;
      return ours.parsed === their.parsed && ours.compatible === their.compatible
        ? []
        : [{ pair, ours, their }];
    });
    expect(disagreements).toEqual([]);
    // Not vacuous: both verdicts occur.
    expect(new Set(theirs.map((v) => v.compatible))).toEqual(new Set([true, false]));
  });

  test.each(meantDifferences)(
    'meant difference: %s (%s in Python, %s here)',
    (_name, writer, reader, pythonSays, weSay) => {
      const [their] = pythonVerdicts([{ writer: avro(writer), reader: avro(reader) }]);
      const ours = ourVerdict(avro(writer), avro(reader));
      const word = (v: OurVerdict | PythonVerdict | undefined) =>
        v?.parsed !== true ? 'unparsed' : v.compatible ? 'compatible' : 'incompatible';
      expect(word(their)).toBe(pythonSays);
      expect(word(ours)).toBe(weSay);
    },
  );

  test('generated pairs agree, verdict and error types', { timeout: 120_000 }, () => {
    const pairs = fc.sample(pairArbitrary, { numRuns: 400, seed: 14 }).flatMap(([writer, reader]) => [
      { writer: avro(writer), reader: avro(reader) },
      { writer: avro(reader), reader: avro(writer) },
    ]);
    const theirs = pythonVerdicts(pairs);
    const disagreements: unknown[] = [];
    let compatible = 0;
    pairs.forEach((pair, i) => {
      const ours = ourVerdict(pair.writer, pair.reader);
      const their = theirs[i] as PythonVerdict;
      if (ours.compatible) compatible++;
      const agree =
        ours.parsed === their.parsed &&
        ours.compatible === their.compatible &&
        JSON.stringify(ours.types ?? []) === JSON.stringify(their.types ?? []);
      if (!agree) disagreements.push({ pair, ours, their });
    });
    expect(disagreements.slice(0, 5)).toEqual([]);
    const kinds = new Map<string, number>();
    for (const v of theirs) for (const t of v.types ?? []) kinds.set(t, (kinds.get(t) ?? 0) + 1);
    // Every rule family is exercised: Python found each of its error types among the pairs.
    expect([...kinds.keys()].sort()).toEqual([
      'FIXED_SIZE_MISMATCH',
      'MISSING_ENUM_SYMBOLS',
      'MISSING_UNION_BRANCH',
      'NAME_MISMATCH',
      'READER_FIELD_MISSING_DEFAULT_VALUE',
      'TYPE_MISMATCH',
    ]);
    // The generator makes both verdicts in fair numbers, and every pair parses on both sides.
    expect(theirs.every((v) => v.parsed)).toBe(true);
    expect(compatible).toBeGreaterThan(pairs.length / 5);
    expect(compatible).toBeLessThan((pairs.length * 4) / 5);
  });
});

// ---- The generator: a random writer schema, and a reader made from it by random edits. ----

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const primitives = ['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string'];

const typeArbitrary: fc.Arbitrary<Json> = fc.letrec<{ type: Json }>((tie) => ({
  type: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...primitives),
    fc.record({
      type: fc.constant('enum'),
      name: fc.constant('?'),
      symbols: fc.subarray(['A', 'B', 'C', 'D'], { minLength: 1 }),
    }),
    fc.record({ type: fc.constant('fixed'), name: fc.constant('?'), size: fc.integer({ min: 1, max: 4 }) }),
    fc.record({ type: fc.constant('array'), items: tie('type') }),
    fc.record({ type: fc.constant('map'), values: tie('type') }),
    fc.subarray(primitives, { minLength: 1, maxLength: 4 }),
    fc.record({
      type: fc.constant('record'),
      name: fc.constant('?'),
      fields: fc.array(fc.record({ type: tie('type'), withDefault: fc.boolean() }), { maxLength: 4 }),
    }) as fc.Arbitrary<Json>,
  ),
})).type;

const writerArbitrary = fc
  .array(fc.record({ type: typeArbitrary, withDefault: fc.boolean() }), { minLength: 1, maxLength: 5 })
  .map((fields) => finish({ type: 'record', name: '?', fields } as unknown as Json));

/** An edit: which kind, and two numbers that pick where and what. */
const editArbitrary = fc.tuple(fc.integer({ min: 0, max: 11 }), fc.nat(10_000), fc.nat(10_000));

const pairArbitrary = fc
  .tuple(writerArbitrary, fc.array(editArbitrary, { minLength: 1, maxLength: 3 }))
  .map(([writer, edits]): [Json, Json] => {
    let reader = structuredClone(writer);
    for (const edit of edits) reader = applyEdit(reader, edit);
    return [writer, fixDefaults(reader)];
  });

/** Names every named type uniquely (N1, N2, ...), names fields f0..fn, and writes the defaults asked for. */
function finish(schema: Json): Json {
  let counter = 0;
  const walk = (type: Json): Json => {
    if (Array.isArray(type)) return type.map(walk);
    if (typeof type !== 'object' || type === null) return type;
    const out: { [key: string]: Json } = { ...type };
    if (out.name === '?') out.name = `N${++counter}`;
    if (out.type === 'array') out.items = walk(out.items as Json);
    if (out.type === 'map') out.values = walk(out.values as Json);
    if (out.type === 'record') {
      out.fields = (out.fields as { [key: string]: Json }[]).map((field, i): Json => {
        const type = walk(field.type as Json);
        return field.withDefault
          ? { name: `f${i}`, type, default: defaultFor(type) }
          : { name: `f${i}`, type };
      });
    }
    return out;
  };
  return walk(schema);
}

function defaultFor(type: Json): Json {
  if (Array.isArray(type)) return defaultFor(type[0] as Json);
  if (typeof type === 'string') {
    return (
      (
        {
          null: null,
          boolean: false,
          int: 0,
          long: 0,
          float: 0.5,
          double: 0.5,
          bytes: '\u0001',
          string: 's',
        } as Record<string, Json>
      )[type] ?? null
    );
  }
  const spec = type as { [key: string]: Json };
  switch (spec.type) {
    case 'enum':
      return (spec.symbols as string[])[0] as string;
    case 'fixed':
      return 'a'.repeat(spec.size as number);
    case 'array':
      return [];
    case 'map':
      return {};
    case 'record':
      return Object.fromEntries(
        (spec.fields as { name: string; type: Json }[]).map((f) => [f.name, defaultFor(f.type)]),
      );
    default:
      return null;
  }
}

/** Every field default rewritten for the field's (perhaps edited) type, so edits never leave an invalid one. */
function fixDefaults(type: Json): Json {
  if (Array.isArray(type)) return type.map(fixDefaults);
  if (typeof type !== 'object' || type === null) return type;
  const out: { [key: string]: Json } = { ...type };
  if (out.type === 'array') out.items = fixDefaults(out.items as Json);
  if (out.type === 'map') out.values = fixDefaults(out.values as Json);
  if (out.type === 'record') {
    out.fields = (out.fields as { [key: string]: Json }[]).map((field) => {
      const fieldType = fixDefaults(field.type as Json);
      return 'default' in field
        ? { ...field, type: fieldType, default: defaultFor(fieldType) }
        : { ...field, type: fieldType };
    });
  }
  return out;
}

interface Spot {
  readonly get: () => Json;
  readonly set: (value: Json) => void;
  /** A branch of a union: replacing it could repeat a branch or nest a union, which no schema may. */
  readonly inUnion: boolean;
}

/** Every place a type sits in the schema, the root included, in a fixed order. */
function spots(root: { value: Json }): Spot[] {
  const found: Spot[] = [];
  const visit = (get: () => Json, set: (value: Json) => void, inUnion = false): void => {
    found.push({ get, set, inUnion });
    const type = get();
    if (Array.isArray(type)) {
      type.forEach((_, i) =>
        visit(
          () => (get() as Json[])[i] as Json,
          (value) => ((get() as Json[])[i] = value),
          true,
        ),
      );
    } else if (typeof type === 'object' && type !== null) {
      const spec = type as { [key: string]: Json };
      if (spec.type === 'array')
        visit(
          () => (get() as { items: Json }).items,
          (value) => ((get() as { items: Json }).items = value),
        );
      if (spec.type === 'map')
        visit(
          () => (get() as { values: Json }).values,
          (value) => ((get() as { values: Json }).values = value),
        );
      if (spec.type === 'record') {
        (spec.fields as { type: Json }[]).forEach((_, i) => {
          const field = () => (get() as { fields: { type: Json }[] }).fields[i] as { type: Json };
          visit(
            () => field().type,
            (value) => (field().type = value),
          );
        });
      }
    }
  };
  visit(
    () => root.value,
    (value) => (root.value = value),
  );
  return found;
}

const promotion: Record<string, string> = {
  int: 'long',
  long: 'double',
  float: 'double',
  string: 'bytes',
  bytes: 'string',
};
const demotion: Record<string, string> = { long: 'int', double: 'float', float: 'int', boolean: 'int' };

function applyEdit(schema: Json, [kind, where, what]: [number, number, number]): Json {
  const root = { value: schema };
  const all = spots(root);
  const pick = <T>(list: readonly T[]): T | undefined =>
    list.length === 0 ? undefined : list[where % list.length];
  const ofType = (test: (type: Json) => boolean) => all.filter((spot) => test(spot.get()));
  const isSpec = (type: Json, name: string) =>
    typeof type === 'object' && type !== null && !Array.isArray(type) && type.type === name;
  switch (kind) {
    case 0: {
      // A field added, with a default when `what` is even.
      const spot = pick(ofType((t) => isSpec(t, 'record')));
      const spec = spot?.get() as { fields: Json[] } | undefined;
      const type = primitives[what % primitives.length] as string;
      const name = `g${what % 7}`;
      if (spec !== undefined && !spec.fields.some((f) => (f as { name: string }).name === name)) {
        spec.fields.push(what % 2 === 0 ? { name, type, default: defaultFor(type) } : { name, type });
      }
      break;
    }
    case 1: {
      // A field removed.
      const spec = pick(
        ofType((t) => isSpec(t, 'record') && (t as { fields: Json[] }).fields.length > 0),
      )?.get() as { fields: Json[] } | undefined;
      spec?.fields.splice(what % spec.fields.length, 1);
      break;
    }
    case 2: {
      // A field renamed, keeping the old name as an alias when `what` is even.
      const spec = pick(
        ofType((t) => isSpec(t, 'record') && (t as { fields: Json[] }).fields.length > 0),
      )?.get() as { fields: { [key: string]: Json }[] } | undefined;
      const field = spec?.fields[what % spec.fields.length];
      if (field !== undefined) {
        const old = field.name as string;
        field.name = `${old}r`;
        if (what % 2 === 0) field.aliases = [old];
      }
      break;
    }
    case 3: {
      // A type replaced by a primitive.
      pick(all.slice(1).filter((spot) => !spot.inUnion))?.set(primitives[what % primitives.length] as string);
      break;
    }
    case 4: {
      // A primitive promoted or demoted.
      const spot = pick(
        ofType((t) => typeof t === 'string' && (t in promotion || t in demotion)).filter((s) => !s.inUnion),
      );
      const type = spot?.get() as string | undefined;
      if (spot !== undefined && type !== undefined)
        spot.set((what % 2 === 0 ? promotion[type] : demotion[type]) ?? type);
      break;
    }
    case 5: {
      // An enum symbol added, removed, or an enum default set.
      const spec = pick(ofType((t) => isSpec(t, 'enum')))?.get() as
        | { symbols: string[]; default?: string }
        | undefined;
      if (spec === undefined) break;
      if (what % 3 === 0 && !spec.symbols.includes('E')) spec.symbols.push('E');
      else if (what % 3 === 1 && spec.symbols.length > 1) spec.symbols.splice(what % spec.symbols.length, 1);
      else spec.default = spec.symbols[0] as string;
      break;
    }
    case 6: {
      // A fixed resized.
      const spec = pick(ofType((t) => isSpec(t, 'fixed')))?.get() as { size: number } | undefined;
      if (spec !== undefined) spec.size = 1 + ((spec.size + (what % 3)) % 4);
      break;
    }
    case 7: {
      // A union branch added or removed.
      const union = pick(ofType((t) => Array.isArray(t)))?.get() as Json[] | undefined;
      if (union === undefined) break;
      const missing = primitives.filter((p) => !union.includes(p));
      if (what % 2 === 0 && missing.length > 0) union.push(missing[what % missing.length] as string);
      else if (union.length > 1) union.splice(what % union.length, 1);
      break;
    }
    case 8: {
      // A plain primitive made nullable, or a union reduced to one branch.
      const spot = pick(
        all.slice(1).filter((s) => !s.inUnion && (typeof s.get() === 'string' || Array.isArray(s.get()))),
      );
      const type = spot?.get();
      if (typeof type === 'string' && type !== 'null') spot?.set(['null', type]);
      else if (Array.isArray(type)) spot?.set(type[what % type.length] as Json);
      break;
    }
    case 9: {
      // A named type renamed, keeping the old name as an alias when `what` is even.
      const spec = pick(
        ofType((t) => typeof t === 'object' && t !== null && !Array.isArray(t) && typeof t.name === 'string'),
      )?.get() as { [key: string]: Json } | undefined;
      if (spec !== undefined) {
        const old = spec.name as string;
        spec.name = `${old}x`;
        if (what % 2 === 0) spec.aliases = [old];
      }
      break;
    }
    case 10: {
      // An array made a map, or a map an array.
      const spot = pick(ofType((t) => isSpec(t, 'array') || isSpec(t, 'map')));
      const spec = spot?.get() as { [key: string]: Json } | undefined;
      if (spot !== undefined && spec !== undefined) {
        spot.set(
          spec.type === 'array'
            ? { type: 'map', values: spec.items as Json }
            : { type: 'array', items: spec.values as Json },
        );
      }
      break;
    }
    default: {
      // A field given a default, or its default taken away.
      const spec = pick(
        ofType((t) => isSpec(t, 'record') && (t as { fields: Json[] }).fields.length > 0),
      )?.get() as { fields: { [key: string]: Json }[] } | undefined;
      const field = spec?.fields[what % spec.fields.length];
      if (field !== undefined) {
        if ('default' in field) delete field.default;
        else field.default = defaultFor(field.type as Json);
      }
    }
  }
  return root.value;
}
