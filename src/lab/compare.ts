/**
 * Where a round trip changed a value: the first difference, spelled for a report ("createdAt: Date
 * became string"). Losses are shown in the results, never hidden.
 */
export function firstDifference(expected: unknown, actual: unknown, path = '$'): string | undefined {
  if (Object.is(expected, actual)) return undefined;
  const kind = (value: unknown): string => {
    if (value === null) return 'null';
    if (value instanceof Date) return 'Date';
    if (value instanceof Uint8Array) return 'bytes';
    if (value instanceof Map) return 'Map';
    if (Array.isArray(value)) return 'array';
    return typeof value;
  };
  const [a, b] = [kind(expected), kind(actual)];
  // An integer beyond 2^53 read as a double: the digits show the rounding (…681 became …700).
  if (a === 'bigint' && b === 'number') return `${path}: ${expected} became ${actual}`;
  if (a !== b) return `${path}: ${a} became ${b}`;
  if (expected instanceof Date) {
    return expected.getTime() === (actual as Date).getTime() ? undefined : `${path}: Date changed`;
  }
  if (expected instanceof Uint8Array) {
    const other = actual as Uint8Array;
    return expected.length === other.length && expected.every((byte, i) => byte === other[i])
      ? undefined
      : `${path}: bytes changed`;
  }
  if (expected instanceof Map) {
    const other = actual as Map<unknown, unknown>;
    if (expected.size !== other.size) return `${path}: Map size ${expected.size} became ${other.size}`;
    for (const [key, value] of expected) {
      const found = firstDifference(value, other.get(key), `${path}[${String(key)}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (Array.isArray(expected)) {
    const other = actual as unknown[];
    if (expected.length !== other.length) return `${path}: length ${expected.length} became ${other.length}`;
    for (let i = 0; i < expected.length; i++) {
      const found = firstDifference(expected[i], other[i], `${path}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof expected === 'object' && expected !== null) {
    const other = actual as Record<string, unknown>;
    const keys = new Set([...Object.keys(expected), ...Object.keys(other)]);
    for (const key of keys) {
      const found = firstDifference((expected as Record<string, unknown>)[key], other[key], `${path}.${key}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  return `${path}: ${String(expected).slice(0, 30)} became ${String(actual).slice(0, 30)}`;
}
