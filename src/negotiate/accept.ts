/**
 * Proactive negotiation on `Accept` (RFC 9110 §12.5.1): q-values, wildcards and parameters.
 *
 * Each offer takes the quality of the most specific range that matches it (`type/subtype;param`
 * over `type/subtype` over `type/*` over `*\/*`); the offer with the highest quality wins and ties
 * go to the server's order of preference. q=0 means "not this". An absent or empty header accepts
 * anything, so the first offer wins.
 *
 * A server sees few distinct Accept headers (one per kind of client), so a `Negotiator` built once
 * per route remembers its answers in a small bounded table and does no parsing on the hot path.
 */
import { type MediaType, parseMediaType, splitOutsideQuotes } from './media-type.js';

export interface MediaRange extends MediaType {
  /** 0 to 1, with at most three decimals. */
  readonly q: number;
}

/**
 * Ranges past this many in one header are not read: no real client sends so many (browsers send
 * under ten), and negotiation compares every range with every offer, so the cap bounds its work.
 * A refusal says when it cut a header (see `rangesPastCap`).
 */
export const maxAcceptRanges = 64;

const qValue = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * The ranges of an Accept header. A malformed range is skipped, as are ranges past the 64th
 * well-formed one; a malformed q-value makes its range unacceptable rather than preferred.
 */
export function parseAccept(header: string): MediaRange[] {
  return readAccept(header).ranges;
}

/** How many non-empty ranges of the header `parseAccept` left unread past its cap (0 for most). */
export function rangesPastCap(header: string): number {
  return readAccept(header).unread;
}

function readAccept(header: string): { ranges: MediaRange[]; unread: number } {
  const ranges: MediaRange[] = [];
  let unread = 0;
  for (const part of splitOutsideQuotes(header, ',')) {
    if (part.trim() === '') continue;
    if (ranges.length === maxAcceptRanges) {
      unread++;
      continue;
    }
    const parsed = parseMediaType(part);
    if (parsed === undefined) continue;
    // Parameters after q are accept-extensions, not media type parameters.
    const params = new Map<string, string>();
    let q = 1;
    let afterQ = false;
    for (const name of parsed.order) {
      if (name === 'q') {
        const raw = parsed.params.get('q') as string;
        q = qValue.test(raw) ? Number(raw) : 0;
        afterQ = true;
      } else if (!afterQ) params.set(name, parsed.params.get(name) as string);
    }
    ranges.push({ type: parsed.type, subtype: parsed.subtype, params, q });
  }
  return { ranges, unread };
}

/** How specifically `range` matches `offer`: -1 for no match, higher for more specific. */
function specificity(range: MediaRange, offer: MediaType): number {
  if (range.type === '*') return 0;
  if (range.type !== offer.type) return -1;
  if (range.subtype === '*') return 1;
  if (range.subtype !== offer.subtype) return -1;
  for (const [name, value] of range.params) {
    // A charset the offer does not state is no reason to refuse: JSON and the binary formats
    // have one encoding, and clients commonly send `application/json; charset=utf-8`.
    if (name === 'charset' && !offer.params.has(name)) continue;
    if (offer.params.get(name)?.toLowerCase() !== value.toLowerCase()) return -1;
  }
  return 2 + range.params.size;
}

/** The quality of `offer` under `ranges`: that of the most specific matching range, else 0. */
export function qualityOf(ranges: readonly MediaRange[], offer: MediaType): number {
  let best = -1;
  let q = 0;
  for (const range of ranges) {
    const s = specificity(range, offer);
    if (s > best) {
      best = s;
      q = range.q;
    }
  }
  return q;
}

/** Index of the chosen offer, or -1 when the header accepts none of them. */
export function chooseMediaType(header: string | undefined, offers: readonly MediaType[]): number {
  if (offers.length === 0) return -1;
  if (header === undefined || header.trim() === '') return 0;
  const ranges = parseAccept(header);
  if (ranges.length === 0) return 0; // nothing parsable: treat as no preference, as browsers expect
  let chosen = -1;
  let bestQ = 0;
  offers.forEach((offer, index) => {
    const q = qualityOf(ranges, offer);
    if (q > bestQ) {
      bestQ = q;
      chosen = index;
    }
  });
  return chosen;
}

/** Remembered answers per negotiator; past this many distinct headers, the oldest are forgotten. */
const cacheSize = 256;
/** Headers longer than this are negotiated each time rather than kept as cache keys. */
const maxCachedHeader = 1024;

/** Negotiates among a fixed list of offers, in the server's order of preference. */
export class Negotiator {
  readonly offers: readonly string[];
  private readonly parsed: readonly MediaType[];
  private readonly answers = new Map<string, number>();

  constructor(offers: readonly string[]) {
    this.offers = offers;
    this.parsed = offers.map((offer) => {
      const parsed = parseMediaType(offer);
      if (parsed === undefined) throw new TypeError(`not a media type: ${offer}`);
      return parsed;
    });
  }

  /** The index of the offer to answer with, or -1 (the caller answers 406). */
  choose(header: string | undefined): number {
    if (header === undefined || header.length > maxCachedHeader) return chooseMediaType(header, this.parsed);
    let index = this.answers.get(header);
    if (index === undefined) {
      index = chooseMediaType(header, this.parsed);
      if (this.answers.size >= cacheSize) this.answers.delete(this.answers.keys().next().value as string);
      this.answers.set(header, index);
    }
    return index;
  }
}
