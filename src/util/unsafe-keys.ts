/**
 * Keys that can reach an object's prototype when a decoded value is later copied by assignment
 * (`Object.assign`, a merge helper, `obj[key] = …`). Decoders refuse them in maps and schemaless
 * objects instead of renaming or dropping them, so nothing changes silently.
 */
export function isUnsafeKey(key: string): boolean {
  return key === '__proto__' || key === 'constructor' || key === 'prototype';
}
