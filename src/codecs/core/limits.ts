import { WirekitError } from '../../errors/index.js';
import { effectiveDepth } from '../../util/depth-ceiling.js';

/**
 * Bounds on what a decoder accepts from untrusted bytes. Every decoder checks every one of them
 * before it allocates, so that a few hostile bytes (a huge declared length, a deep nest) cost little.
 */
export interface DecodeLimits {
  /** Largest input accepted, in bytes. */
  readonly maxInputBytes: number;
  /**
   * Deepest nesting of arrays, maps and objects; guards the stack. At most 1,000 (the depth
   * ceiling): a larger value counts as 1,000, since past it recursion would rely on the stack left.
   */
  readonly maxDepth: number;
  /** Longest string, in UTF-8 bytes. */
  readonly maxStringBytes: number;
  /** Longest byte string. */
  readonly maxBytesLength: number;
  /** Array items and map entries in one decoded value, all counted together. */
  readonly maxElements: number;
  /**
   * Heap the decoded value may take, estimated as it is built (core/budget.ts: objects, arrays, their
   * slots, strings, byte strings): the bound on what a small input can make a decoder allocate.
   */
  readonly maxAllocatedBytes: number;
}

export const defaultDecodeLimits: DecodeLimits = Object.freeze({
  maxInputBytes: 64 * 1024 * 1024,
  maxDepth: 100,
  maxStringBytes: 16 * 1024 * 1024,
  maxBytesLength: 64 * 1024 * 1024,
  maxElements: 16_777_216,
  maxAllocatedBytes: 256 * 1024 * 1024,
});

export function resolveLimits(limits: Partial<DecodeLimits> | undefined): DecodeLimits {
  if (limits === undefined) return defaultDecodeLimits;
  const merged = { ...defaultDecodeLimits, ...limits };
  for (const [name, value] of Object.entries(merged)) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new WirekitError(
        'WK_OPTIONS_INVALID',
        `limits.${name} must be a non-negative integer, got ${value}.`,
      );
    }
  }
  // Readers and writers recurse per level: a maxDepth past the ceiling would leave the stack to decide.
  return Object.freeze({ ...merged, maxDepth: effectiveDepth(merged.maxDepth) });
}

export function checkInputSize(bytes: Uint8Array, limits: DecodeLimits): void {
  if (bytes.length > limits.maxInputBytes) {
    throw new WirekitError(
      'WK_LIMIT_INPUT',
      `the input is ${bytes.length} bytes; maxInputBytes is ${limits.maxInputBytes}.`,
    );
  }
}
