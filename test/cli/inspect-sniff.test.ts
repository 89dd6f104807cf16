/**
 * `wirekit inspect` without --format on payloads with no envelope: the binary formats are sniffed
 * before text (Protobuf whose first bytes look like JSON was read as JSON and failed on UTF-8), a
 * guess says it is one and names the other formats that fit, Protobuf without a schema is shown as
 * protoc --decode_raw shows it, and no input, however random, is more than a typed error.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { guessBinary } from '../../src/cli/sniff-binary.js';
import { createArrowCodec } from '../../src/codecs/arrow/index.js';
import { createCodec } from '../../src/codecs/registry.js';
import { t } from '../../src/index.js';
import { cli, fields } from '../support/cli.js';

const Order = t.object('Order', {
  id: t.int64(),
  name: t.string(),
  qty: t.int32(),
  tags: t.array(t.string()),
});
const order = { id: 42n, name: 'ada', qty: 3, tags: ['x', 'y'] };

async function inspectJson(bytes: Uint8Array, ...flags: string[]) {
  const { code, text, stderr } = await cli(['inspect', '-', '--json', ...flags], bytes);
  return { code, stderr, report: JSON.parse(text || '{}') };
}

describe('wirekit inspect: what each format wirekit writes is sniffed as', () => {
  test.each([
    ['json', ['json'], 'json'],
    ['msgpack', ['msgpack'], 'msgpack'],
    ['cbor', ['cbor-value'], 'cbor'],
    ['protobuf', ['protobuf'], 'protobuf'],
    ['flatbuffers', ['flatbuffers'], 'flatbuffers'],
    ['arrow', ['arrow-stream'], 'arrow'],
  ] as const)('%s', async (format, sniffed, read) => {
    const bytes =
      format === 'arrow'
        ? createArrowCodec({ schema: Order }).encode([order])
        : createCodec(format, { schema: Order }).encode(order);
    const { code, report } = await inspectJson(bytes);
    expect(code).toBe(0);
    expect(report).toMatchObject({ detected: 'sniff', sniffed, format: read });
    // A signature or JSON text is recognised; a format guessed by parsing says so.
    if (format === 'json' || format === 'arrow') expect(report.guess).toBeUndefined();
    else expect(report.guess).toMatch(new RegExp(`^guessed ${read}\\b.*pass --format F`));
    // Without a schema, values read as the format has them (a small int64 is a plain number).
    if (format === 'msgpack' || format === 'cbor') expect(report.value).toEqual({ ...order, id: 42 });
  });

  test('a single Avro datum has no signature and does not parse as another format: a typed error', async () => {
    const bytes = createCodec('avro', { schema: Order }).encode(order);
    const { code, stderr } = await cli(['inspect', '-'], bytes);
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /^wirekit: WK_ENVELOPE_INVALID: .*a single Avro datum cannot be recognised.*--format F/,
    );
  });
});

describe('wirekit inspect: Protocol Buffers without --format', () => {
  // Field 1, a string of 34 bytes: the tag is '\n' and the length '"', so the input starts as JSON
  // text would (whitespace, then a string), and was read as JSON, failing on the bytes after.
  const Note = t.object('Note', { text: t.string(), at: t.int64(), flags: t.array(t.int32()) });
  const note = { text: 'x'.repeat(34), at: -5n, flags: [1, 300] };

  test('bytes that start like JSON text are read as the Protobuf they are', async () => {
    const bytes = createCodec('protobuf', { schema: Note }).encode(note);
    expect([...bytes.subarray(0, 2)]).toEqual([0x0a, 0x22]);
    const { code, report } = await inspectJson(bytes);
    expect(code).toBe(0);
    expect(report).toMatchObject({ sniffed: ['protobuf'], format: 'protobuf', decoded: true });
    // The raw tree: field 1 as text, field 2 the zigzag varint of -5 (wirekit writes signed
    // integers as sint), field 3 the packed varints 2 and 600, bytes that are neither text nor a message.
    expect(report.value['1']).toBe(note.text);
    expect(report.value['2']).toBe(9);
    expect(report.protobufFields).toEqual([
      `1 (len, text): ${JSON.stringify(note.text)}`,
      '2 (varint): 9',
      '3 (len, 3 bytes): AtgE',
    ]);
    expect(report.note).toMatch(/protoc --decode_raw.*pass --schema S\.json/);
  });

  test('the human layout says what was guessed, why, and how to force a format', async () => {
    const bytes = createCodec('protobuf', { schema: Order }).encode(order);
    const { code, text } = await cli(['inspect', '-'], bytes);
    expect(code).toBe(0);
    expect(fields(text)).toMatchObject({
      detected: 'sniffed Protocol Buffers (guessed: the bytes parse completely as a field tree)',
      format: 'protobuf',
    });
    expect(fields(text).guess).toMatch(
      /^guessed protobuf \(raw field tree, no schema\): the bytes have no signature, and they parse to the end as 5 top-level fields; no other format fits; pass --format F/,
    );
    // Zigzag varints (wirekit writes signed integers as sint): 42 is 84, 3 is 6.
    expect(text).toContain(
      'fields (raw, by number):\n  1 (varint): 84\n  2 (len, text): "ada"\n  3 (varint): 6\n  4 (len, text): "x"\n  4 (len, text): "y"\n',
    );
    // --format protobuf without --schema reads the same raw tree, without guessing.
    const named = await inspectJson(bytes, '--format', 'protobuf');
    expect(named.report).toMatchObject({
      detected: 'flag',
      format: 'protobuf',
      value: { '1': 84, '2': 'ada' },
    });
    expect(named.report.guess).toBeUndefined();
  });

  test('an ambiguous input says which other format it could be', async () => {
    // Field 3 = 5 in Protobuf; also the CBOR unsigned integer 5.
    const { code, report } = await inspectJson(Uint8Array.of(0x18, 0x05));
    expect(code).toBe(0);
    expect(report.format).toBe('protobuf');
    expect(report.guess).toMatch(
      /could also be cbor \(they are one complete number value\); pass --format F/,
    );
    const forced = await inspectJson(Uint8Array.of(0x18, 0x05), '--format', 'cbor');
    expect(forced.report).toMatchObject({ detected: 'flag', format: 'cbor', value: 5 });
  });

  test('nested messages are guessed where they parse whole', async () => {
    const Inner = t.object('Inner', { n: t.int32(), bytes: t.bytes() });
    const Outer = t.object('Outer', { inner: Inner, id: t.int32() });
    const bytes = createCodec('protobuf', { schema: Outer }).encode({
      inner: { n: 7, bytes: Uint8Array.of(0xff, 0x00) },
      id: 1,
    });
    const { report } = await inspectJson(bytes);
    expect(report.protobufFields).toEqual([
      '1 (len, message) {',
      '  1 (varint): 14',
      '  2 (len, 2 bytes): /wA=',
      '}',
      '2 (varint): 2',
    ]);
  });
});

describe('wirekit inspect: input no format reads', () => {
  test("Confluent's framing is named, with --registry to read it", async () => {
    const { code, stderr } = await cli(['inspect', '-'], Uint8Array.of(0, 0, 0, 0, 7, 0x54, 0x06, 0x61));
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /WK_ENVELOPE_INVALID: .*schema id 7 of Confluent's wire format would fit.*--registry URL/,
    );
  });

  test('random bytes: a report or a typed error, never a crash (fuzz)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 96 }), async (bytes) => {
        const { code, stderr } = await cli(['inspect', '-', '--json'], bytes);
        expect([0, 1]).toContain(code);
        if (code === 1) expect(stderr).toMatch(/^wirekit: WK_[A-Z_]+: /);
      }),
      { numRuns: 400 },
    );
  }, 60_000);

  test('the sniffer alone on mutated real payloads: guesses or nothing, never an exception', () => {
    const payloads = (['msgpack', 'cbor', 'protobuf', 'flatbuffers'] as const).map((format) =>
      createCodec(format, { schema: Order }).encode(order),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...payloads),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }),
        fc.nat(),
        (payload, flips, cut) => {
          const bytes = Uint8Array.from(payload);
          for (const [at, value] of flips) bytes[at % bytes.length] = value;
          const input = bytes.subarray(0, 1 + (cut % bytes.length));
          // Any exception, typed or not, fails the property: the sniffer answers with guesses or none.
          for (const guess of guessBinary(input, {})) expect(guess.detail).toMatch(/^they /);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
