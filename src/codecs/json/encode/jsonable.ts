/**
 * The schemaless writer's check of a value before JSON.stringify writes it (the JSON codec's
 * `strict`, on by default): what it would change without a word is refused instead.
 */
import { WirekitError } from '../../../errors/index.js';
import { isUnsafeKey } from '../../core/errors.js';

/**
 * Refuses, before JSON.stringify runs, what it would change without a word: NaN and infinities
 * (written as null), Maps, Sets and typed arrays (written as {} or as index-keyed objects), undefined
 * in arrays (null), bigints, functions and symbols. Dates pass (their toJSON writes ISO text, the
 * common convention), as do objects with a toJSON of their own. The keys `__proto__`, `constructor`
 * and `prototype` are refused too, as the decoder refuses them, so that nothing written is unreadable.
 * Iterative, so a deep or cyclic value meets maxDepth instead of the stack limit.
 */
export function checkJsonable(value: unknown, maxDepth: number): void {
  const stack: unknown[] = [value];
  const depths: number[] = [0];
  while (stack.length > 0) {
    const node = stack.pop();
    const depth = depths.pop() as number;
    if (typeof node !== 'object' || node === null) {
      checkLeaf(node);
      continue;
    }
    if (depth >= maxDepth) {
      throw new WirekitError(
        'WK_ENCODE_UNSUPPORTED',
        `the value nests deeper than ${maxDepth} levels (is it cyclic?).`,
      );
    }
    if (Array.isArray(node)) {
      for (const item of node) {
        if (item === undefined) throw unsupported('undefined in an array (JSON would write null)');
        stack.push(item);
        depths.push(depth + 1);
      }
      continue;
    }
    if (typeof (node as { toJSON?: unknown }).toJSON === 'function') continue;
    const proto = Object.getPrototypeOf(node);
    if (proto !== Object.prototype && proto !== null) {
      throw unsupported(
        `a ${proto?.constructor?.name ?? 'class instance'} (JSON would write it as a plain object)`,
      );
    }
    for (const key in node) {
      const item = (node as Record<string, unknown>)[key];
      if (item === undefined) continue;
      if (isUnsafeKey(key)) {
        throw new WirekitError(
          'WK_ENCODE_UNSUPPORTED',
          `the key ${JSON.stringify(key)} is refused by every wirekit decoder, so it is not written.`,
        );
      }
      stack.push(item);
      depths.push(depth + 1);
    }
  }
}

function checkLeaf(value: unknown): void {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw unsupported(`${value} (JSON would write null)`);
  } else if (typeof value === 'bigint' || typeof value === 'function' || typeof value === 'symbol') {
    throw unsupported(`a ${typeof value}`);
  }
}

function unsupported(what: string): WirekitError {
  return new WirekitError(
    'WK_ENCODE_UNSUPPORTED',
    `JSON cannot carry ${what}; use a schema, or another format.`,
  );
}
