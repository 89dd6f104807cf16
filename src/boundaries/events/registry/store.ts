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
  | { readonly kind: 'purge'; readonly subject: string; readonly version: number };

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
}
