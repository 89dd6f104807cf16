/**
 * Base64 for bytes in JSON. Decoding is strict: Node's decoder silently skips characters outside
 * the alphabet, which would turn a typo into different bytes instead of an error.
 */
import { decodeBase64, decodeStandardBase64, encodeBase64 } from './node-runtime.js';

const standard = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const urlSafe = /^[A-Za-z0-9_-]*$/;

export function toBase64(bytes: Uint8Array): string {
  return encodeBase64(bytes);
}

/** Accepts standard base64 with padding, or base64url without; undefined for anything else. */
export function fromBase64(text: string): Uint8Array | undefined {
  // Most text is standard base64 that Node's decoder can vouch for; the patterns settle the rest.
  const decoded = decodeStandardBase64(text);
  if (decoded !== undefined) return decoded;
  let normalized = text;
  if (!standard.test(text)) {
    if (!urlSafe.test(text) || text.length % 4 === 1) return undefined;
    normalized = text.replaceAll('-', '+').replaceAll('_', '/');
    normalized += '='.repeat((4 - (normalized.length % 4)) % 4);
  }
  return decodeBase64(normalized);
}
