/**
 * A schema's fingerprint: SHA-256 of its canonical JSON form, without docs (they do not change the
 * wire). Two schemas that read and write the same bytes have the same fingerprint; the envelope
 * carries its first 8 bytes, enough to tell schema versions apart (a collision needs ~2^32 versions).
 */
import { createHash } from 'node:crypto';
import { type Schema, schemaToJson } from '../schema/index.js';

const cache = new WeakMap<Schema, Uint8Array>();

export function schemaFingerprint(schema: Schema): Uint8Array {
  let fingerprint = cache.get(schema);
  if (fingerprint === undefined) {
    const canonical = canonicalJson(schemaToJson(schema).root);
    fingerprint = new Uint8Array(createHash('sha256').update(canonical).digest());
    cache.set(schema, fingerprint);
  }
  return fingerprint;
}

/** JSON with object keys sorted and `doc` left out, so equal schemas give equal text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value)
      .filter((key) => key !== 'doc')
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
