import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hexDump } from '../../src/cli/hexdump.js';
import { createArrowCodec } from '../../src/codecs/arrow/index.js';
import { writeContainer } from '../../src/codecs/avro/index.js';
import type { Codec, FormatName } from '../../src/codecs/core/codec.js';
import { createCodec } from '../../src/codecs/registry.js';
import { type CompressionName, getCompressor } from '../../src/compression/index.js';
import { encodeEnvelopedAsync, schemaFingerprint } from '../../src/envelope/index.js';
import { type Schema, schemaToJson, t, toJsonValue } from '../../src/index.js';
import { cli, fields } from '../support/cli.js';

/** The JSON printed under a label on a line of its own ("value:"), parsed. */
function block(text: string, label: string): unknown {
  const lines = text.split('\n');
  const start = lines.indexOf(`${label}:`);
  expect(start, `no ${label} block in:\n${text}`).toBeGreaterThanOrEqual(0);
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((line) => /^[a-z][a-z ]*:( |$)/.test(line) || line === '');
  return JSON.parse(rest.slice(0, end).join('\n'));
}

const hexLine =
  /^[0-9a-f]{8} {2}((?:[0-9a-f]{2}| {2})(?: (?:[0-9a-f]{2}| {2})){7}) {2}((?:[0-9a-f]{2}| {2})(?: (?:[0-9a-f]{2}| {2})){7}) {2}\|([ -~]{1,16})\|$/;

/** The bytes a hex dump shows, read back from its hex columns. */
function bytesOfDump(lines: readonly string[]): Uint8Array {
  return Uint8Array.from(
    lines.flatMap((line) => {
      const match = hexLine.exec(line);
      expect(match, `not a hex dump line: ${JSON.stringify(line)}`).not.toBeNull();
      return `${match?.[1]} ${match?.[2]}`
        .split(' ')
        .filter((cell) => cell !== '')
        .map((cell) => Number.parseInt(cell, 16));
    }),
  );
}

const Order = t.object('Order', {
  id: t.int64(),
  name: t.string(),
  tags: t.array(t.string()),
  blob: t.bytes(),
  at: t.timestamp({ precision: 'ms' }),
  price: t.float64(),
});
const OrderV2 = t.object('Order', { id: t.int64(), name: t.string(), note: t.optional(t.string()) });
const order = {
  id: 12345678901234567n,
  name: 'Ada',
  tags: ['a', 'b'],
  blob: Uint8Array.of(1, 2, 3),
  at: new Date('2024-02-29T12:34:56.789Z'),
  price: 9.5,
};
const orders = [order, { ...order, id: 2n, name: 'Grace', tags: [] }];
const fingerprintOf = (schema: Schema) =>
  Buffer.from(schemaFingerprint(schema).subarray(0, 8)).toString('hex');

