/**
 * Where the registry server keeps what it was told: an append-only log of records, replayed in order
 * at start. The log is the whole state (subjects, versions, ids, configs, modes, deletions), so a store only
 * appends and replays: in memory (the default, lost at exit), a file (one JSON record per line), or a
 * compacted Kafka topic (as Confluent's registry keeps `_schemas`, so a deployment needs no other
 * database). A store orders records as it received them; the registry assigns ids and versions and
 * is the only writer.
 */
import type { CompatibilityLevel, RegistryMode, SchemaReference, SchemaType } from './api.js';

export type RegistryRecord =
  /** A version of a subject; `deleted` marks a soft delete (the schema stays readable by id). */
  | {
      readonly kind: 'schema';
      readonly subject: string;
      readonly version: number;
      readonly id: number;
      readonly schemaType: SchemaType;
      readonly schema: string;
      readonly references: readonly SchemaReference[];
      readonly deleted: boolean;
    }
  /** A compatibility level, global (`subject` null) or a subject's; `compatibility` null removes it. */
  | {
      readonly kind: 'config';
      readonly subject: string | null;
      readonly compatibility: CompatibilityLevel | null;
    }
  /** A mode, global (`subject` null) or a subject's; `mode` null removes it. */
  | {
      readonly kind: 'mode';
      readonly subject: string | null;
      readonly mode: RegistryMode | null;
    }
  /** A hard delete of one version (after a soft one), as DELETE ...?permanent=true does. */
  | { readonly kind: 'purge'; readonly subject: string; readonly version: number }
  /**
   * The highest id handed out so far, written before a purge by a store that compaction thins (the
   * Kafka store): once a purged version's record and its tombstone are compacted away, this record
   * alone keeps its id from being handed out again.
   */
  | { readonly kind: 'ids'; readonly highest: number };

export interface RegistryStore {
  /** Every record kept so far, in the order they were appended. Called once, before any append. */
  load(): Promise<readonly RegistryRecord[]>;
  /**
   * Where the `index`-th record `load` returned is kept (`schemas.log:12`, `_schemas/0@41`), for
   * the error that refuses a log whose records contradict each other. Optional: without it the
   * error says which record of the log it was.
   */
  locationOf?(index: number): string;
  /** Resolves once the record is durable as far as this store goes (flushed, acknowledged). */
  append(record: RegistryRecord): Promise<void>;
  close(): Promise<void>;
  /** Present on a store several registries share (the Kafka store): see SharedLog. */
  readonly shared?: SharedLog;
}

/** Who leads the registries sharing a store, as one of them sees it. */
export interface LeaderView {
  /** The leader's URL, where writes go. */
  readonly url: string;
  /** Whether this registry is the leader. */
  readonly self: boolean;
}

/**
 * A store that several registries share: one of them, elected by the store, is its only writer, and
 * the others apply what it writes as it arrives. Without `join`, the registry writes alone, as with
 * any other store.
 */
export interface SharedLog {
  /** What names the registries sharing the store (the Kafka store's consumer group). */
  readonly clusterId: string;
  /**
   * Hands every record another registry appends after `load` to `apply`, one at a time and in the
   * log's order (the next after the previous one's promise settled). Called once, after load.
   */
  follow(apply: (record: RegistryRecord) => Promise<void>): void;
  /** Takes part in electing the writer, advertising `url` for the others to forward writes to. */
  join(url: string): Promise<void>;
  /** The leader, or undefined while none is known (an election under way, the store unreachable). */
  leader(): LeaderView | undefined;
  /**
   * Resolves once this registry applied every record the log held when it was called, so that a
   * read answers what was acknowledged before it; the leader, the only writer, is always there.
   */
  caughtUp(): Promise<void>;
  /**
   * Resolves once this registry may write: it leads, and it applied every record the previous
   * leader wrote. Refuses (a RegistryError) when another registry leads.
   */
  leading(): Promise<void>;
}
