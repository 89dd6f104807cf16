/**
 * Writer schema ids that failed, remembered so that the events of one are refused at once. Making
 * a writer schema's decoder can cost much (fetching it, parsing it, checking a Protobuf file
 * against the reader's, planning Avro resolution), and a schema that failed once fails again: a
 * consumer that tried again for every event of it spent that cost per event (seconds each for a
 * large Protobuf file) while its batch, and on NATS the event loop, waited.
 *
 * What is remembered, by the rule that sorts poison from transient failures (dead-letter.ts):
 * - a failure that is the event's (an id the registry never issued, a schema that does not parse
 *   or cannot be read into the reader's): for good, as the id's schema never changes; the events
 *   are poison and go to the dead-letter path at once, with the same error.
 * - the registry's unavailability: for `retryMs` only, so the events fail fast and wait (they
 *   are not poison) while the registry is away, and the registry is asked again after that.
 * - anything else (no WirekitError: a fault around the codec, not of the schema): not at all.
 *
 * Bounded by count, oldest out, apart from the decoders that worked: a stream of made-up ids
 * fills this memory, not the one whose schemas are costly to make again.
 */
import { isWirekitError } from '../../errors/index.js';
import { isPoison } from './dead-letter.js';

export class WriterFailures {
  /** Failures by schema id, oldest first (a Map keeps insertion order), with when each may be retried. */
  readonly #failures = new Map<number, { readonly error: unknown; readonly retryAt: number }>();

  constructor(
    private readonly maxEntries: number,
    private readonly retryMs: number,
  ) {}

  /** The error the id failed with, while it stands; undefined when the id may be tried. */
  get(id: number): unknown {
    const failure = this.#failures.get(id);
    if (failure === undefined) return undefined;
    if (performance.now() < failure.retryAt) return failure.error;
    this.#failures.delete(id);
    return undefined;
  }

  remember(id: number, error: unknown): void {
    let retryAt: number;
    if (isPoison(error)) retryAt = Number.POSITIVE_INFINITY;
    else if (isWirekitError(error)) retryAt = performance.now() + this.retryMs;
    else return;
    this.#failures.delete(id);
    this.#failures.set(id, { error, retryAt });
    if (this.#failures.size > this.maxEntries)
      this.#failures.delete(this.#failures.keys().next().value as number);
  }

  get size(): number {
    return this.#failures.size;
  }
}
