/**
 * Corrupt and truncated input: whatever the bytes, a decompressor returns bytes or throws a
 * WirekitError (WK_COMPRESSION_FAILED, or WK_LIMIT_DECOMPRESSED where a mutation raised a size):
 * never a library's own error, a crash or a hang. Sync and async paths both run on every input.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import { type Compressor, compressors } from '../../src/compression/index.js';
import { isWirekitError } from '../../src/errors/index.js';
import { joinBytes, MiB, textLike } from './support.js';

const roomy = { maxDecompressedBytes: 1 * MiB };
/** Below the samples' sizes, so lz4's block bound fails and its exact block measure runs. */
const tight = { maxDecompressedBytes: 16 * 1024 };
const allowed = new Set(['ok', 'WK_COMPRESSION_FAILED', 'WK_LIMIT_DECOMPRESSED']);

async function outcomes(compressor: Compressor, bytes: Uint8Array, options = roomy): Promise<string[]> {
  const codes: string[] = [];
  const attempt = async (run: () => Uint8Array | Promise<Uint8Array>) => {
    try {
      await run();
      codes.push('ok');
    } catch (error) {
      if (!isWirekitError(error)) {
        throw new Error(`${compressor.name} threw a non-wirekit error: ${String(error)}`, { cause: error });
      }
      codes.push(error.code);
    }
  };
  await attempt(() => compressor.decompressAsync(bytes, options));
  await attempt(() => compressor.decompress(bytes, options));
  return codes;
}

async function expectWirekitOutcomes(
  compressor: Compressor,
  bytes: Uint8Array,
  options = roomy,
): Promise<void> {
  for (const code of await outcomes(compressor, bytes, options)) expect(allowed).toContain(code);
}

/** The first bytes of each format, so that random tails get past the magic-number checks. */
const prefixes: Record<string, Uint8Array> = {
  none: new Uint8Array(0),
  snappy: new Uint8Array([0x80, 0x01]),
  lz4: new Uint8Array([0x04, 0x22, 0x4d, 0x18, 0x64, 0x40]),
  zstd: new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x58]),
  gzip: new Uint8Array([0x1f, 0x8b, 0x08, 0x00]),
  brotli: new Uint8Array([0x1b]),
};

type Mutation =
  | { readonly kind: 'set'; readonly at: number; readonly value: number }
  | { readonly kind: 'delete'; readonly at: number; readonly count: number }
  | { readonly kind: 'insert'; readonly at: number; readonly bytes: Uint8Array };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: fc.nat(255) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), count: fc.integer({ min: 1, max: 16 }) }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }),
  }),
);

function mutate(source: Uint8Array, mutations: readonly Mutation[]): Uint8Array {
  let bytes: Uint8Array = source.slice();
  for (const change of mutations) {
    const at = bytes.length === 0 ? 0 : change.at % bytes.length;
    if (change.kind === 'set') bytes[at] = change.value;
    else if (change.kind === 'delete')
      bytes = joinBytes(bytes.subarray(0, at), bytes.subarray(at + change.count));
    else bytes = joinBytes(bytes.subarray(0, at), change.bytes, bytes.subarray(at));
  }
  return bytes;
}

describe.each(compressors.map((c) => [c.name, c] as const))('%s: corrupt input', (name, compressor) => {
  const samples: Uint8Array[] = [];

  beforeAll(async () => {
    for (const plain of [
      new Uint8Array(0),
      new TextEncoder().encode('hello'),
      textLike(5_000),
      textLike(70_000),
    ]) {
      samples.push(await compressor.compressAsync(plain));
    }
  });

  test('random bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 512 }), async (bytes) => {
        await expectWirekitOutcomes(compressor, bytes);
      }),
      { numRuns: 500 },
    );
  });

  test('random bytes after the format header', async () => {
    const prefix = prefixes[name] as Uint8Array;
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 512 }), async (tail) => {
        await expectWirekitOutcomes(compressor, joinBytes(prefix, tail));
      }),
      { numRuns: 500 },
    );
  });

  test('mutations of valid frames', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(samples.length - 1),
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        async (index, mutations) => {
          await expectWirekitOutcomes(compressor, mutate(samples[index] as Uint8Array, mutations));
        },
      ),
      { numRuns: 1000 },
    );
  });

  test('mutations of valid frames, under a cap below their size', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(samples.length - 1),
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        async (index, mutations) => {
          await expectWirekitOutcomes(compressor, mutate(samples[index] as Uint8Array, mutations), tight);
        },
      ),
      { numRuns: 500 },
    );
  });

  test('every truncation of a valid frame', async () => {
    const truncationsRefused = name !== 'none';
    for (const sample of samples.slice(0, 3)) {
      for (let cut = 0; cut < sample.length; cut++) {
        const codes = await outcomes(compressor, sample.subarray(0, cut));
        for (const code of codes) expect(allowed).toContain(code);
        // Every format here marks its end, so a cut frame can never pass as whole.
        if (truncationsRefused) expect(codes, `cut at ${cut} of ${sample.length}`).not.toContain('ok');
      }
    }
  });

  test('valid frames with bytes appended', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(samples.length - 1),
        fc.uint8Array({ minLength: 1, maxLength: 64 }),
        async (index, tail) => {
          await expectWirekitOutcomes(compressor, joinBytes(samples[index] as Uint8Array, tail));
        },
      ),
      { numRuns: 500 },
    );
  });
});
