/**
 * An event codec: the schema-driven codec of one format plus the framing that tells a consumer which
 * schema wrote each event. Producers encode with it, consumers decode with it into their own
 * (reader) schema. (Contract first; the implementation lands with the framing.)
 */

/** Confluent's wire format (magic byte, schema id) or wirekit's envelope (format, compression, fingerprint). */
export type Framing = 'confluent' | 'envelope';

/** What decoding an event yields: the value in the reader's schema, and the writer schema's id if framed with one. */
export interface DecodedEvent<T> {
  readonly value: T;
  readonly schemaId: number | undefined;
}

export interface EventCodec<T> {
  readonly format: string;
  readonly framing: Framing;
  /** Registers the writer schema on first use (cached), then validates and frames the value. */
  encode(value: T): Promise<Uint8Array>;
  /**
   * Reads the frame, fetches the writer's schema by its id on first sight (cached), and decodes
   * into the reader's schema by resolution. Rejects with WK_EVENT_FRAME_INVALID, WK_REGISTRY_*,
   * WK_DECODE_* or WK_LIMIT_* (WirekitErrors only).
   */
  decode(bytes: Uint8Array): Promise<DecodedEvent<T>>;
}
