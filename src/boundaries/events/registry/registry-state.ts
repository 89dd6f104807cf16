/**
 * What the registry knows, as the store's records left it: the versions of every subject, the
 * schemas behind the ids, the compatibility levels. It is a fold over the record log, so replaying
 * the log at start and applying each new record after the store took it are the same code, and a
 * restarted registry cannot come back different from the one that wrote the log.
 *
 * A schema id names a schema, not a version: the versions of several subjects (or re-registrations
 * after a soft delete) share one id when their schemas are the same. An id lives as long as some
 * version that was not purged uses it; the next id is one past the highest ever seen, so an id
 * still in the log is never handed out for another schema.
 *
 * A log this registry wrote never gives one id to two different schemas, nor moves a version to
 * another id. A log that does (hand-edited, or written by two registries at once) would serve
 * one subject's schema under another's id, so applying such a record throws LogConflict and
 * the registry refuses to start, naming the record.
 */
import { createHash } from 'node:crypto';
import type { CompatibilityLevel, RegistryMode, SchemaReference, SchemaType } from './api.js';
import type { RegistryRecord } from './store.js';

/** One version of a subject, soft-deleted or not (a purged version is gone). */
export interface VersionEntry {
  readonly subject: string;
  readonly version: number;
  readonly id: number;
  readonly deleted: boolean;
}

/** The schema behind an id, and the versions that use it. */
export interface StoredSchema {
  readonly id: number;
  readonly schemaType: SchemaType;
  /** The text as first registered under this id. */
  readonly schema: string;
  readonly references: readonly SchemaReference[];
  /** What "the same schema" means: a hash of type, canonical text and references. */
  readonly identity: string;
  readonly users: Set<VersionEntry>;
}

/**
 * The identity two registrations must share to share an id: a hash of the type, the canonical text
 * and the references, so that a stored schema keeps 64 characters for it rather than a copy of its
 * canonical text. `canonical` is the text itself for a stored schema that no longer parses.
 */
export function identityOf(
  schemaType: SchemaType,
  canonical: string,
  references: readonly SchemaReference[],
): string {
  const refs = references.map((r) => [r.name, r.subject, r.version]);
  return createHash('sha256')
    .update(JSON.stringify([schemaType, canonical, refs]))
    .digest('hex');
}

/** A record that contradicts what the log said before it: one id for two schemas, a version moved. */
export class LogConflict extends Error {
  override readonly name: string = 'LogConflict';
}

type SchemaRecord = Extract<RegistryRecord, { kind: 'schema' }>;

function sameText(stored: StoredSchema, record: SchemaRecord): boolean {
  return (
    stored.schemaType === record.schemaType &&
    stored.schema === record.schema &&
    JSON.stringify(stored.references) === JSON.stringify(record.references)
  );
}

/** The identity of a record's schema: `identity` where the registry worked it out, else its text's. */
function identityOfRecord(record: SchemaRecord, identity: string | undefined): string {
  return identity ?? identityOf(record.schemaType, record.schema, record.references);
}

export class RegistryState {
  /** subject → version → entry. */
  readonly subjects = new Map<string, Map<number, VersionEntry>>();
  readonly schemas = new Map<number, StoredSchema>();
  readonly idByIdentity = new Map<string, number>();
  readonly subjectLevels = new Map<string, CompatibilityLevel>();
  globalLevel: CompatibilityLevel | undefined;
  readonly subjectModes = new Map<string, RegistryMode>();
  globalMode: RegistryMode | undefined;
  highestId = 0;
  /** The identity of each id whose versions were all purged: it still names that schema. */
  private readonly retired = new Map<number, string>();

  /**
   * Whether applying `record` needs its schema's identity (identityOf its canonical form), which the
   * registry works out by parsing it off this thread: for a schema record under an id that names no
   * schema yet, or one that does with another text (the same schema formatted otherwise, or a
   * conflict). A record that repeats the stored text needs none.
   */
  needsIdentity(record: RegistryRecord): record is SchemaRecord {
    if (record.kind !== 'schema') return false;
    const stored = this.schemas.get(record.id);
    return stored === undefined || !sameText(stored, record);
  }

