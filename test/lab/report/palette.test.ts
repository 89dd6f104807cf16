/**
 * The report's palette holds a colour for every series it can ever draw (each lab subject in the
 * scatter, the raw size and each compressor in the size bars), and no two colours look alike.
 */
import { describe, expect, test } from 'vitest';
import { colourOrder, seriesPalette } from '../../../src/lab/report/palette.js';
import { subjectNames } from '../../../src/lab/subjects.js';

/** sRGB hex to CIELAB (D65), where a distance is about how different two colours look. */
function lab(hex: string): [number, number, number] {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const v = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const x = (r * 0.4124 + g * 0.3576 + b * 0.1805) / 0.95047;
  const y = r * 0.2126 + g * 0.7152 + b * 0.0722;
  const z = (r * 0.0193 + g * 0.1192 + b * 0.9505) / 1.08883;
  const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

describe('seriesPalette', () => {
  test('has a colour for every subject, and for raw plus the five compressors', () => {
    expect(colourOrder).toEqual(subjectNames);
    expect(seriesPalette.length).toBeGreaterThanOrEqual(subjectNames.length);
    expect(seriesPalette.length).toBeGreaterThanOrEqual(1 + 5);
  });

  test('no two colours are alike (CIELAB distance at least 20)', () => {
    for (const colour of seriesPalette) expect(colour).toMatch(/^#[0-9a-f]{6}$/);
    for (const [i, a] of seriesPalette.entries()) {
      for (const b of seriesPalette.slice(i + 1)) {
        const [p, q] = [lab(a), lab(b)];
        expect(Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]), `${a} vs ${b}`).toBeGreaterThan(20);
      }
    }
  });
});
