/**
 * A format as a value: its name and its codec factory. Each format's module exports its own
 * (`jsonFormat` from `wirekit-ts/json`, `arrowFormat` from `wirekit-ts/arrow`, ...), so code that
 * speaks a few formats is handed those and imports no other format's code nor the libraries
 * beneath them. What the registry knows about each format without its code (media types, whether
 * it needs a schema, what it carries) stays in codecs/formats.ts, looked up by the name.
 */
import type { Codec, CodecOptions, FormatName } from './codec.js';

export interface FormatEntry<Name extends FormatName = FormatName> {
  readonly name: Name;
  /** Makes a codec, as createCodec(name, options) does; throws what that format's factory throws. */
  readonly create: (options: CodecOptions) => Codec<unknown>;
}

/**
 * A format whose code is loaded on first use, by a dynamic import (a chunk of its own for a
 * bundler): for a browser page that may never need it.
 */
export interface LazyFormatEntry<Name extends FormatName = FormatName> {
  readonly name: Name;
  readonly load: () => Promise<FormatEntry<Name>>;
}
