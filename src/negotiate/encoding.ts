/**
 * Content codings on `Accept-Encoding` (RFC 9110 §12.5.3). Only a coding the client names (or
 * covers with `*`) with q > 0 is chosen; `identity` is always acceptable unless refused outright,
 * and a server that cannot honour the header sends identity anyway rather than a 406, as browsers
 * and proxies expect.
 */
import { splitOutsideQuotes } from './media-type.js';

/**
 * Codings past this many in one header are not read (a real client names three or four). Nothing
 * is refused for it: a coding named later is simply not chosen, and the reply goes out uncompressed
 * or in a coding named earlier.
 */
export const maxAcceptEncodings = 64;

/** The q-value of each coding named in the header (the first 64), lowercased; `*` as given. */
export function parseAcceptEncoding(header: string): Map<string, number> {
  const codings = new Map<string, number>();
  let named = 0;
  for (const part of splitOutsideQuotes(header, ',')) {
    const [name = '', ...params] = part.split(';');
    const coding = name.trim().toLowerCase();
    if (coding === '') continue;
    if (++named > maxAcceptEncodings) break;
    let q = 1;
    for (const param of params) {
      const [key = '', value = ''] = param.split('=');
      if (key.trim().toLowerCase() === 'q') {
        q = Number(value.trim());
        if (!Number.isFinite(q) || q < 0 || q > 1) q = 0;
      }
    }
    codings.set(coding, q);
  }
  return codings;
}

/**
 * The coding to use among `offers` (the server's order of preference), or undefined for identity.
 * Ties in q go to the server's order: its list says which it prefers to spend CPU on.
 */
export function chooseEncoding(header: string | undefined, offers: readonly string[]): string | undefined {
  if (header === undefined || header === '' || offers.length === 0) return undefined;
  const codings = parseAcceptEncoding(header);
  const wildcard = codings.get('*');
  let chosen: string | undefined;
  let bestQ = 0;
  for (const offer of offers) {
    const q = codings.get(offer) ?? wildcard ?? 0;
    if (q > bestQ) {
      bestQ = q;
      chosen = offer;
    }
  }
  return chosen;
}
