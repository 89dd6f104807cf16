import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { describe, expect, test } from 'vitest';
import { decodeAny } from '../../src/envelope/index.js';
import { schemaToJson, toJsonValue } from '../../src/index.js';
import { EveryKindFlat, everyKindValue } from '../fixtures/every-kind.js';
import { cli } from '../support/cli.js';

const withTemp = async <T>(body: (dir: string) => Promise<T>): Promise<T> => {
  const dir = await mkdtemp(`${tmpdir()}/wirekit-cli-`);
  try {
    return await body(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

// u64 at 2^63-1: Avro's long cannot hold the fixture's 2^64-1 (docs/mapping/avro.md).
const value = { ...everyKindValue(), u64: 2n ** 63n - 1n };
const { category: _category, ...flatValue } = value;
const jsonInput = JSON.stringify(toJsonValue(EveryKindFlat, flatValue));

describe('wirekit encode / decode', () => {
  test.each(['json', 'msgpack', 'cbor', 'protobuf', 'avro', 'flatbuffers'])(
    '%s: JSON in, bytes out, and back to the same JSON, through an envelope with zstd',
    async (format) => {
      await withTemp(async (dir) => {
        const schemaPath = `${dir}/schema.json`;
        await writeFile(schemaPath, JSON.stringify(schemaToJson(EveryKindFlat)));
        const encoded = await cli(
          ['encode', '--format', format, '--schema', schemaPath, '--compress', 'zstd', '--envelope'],
          jsonInput,
        );
        expect(encoded.stderr).toBe('');
        expect(encoded.code).toBe(0);
        const decoded = await cli(['decode', '--format', 'auto', '--schema', schemaPath], encoded.stdout);
        expect(decoded.stderr).toBe('');
        expect(JSON.parse(decoded.text)).toEqual(JSON.parse(jsonInput));
      });
    },
  );

  test('without --envelope, decode needs the format and writes readable JSON without a schema', async () => {
    const encoded = await cli(
      ['encode', '--format', 'msgpack'],
      '{"a":[1,2,{"b":"c"}],"big":12345678901234}',
    );
    expect(encoded.code).toBe(0);
    expect(encoded.stdout[0]).toBe(0x82);
    const decoded = await cli(['decode', '--format', 'application/x-msgpack'], encoded.stdout);
    expect(JSON.parse(decoded.text)).toEqual({ a: [1, 2, { b: 'c' }], big: 12345678901234 });
  });

  test('arrow takes an array of rows (here NDJSON) and the row schema', async () => {
    await withTemp(async (dir) => {
      await writeFile(`${dir}/schema.json`, JSON.stringify(schemaToJson(EveryKindFlat)));
      const ndjson = `${jsonInput}\n${jsonInput}\n`;
      const encoded = await cli(
        ['encode', '--format', 'arrow', '--schema', `${dir}/schema.json`, '--envelope'],
        ndjson,
      );
      expect(encoded.stderr).toBe('');
      const rows = decodeAny(encoded.stdout, { schema: EveryKindFlat }).value as unknown[];
      expect(rows).toHaveLength(2);
      const decoded = await cli(
        ['decode', '--format', 'arrow', '--schema', `${dir}/schema.json`],
        encoded.stdout.subarray(15),
      );
      expect(JSON.parse(decoded.text)).toEqual([JSON.parse(jsonInput), JSON.parse(jsonInput)]);
    });
  });

  test('errors carry their code; usage errors exit 2', async () => {
    const bad = await cli(
      ['decode', '--format', 'cbor'],
      Uint8Array.from([0x9b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^wirekit: WK_(DECODE_TRUNCATED|LIMIT_ELEMENTS):/);
    expect((await cli(['encode', '--format', 'protobuf'], '{}')).stderr).toContain('WK_SCHEMA_REQUIRED');
    expect((await cli(['encode', '--format', 'xml'], '{}')).code).toBe(2);
    expect((await cli(['encode', '--format', 'json', '--compress', 'rar'], '{}')).code).toBe(2);
    expect((await cli(['decode', '--format', 'auto'], '{}')).stderr).toContain('WK_ENVELOPE_INVALID');
  });
});
