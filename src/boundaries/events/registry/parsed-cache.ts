/**
 * The parsed schemas the registry keeps between requests: a bounded, least-recently-used cache by
 * schema identity (two texts of one identity parse to the same schema), so that checking a new
 * version against the subject's latest does not parse the latest again, while what parsed schemas
 * cost in memory stays bounded however many schemas the registry holds. A parsed schema costs a
 * multiple of its text (its types, fields and canonical form), so the cache is bounded both in
 * entries and in the text length it stands for; an evicted schema is parsed again from its text
 * when a check next needs it.
 */
import type { ParsedSchema } from '../compatibility/index.js';

export interface ParsedCacheLimits {
  /** The most parsed schemas kept (default 1,000). */
  readonly maxSchemas?: number;
  /**
   * The most schema text, in UTF-16 code units, that the kept schemas were parsed from (default
   * 4 MiB worth, 4,194,304: a few thousand schemas of the usual few kilobytes, or four of the
   * largest; a parsed schema takes 3-8 times its text). A schema longer than this is parsed for
   * each check and not kept.
   */
  readonly maxTextLength?: number;
}

export const defaultParsedCacheLimits: Required<ParsedCacheLimits> = {
  maxSchemas: 1_000,
  maxTextLength: 4 * 1024 * 1024,
};

export class ParsedCache {
  /** By identity; a Map keeps insertion order, and a hit is moved to the end, so the first is the oldest. */
  private readonly entries = new Map<string, ParsedSchema>();
  private textLength = 0;
  private readonly limits: Required<ParsedCacheLimits>;

  constructor(limits: ParsedCacheLimits = {}) {
    this.limits = { ...defaultParsedCacheLimits, ...limits };
  }

  get size(): number {
    return this.entries.size;
  }

  get(identity: string): ParsedSchema | undefined {
    const parsed = this.entries.get(identity);
    if (parsed !== undefined) {
      this.entries.delete(identity);
      this.entries.set(identity, parsed);
    }
    return parsed;
  }

  set(identity: string, parsed: ParsedSchema): void {
    const previous = this.entries.get(identity);
    if (previous !== undefined) {
      this.entries.delete(identity);
      this.textLength -= previous.text.length;
    }
    if (parsed.text.length > this.limits.maxTextLength) return;
    this.entries.set(identity, parsed);
    this.textLength += parsed.text.length;
    while (this.entries.size > this.limits.maxSchemas || this.textLength > this.limits.maxTextLength) {
      const [oldest, evicted] = this.entries.entries().next().value as [string, ParsedSchema];
      this.entries.delete(oldest);
      this.textLength -= evicted.text.length;
    }
  }
}
