/**
 * The cache benchmark's threshold arithmetic, on made-up measurements whose answers are known: the
 * client line fitted through an outlier, when compression pays, and where the two crossovers fall
 * (one noisy size tolerated, two not).
 */
import { describe, expect, test } from 'vitest';
import { robustLine, summarizeThreshold } from './summary.js';
import type { SizePoint, ThresholdResult } from './threshold.js';

const spec = {
  source: 'records',
  format: 'msgpack',
  compression: 'snappy',
  sizes: [],
  budgetMs: 1,
  clientMs: 1,
  clientCallers: 16,
  minOps: 1,
  redisUrl: 'redis://127.0.0.1:1',
} as const;

interface Made {
  readonly plain: number;
  readonly compressed: number;
  readonly sync: number;
  readonly async: number;
  readonly codec?: number;
}

/** A point whose client costs lie exactly on 40 µs + 1 µs per KiB. */
function point({ plain, compressed, sync, async, codec = 100 }: Made): SizePoint {
  const client = (bytes: number) => 40 + bytes / 1024;
  const half = (us: number) => ({ compressUs: us / 2, decompressUs: us / 2 });
  return {
    target: plain,
    items: 1,
    plainBytes: plain,
    compressedBytes: compressed,
    sync: half(sync),
    async: half(async),
    cpu: { sync: half(sync), async: half(async) },
    samples: 5,
    codecUs: codec,
    clientPlainUs: client(plain),
    clientCompressedUs: client(compressed),
  };
}

const run = (points: SizePoint[]): ThresholdResult => ({ spec, pid: 1, points });

describe('robustLine', () => {
  test('fits the line the points lie on, whatever one outlier says', () => {
    const points = [0, 1, 2, 3, 4, 5, 6].map((x) => [x, 10 + 2 * x] as const);
    const withOutlier = [...points, [7, 500] as const];
    for (const line of [robustLine(points), robustLine(withOutlier)]) {
      expect(line.slope).toBeCloseTo(2, 10);
      expect(line.fixed).toBeCloseTo(10, 10);
    }
  });
});

describe('summarizeThreshold', () => {
  const sizes = [256, 512, 1024, 2048, 4096, 8192];

  test('compression pays where it saves enough and more than it adds; the client line is recovered', () => {
    // Savings 5 %, 20 %, then 50 %; compression costs 10 µs against a round trip of ~140 µs (7 %).
    const savings = [0.05, 0.2, 0.5, 0.5, 0.5, 0.5];
    const summary = summarizeThreshold(
      [
        run(
          sizes.map((plain, i) =>
            point({ plain, compressed: plain * (1 - (savings[i] as number)), sync: 10, async: 50 }),
          ),
        ),
      ],
      { minSaving: 0.1 },
    );
    expect(summary.clientFixedUs).toBeCloseTo(40, 6);
    expect(summary.clientUsPerKiB).toBeCloseTo(1, 6);
    expect(summary.sizes.map((s) => s.pays)).toEqual([false, true, true, true, true, true]);
    expect(summary.compressFrom).toBe(512);
    // Sync blocks less everywhere here: async never takes over.
    expect(summary.asyncFrom).toBeUndefined();
    // What compressing adds: the cheaper mode (sync), less what the client saves on the smaller value.
    const at = summary.sizes[2];
    expect(at?.addedUs).toBeCloseTo(10 - 512 / 1024, 6);
    expect(at?.addedShare).toBeCloseTo((10 - 0.5) / (100 + 40 + 1), 6);
  });

  test('a saving smaller than the loop time it adds does not pay, however large the value', () => {
    const summary = summarizeThreshold(
      [
        run(
          sizes.map((plain) => point({ plain, compressed: plain * 0.8, sync: 200, async: 300, codec: 10 })),
        ),
      ],
      { minSaving: 0.1 },
    );
    expect(summary.sizes.every((s) => !s.pays)).toBe(true);
    expect(summary.compressFrom).toBeUndefined();
  });

  test('the async crossover tolerates one noisy size above it, not two', () => {
    const make = (asyncLess: boolean[]) =>
      summarizeThreshold(
        [
          run(
            sizes.map((plain, i) =>
              point({ plain, compressed: plain / 2, sync: 100, async: asyncLess[i] ? 50 : 150 }),
            ),
          ),
        ],
        { minSaving: 0.1 },
      ).asyncFrom;
    expect(make([false, false, true, true, true, true])).toBe(1024);
    expect(make([false, false, true, true, false, true])).toBe(1024);
    expect(make([false, false, true, false, false, true])).toBe(8192);
    expect(make([false, false, false, false, false, false])).toBeUndefined();
  });

  test('processes are combined by the median at each size', () => {
    const at = (async: number) => run([point({ plain: 4096, compressed: 2048, sync: 100, async })]);
    const summary = summarizeThreshold([at(50), at(500), at(60)], { minSaving: 0.1 });
    expect(summary.processes).toBe(3);
    expect(summary.sizes[0]?.asyncUs).toBe(60);
    expect(summary.asyncFrom).toBe(4096);
  });
});
