/**
 * What the docs say about a peer's version agrees with package.json's peer range: "ioredis 6",
 * "kafkajs (2.2.4)", "(an optional peer dependency, 6)", "(3.3.x)". A claim names a release series
 * (6: every 6.x; 2.2: every 2.2.x; 2.2.4: that release); it agrees when some release of that
 * series is in the range, so a doc that promises 5.4 beside a range that starts at 6 fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { docFiles } from '../support/doc-blocks.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  peerDependencies: Record<string, string>;
};

type Version = readonly [number, number, number];
/** Versions from `low` (included) to `high` (excluded). */
interface Span {
  readonly low: Version;
  readonly high: Version;
}

const parts = (text: string): number[] =>
  text
    .replace(/-.*$/, '')
    .split('.')
    .filter((part) => part !== 'x')
    .map(Number);
const version = (numbers: readonly number[]): Version => [numbers[0] ?? 0, numbers[1] ?? 0, numbers[2] ?? 0];
const compare = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** The releases a claim names: "6" is [6.0.0, 7.0.0), "3.3.x" [3.3.0, 3.4.0), "2.2.4" that one. */
function seriesOf(claim: string): Span {
  const numbers = parts(claim);
  const low = version(numbers);
  const next = [...numbers];
  next[next.length - 1] = (next[next.length - 1] ?? 0) + 1;
  return { low, high: numbers.length >= 3 ? version([low[0], low[1], low[2] + 1]) : version(next) };
}

/** The ranges package.json uses: `>=A <B`, `^A`, or one exact version. */
function spanOfRange(range: string): Span {
  const bounded = /^>=\s*(\S+)\s+<\s*(\S+)$/.exec(range);
  if (bounded !== null)
    return { low: version(parts(bounded[1] as string)), high: version(parts(bounded[2] as string)) };
  const caret = /^\^(\S+)$/.exec(range);
  if (caret !== null) {
    const low = version(parts(caret[1] as string));
    return { low, high: [low[0] + 1, 0, 0] };
  }
  if (/^\d+\.\d+\.\d+(-\S+)?$/.test(range)) return seriesOf(range);
  throw new Error(`a peer range this test cannot read: ${range}`);
}

const overlaps = (a: Span, b: Span) => compare(a.low, b.high) < 0 && compare(b.low, a.high) < 0;

const versionToken = /^\d+(?:\.\d+){0,2}(?:\.x)?(?:-[\w.]+)?$/;

interface Claim {
  readonly where: string;
  readonly peer: string;
  readonly claim: string;
}

/**
 * The version claims of each peer in one text: the name followed by a version ("ioredis 6", "pg
 * 8.23"), or by a parenthesis one of whose comma-, semicolon- or "or"-separated items is only a
 * version ("(2.2.4)", "(an optional peer dependency, 5.4 or 6)").
 */
function claimsIn(file: string, text: string, peers: readonly string[]): Claim[] {
  const claims: Claim[] = [];
  text.split('\n').forEach((line, index) => {
    for (const peer of peers) {
      const name = peer.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      for (const match of line.matchAll(new RegExp(`(?<![\\w@/-])\`?${name}\`?(?![\\w/-])`, 'g'))) {
        // A Markdown link's target after the name ([ioredis](https://…)) is no part of the claim.
        const after = line.slice((match.index ?? 0) + match[0].length).replace(/^\]\([^)]*\)/, '');
        const where = `${file}:${index + 1}`;
        const direct = /^\s+(\d+(?:\.\d+){0,2}(?:\.x)?(?:-[\w.]+)?)(?=[\s,;)]|$)/.exec(after);
        if (direct !== null) claims.push({ where, peer, claim: direct[1] as string });
        const bracket = /^(?:\s*\+\s*`?[\w@/.-]+`?)*\s*\(([^)]*)\)/.exec(after);
        if (bracket === null) continue;
        for (const item of (bracket[1] as string).split(/,|;|\bor\b/)) {
          if (versionToken.test(item.trim())) claims.push({ where, peer, claim: item.trim() });
        }
      }
    }
  });
  return claims;
}

describe("the docs' version claims about peers", () => {
  const peers = Object.keys(manifest.peerDependencies);

  test('the reader finds the claims as written', () => {
    const text = [
      'Install [ioredis](https://github.com/redis/ioredis) (an optional peer dependency, 5.4 or 6): the store',
      'kafkajs (2.2.4) and `@nats-io/transport-node` + `@nats-io/jetstream` (3.3.x) are optional peers',
      '| pg 8.23 (optional peer) | @fastify/websocket 11 (optional peer; ws 8 beneath it) |',
      'fastify 5, with @duckdb/node-api 1.5.6-r.1 (2024)',
    ].join('\n');
    expect(
      claimsIn('x.md', text, peers)
        .map(({ peer, claim }) => `${peer} ${claim}`)
        .sort(),
    ).toEqual(
      [
        'ioredis 5.4',
        'ioredis 6',
        'kafkajs 2.2.4',
        '@nats-io/transport-node 3.3.x',
        '@nats-io/jetstream 3.3.x',
        'pg 8.23',
        '@fastify/websocket 11',
        'fastify 5',
        '@duckdb/node-api 1.5.6-r.1',
      ].sort(),
    );
    expect(overlaps(seriesOf('5.4'), spanOfRange('>=6.0.0 <7'))).toBe(false);
    expect(overlaps(seriesOf('6'), spanOfRange('>=6.0.0 <7'))).toBe(true);
    expect(overlaps(seriesOf('3.3.x'), spanOfRange('>=3.3.1 <4'))).toBe(true);
    expect(overlaps(seriesOf('5'), spanOfRange('^5.0.0'))).toBe(true);
    expect(overlaps(seriesOf('1.5.6-r.1'), spanOfRange('1.5.6-r.1'))).toBe(true);
  });

  test("every claim in README.md and docs/ is within the peer's range in package.json", () => {
    const claims = docFiles(root).flatMap((file) =>
      claimsIn(file, readFileSync(join(root, file), 'utf8'), peers),
    );
    const wrong = claims
      .filter(
        ({ peer, claim }) =>
          !overlaps(seriesOf(claim), spanOfRange(manifest.peerDependencies[peer] as string)),
      )
      .map(
        ({ where, peer, claim }) =>
          `${where}: ${peer} ${claim}, but the peer range is ${manifest.peerDependencies[peer]}`,
      );
    expect(wrong).toEqual([]);
    // The claims the reader above must keep finding: the doc pages' install lines.
    expect(claims.map(({ peer }) => peer)).toEqual(
      expect.arrayContaining(['ioredis', 'kafkajs', 'fastify', 'pg']),
    );
  });
});
