/**
 * The registry's reads: what a subject, a version or an id holds, answered from the state the log
 * left (registry-state.ts) at once, never queued behind writes. Apart from registry.ts, whose writes
 * look versions up the same way (a delete finds its version, a registration its referrers); the
 * domain calls spread these in, as they do registry-settings.ts's.
 */
import type { SchemaDefinition, SubjectVersion } from './api.js';
import { refusals } from './registry-error.js';
import type { RegistryState, VersionEntry } from './registry-state.js';

/** Whether soft-deleted versions count (Confluent's `?deleted=true`). */
export interface IncludeDeleted {
  readonly deleted?: boolean;
}

export interface ReadCalls {
  /** The schema with this id (GET /schemas/ids/{id}), soft-deleted or not. */
  schemaById(id: number): Required<Pick<SchemaDefinition, 'schemaType' | 'schema' | 'references'>>;
  /** The versions that use this id (GET /schemas/ids/{id}/versions). */
  versionsOfId(id: number, options?: IncludeDeleted): { subject: string; version: number }[];
  /** The subjects that use this id (GET /schemas/ids/{id}/subjects). */
  subjectsOfId(id: number, options?: IncludeDeleted): string[];
  subjects(options?: IncludeDeleted): string[];
  versions(subject: string, options?: IncludeDeleted): number[];
  version(subject: string, version: number | 'latest', options?: IncludeDeleted): SubjectVersion;
  /** Ids of the schemas that reference this version (GET /subjects/{s}/versions/{v}/referencedby). */
  referencedBy(subject: string, version: number | 'latest'): number[];
}

export function registryReads(state: RegistryState) {
  const describe = (entry: VersionEntry): SubjectVersion => {
    const stored = state.schemas.get(entry.id);
    if (stored === undefined) throw new Error(`id ${entry.id} of a live version has no schema`);
    return {
      subject: entry.subject,
      version: entry.version,
      id: entry.id,
      schemaType: stored.schemaType,
      schema: stored.schema,
      references: stored.references,
    };
  };

  /** A version of the subject: 40401 when the subject has none (of those counted), else 40402. */
  const entryOf = (subject: string, version: number | 'latest', includeDeleted: boolean): VersionEntry => {
    const versions = state.versionsOf(subject, includeDeleted);
    const entry =
      version === 'latest' ? versions.at(-1) : versions.find((candidate) => candidate.version === version);
    if (entry !== undefined) return entry;
    if (versions.length === 0) throw refusals.subjectNotFound(subject);
    throw refusals.versionNotFound(version);
  };

  const storedById = (id: number) => {
    const stored = state.schemas.get(id);
    if (stored === undefined) throw refusals.schemaNotFound(id);
    return stored;
  };

  const usersOf = (id: number, includeDeleted: boolean): VersionEntry[] =>
    [...storedById(id).users]
      .filter((entry) => includeDeleted || !entry.deleted)
      .sort((a, b) => (a.subject < b.subject ? -1 : a.subject > b.subject ? 1 : a.version - b.version));

  /** Ids of the schemas, used by a live version, that reference this version. */
  const referrersOf = (target: VersionEntry): number[] => {
    const ids: number[] = [];
    for (const stored of state.schemas.values()) {
      const refers = stored.references.some(
        (reference) => reference.subject === target.subject && reference.version === target.version,
      );
      if (refers && [...stored.users].some((entry) => !entry.deleted)) ids.push(stored.id);
    }
    return ids.sort((a, b) => a - b);
  };

  const calls: ReadCalls = {
    schemaById(id) {
      const { schemaType, schema, references } = storedById(id);
      return { schemaType, schema, references };
    },

    versionsOfId(id, options = {}) {
      return usersOf(id, options.deleted === true).map(({ subject, version }) => ({ subject, version }));
    },

    subjectsOfId(id, options = {}) {
      return [...new Set(usersOf(id, options.deleted === true).map((entry) => entry.subject))];
    },

    subjects(options = {}) {
      return [...state.subjects.keys()]
        .filter((subject) => state.versionsOf(subject, options.deleted === true).length > 0)
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    },

    versions(subject, options = {}) {
      const versions = state.versionsOf(subject, options.deleted === true);
      if (versions.length === 0) throw refusals.subjectNotFound(subject);
      return versions.map((entry) => entry.version);
    },

    version(subject, version, options = {}) {
      return describe(entryOf(subject, version, options.deleted === true));
    },

    referencedBy(subject, version) {
      return referrersOf(entryOf(subject, version, true));
    },
  };
  return { calls, describe, entryOf, storedById, referrersOf };
}
