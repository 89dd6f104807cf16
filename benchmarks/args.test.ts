/** The benchmark scripts answer `--help` with their usage and a mistyped flag with it and exit 2. */
import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';

const scripts = [
  'overhead/main',
  'overhead/row-floor',
  'overhead/maps-vs-objects',
  'compression/main',
  'http/main',
  'schemaless-integers',
  'amplification/main',
];

describe.each(scripts)('build/benchmarks/%s.js', (script) => {
  const path = new URL(`../build/benchmarks/${script}.js`, import.meta.url).pathname;

  test('--help prints the usage and exits 0', () => {
    const result = spawnSync(process.execPath, [path, '--help'], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^Usage: node build/benchmarks/${script}\\.js`));
  });

  test('an unknown flag says so, with the usage, and exits 2', () => {
    const result = spawnSync(process.execPath, [path, '--no-such-flag'], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("Unknown option '--no-such-flag'");
    expect(result.stderr).toContain('Usage:');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
