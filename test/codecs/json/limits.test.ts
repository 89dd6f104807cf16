/**
 * The JSON codec held to what every other decoder is held to: the unsafe keys and maxDepth inside
 * json values, maxStringBytes, maxBytesLength, maxElements and the allocation budget (with and
 * without a schema, compiled and interpreted), repeated keys, and an encoder that writes nothing
 * its decoder refuses.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createCodec } from '../../../src/codecs/index.js';
import { assert, type Schema, t, validate } from '../../../src/schema/index.js';
import { Category } from '../../fixtures/every-kind.js';
import { codeOf } from '../../support/code-of.js';
import { chunked, collect } from '../../support/streams.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const Doc = t.object('Doc', { data: t.json() });
const paths = [
  { label: 'compiled', compile: true },
  { label: 'interpreted', compile: false },
] as const;
const jsonCodec = (schema: Schema | undefined, compile = true, limits?: Record<string, number>) =>
  createCodec('json', { schema, compile, ...(limits === undefined ? {} : { limits }) });

/** `levels` arrays, one inside the other, built without recursion. */
function nested(levels: number): unknown {
  let value: unknown[] = [];
  for (let i = 1; i < levels; i++) value = [value];
  return value;
}

describe.each(paths)('JSON codec, json values ($label)', ({ compile }) => {
  const codec = jsonCodec(Doc, compile);

  test.each(['__proto__', 'constructor', 'prototype'])('refuses a %s key inside a json value', (key) => {
    expect(codeOf(() => codec.decode(bytes(`{"data":{"${key}":{"polluted":"yes"}}}`)))).toBe(
      'WK_DECODE_UNSAFE_KEY',
    );
    expect(codeOf(() => codec.decode(bytes(`{"data":[1,{"a":{"${key}":1}}]}`)))).toBe('WK_DECODE_UNSAFE_KEY');
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  test('counts maxDepth inside a json value, from the containers around it', () => {
    const deep = `{"data":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expect(codeOf(() => codec.decode(bytes(deep)))).toBe('WK_LIMIT_DEPTH');
    const limited = jsonCodec(Doc, compile, { maxDepth: 4 });
    // The document is one level, the json value's arrays the rest.
    expect(limited.decode(bytes('{"data":[[[]]]}'))).toEqual({ data: [[[]]] });
    expect(codeOf(() => limited.decode(bytes('{"data":[[[[]]]]}')))).toBe('WK_LIMIT_DEPTH');
  });

  test('encodes a json value nested too deep as WK_LIMIT_DEPTH, never a RangeError', () => {
    expect(codeOf(() => codec.encode({ data: nested(100_000) }))).toBe('WK_LIMIT_DEPTH');
    const cyclic: unknown[] = [];
    cyclic.push(cyclic);
    expect(codeOf(() => codec.encode({ data: cyclic }))).toBe('WK_LIMIT_DEPTH');
  });

  test('writes no key its decoder refuses', () => {
    const value = { data: JSON.parse('{"a":{"__proto__":{"polluted":"yes"}}}') };
    expect(codeOf(() => codec.encode(value))).toBe('WK_ENCODE_UNSUPPORTED');
    expect(codeOf(() => codec.encode({ data: { constructor: 1 } }))).toBe('WK_ENCODE_UNSUPPORTED');
  });

  test('refuses NaN, infinities, undefined and Dates inside a json value, as every format', () => {
    for (const data of [
      [Number.NaN],
      { a: Number.POSITIVE_INFINITY },
      [undefined],
      { a: undefined },
      { d: new Date(0) },
    ])
      expect(
        codeOf(() => codec.encode({ data })),
        JSON.stringify(data),
      ).toBe('WK_VALIDATION_FAILED');
    // 1e400 is JSON text, but no float64: JSON.parse makes Infinity of it.
    expect(codeOf(() => codec.decode(bytes('{"data":[1e400]}')))).toBe('WK_DECODE_SCHEMA_MISMATCH');
  });

  test('refuses a key that appears twice, in records, maps and json values', () => {
    const record = jsonCodec(t.object('A', { a: t.int32(), b: t.optional(t.int32()) }), compile);
    expect(codeOf(() => record.decode(bytes('{"a":1,"a":2}')))).toBe('WK_DECODE_MALFORMED');
    expect(codeOf(() => record.decode(bytes('{"a":1,"b":2,"a":"x"}')))).toBe('WK_DECODE_MALFORMED');
    const map = jsonCodec(t.map(t.string(), t.int32()), compile);
    expect(codeOf(() => map.decode(bytes('{"a":1,"a":2}')))).toBe('WK_DECODE_MALFORMED');
    // The same key spelled with an escape is the same key.
    expect(codeOf(() => map.decode(bytes('{"a":1,"\\u0061":2}')))).toBe('WK_DECODE_MALFORMED');
    expect(codeOf(() => codec.decode(bytes('{"data":{"x":1,"y":{"z":1,"z":1}}}')))).toBe(
      'WK_DECODE_MALFORMED',
    );
    // Equal keys in different objects, and text that only looks like keys, are no repeats.
    expect(map.decode(bytes('{"a":1,"b":2}'))).toEqual({ a: 1, b: 2 });
    expect(codec.decode(bytes('{"data":[{"a":1},{"a":2},":)","\\":"]}'))).toEqual({
      data: [{ a: 1 }, { a: 2 }, ':)', '":'],
    });
    expect(codec.decode(bytes('{ "data" : { "a" : 1 , "b" : [ ] } }'))).toEqual({ data: { a: 1, b: [] } });
  });
});

describe.each(paths)('JSON codec, the limits on size ($label)', ({ compile }) => {
  test('maxStringBytes, counted in UTF-8 bytes, keys and json values included', () => {
    const limits = { maxStringBytes: 10 };
    const long = JSON.stringify('x'.repeat(100));
    expect(codeOf(() => jsonCodec(t.string(), compile, limits).decode(bytes(long)))).toBe('WK_LIMIT_LENGTH');
    expect(codeOf(() => jsonCodec(Doc, compile, limits).decode(bytes(`{"data":${long}}`)))).toBe(
      'WK_LIMIT_LENGTH',
    );
    expect(codeOf(() => jsonCodec(undefined, compile, limits).decode(bytes(`{${long}:1}`)))).toBe(
      'WK_LIMIT_LENGTH',
    );
    // Four characters of three bytes each: 12 bytes.
    expect(codeOf(() => jsonCodec(t.string(), compile, limits).decode(bytes('"€€€€"')))).toBe(
      'WK_LIMIT_LENGTH',
    );
    expect(jsonCodec(t.string(), compile, limits).decode(bytes('"€€€"'))).toBe('€€€');
    // An escape is counted as what it stands for.
    expect(jsonCodec(t.string(), compile, limits).decode(bytes('"\\u0041\\u0042"'))).toBe('AB');
  });

  test('maxBytesLength for base64, which may be longer than maxStringBytes', () => {
    const codec = jsonCodec(t.bytes(), compile, { maxBytesLength: 3, maxStringBytes: 2 });
    expect(codec.decode(bytes('"AAEC"'))).toEqual(new Uint8Array([0, 1, 2]));
    expect(codeOf(() => codec.decode(bytes('"AAECAw=="')))).toBe('WK_LIMIT_LENGTH');
  });

  test('beside a bytes field, every other string is still held to maxStringBytes', () => {
    const schema = t.object('Mixed', { raw: t.bytes(), doc: t.json(), tags: t.map(t.string(), t.int32()) });
    const codec = jsonCodec(schema, compile, { maxStringBytes: 10, maxBytesLength: 100 });
    const raw = JSON.stringify(Buffer.alloc(60).toString('base64'));
    const long = JSON.stringify('x'.repeat(30));
    expect(codec.decode(bytes(`{"raw":${raw},"doc":"short","tags":{}}`))).toMatchObject({ doc: 'short' });
    expect(codeOf(() => codec.decode(bytes(`{"raw":${raw},"doc":[${long}],"tags":{}}`)))).toBe(
      'WK_LIMIT_LENGTH',
    );
    expect(codeOf(() => codec.decode(bytes(`{"raw":${raw},"doc":{${long}:1},"tags":{}}`)))).toBe(
      'WK_LIMIT_LENGTH',
    );
    expect(codeOf(() => codec.decode(bytes(`{"raw":${raw},"doc":1,"tags":{${long}:1}}`)))).toBe(
      'WK_LIMIT_LENGTH',
    );
  });

  test('maxElements: array items and object members, with and without a schema', () => {
    const items = JSON.stringify(Array.from({ length: 100 }, (_, i) => i));
    const limits = { maxElements: 5 };
    expect(codeOf(() => jsonCodec(undefined, compile, limits).decode(bytes(items)))).toBe(
      'WK_LIMIT_ELEMENTS',
    );
    expect(codeOf(() => jsonCodec(t.array(t.int32()), compile, limits).decode(bytes(items)))).toBe(
      'WK_LIMIT_ELEMENTS',
    );
    expect(codeOf(() => jsonCodec(Doc, compile, limits).decode(bytes(`{"data":${items}}`)))).toBe(
      'WK_LIMIT_ELEMENTS',
    );
    expect(jsonCodec(t.array(t.int32()), compile, limits).decode(bytes('[1,2,3,4,5]'))).toEqual([
      1, 2, 3, 4, 5,
    ]);
  });

  test('a string of 16 MiB and 4 bytes is refused at the default limits', () => {
    const text = bytes(JSON.stringify('x'.repeat(16 * 1024 * 1024 + 4)));
    expect(codeOf(() => jsonCodec(undefined, compile).decode(text))).toBe('WK_LIMIT_LENGTH');
    expect(codeOf(() => jsonCodec(t.string(), compile).decode(text))).toBe('WK_LIMIT_LENGTH');
  });

  test('the allocation budget: what JSON.parse would build is charged before it builds it', () => {
    // 2,000 empty arrays cost about 80 KB by core/budget.ts's model.
    const text = bytes(`[${Array.from({ length: 2000 }, () => '[]').join(',')}]`);
    const tight = { maxAllocatedBytes: 40_000 };
    expect(codeOf(() => jsonCodec(undefined, compile, tight).decode(text))).toBe('WK_LIMIT_ALLOCATION');
    expect(codeOf(() => jsonCodec(t.json(), compile, tight).decode(text))).toBe('WK_LIMIT_ALLOCATION');
    expect(codeOf(() => jsonCodec(t.array(t.array(t.int32())), compile, tight).decode(text))).toBe(
      'WK_LIMIT_ALLOCATION',
    );
    expect(jsonCodec(undefined, compile, { maxAllocatedBytes: 200_000 }).decode(text)).toHaveLength(2000);
    // What the reader builds on top of the parsed tree is charged too: a byte array per base64 string.
    const strings = bytes(`[${Array.from({ length: 2000 }, () => '""').join(',')}]`);
    expect(
      jsonCodec(t.array(t.string()), compile, { maxAllocatedBytes: 100_000 }).decode(strings),
    ).toHaveLength(2000);
    expect(
      codeOf(() => jsonCodec(t.array(t.bytes()), compile, { maxAllocatedBytes: 100_000 }).decode(strings)),
    ).toBe('WK_LIMIT_ALLOCATION');
  });

  test('16 M empty arrays are refused quickly, without building them', () => {
    const text = bytes(`[${new Array(16 * 1024 * 1024).fill('[]').join(',')}]`);
    const before = process.memoryUsage().heapUsed;
    const started = performance.now();
    expect(codeOf(() => jsonCodec(undefined, compile).decode(text))).toBe('WK_LIMIT_ALLOCATION');
    expect(codeOf(() => jsonCodec(t.json(), compile).decode(text))).toBe('WK_LIMIT_ALLOCATION');
    // JSON.parse alone builds 1.8 GB of it in 13 s; the scan stops at the budget.
    expect(performance.now() - started).toBeLessThan(5000);
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(400 * 1024 * 1024);
  }, 20_000);

  test('a sequence held whole charges all its lines to one budget; a stream, each line to its own', async () => {
    // 200 empty arrays cost about 8 KB: one line fits 40 KB, twenty do not.
    const codec = jsonCodec(Doc, compile, { maxAllocatedBytes: 40_000 });
    const line = `{"data":[${Array.from({ length: 200 }, () => '[]').join(',')}]}\n`;
    expect(codec.decodeSequence(bytes(line))).toHaveLength(1);
    expect(codeOf(() => codec.decodeSequence(bytes(line.repeat(20))))).toBe('WK_LIMIT_ALLOCATION');
    const schemaless = jsonCodec(undefined, compile, { maxAllocatedBytes: 40_000 });
    expect(codeOf(() => schemaless.decodeSequence(bytes(line.repeat(20))))).toBe('WK_LIMIT_ALLOCATION');
    expect(await collect(codec.decodeStream(chunked(bytes(line.repeat(20)), [4096])))).toHaveLength(20);
  });
});

describe('JSON codec without a schema', () => {
  test('keeps the last of repeated keys, as msgpackr and cbor-x do without a schema', () => {
    expect(jsonCodec(undefined).decode(bytes('{"a":1,"a":2}'))).toEqual({ a: 2 });
  });

  test('refuses the unsafe keys in a text long enough to be scanned, as in a short one', () => {
    const codec = jsonCodec(undefined, true, { maxStringBytes: 30 });
    expect(codeOf(() => codec.decode(bytes(`{"a":[1,2,3],"b":{"__proto__":{"polluted":1}}}`)))).toBe(
      'WK_DECODE_UNSAFE_KEY',
    );
    expect(codeOf(() => codec.decode(bytes(`{"\\u005f_proto__":1, "padding": "................"}`)))).toBe(
      'WK_DECODE_UNSAFE_KEY',
    );
    expect(codeOf(() => codec.decode(bytes(`${'['.repeat(200)}${']'.repeat(200)}`)))).toBe('WK_LIMIT_DEPTH');
  });

  test('the encoder refuses the keys the decoder refuses', () => {
    const codec = jsonCodec(undefined);
    for (const key of ['__proto__', 'constructor', 'prototype'])
      expect(codeOf(() => codec.encode(JSON.parse(`{"a":{"${key}":1}}`)))).toBe('WK_ENCODE_UNSUPPORTED');
  });
});

describe('validate and assert: the unsafe keys in json values and maps', () => {
  test('assert refuses a __proto__ key inside a json value, validate reports it with its path', () => {
    const value = { data: JSON.parse('{"a":[{"__proto__":{"polluted":"yes"}}]}') };
    expect(codeOf(() => assert(Doc, value))).toBe('WK_VALIDATION_FAILED');
    expect(validate(Doc, value)).toEqual([
      expect.objectContaining({ code: 'unsafe_key', path: ['data', 'a', 0, '__proto__'] }),
    ]);
    expect(validate(t.map(t.string(), t.int32()), { constructor: 1 })).toEqual([
      expect.objectContaining({ code: 'unsafe_key', path: ['constructor'] }),
    ]);
  });

  test('validate meets a deep json value at maxDepth, not the stack', () => {
    expect(validate(Doc, { data: nested(100_000) })[0]?.code).toBe('too_deep');
  });
});

/** Items and members of a parsed value (maxElements' count), its nesting, and its longest string in UTF-8. */
function measure(value: unknown): { elements: number; depth: number; longest: number } {
  let elements = 0;
  let depth = 0;
  let longest = 0;
  const pending: [unknown, number][] = [[value, 0]];
  const seeString = (text: string) => {
    longest = Math.max(longest, Buffer.byteLength(text, 'utf8'));
  };
  while (pending.length > 0) {
    const [node, level] = pending.pop() as [unknown, number];
    if (typeof node === 'string') seeString(node);
    if (typeof node !== 'object' || node === null) continue;
    depth = Math.max(depth, level + 1);
    const entries = Array.isArray(node) ? node.map((item) => ['', item] as const) : Object.entries(node);
    elements += entries.length;
    for (const [key, item] of entries) {
      if (!Array.isArray(node)) seeString(key);
      pending.push([item, level + 1]);
    }
  }
  return { elements, depth, longest };
}

describe('the scan before JSON.parse, by property', () => {
  const values = fc.jsonValue({ maxDepth: 6, stringUnit: 'binary' }).filter((value) => {
    const text = JSON.stringify(value);
    return !/"(__proto__|constructor|prototype)":/.test(text) && JSON.parse(text) !== undefined;
  });
  const wide = fc.dictionary(fc.string({ unit: 'binary', maxLength: 6 }), fc.integer(), {
    minKeys: 17,
    maxKeys: 40,
  });

  test('a scanned text decodes to what JSON.parse makes, at exactly its own limits, and one less is refused', () => {
    fc.assert(
      fc.property(fc.oneof(values, wide), fc.boolean(), fc.boolean(), (value, pretty, schema) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        const parsed = JSON.parse(text);
        const { elements, depth, longest } = measure(parsed);
        // maxStringBytes below three bytes a character sends every text to the full scan.
        const exact = { maxElements: elements, maxDepth: Math.max(depth, 1), maxStringBytes: longest };
        const codec = jsonCodec(schema ? t.json() : undefined, true, exact);
        expect(codec.decode(bytes(text))).toEqual(parsed);
        if (elements > 0)
          expect(
            codeOf(() =>
              jsonCodec(undefined, true, { ...exact, maxElements: elements - 1 }).decode(bytes(text)),
            ),
          ).toBe('WK_LIMIT_ELEMENTS');
        if (longest > 0)
          expect(
            codeOf(() =>
              jsonCodec(undefined, true, { ...exact, maxStringBytes: longest - 1 }).decode(bytes(text)),
            ),
          ).toBe('WK_LIMIT_LENGTH');
        if (depth > 1)
          expect(
            codeOf(() => jsonCodec(undefined, true, { ...exact, maxDepth: depth - 1 }).decode(bytes(text))),
          ).toBe('WK_LIMIT_DEPTH');
        // Unscanned (the default limits), the same value.
        expect(jsonCodec(schema ? t.json() : undefined).decode(bytes(text))).toEqual(parsed);
      }),
      { numRuns: 400 },
    );
  });

  test('a key repeated anywhere in a json value is found, scanned or not', () => {
    fc.assert(
      fc.property(wide, fc.boolean(), (value, scanned) => {
        const keys = Object.keys(value);
        const key = keys[keys.length - 1] as string;
        // The last key written twice: once as JSON.stringify spells it, once more at the end.
        const text = `{"data":[${JSON.stringify(value).slice(0, -1)},${JSON.stringify(key)}:0}]}`;
        const limits = scanned ? { maxStringBytes: 64 } : undefined;
        expect(codeOf(() => jsonCodec(Doc, true, limits).decode(bytes(text)))).toBe('WK_DECODE_MALFORMED');
      }),
      { numRuns: 200 },
    );
  });
});

describe('a maxDepth past the depth ceiling', () => {
  const levels = 20_000;
  const deepCategory = `${'{"name":"x","children":['.repeat(levels)}${']}'.repeat(levels)}`;

  test.each(paths)(
    'counts as 1,000 in the JSON codec ($label): a typed error, never the stack',
    ({ compile }) => {
      const codec = jsonCodec(Category, compile, { maxDepth: 10_000_000 });
      expect(codeOf(() => codec.decode(bytes(deepCategory)))).toBe('WK_LIMIT_DEPTH');
      let value: { name: string; children: unknown[] } = { name: 'x', children: [] };
      for (let i = 1; i < levels; i++) value = { name: 'x', children: [value] };
      expect(codeOf(() => codec.encode(value))).toBe('WK_LIMIT_DEPTH');
      expect(
        codeOf(() => jsonCodec(Doc, compile, { maxDepth: 10_000_000 }).encode({ data: nested(levels) })),
      ).toBe('WK_LIMIT_DEPTH');
      // 1,000 itself is honoured.
      const thousand = `${'['.repeat(999)}${']'.repeat(999)}`;
      expect(
        jsonCodec(Doc, compile, { maxDepth: 10_000_000 }).decode(bytes(`{"data":${thousand}}`)),
      ).toBeDefined();
    },
  );

  test('counts as 1,000 in validate', () => {
    expect(validate(Doc, { data: nested(levels) }, { maxDepth: 10_000_000 })[0]?.code).toBe('too_deep');
  });
});
