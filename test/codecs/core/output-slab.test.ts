/**
 * Binary codecs hand out their outputs as views into a slab that later encodes write after
 * (core/byte-writer.ts): no output may ever change once returned, whatever follows it (small and
 * large values, failed encodes, re-entrant encodes), and readers must honour each input's
 * byteOffset, for inputs that are views into one shared buffer.
 */
import { describe, expect, test } from 'vitest';
import type { FormatName } from '../../../src/codecs/core/codec.js';
import { createCodec } from '../../../src/codecs/registry.js';
import { t } from '../../../src/index.js';

const Message = t.object('SlabMessage', {
  seq: t.int32(),
  name: t.string(),
  value: t.float64(),
  tags: t.array(t.string()),
  blob: t.bytes(),
  // Nested, so that an output outgrowing its slab does so inside a length-prefixed message.
  parts: t.array(t.object('SlabPart', { label: t.string(), blob: t.bytes() })),
});

const formats: readonly FormatName[] = ['msgpack', 'cbor', 'protobuf', 'avro'];

/** Values from a few bytes to past the slab (16 KiB) and past the copy-out size (64 KiB). */
function value(i: number) {
  const size = i % 197 === 0 ? 70_000 + i : i % 50;
  // Large only inside the nested parts: the output then outgrows its slab inside a
  // length-prefixed message, whose prefix must be found again after the move.
  const partSize = i % 53 === 0 ? 20_000 : i % 7;
  const bytes = (length: number) => {
    const out = new Uint8Array(length);
    out.fill(i & 0xff);
    if (length > 0) out[0] = 7;
    return out;
  };
  return {
    seq: i * 7919 - 2 ** 30,
    name: ['n', String(i)].join(''),
    value: i / 3,
    tags: Array.from({ length: i % 5 }, (_, k) => ['t', String(k)].join('')),
    blob: bytes(size),
    parts: Array.from({ length: 1 + (i % 3) }, (_, k) => ({
      label: ['p', String(k)].join(''),
      blob: bytes(partSize),
    })),
  };
}

/** Byte equality without the matcher's per-element diffing (slow on 70 KB arrays). */
const same = (a: Uint8Array, b: Uint8Array) => Buffer.compare(a, b) === 0;

describe.each(formats)('%s: outputs handed out are never written again', (format) => {
  for (const compile of [true, false]) {
    test(`${compile ? 'compiled' : 'interpreted'}: 1,500 encodes, with failures among them`, () => {
      const codec = createCodec(format, { schema: Message, compile });
      const outputs: Uint8Array[] = [];
      const copies: Uint8Array[] = [];
      for (let i = 0; i < 1_500; i++) {
        const bytes = codec.encode(value(i));
        outputs.push(bytes);
        copies.push(bytes.slice());
        // A failed encode leaves nothing behind and touches no earlier output.
        if (i % 7 === 0) expect(() => codec.encode({ ...value(i), seq: 'x' } as never)).toThrow();
      }
      for (let i = 0; i < outputs.length; i++) {
        expect(same(outputs[i] as Uint8Array, copies[i] as Uint8Array), `output ${i}`).toBe(true);
        const { blob, parts, ...rest } = codec.decode(outputs[i] as Uint8Array) as ReturnType<typeof value>;
        const { blob: expected, parts: wantedParts, ...wanted } = value(i);
        expect(rest).toEqual(wanted);
        expect(same(blob, expected), `blob ${i}`).toBe(true);
        expect(parts.map((part) => part.label)).toEqual(wantedParts.map((part) => part.label));
        for (const [k, part] of parts.entries())
          expect(same(part.blob, wantedParts[k]?.blob as Uint8Array), `part of ${i}`).toBe(true);
      }
    });
  }

  test('a re-entrant encode (a getter encoding with the same codec) leaves both outputs whole', () => {
    const codec = createCodec(format, { schema: Message });
    let inner: Uint8Array | undefined;
    const outer = {
      ...value(3),
      get name() {
        inner = codec.encode(value(4));
        return 'outer';
      },
    };
    const bytes = codec.encode(outer);
    expect(codec.decode(bytes)).toEqual({ ...value(3), name: 'outer' });
    expect(codec.decode(inner as Uint8Array)).toEqual(value(4));
  });

  test('inputs that are views at any offset of one buffer decode alike (floats included)', () => {
    const codec = createCodec(format, { schema: Message });
    const parts = Array.from({ length: 40 }, (_, i) => codec.encode(value(i + 1)).slice());
    const whole = new Uint8Array(parts.reduce((sum, part) => sum + part.length + 1, 0));
    let at = 0;
    const views: Uint8Array[] = [];
    for (const part of parts) {
      at += 1; // an odd offset, so no read can assume alignment
      whole.set(part, at);
      views.push(whole.subarray(at, at + part.length));
      at += part.length;
    }
    for (const [i, view] of views.entries()) expect(codec.decode(view)).toEqual(value(i + 1));
    // And from a Buffer view of the same bytes: bytes come back as plain Uint8Arrays of their own,
    // not Buffer views into the input, which the caller may reuse.
    const buffer = Buffer.from(whole.buffer, whole.byteOffset, whole.length);
    const decoded = views.map(
      (view) =>
        codec.decode(buffer.subarray(view.byteOffset, view.byteOffset + view.length)) as ReturnType<
          typeof value
        >,
    );
    for (const [i, item] of decoded.entries()) expect(item).toEqual(value(i + 1));
    whole.fill(0);
    for (const [i, item] of decoded.entries()) expect(item.blob).toEqual(value(i + 1).blob);
  });
});

test('a large output is not a view pinning a much larger buffer', () => {
  for (const format of formats) {
    const codec = createCodec(format, { schema: Message });
    const bytes = codec.encode(value(197));
    expect(bytes.length).toBeGreaterThan(70_000);
    expect(bytes.buffer.byteLength, format).toBeLessThanOrEqual(bytes.length * 2);
  }
});

test('bytes decoded from a Buffer input are plain Uint8Arrays of their own, in every format', () => {
  const Row = t.object('BlobRow', { seq: t.int32(), blob: t.bytes() });
  for (const format of ['json', 'msgpack', 'cbor', 'protobuf', 'avro', 'flatbuffers', 'arrow'] as const) {
    for (const schemaless of format === 'msgpack' || format === 'cbor' ? [false, true] : [false]) {
      const codec = createCodec(format, { schema: schemaless ? undefined : Row } as never);
      const row = { seq: 5, blob: Uint8Array.of(1, 2, 3) };
      const value = format === 'arrow' ? [row] : row;
      const encoded = codec.encode(value as never);
      const input = Buffer.alloc(encoded.length + 3);
      input.set(encoded, 3);
      const decoded = codec.decode(input.subarray(3)) as typeof row | (typeof row)[];
      input.fill(0);
      const blob = (Array.isArray(decoded) ? decoded[0] : decoded)?.blob as Uint8Array;
      expect(blob.constructor, `${format}${schemaless ? ' schemaless' : ''}`).toBe(Uint8Array);
      expect([...blob]).toEqual([1, 2, 3]);
    }
  }
});
