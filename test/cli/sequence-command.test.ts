/**
 * The CLI's codec commands as a user meets them with lists: `schema infer` on a JSON array, then
 * `encode` of the array (or NDJSON) by that item schema, which writes a sequence in each format's
 * framing, then `decode` of it by --sequence (without it, decode reads exactly one value) and
 * `inspect`, which finds it from the bytes and says it guessed. Also what wirekit's server writes
 * for a list (read by the item codec's framing), brotli, and the errors that say what to do.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { brotliCompressSync, constants } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FormatName } from '../../src/codecs/core/codec.js';
import { createCodec } from '../../src/codecs/registry.js';
import { fromJsonValue, schemaFromJson, t, toJsonValue } from '../../src/index.js';
import { datasetFromFile } from '../../src/lab/datasets/from-file.js';
import { cli, fields } from '../support/cli.js';

const orders = Array.from({ length: 120 }, (_, i) => ({
  id: 1_000_000 + i,
  customer: `customer ${i}`,
  total: Math.round(i * 137.5) / 10,
  paid: i % 3 !== 0,
  placed: new Date(Date.UTC(2024, 2, 1, 12, i)).toISOString(),
  lines: Array.from({ length: (i % 3) + 1 }, (_, j) => ({ sku: `SKU-${i}-${j}`, qty: j + 1 })),
}));
const ordersJson = JSON.stringify(orders, null, 2);
const ordersNdjson = `${orders.map((order) => JSON.stringify(order)).join('\n')}\n`;

let dir: string;
let schemaPath: string;
beforeAll(async () => {
  dir = await mkdtemp(`${tmpdir()}/wirekit-seq-`);
  await writeFile(`${dir}/orders.json`, ordersJson);
  await writeFile(`${dir}/orders.ndjson`, ordersNdjson);
  const inferred = await cli(['schema', 'infer', `${dir}/orders.json`, '--name', 'Order']);
  expect(inferred.code).toBe(0);
  schemaPath = `${dir}/order.schema.json`;
  await writeFile(schemaPath, inferred.text);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const formats: readonly FormatName[] = [
  'json',
  'msgpack',
  'cbor',
  'protobuf',
  'avro',
  'flatbuffers',
  'arrow',
];

const framings: Record<FormatName, string> = {
  json: 'NDJSON, one value per line',
  msgpack: 'MessagePack values back to back',
  cbor: 'a CBOR sequence (RFC 8742)',
  protobuf: 'varint-delimited Protobuf messages',
  avro: 'an Avro Object Container File',
  flatbuffers: 'size-prefixed FlatBuffers',
  arrow: 'Arrow IPC record batches',
};

describe('schema infer → encode → decode, with an item schema', () => {
  test('schema infer on a JSON array describes one item', async () => {
    const schema = schemaFromJson(JSON.parse(await readFile(schemaPath, 'utf8')));
    expect(schema).toMatchObject({ kind: 'object', name: 'Order' });
  });

  test.each(formats)(
    '%s: the JSON array and NDJSON encode as a sequence that decodes back',
    async (format) => {
      for (const input of ['orders.json', 'orders.ndjson']) {
        const out = `${dir}/${input}.${format}`;
        const encoded = await cli([
          'encode',
          '--format',
          format,
          '--schema',
          schemaPath,
          '--in',
          `${dir}/${input}`,
          '--out',
          out,
        ]);
        expect(encoded.code, encoded.stderr).toBe(0);
        if (format === 'arrow') expect(encoded.stderr).toBe('');
        else expect(encoded.stderr).toContain(`wrote them as ${framings[format]}`);
        const bytes = new Uint8Array(await readFile(out));
        // The bytes are the item codec's sequence framing, as the HTTP server writes lists.
        const schema = schemaFromJson(JSON.parse(await readFile(schemaPath, 'utf8')));
        const item = createCodec(format, { schema });
        const items = format === 'arrow' ? item.decode(bytes) : item.decodeSequence(bytes);
        expect(toJsonValue(t.array(schema), items)).toEqual(orders);

        // Without --sequence decode reads one value: several are refused, and the error says how
        // to read them. Avro's container and Arrow's stream say they hold several themselves.
        const single = await cli(['decode', '--format', format, '--schema', schemaPath, '--in', out]);
        if (format === 'avro' || format === 'arrow') {
          expect(single.code, single.stderr).toBe(0);
          expect(single.stderr).toBe('');
          expect(JSON.parse(single.text)).toEqual(orders);
        } else {
          expect(single.code).toBe(1);
          expect(single.text).toBe('');
          expect(single.stderr).toContain(
            `; the bytes read as 120 items, ${framings[format]}: pass --sequence to read them so.`,
          );
        }

        const told = await cli([
          'decode',
          '--format',
          format,
          '--schema',
          schemaPath,
          '--sequence',
          '--ndjson',
          '--in',
          out,
        ]);
        expect(told.code, told.stderr).toBe(0);
        expect(told.stderr).toBe('');
        expect(told.text).toBe(ordersNdjson);
      }
    },
  );

  test('the JSON array output is laid out as a pretty-printed array, even when streamed', async () => {
    const out = `${dir}/layout.msgpack`;
    await cli([
      'encode',
      '--format',
      'msgpack',
      '--schema',
      schemaPath,
      '--in',
      `${dir}/orders.json`,
      '--out',
      out,
    ]);
    const streamed = await cli([
      'decode',
      '--format',
      'msgpack',
      '--schema',
      schemaPath,
      '--sequence',
      '--in',
      out,
    ]);
    expect(streamed.text).toBe(`${JSON.stringify(orders, null, 2)}\n`);
    const empty = await cli(['decode', '--format', 'msgpack', '--sequence'], new Uint8Array(0));
    expect(empty.text).toBe('[]\n');
  });

  test('without a schema, a JSON array is one value; --sequence or NDJSON make a sequence', async () => {
    const one = await cli(['encode', '--format', 'msgpack'], '[1, 2, 3]');
    expect(one.stdout).toEqual(Buffer.from([0x93, 1, 2, 3]));
    const seq = await cli(['encode', '--format', 'msgpack', '--sequence'], '[1, 2, 3]');
    expect(seq.stdout).toEqual(Buffer.from([1, 2, 3]));
    const lines = await cli(['encode', '--format', 'cbor'], '{"a":1}\n[2]\n');
    expect(lines.stderr).toContain('the input is NDJSON of 2 items');
    expect(JSON.parse((await cli(['decode', '--format', 'cbor', '--sequence'], lines.stdout)).text)).toEqual([
      { a: 1 },
      [2],
    ]);
    // A single MessagePack value reads as one value, never as a sequence.
    expect(JSON.parse((await cli(['decode', '--format', 'msgpack'], one.stdout)).text)).toEqual([1, 2, 3]);
  });

  test('a schema for the array keeps the array one value', async () => {
    await writeFile(
      `${dir}/orders.schema.json`,
      JSON.stringify({
        format: 'wirekit-schema',
        version: 1,
        root: { kind: 'array', items: JSON.parse(await readFile(schemaPath, 'utf8')).root },
      }),
    );
    const encoded = await cli([
      'encode',
      '--format',
      'protobuf',
      '--schema',
      `${dir}/orders.schema.json`,
      '--in',
      `${dir}/orders.json`,
    ]);
    expect(encoded.code, encoded.stderr).toBe(0);
    expect(encoded.stderr).toBe('');
    const decoded = await cli(
      ['decode', '--format', 'protobuf', '--schema', `${dir}/orders.schema.json`],
      encoded.stdout,
    );
    expect(decoded.stderr).toBe('');
    expect(JSON.parse(decoded.text)).toEqual(orders);
  });
});

describe('encode errors say what to do', () => {
  test('--envelope holds one value: give the array schema, or leave --envelope out', async () => {
    const { code, stderr } = await cli([
      'encode',
      '--format',
      'avro',
      '--schema',
      schemaPath,
      '--envelope',
      '--in',
      `${dir}/orders.json`,
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain('the input is a JSON array of 120 items and the schema describes one Order');
    expect(stderr).toContain('give a schema for the array');
    expect(stderr).toContain('leave out --envelope to write them as an Avro Object Container File');
  });

  test('an item that does not fit names its index and the way out', async () => {
    const bad = orders.map((order, i) => (i === 7 ? { ...order, paid: 'yes' } : order));
    const { code, stderr } = await cli(
      ['encode', '--format', 'protobuf', '--schema', schemaPath],
      JSON.stringify(bad),
    );
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /^wirekit: WK_JSON_VALUE_INVALID: the input is a JSON array of 120 items and the schema describes one Order/,
    );
    expect(stderr).toContain('[7].paid');
    expect(stderr).toContain('give a schema for the array');
  });

  test('NDJSON lines are named by number; --sequence needs several items', async () => {
    const broken = await cli(
      ['encode', '--format', 'json', '--schema', schemaPath],
      `${JSON.stringify(orders[0])}\n{"id": \n`,
    );
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('standard input, line 2 is not valid JSON');
    const single = await cli(['encode', '--format', 'cbor', '--sequence'], '{"a": 1}');
    expect(single.code).toBe(1);
    expect(single.stderr).toContain(
      '--sequence takes a JSON array or NDJSON of items, and the input is one object',
    );
  });
});

describe('decode and inspect read the sequences wirekit serves', () => {
  test.each(['protobuf', 'flatbuffers', 'avro'] as const)(
    '%s: a list reply, sniffed by inspect',
    async (format) => {
      const schema = schemaFromJson(JSON.parse(await readFile(schemaPath, 'utf8')));
      const bytes = createCodec(format, { schema }).encodeSequence(
        orders.slice(0, 3).map((order) => fromJsonValue(schema, order)),
      );
      const human = await cli(['inspect', '-', '--format', format, '--schema', schemaPath], bytes);
      expect(human.code, human.stderr).toBe(0);
      const labels = fields(human.text);
      if (format === 'avro')
        expect(labels.container).toBe('Avro Object Container File, codec null, 3 values in 1 block');
      else
        expect(labels.sequence).toBe(`3 items, ${framings[format]} (sniffed: the bytes are not one value)`);
      const report = JSON.parse(
        (await cli(['inspect', '-', '--format', format, '--schema', schemaPath, '--json'], bytes)).text,
      );
      expect(report).toMatchObject({
        decoded: true,
        sequence: {
          framing:
            format === 'avro'
              ? 'avro-container'
              : format === 'protobuf'
                ? 'protobuf-delimited'
                : 'flatbuffers-size-prefixed',
          items: 3,
        },
        value: orders.slice(0, 3),
      });
    },
  );

  test('msgpack and CBOR values back to back: trailing bytes that are whole values', async () => {
    for (const format of ['msgpack', 'cbor'] as const) {
      const bytes = createCodec(format).encodeSequence([1, 'two', { three: 3 }]);
      const report = JSON.parse((await cli(['inspect', '-', '--format', format, '--json'], bytes)).text);
      expect(report).toMatchObject({
        sequence: { detected: 'sniff', items: 3 },
        value: [1, 'two', { three: 3 }],
      });
      // decode reads one value: bytes after it are refused, at their offset.
      const failed = await cli(['decode', '--format', format], bytes);
      expect(failed.code).toBe(1);
      expect(failed.stderr).toMatch(
        /^wirekit: WK_DECODE_TRAILING: \d+ bytes follow the value that ends at byte 1; the bytes read as 3 items, /,
      );
      // Bytes after a value that are no whole value: no other reading to offer.
      const cut = await cli(['decode', '--format', format], bytes.subarray(0, bytes.length - 1));
      expect(cut.code).toBe(1);
      expect(cut.stderr).toMatch(
        /^wirekit: WK_DECODE_TRAILING: \d+ bytes follow the value that ends at byte 1\.\n$/,
      );
    }
  });

  test('decode --sequence --ndjson writes the items before a failure, then exits 1', async () => {
    const bytes = createCodec('msgpack').encodeSequence([1, 2, { three: 3 }]);
    const { code, text, stderr } = await cli(
      ['decode', '--format', 'msgpack', '--sequence', '--ndjson'],
      bytes.subarray(0, -1),
    );
    expect(code).toBe(1);
    expect(text).toBe('1\n2\n');
    expect(stderr).toMatch(/^wirekit: WK_DECODE_TRUNCATED: /);
  });

  test('inspect --sequence forces the reading; NDJSON JSON text is found without flags', async () => {
    const forced = JSON.parse(
      (
        await cli(
          ['inspect', '-', '--format', 'cbor', '--sequence', '--json'],
          createCodec('cbor').encode([1, 2]),
        )
      ).text,
    );
    expect(forced).toMatchObject({ sequence: { detected: 'flag', items: 1 }, value: [[1, 2]] });
    const ndjson = await cli(['inspect', `${dir}/orders.ndjson`]);
    expect(ndjson.code).toBe(0);
    expect(fields(ndjson.text)).toMatchObject({
      format: 'json',
      sequence: '120 items, NDJSON, one value per line (sniffed: the bytes are not one value)',
    });
  });
});

describe('ambiguous bytes', () => {
  const schemaOfA = JSON.stringify({
    format: 'wirekit-schema',
    version: 1,
    root: { kind: 'object', name: 'A', fields: [{ name: 'a', id: 1, schema: { kind: 'string' } }] },
  });

  test('Protobuf that reads as one message and as delimited ones: one, with a note; --sequence for the other', async () => {
    await writeFile(`${dir}/a.schema.json`, schemaOfA);
    // As one message: field 1 = "\x08abcdefgh\x03", then field 1 = "x" (the last wins). As
    // delimited messages: 10 bytes (a = "abcdefgh"), then 3 bytes (a = "x").
    const bytes = Uint8Array.of(0x0a, 0x0a, 0x08, ...Buffer.from('abcdefgh'), 0x03, 0x0a, 0x01, 0x78);
    const one = await cli(['decode', '--format', 'protobuf', '--schema', `${dir}/a.schema.json`], bytes);
    expect(JSON.parse(one.text)).toEqual({ a: 'x' });
    expect(one.stderr).toBe(
      'wirekit: note: the bytes also read as 2 varint-delimited Protobuf messages; if they are a sequence, pass --sequence.\n',
    );
    const many = await cli(
      ['decode', '--format', 'protobuf', '--schema', `${dir}/a.schema.json`, '--sequence'],
      bytes,
    );
    expect(JSON.parse(many.text)).toEqual([{ a: 'abcdefgh' }, { a: 'x' }]);
  });

  test('JSON with an item schema: a JSON array of items is read with --sequence, and inspect finds it', async () => {
    const array = JSON.stringify(orders.slice(0, 2));
    const one = await cli(['decode', '--format', 'json', '--schema', schemaPath], array);
    expect(one.code).toBe(1);
    expect(one.stderr).toContain('the bytes read as 2 items, a JSON array of values: pass --sequence');
    const decoded = await cli(['decode', '--format', 'json', '--schema', schemaPath, '--sequence'], array);
    expect(decoded.code, decoded.stderr).toBe(0);
    expect(JSON.parse(decoded.text)).toEqual(orders.slice(0, 2));
    const inspected = await cli(['inspect', '-', '--format', 'json', '--schema', schemaPath], array);
    expect(fields(inspected.text).sequence).toBe(
      '2 items, a JSON array of values (sniffed: the bytes are not one value)',
    );
    expect(inspected.stderr).toContain('wirekit: guessed: read 2 items, a JSON array of values');
  });
});

describe('brotli', () => {
  const json = new TextEncoder().encode(JSON.stringify({ ok: [1, 2, 3] }));

  test('inspect guesses brotli last and says it guessed; --compress brotli says so outright', async () => {
    const bytes = brotliCompressSync(json);
    const guessed = await cli(['inspect', '-'], bytes);
    expect(guessed.code, guessed.stderr).toBe(0);
    expect(fields(guessed.text)).toMatchObject({
      detected: 'sniffed brotli (guessed: nothing else matched, and brotli has no signature), then JSON text',
      compression: 'brotli',
    });
    const told = JSON.parse((await cli(['inspect', '-', '--compress', 'brotli', '--json'], bytes)).text);
    expect(told).toMatchObject({ sniffed: ['json'], compression: 'brotli', value: { ok: [1, 2, 3] } });
    const decoded = await cli(['decode', '--format', 'json', '--compress', 'brotli'], bytes);
    expect(JSON.parse(decoded.text)).toEqual({ ok: [1, 2, 3] });
  });

  test('brotli whose first byte looks like JSON ("[") is still found', async () => {
    // Quality 5 with this size hint starts the stream with 0x5b, the byte of '['.
    const text = JSON.stringify(Array.from({ length: 100_000 }, () => 1));
    const bytes = brotliCompressSync(text, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: text.length },
    });
    expect(bytes[0]).toBe(0x5b);
    const report = JSON.parse((await cli(['inspect', '-', '--json'], bytes)).text);
    expect(report).toMatchObject({ sniffed: ['brotli', 'json'], compression: 'brotli', decoded: true });
  });

  test('brotli around something unrecognisable: the message says it inflates, and what to pass', async () => {
    const { code, stderr } = await cli(['inspect', '-'], brotliCompressSync(Uint8Array.of(0x93, 1, 2, 3)));
    expect(code).toBe(1);
    expect(stderr).toMatch(/inflates as brotli .* to 4 bytes \(93 01 02 03\)/);
    expect(stderr).toContain('--compress brotli');
  });
});

describe('input limits', () => {
  test('--max-input-bytes takes bytes or K, M, G; a bad value is a usage error', async () => {
    const small = await cli(
      ['decode', '--format', 'json', '--max-input-bytes', '10'],
      '[1, 2, 3, 4, 5, 6, 7]',
    );
    expect(small.code).toBe(1);
    expect(small.stderr).toBe(
      'wirekit: WK_LIMIT_INPUT: standard input is larger than the input limit of 10 bytes (10 bytes); pass --max-input-bytes N to read more.\n',
    );
    expect((await cli(['decode', '--format', 'json', '--max-input-bytes', '1K'], '[1]')).text).toBe(
      '[\n  1\n]\n',
    );
    for (const bad of ['0', 'lots', '1.5M', '3T']) {
      const { code, stderr } = await cli(['encode', '--format', 'json', '--max-input-bytes', bad], '1');
      expect(code).toBe(2);
      expect(stderr).toContain('--max-input-bytes takes a whole number of bytes');
    }
  });

  test('the limit raises the decoder limit too, so what is read can be decoded', async () => {
    // 70 MiB of JSON: past the default, within --max-input-bytes 80M (in five strings of 14 MiB,
    // within maxStringBytes and maxElements, which the limit leaves as they are).
    const big = `[${Array.from({ length: 5 }, () => `"${'x'.repeat(14 * 1024 * 1024)}"`).join(',')}]`;
    const refused = await cli(['decode', '--format', 'json', '--ndjson'], big);
    expect(refused.stderr).toContain('input limit of 67108864 bytes (64 MiB)');
    const read = await cli(['decode', '--format', 'json', '--ndjson', '--max-input-bytes', '80M'], big);
    expect(read.code, read.stderr).toBe(0);
    expect(read.text.length).toBe(big.length + 1);
  });

  test('bench --data reads its file within the limit too', async () => {
    expect(() => datasetFromFile({ dataFile: '/dev/zero', maxInputBytes: 1 << 20 })).toThrow(
      '/dev/zero is larger than the input limit of 1048576 bytes (1 MiB)',
    );
    const usage = await cli(['bench', '--max-input-bytes', '1M']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('go with --data FILE');
  });
});