  /**
   * Applies a record; `identity` is the schema's (see needsIdentity): without it, the text's own
   * identity is taken.
   */
  apply(record: RegistryRecord, identity?: string): void {
    if (record.kind === 'ids') {
      this.highestId = Math.max(this.highestId, record.highest);
      return;
    }
    if (record.kind === 'mode') {
      if (record.subject === null) this.globalMode = record.mode ?? undefined;
      else if (record.mode === null) this.subjectModes.delete(record.subject);
      else this.subjectModes.set(record.subject, record.mode);
      return;
    }
    if (record.kind === 'config') {
      if (record.subject === null) this.globalLevel = record.compatibility ?? undefined;
      else if (record.compatibility === null) this.subjectLevels.delete(record.subject);
      else this.subjectLevels.set(record.subject, record.compatibility);
      return;
    }
    const versions = this.subjects.get(record.subject);
    const previous = versions?.get(record.version);
    if (record.kind === 'purge') {
      if (previous !== undefined) this.release(previous);
      versions?.delete(record.version);
      if (versions?.size === 0) this.subjects.delete(record.subject);
      return;
    }
    if (previous !== undefined && previous.id !== record.id) {
      throw new LogConflict(
        `version ${record.version} of subject ${JSON.stringify(record.subject)} is id ${previous.id}; this record moves it to id ${record.id}`,
      );
    }
    let stored = this.schemas.get(record.id);
    if (stored === undefined) {
      stored = {
        id: record.id,
        schemaType: record.schemaType,
        schema: record.schema,
        references: record.references,
        identity: identityOfRecord(record, identity),
        users: new Set(),
      };
      const before = this.retired.get(record.id);
      if (before !== undefined && before !== stored.identity) throw this.twoSchemas(record);
      this.retired.delete(record.id);
      this.schemas.set(record.id, stored);
      if (!this.idByIdentity.has(stored.identity)) this.idByIdentity.set(stored.identity, record.id);
    } else if (!sameText(stored, record) && identityOfRecord(record, identity) !== stored.identity) {
      // Another text can be the same schema (registered again, formatted otherwise): only a
      // different canonical form is a second schema.
      throw this.twoSchemas(record);
    }
    const entry: VersionEntry = {
      subject: record.subject,
      version: record.version,
      id: record.id,
      deleted: record.deleted,
    };
    if (versions === undefined) this.subjects.set(record.subject, new Map([[record.version, entry]]));
    else versions.set(record.version, entry);
    this.highestId = Math.max(this.highestId, record.id);
    stored.users.add(entry);
    // Released after the new entry took its place, so a soft delete keeps the id's schema as it was.
    if (previous !== undefined) this.release(previous);
  }

  private twoSchemas(record: SchemaRecord): LogConflict {
    return new LogConflict(
      `id ${record.id} already names another schema; this record gives it to a different one (version ${record.version} of subject ${JSON.stringify(record.subject)})`,
    );
  }

  private release(entry: VersionEntry): void {
    const stored = this.schemas.get(entry.id);
    if (stored === undefined) return;
    stored.users.delete(entry);
    if (stored.users.size > 0) return;
    this.schemas.delete(entry.id);
    this.retired.set(entry.id, stored.identity);
    if (this.idByIdentity.get(stored.identity) === entry.id) this.idByIdentity.delete(stored.identity);
  }

  /** The subject's versions, oldest first; soft-deleted ones only when asked. */
  versionsOf(subject: string, includeDeleted: boolean): VersionEntry[] {
    const versions = this.subjects.get(subject);
    if (versions === undefined) return [];
    return [...versions.values()]
      .filter((entry) => includeDeleted || !entry.deleted)
      .sort((a, b) => a.version - b.version);
  }

  /** The mode that governs writes to the subject (or, with none, to the registry's own settings). */
  modeOf(subject: string | undefined): RegistryMode {
    return (
      (subject === undefined ? undefined : this.subjectModes.get(subject)) ?? this.globalMode ?? 'READWRITE'
    );
  }

  /** The compatibility level a new version of the subject is checked under. */
  levelOf(subject: string, fallback: CompatibilityLevel): CompatibilityLevel {
    return this.subjectLevels.get(subject) ?? this.globalLevel ?? fallback;
  }
}
