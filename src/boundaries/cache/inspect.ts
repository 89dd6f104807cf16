/**
 * The declared inspection surface of the cache boundary: the readers of values written before
 * wirekit, which `wirekit inspect --legacy` tries in turn on a payload without an envelope, as a
 * cache reads it. Tools outside the boundaries import this entry (or index.ts), never the
 * boundary's other files.
 */
export { type LegacyFormat, legacyFormats, legacyReaders } from './pre-wirekit-values.js';
