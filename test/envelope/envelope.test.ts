import { describe, expect, test } from 'vitest';
import { formatNames } from '../../src/codecs/core/codec.js';
import { createCodec } from '../../src/codecs/registry.js';
import { compressionNames } from '../../src/compression/index.js';
import {
  decodeAny,
  decodeAnyAsync,
  encodeEnveloped,
  encodeEnvelopedAsync,
  formatIds,
  readEnvelope,
  schemaFingerprint,
  writeEnvelope,
} from '../../src/envelope/index.js';
import { t } from '../../src/index.js';
import { codeOf } from '../support/code-of.js';

const User = t.object('User', { id: t.int64(), name: t.string(), tags: t.array(t.string()) });
const UserV2 = t.object('User', {
  id: t.int64(),
  name: t.string(),
  tags: t.array(t.string()),
  admin: t.optional(t.bool()),
});
const user = { id: 42n, name: 'Zoë', tags: ['a', 'b'] };

describe('envelope header', () => {
  test('round-trips format, compression and fingerprint, and starts with the magic', () => {
    const fingerprint = Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]);
    const bytes = writeEnvelope({ format: 'avro', compressionId: 3, fingerprint }, Uint8Array.from([9, 9]));
    expect([...bytes.subarray(0, 7)]).toEqual([0x89, 0x57, 0x4b, 1, formatIds.avro, 3, 1]);
    const { header, payload } = readEnvelope(bytes);
    expect(header).toEqual({ version: 1, format: 'avro', compressionId: 3, fingerprint });
    expect([...payload]).toEqual([9, 9]);
  });

  test('format ids are distinct and cover every format', () => {
    expect(Object.keys(formatIds).sort()).toEqual([...formatNames].sort());
    expect(new Set(Object.values(formatIds)).size).toBe(formatNames.length);
  });

  test.each([
    ['no magic', [0x7b, 0x7d], 'WK_ENVELOPE_INVALID'],
    ['a truncated header', [0x89, 0x57, 0x4b, 1, 1], 'WK_ENVELOPE_INVALID'],
    ['a future version', [0x89, 0x57, 0x4b, 2, 1, 0, 0], 'WK_ENVELOPE_VERSION'],
    ['an unknown format id', [0x89, 0x57, 0x4b, 1, 99, 0, 0], 'WK_ENVELOPE_INVALID'],
    ['an unknown compression id', [0x89, 0x57, 0x4b, 1, 1, 6, 0], 'WK_ENVELOPE_INVALID'],
    ['compression id 255', [0x89, 0x57, 0x4b, 1, 1, 255, 0], 'WK_ENVELOPE_INVALID'],
    ['format id 0', [0x89, 0x57, 0x4b, 1, 0, 0, 0], 'WK_ENVELOPE_INVALID'],
    ['version 0, which no wirekit writes', [0x89, 0x57, 0x4b, 0, 1, 0, 0], 'WK_ENVELOPE_INVALID'],
    ['unknown flag bits', [0x89, 0x57, 0x4b, 1, 1, 0, 0b10], 'WK_ENVELOPE_INVALID'],
    ['a truncated fingerprint', [0x89, 0x57, 0x4b, 1, 1, 0, 1, 0, 0], 'WK_ENVELOPE_INVALID'],
  ])('refuses %s', (_name, bytes, code) => {
    expect(codeOf(() => readEnvelope(Uint8Array.from(bytes)))).toBe(code);
  });
});

describe('decodeAny', () => {
  test.each(['json', 'msgpack', 'cbor', 'protobuf', 'avro', 'flatbuffers'] as const)(
    '%s: every compression, read back without being told the format',
    async (format) => {
      const codec = createCodec(format, { schema: User });
      for (const compression of compressionNames) {
        const decoded = decodeAny(encodeEnveloped(codec, user, { compression }), { schema: User });
        expect([decoded.value, decoded.header.format, decoded.compression]).toEqual([
          user,
          format,
          compression,
        ]);
      }
      // The async pair reads and writes the same bytes.
      const zstd = await encodeEnvelopedAsync(codec, user, { compression: 'zstd' });
      expect((await decodeAnyAsync(zstd, { schema: User })).value).toEqual(user);
      expect(decodeAny(zstd, { schema: User }).value).toEqual(user);
    },
  );

  test('a cache can switch format and compression without a flush: old and new entries both read', () => {
    const old = encodeEnveloped(createCodec('json', { schema: User }), user);
    const current = encodeEnveloped(createCodec('msgpack', { schema: User }), user, { compression: 'lz4' });
    expect(decodeAny(old, { schema: User }).value).toEqual(user);
    expect(decodeAny(current, { schema: User }).value).toEqual(user);
  });

  test('schemaless formats decode without a schema', () => {
    const bytes = encodeEnveloped(createCodec('cbor'), { a: [1, 'x'] }, { compression: 'gzip' });
    expect(decodeAny(bytes).value).toEqual({ a: [1, 'x'] });
  });

  test('a payload written with another schema version is refused by fingerprint', () => {
    const bytes = encodeEnveloped(createCodec('protobuf', { schema: User }), user);
    expect(codeOf(() => decodeAny(bytes, { schema: UserV2 }))).toBe('WK_ENVELOPE_SCHEMA');
    expect(decodeAny(bytes, { schema: UserV2, checkFingerprint: false }).value).toEqual(user);
  });

  test('fingerprints ignore docs but not structure', () => {
    const documented = t.object('User', {
      id: t.field(t.int64(), { doc: 'the id' }),
      name: t.string(),
      tags: t.array(t.string()),
    });
    expect(schemaFingerprint(documented)).toEqual(schemaFingerprint(User));
    expect(schemaFingerprint(UserV2)).not.toEqual(schemaFingerprint(User));
  });

  test('a decompression bomb inside an envelope stops at maxDecompressedBytes', () => {
    const big = createCodec('json').encode('x'.repeat(4 * 1024 * 1024));
    const bytes = encodeEnveloped(
      { ...createCodec('json'), encode: () => big } as ReturnType<typeof createCodec>,
      null,
      { compression: 'gzip' },
    );
    expect(bytes.length).toBeLessThan(big.length / 100);
    expect(codeOf(() => decodeAny(bytes, { maxDecompressedBytes: 1024 * 1024 }))).toBe(
      'WK_LIMIT_DECOMPRESSED',
    );
  });

  test('a compression id no wirekit writes is a damaged envelope (offset 5), sync and async', async () => {
    const bytes = encodeEnveloped(createCodec('json'), { a: 1 });
    bytes[5] = 6;
    const expected = { code: 'WK_ENVELOPE_INVALID', offset: 5 };
    expect(() => decodeAny(bytes)).toThrow(expect.objectContaining(expected));
    await expect(decodeAnyAsync(bytes)).rejects.toMatchObject(expected);
  });

  test('a schema format without a schema is refused clearly', () => {
    const bytes = encodeEnveloped(createCodec('avro', { schema: User }), user);
    expect(codeOf(() => decodeAny(bytes))).toBe('WK_SCHEMA_REQUIRED');
  });
});