let dir: string;
let schemaPath: string;
beforeAll(async () => {
  dir = await mkdtemp(`${tmpdir()}/wirekit-inspect-`);
  schemaPath = `${dir}/order.schema.json`;
  await writeFile(schemaPath, JSON.stringify(schemaToJson(Order)));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('wirekit inspect: enveloped payloads', () => {
  test.each<[string, CompressionName]>([
    ['json', 'none'],
    ['msgpack', 'gzip'],
    ['cbor', 'lz4'],
    ['protobuf', 'zstd'],
    ['avro', 'snappy'],
    ['flatbuffers', 'brotli'],
    ['arrow', 'zstd'],
  ])(
    '%s with %s: header fields, sizes, a matching fingerprint and the value',
    async (format, compression) => {
      const codec = createCodec(format as FormatName, { schema: Order }) as Codec<unknown>;
      const value = format === 'arrow' ? orders : order;
      const bytes = await encodeEnvelopedAsync(codec, value, { compression });
      const path = `${dir}/${format}.bin`;
      await writeFile(path, bytes);
      const { code, text, stderr } = await cli(['inspect', path, '--schema', schemaPath]);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(fields(text)).toMatchObject({
        source: path,
        detected: 'wirekit envelope',
        format,
        compression,
        envelope: 'version 1',
        fingerprint: `${fingerprintOf(Order)} (matches ${schemaPath})`,
        sizes: `total ${bytes.length} B, header 15 B, payload ${bytes.length - 15} B, decompressed ${codec.encode(value).length} B`,
      });
      expect(block(text, 'value')).toEqual(toJsonValue(format === 'arrow' ? t.array(Order) : Order, value));
    },
  );

  test('a schemaless payload prints readable JSON and no fingerprint', async () => {
    const value = { a: [1, 2, { b: 'c' }], big: 2n ** 60n, bin: Uint8Array.of(255, 0) };
    const bytes = await encodeEnvelopedAsync(createCodec('msgpack'), value);
    const { code, text } = await cli(['inspect', '-'], bytes);
    expect(code).toBe(0);
    expect(fields(text)).toMatchObject({
      source: 'standard input',
      fingerprint: 'none',
      compression: 'none',
    });
    expect(fields(text).sizes).toBe(
      `total ${bytes.length} B, header 7 B, payload ${bytes.length - 7} B, decompressed ${bytes.length - 7} B`,
    );
    expect(block(text, 'value')).toEqual({ a: [1, 2, { b: 'c' }], big: '1152921504606846976', bin: '/wA=' });
  });

  test('a schema format without --schema shows the header and says what to pass', async () => {
    const bytes = await encodeEnvelopedAsync(createCodec('protobuf', { schema: Order }), order);
    const { code, text } = await cli(['inspect', '-'], bytes);
    expect(code).toBe(0);
    expect(fields(text)).toMatchObject({ format: 'protobuf', fingerprint: fingerprintOf(Order) });
    // The wire has field numbers and wire types: those are shown, as protoc --decode_raw shows them.
    expect(fields(text).note).toMatch(
      /^read without a schema, as protoc --decode_raw reads it: .*pass --schema S\.json/,
    );
    expect(text).toContain('fields (raw, by number):\n  1 (varint): ');
    expect(text).not.toMatch(/^value:/m);
  });

  test('what encode --envelope writes, inspect reads', async () => {
    const encoded = await cli(
      ['encode', '--format', 'cbor', '--compress', 'gzip', '--envelope'],
      '{"x":[1,2]}',
    );
    expect(encoded.code).toBe(0);
    const { code, text } = await cli(['inspect', '-', '--format', 'auto'], encoded.stdout);
    expect(code).toBe(0);
    expect(fields(text)).toMatchObject({ format: 'cbor', compression: 'gzip', envelope: 'version 1' });
    expect(block(text, 'value')).toEqual({ x: [1, 2] });
  });
});

describe('wirekit inspect: raw payloads with --format', () => {
  test('--format reads a payload without an envelope', async () => {
    const bytes = createCodec('msgpack').encode({ hello: 'world' });
    const { code, text } = await cli(['inspect', '-', '--format', 'msgpack'], bytes);
    expect(code).toBe(0);
    expect(fields(text)).toMatchObject({
      detected: '--format (raw payload)',
      format: 'msgpack',
      compression: 'none',
      envelope: 'none',
      fingerprint: 'none',
      sizes: `total ${bytes.length} B, header 0 B, payload ${bytes.length} B, decompressed ${bytes.length} B`,
    });
    expect(block(text, 'value')).toEqual({ hello: 'world' });
  });

  test('--compress decompresses a raw payload first (zstd, which has no sync API here)', async () => {
    const plain = createCodec('protobuf', { schema: Order }).encode(order);
    const bytes = await getCompressor('zstd').compressAsync(plain);
    const path = `${dir}/raw.pb.zst`;
    await writeFile(path, bytes);
    const args = ['inspect', path, '--format', 'protobuf', '--compress', 'zstd', '--schema', schemaPath];
    const { code, text } = await cli(args);
    expect(code).toBe(0);
    expect(fields(text)).toMatchObject({
      compression: 'zstd',
      // No envelope, so no fingerprint to compare; the schema's own is shown for reference.
      fingerprint: `none (${schemaPath} has ${fingerprintOf(Order)})`,
      sizes: `total ${bytes.length} B, header 0 B, payload ${bytes.length} B, decompressed ${plain.length} B`,
    });
    expect(block(text, 'value')).toEqual(toJsonValue(Order, order));
  });
});

describe('wirekit inspect: fingerprints', () => {
  test('a payload written with another schema version: reported, decoded without the schema, exit 1', async () => {
    const bytes = await encodeEnvelopedAsync(createCodec('msgpack', { schema: OrderV2 }), {
      id: 7n,
      name: 'old',
      note: 'n',
    });
    const { code, text, stderr } = await cli(['inspect', '-', '--schema', schemaPath], bytes);
    expect(code).toBe(1);
    expect(stderr).toMatch(
      new RegExp(
        `^wirekit: WK_ENVELOPE_SCHEMA: the payload was written with schema ${fingerprintOf(OrderV2)}, not ${fingerprintOf(Order)} .*pass the schema it was written with`,
      ),
    );
    expect(fields(text).fingerprint).toBe(
      `${fingerprintOf(OrderV2)} (does NOT match ${schemaPath}, which has ${fingerprintOf(Order)})`,
    );
    expect(block(text, 'value')).toEqual({ id: 7, name: 'old', note: 'n' });
    expect(fields(text).note).toContain('decoded without');
  });

  test('a schema format is not decoded by a schema that does not match; --json carries the error', async () => {
    const bytes = await encodeEnvelopedAsync(createCodec('protobuf', { schema: OrderV2 }), {
      id: 1n,
      name: 'x',
    });
    const { code, text } = await cli(['inspect', '-', '--schema', schemaPath, '--json'], bytes);
    expect(code).toBe(1);
    const report = JSON.parse(text);
    expect(report).toMatchObject({
      fingerprint: fingerprintOf(OrderV2),
      schemaFingerprint: fingerprintOf(Order),
      fingerprintMatches: false,
      decoded: false,
      error: { code: 'WK_ENVELOPE_SCHEMA' },
    });
    expect(report).not.toHaveProperty('value');
  });
});

describe('wirekit inspect: --hex and --json', () => {
  test('hexDump: offset, 8 + 8 bytes, and the ASCII column with non-printables as dots', () => {
    const bytes = Uint8Array.from([...new TextEncoder().encode('ABCDEFGHIJKLMNOPQ'), 0x0a, 0x00, 0xff]);
    expect(hexDump(bytes)).toEqual([
      '00000000  41 42 43 44 45 46 47 48  49 4a 4b 4c 4d 4e 4f 50  |ABCDEFGHIJKLMNOP|',
      '00000010  51 0a 00 ff                                       |Q...|',
    ]);
    expect(hexDump(bytes, 3)).toEqual(['00000000  41 42 43                                          |ABC|']);
  });

  test('--hex dumps the decompressed payload, 16 bytes a line, whole when it is short', async () => {
    const codec = createCodec('msgpack');
    const value = { name: 'inspect me', list: [1, 2, 3], nested: { deeper: true } };
    const bytes = await encodeEnvelopedAsync(codec, value, { compression: 'lz4' });
    const { code, text } = await cli(['inspect', '-', '--hex'], bytes);
    expect(code).toBe(0);
    const plain = codec.encode(value);
    expect(fields(text).hex).toBe(`${plain.length} bytes of the decompressed payload`);
    const lines = text.split('\n');
    const dump = lines.slice(lines.findIndex((line) => line.startsWith('hex:')) + 1, -1);
    expect(dump).toHaveLength(Math.ceil(plain.length / 16));
    expect(dump.map((line) => line.slice(0, 8))).toEqual(
      dump.map((_, i) => (i * 16).toString(16).padStart(8, '0')),
    );
    expect(bytesOfDump(dump)).toEqual(plain);
    expect(dump[0]).toMatch(/ {2}\|\.\.name\.inspect m\|$/);
  });

  test('--max-bytes cuts the dump and says how much is left', async () => {
    const bytes = new TextEncoder().encode(JSON.stringify({ text: 'x'.repeat(100) }));
    const { text } = await cli(['inspect', '-', '--hex', '--max-bytes', '20'], bytes);
    const lines = text.split('\n');
    const at = lines.findIndex((line) => line.startsWith('hex:'));
    expect(lines[at]).toBe(`hex:           first 20 of ${bytes.length} bytes of the payload`);
    expect(bytesOfDump(lines.slice(at + 1, at + 3))).toEqual(bytes.subarray(0, 20));
    expect(lines[at + 3]).toBe(`… ${bytes.length - 20} more bytes (--max-bytes N shows more)`);
  });

  test('--json prints every field as one object', async () => {
    const codec = createCodec('avro', { schema: Order });
    const bytes = await encodeEnvelopedAsync(codec, order, { compression: 'gzip' });
    const { code, text } = await cli(
      ['inspect', '-', '--schema', schemaPath, '--json', '--hex', '--max-bytes', '16'],
      bytes,
    );
    expect(code).toBe(0);
    const report = JSON.parse(text);
    const plain = codec.encode(order);
    expect(report).toEqual({
      source: 'standard input',
      detected: 'envelope',
      sniffed: [],
      format: 'avro',
      compression: 'gzip',
      envelopeVersion: 1,
      fingerprint: fingerprintOf(Order),
      schemaFingerprint: fingerprintOf(Order),
      fingerprintMatches: true,
      sizes: { total: bytes.length, header: 15, payload: bytes.length - 15, decompressed: plain.length },
      decoded: true,
      value: toJsonValue(Order, order),
      hex: { shown: 16, of: plain.length, lines: hexDump(plain, 16) },
    });
  });
});

describe('wirekit inspect: sniffing input without an envelope', () => {
  test('an Avro container: the embedded writer schema without --schema, the values with it', async () => {
    const bytes = await writeContainer(orders, {
      schema: Order,
      codec: 'deflate',
      metadata: { origin: 'test' },
    });
    const bare = await cli(['inspect', '-'], bytes);
    expect(bare.code).toBe(0);
    expect(fields(bare.text)).toMatchObject({
      detected: 'sniffed Avro Object Container File',
      format: 'avro',
      container: 'Avro Object Container File, codec deflate, 2 values in 1 block',
      metadata: '{"origin":"test"}',
    });
    const writer = block(bare.text, 'writer schema') as {
      type: string;
      name: string;
      fields: { name: string }[];
    };
    expect(writer).toMatchObject({ type: 'record', name: 'Order' });
    expect(writer.fields.map((field) => field.name)).toEqual(['id', 'name', 'tags', 'blob', 'at', 'price']);
    expect(fields(bare.text).note).toContain('pass --schema S.json');

    const decoded = await cli(['inspect', '-', '--schema', schemaPath, '--json'], bytes);
    expect(JSON.parse(decoded.text)).toMatchObject({
      sniffed: ['avro-container'],
      avroContainer: { codec: 'deflate', values: 2, blocks: 1, metadata: { origin: 'test' } },
      decoded: true,
      value: toJsonValue(t.array(Order), orders),
    });
  });

  test.each(['stream', 'file'] as const)(
    'an Arrow IPC %s: the declared schema, or the rows with --schema',
    async (ipcFormat) => {
      const bytes = createArrowCodec({ schema: Order, ipcFormat, batchSize: 1 }).encode(orders);
      const bare = await cli(['inspect', '-'], bytes);
      expect(bare.code).toBe(0);
      expect(fields(bare.text)).toMatchObject({
        detected: `sniffed Arrow IPC ${ipcFormat}`,
        format: 'arrow',
        container: `Arrow IPC ${ipcFormat}, 2 rows in 2 record batches`,
      });
      const declared = block(bare.text, 'arrow schema') as {
        fields: { name: string; type: { name: string } }[];
      };
      expect(declared.fields.map((field) => [field.name, field.type.name])).toEqual([
        ['id', 'int'],
        ['name', 'utf8'],
        ['tags', 'list'],
        ['blob', 'binary'],
        ['at', 'timestamp'],
        ['price', 'floatingpoint'],
      ]);
      const decoded = await cli(['inspect', '-', '--schema', schemaPath], bytes);
      expect(decoded.code).toBe(0);
      expect(block(decoded.text, 'value')).toEqual(toJsonValue(t.array(Order), orders));
    },
  );

  test('JSON text, after leading whitespace', async () => {
    const { code, text } = await cli(['inspect', '-', '--json'], '\n  [1, "two", {"three": 3}]\n');
    expect(code).toBe(0);
    expect(JSON.parse(text)).toMatchObject({
      detected: 'sniff',
      sniffed: ['json'],
      format: 'json',
      compression: 'none',
      envelopeVersion: null,
      fingerprint: null,
      value: [1, 'two', { three: 3 }],
    });
  });

  test.each<CompressionName>(['gzip', 'zstd', 'lz4'])(
    '%s-compressed JSON is decompressed, then sniffed',
    async (name) => {
      const json = new TextEncoder().encode('{"rows": [{"id": 1}, {"id": 2}], "ok": true}');
      const bytes = name === 'gzip' ? gzipSync(json) : await getCompressor(name).compressAsync(json);
      const { code, text } = await cli(['inspect', '-'], bytes);
      expect(code).toBe(0);
      expect(fields(text)).toMatchObject({
        detected: `sniffed ${name === 'lz4' ? 'lz4 frame' : name}, then JSON text`,
        format: 'json',
        compression: name,
        sizes: `total ${bytes.length} B, header 0 B, payload ${bytes.length} B, decompressed ${json.length} B`,
      });
      expect(block(text, 'value')).toEqual({ rows: [{ id: 1 }, { id: 2 }], ok: true });
    },
  );

  test('CBOR behind its self-describe tag', async () => {
    const bytes = Buffer.concat([
      Uint8Array.of(0xd9, 0xd9, 0xf7),
      createCodec('cbor').encode({ k: [true, null] }),
    ]);
    const { code, text } = await cli(['inspect', '-'], bytes);
    expect(code).toBe(0);
    expect(fields(text)).toMatchObject({ detected: 'sniffed CBOR (self-describe tag)', format: 'cbor' });
    expect(block(text, 'value')).toEqual({ k: [true, null] });
  });
});

describe('wirekit inspect: failures', () => {
  test('unrecognisable bytes exit 1 with WK_ENVELOPE_INVALID and the flags to pass', async () => {
    const { code, text, stderr } = await cli(
      ['inspect', '-'],
      Uint8Array.of(0x00, 0x13, 0x37, 0xc0, 0xff, 0xee),
    );
    expect(code).toBe(1);
    expect(text).toBe('');
    expect(stderr).toMatch(
      /^wirekit: WK_ENVELOPE_INVALID: the input has no wirekit envelope and its first bytes \(00 13 37 c0 ff ee\)/,
    );
    expect(stderr).toContain('pass --format F');
    expect(stderr).toContain('--schema S.json');
  });

  test('compressed bytes that hold nothing recognisable name the compression to pass', async () => {
    const { code, stderr } = await cli(['inspect', '-'], gzipSync(Uint8Array.of(0xc1, 0xff, 0xff)));
    expect(code).toBe(1);
    expect(stderr).toMatch(/^wirekit: WK_ENVELOPE_INVALID: the input is gzip-compressed.*--compress gzip/);
  });

  test('a payload that fails to decode: the header is still shown, then the error exits 1', async () => {
    const bytes = await encodeEnvelopedAsync(createCodec('msgpack'), { list: [1, 2, 3, 4, 5] });
    const cut = bytes.subarray(0, bytes.length - 2);
    const human = await cli(['inspect', '-'], cut);
    expect(human.code).toBe(1);
    expect(human.stderr).toMatch(/^wirekit: WK_DECODE_TRUNCATED: /);
    expect(fields(human.text)).toMatchObject({ format: 'msgpack', envelope: 'version 1' });
    const json = JSON.parse((await cli(['inspect', '-', '--json'], cut)).text);
    expect(json).toMatchObject({ decoded: false, error: { code: 'WK_DECODE_TRUNCATED' } });
  });

  test('JSON-looking text that does not parse hints at --format', async () => {
    const { code, text, stderr } = await cli(['inspect', '-'], '{"a": ');
    expect(code).toBe(1);
    expect(stderr).toMatch(/^wirekit: WK_DECODE_TRUNCATED: /);
    expect(fields(text).note).toContain('pass --format F');
  });

  test('envelopes from a newer wirekit, empty and missing input', async () => {
    const future = Uint8Array.of(0x89, 0x57, 0x4b, 0x02, 0x01, 0x00, 0x00, 0x7b, 0x7d);
    expect((await cli(['inspect', '-'], future)).stderr).toMatch(/^wirekit: WK_ENVELOPE_VERSION: /);
    const empty = await cli(['inspect', '-'], '');
    expect(empty.code).toBe(1);
    expect(empty.stderr).toBe(
      'wirekit: WK_CLI_INPUT: standard input is empty: there is nothing to inspect.\n',
    );
    const missing = await cli(['inspect', `${dir}/nope.bin`]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^wirekit: WK_CLI_INPUT: cannot read .*nope\.bin/);
  });

  test.each([
    [['inspect'], 'inspect takes one input'],
    [['inspect', 'a.bin', 'b.bin'], 'inspect takes one input'],
    [['inspect', '-', '--bogus'], "Unknown option '--bogus'"],
    [['inspect', '-', '--format', 'xml'], '--format is one of'],
    [['inspect', '-', '--format', 'json', '--compress', 'rar'], '--compress is one of'],
    [['inspect', '-', '--max-bytes', '10'], 'add --hex'],
    [['inspect', '-', '--hex', '--max-bytes', '0'], 'at least 1'],
    [['inspect', '-', '--hex', '--max-bytes', 'lots'], 'whole number'],
  ])('usage error: %j exits 2', async (args, message) => {
    const { code, text, stderr } = await cli(args, '{}');
    expect(code).toBe(2);
    expect(text).toBe('');
    expect(stderr).toMatch(/^wirekit: WK_CLI_USAGE: /);
    expect(stderr).toContain(message);
    expect(stderr).toContain("Run 'wirekit --help' for usage.");
  });

  test('help: inspect --help, and the command list', async () => {
    const own = await cli(['inspect', '--help']);
    expect(own.code).toBe(0);
    expect(own.text).toMatch(
      /^Usage:\n {2}wirekit inspect FILE\|-\|redis:\/\/\[user:pass@\]host:port\[\/db\]\/KEY \[--format F\] \[--compress C\]/,
    );
    expect(own.text).toContain('--legacy L,L');
    expect(own.text).toContain('--max-bytes N');
    const all = await cli(['--help']);
    expect(all.text).toMatch(/^ {2}wirekit inspect FILE\|-\|redis:\/\/ what a payload or a Redis key is/m);
  });
});
