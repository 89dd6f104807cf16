/**
 * The unsafe-key check of both scanners, done on the key's bytes so that no string is made for
 * the (many) keys that cannot be one of the three.
 */
import { unsafeKey } from '../../core/errors.js';

const unsafeNames = ['__proto__', 'constructor', 'prototype'];
const unsafe = unsafeNames.map((key) => new TextEncoder().encode(key));

/** Refuses the three unsafe keys; only 9- and 11-byte keys can be one, so most keys cost one compare. */
export function checkKey(bytes: Uint8Array, start: number, length: number): void {
  if (length !== 9 && length !== 11) return;
  for (let k = 0; k < unsafe.length; k++) {
    const candidate = unsafe[k] as Uint8Array;
    if (candidate.length !== length) continue;
    let same = true;
    for (let i = 0; i < length && same; i++) same = bytes[start + i] === candidate[i];
    if (same) throw unsafeKey(start, unsafeNames[k] as string);
  }
}
