/** Inputs and probes that the compression tests share. */
import { readFileSync, writeFileSync } from 'node:fs';
import { isWirekitError } from '../../src/errors/index.js';

const words = [
  'alpha',
  'beta',
  'order',
  'price',
  'status',
  'shipped',
  'user',
  'email',
  '"id":',
  '{',
  '},',
  ',',
];

/**
 * `length` bytes of JSON-like text from a seeded generator: compressible like real payloads (a
 * ratio of 3-5), but with no long repeats, so that compressing it takes real work.
 */
export function textLike(length: number, seed = 1): Uint8Array {
  const out = new Uint8Array(length);
  const encoder = new TextEncoder();
  const encoded = words.map((word) => encoder.encode(`${word} `));
  let state = seed >>> 0;
  let i = 0;
  while (i < length) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    if (state >>> 28 < 5) {
      // A number: digits from the generator, which no dictionary can predict.
      const digits = String(state % 1_000_003);
      for (let d = 0; d < digits.length && i < length; d++) out[i++] = digits.charCodeAt(d);
      if (i < length) out[i++] = 0x20;
    } else {
      const word = encoded[(state >>> 16) % encoded.length] as Uint8Array;
      const take = Math.min(word.length, length - i);
      out.set(word.subarray(0, take), i);
      i += take;
    }
  }
  return out;
}

/** The code of the WirekitError that `run` rejects with; 'ok' when it resolves; rethrows others. */
export async function codeOfAsync(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return 'ok';
  } catch (error) {
    if (isWirekitError(error)) return error.code;
    throw error;
  }
}

function statusBytes(field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync('/proc/self/status', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${field}:`));
  if (line === undefined) throw new Error(`/proc/self/status has no ${field}`);
  return Number.parseInt(line.slice(field.length + 1), 10) * 1024;
}

/**
 * How far the resident memory of this process rose above its level at the start while `run` ran,
 * at its peak: Linux's high-water mark (VmHWM), reset through /proc/self/clear_refs. A peak, not a
 * difference of two samples, so an allocation freed again before `run` returns is still seen.
 */
export async function peakGrowth(run: () => unknown): Promise<number> {
  writeFileSync('/proc/self/clear_refs', '5');
  const before = statusBytes('VmRSS');
  await run();
  return statusBytes('VmHWM') - before;
}

export const MiB = 1024 * 1024;

/**
 * Asserts two byte arrays are equal. vitest's toEqual walks typed arrays one element at a time,
 * seconds per megabyte; this compares natively and names the first difference.
 */
export function expectSameBytes(actual: Uint8Array, expected: Uint8Array): void {
  const a = Buffer.from(actual.buffer, actual.byteOffset, actual.byteLength);
  const b = Buffer.from(expected.buffer, expected.byteOffset, expected.byteLength);
  if (a.equals(b)) return;
  let at = 0;
  while (at < a.length && at < b.length && a[at] === b[at]) at++;
  throw new Error(`bytes differ: lengths ${a.length} and ${b.length}, first difference at ${at}`);
}

export function joinBytes(...parts: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts));
}
