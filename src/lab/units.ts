/** Figures as the lab's outputs print them: sizes, times and ratios to native JSON. */

export function size(bytes: number): string {
  if (!Number.isFinite(bytes)) return '-';
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${Math.round(bytes)} B`;
}

export function ms(value: number): string {
  if (!Number.isFinite(value)) return '-';
  if (value >= 100) return `${value.toFixed(0)} ms`;
  if (value >= 1) return `${value.toFixed(2)} ms`;
  return `${(value * 1000).toFixed(1)} µs`;
}

/** "×0.56", or nothing when there is no yardstick (a cell then holds the figure alone). */
export function ratio(value: number): string {
  return Number.isFinite(value) ? `×${value.toFixed(2)}` : '';
}
