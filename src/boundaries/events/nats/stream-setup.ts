/**
 * What a producer or consumer creates when its JetStream stream is missing (`ensureStream`). Apart
 * from stream.ts, which creates it, because this type is public and that module's declarations name
 * the NATS client's types, an optional peer's.
 */
export interface NatsStreamSetup {
  /** Subjects the stream captures (default: the producer's subject, or the consumer's filter). */
  readonly subjects?: readonly string[];
  /** 'file' (default: survives a restart) or 'memory'. */
  readonly storage?: 'file' | 'memory';
  /** How long a msgID is remembered for de-duplication (default 2 min, JetStream's own default). */
  readonly duplicateWindowMs?: number;
  /** Drop messages older than this (default: keep them). */
  readonly maxAgeMs?: number;
  /** Drop the oldest messages beyond this many bytes (default: no limit). */
  readonly maxBytes?: number;
}
